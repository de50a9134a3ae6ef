// gonu moves [POSITION] [--history MOVES]: every legal move with what it captures; without a
// position, from the start of the rule set the flags name.
#include <iostream>

#include "core/julgonu/game.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {

int cmd_moves(int argc, char** argv) {
  CommandLine cl("gonu moves [POSITION] [--rules NAME] [--history \"b4-b3 c1-c2 ...\"]   (none: the start)");
  cl.rule_options();
  cl.history("moves played from POSITION first, e.g. \"b4-b3 c1-c2\"");
  cl.game_option();
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  if (cl.jungi()) return jungi_moves(cl);
  const Game g = game_from_options(cl, cl.optional_text("position"));
  const Rules& rules = g.rules;
  const Board& board = g.board;

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
