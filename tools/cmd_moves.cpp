// gonu moves POSITION [--history MOVES]: every legal move with what it captures.
#include <iostream>

#include "core/game.hpp"
#include "tools/cli.hpp"

namespace gonu::cli {

int cmd_moves(int argc, char** argv) {
  po::options_description opts("options");
  add_rule_options(opts);
  opts.add_options()("history", po::value<std::string>(), "moves played from POSITION first, e.g. \"b4-b3 c1-c2\"");
  po::options_description hidden;
  hidden.add_options()("position", po::value<std::string>(), "position");
  po::positional_options_description pos;
  pos.add("position", 1);
  po::variables_map vm;
  const std::string usage = "gonu moves POSITION [--rules NAME] [--history \"b4-b3 c1-c2 ...\"]";
  if (!parse_options(argc, argv, usage, opts, pos, vm, hidden)) return 0;
  if (!vm.count("position")) throw UsageError("missing POSITION\nusage: " + usage);
  const std::string text = vm["position"].as<std::string>();
  const Rules rules = rules_from_options(vm, text);
  const Board board = make_board(rules.rows, rules.cols);
  Game g = new_game(rules, parse_position(board, text));
  if (vm.count("history")) play_history(g, vm["history"].as<std::string>());

  const Position& p = current(g);
  std::cout << "rules: " << describe(rules) << "\n";
  if (!g.moves.empty()) std::cout << "after " << g.moves.size() << " history moves:\n";
  std::cout << draw_position(board, p) << format_position(board, p) << "\n";
  const std::string over = game_over_reason(g);
  if (!over.empty()) {
    std::cout << "no legal moves: " << over << "\n";
    return 0;
  }
  const std::vector<Move> legal = legal_moves(g);
  std::cout << legal.size() << " legal move" << (legal.size() == 1 ? "" : "s") << ":\n";
  for (const Move& m : legal) {
    std::cout << "  " << format_move(board, rules, m);
    if (m.captured) std::cout << "  captures " << format_squares(board, m.captured);
    std::cout << "\n";
  }
  for (const Move& m : generate_moves(board, rules, p)) {
    const std::string why = ban_reason(g, m);
    if (!why.empty()) std::cout << "  (" << format_move(board, rules, m) << " banned: " << why << ")\n";
  }
  return 0;
}

}  // namespace gonu::cli
