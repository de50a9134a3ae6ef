// gonu query FILE [POSITION] [--history MOVES] [--json]: a position's value from a table, every
// legal move ranked, the best ones marked, and the principal variation of a decided position.
// The JSON schema is documented in tools/README-query.md.
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/table/query.hpp"
#include "tools/cli.hpp"
#include "tools/table_cli.hpp"

namespace gonu::cli {

namespace {

std::string side_name(Side s) { return s == Side::black ? "Black" : "White"; }

nlohmann::ordered_json squares_json(const Board& b, Bits squares) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (Bits s = squares; s; s &= s - 1) a.push_back(square_name(b, lowest(s)));
  return a;
}

}  // namespace

int cmd_query(int argc, char** argv) {
  po::options_description opts("options");
  opts.add_options()
      ("history", po::value<std::string>(), "moves played from POSITION (or the table's root) first")
      ("json", "print one JSON object (schema in tools/README-query.md)");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>(), "table")("position", po::value<std::string>(), "position");
  po::positional_options_description pos;
  pos.add("file", 1).add("position", 1);
  po::variables_map vm;
  const std::string usage = "gonu query FILE [POSITION] [--history \"MOVES\"] [--json]";
  if (!parse_options(argc, argv, usage, opts, pos, vm, hidden)) return 0;
  if (!vm.count("file")) throw UsageError("missing FILE\nusage: " + usage);

  const Table t = Table::open(vm["file"].as<std::string>());
  const Board& board = t.board();
  const Rules& rules = t.rules();
  std::optional<std::string> position;
  if (vm.count("position")) position = vm["position"].as<std::string>();
  std::string history;
  if (vm.count("history")) history = vm["history"].as<std::string>();
  const Game g = game_for_query(t, position, history);
  const QueryAnswer a = query_game(t, g);
  const Position& p = current(g);
  const std::string over = game_over_reason(g);
  const bool tagged = uses_tag(rules);
  const std::string note =
      tagged ? "under repetition " + to_string(rules.repetition) +
                   " the history decides the state (which moves are banned now and later); this answer is for " +
                   (g.moves.empty() ? (position ? "the position with no earlier moves"
                                                : "the table's root with the history it was solved from")
                                    : "the position reached by the given history")
             : std::string();

  // The principal variation, replayed on the rules engine to name how the game ends.
  Game end = g;
  for (const Move& m : a.pv) play(end, m);
  const std::string pv_end = a.pv.empty() ? over : game_over_reason(end);
  if (!a.pv.empty() && pv_end.empty())
    throw GonuError(t.path() + ": the principal variation does not end the game (the table is wrong; run gonu verify)");

  if (vm.count("json")) {
    nlohmann::ordered_json j;
    j["schema"] = "gonu-query/1";
    j["table"] = t.path();
    j["rules"] = rules_json(rules);
    j["start"] = format_position(board, g.start);
    nlohmann::ordered_json hist = nlohmann::ordered_json::array();
    for (const Move& m : g.moves) hist.push_back(format_move(board, rules, m));
    j["history"] = hist;
    j["position"] = format_position(board, p);
    j["side_to_move"] = to_string(p.to_move);
    j["history_decides_state"] = tagged;
    if (tagged) j["note"] = note;
    j["value"] = to_string(a.value);
    j["distance"] = a.dist;
    j["game_over"] = over.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(over);
    nlohmann::ordered_json moves = nlohmann::ordered_json::array(), best = nlohmann::ordered_json::array();
    for (const MoveAnswer& m : a.moves) {
      moves.push_back({{"move", format_move(board, rules, m.move)},
                       {"captures", squares_json(board, m.move.captured)},
                       {"value", to_string(m.value)},
                       {"distance", m.dist},
                       {"best", m.best}});
      if (m.best) best.push_back(format_move(board, rules, m.move));
    }
    j["moves"] = moves;
    j["best"] = best;
    j["engine_move"] = a.best < 0 ? nlohmann::ordered_json(nullptr)
                                  : nlohmann::ordered_json(format_move(board, rules, a.moves[std::size_t(a.best)].move));
    nlohmann::ordered_json pv = nlohmann::ordered_json::array();
    for (const Move& m : a.pv) pv.push_back(format_move(board, rules, m));
    j["pv"] = pv;
    j["pv_end"] = a.pv.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(pv_end);
    std::cout << j.dump(2) << "\n";
    return 0;
  }

  std::cout << "table:    " << t.path() << " (" << describe(rules) << ")\n";
  std::cout << "position: " << format_position(board, p);
  if (!g.moves.empty()) std::cout << "  (after " << format_history(g) << ")";
  std::cout << "\n" << draw_position(board, p);
  if (tagged) std::cout << "note:     " << note << "\n";
  std::cout << "value:    " << value_text(a.value, a.dist) << " for " << side_name(p.to_move) << " (to move)";
  if (!over.empty()) std::cout << ": " << over;
  std::cout << "\n";
  if (a.moves.empty()) return 0;
  std::cout << "moves (value for " << side_name(p.to_move) << " after the move; * marks the best):\n";
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    const MoveAnswer& m = a.moves[i];
    std::string name = format_move(board, rules, m.move);
    std::string cap = m.move.captured ? "x " + format_squares(board, m.move.captured) : "";
    std::cout << "  " << (m.best ? "* " : "  ") << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ')
              << cap << std::string(cap.size() < 12 ? 12 - cap.size() : 1, ' ') << value_text(m.value, m.dist) << "\n";
  }
  if (a.best >= 0)
    std::cout << "best:     " << format_move(board, rules, a.moves[std::size_t(a.best)].move)
              << " (fastest win, else keep the draw, else slowest loss; ties in move order)\n";
  if (!a.pv.empty()) {
    std::cout << "principal variation (" << a.pv.size() << " plies):";
    for (const Move& m : a.pv) std::cout << " " << format_move(board, rules, m);
    std::cout << "\n  then " << pv_end << "\n";
  } else if (a.value == Value::draw) {
    std::cout << "no principal variation: with best play the game never ends (a draw)\n";
  }
  return 0;
}

}  // namespace gonu::cli
