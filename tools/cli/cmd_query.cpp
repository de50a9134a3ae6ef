// gonu query FILE [POSITION] [--history MOVES] [--json]: a position's value from a table, every
// legal move ranked best first (for the mover: wins by increasing distance, draws, losses by
// decreasing distance; ties in move order) under "winning/drawing/losing moves:", the best ones
// marked, and the principal variation of a decided position. The JSON schema is documented in
// tools/README-query.md; with --json bad input is answered {"error": ...} on stdout (exit 1).
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/cli/options.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/julgonu/play_certificate.hpp"
#include "tools/report/play_moves.hpp"
#include "tools/julgonu/query_json.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

namespace {

std::string side_name(Side s) { return to_string(s); }

// Everything the two reports print: the game asked about, the table's answer, and how the game
// (and its principal variation) ends.
struct Report {
  const Table& table;
  Game game;
  bool from_position;  // POSITION was given (else the table's root)
  QueryAnswer answer;
  std::string over;    // why the game is over now, or empty
  std::string pv_end;  // how the principal variation ends, or empty without one
  bool tagged;         // the history decides the state
  std::string note;    // why the history matters, when tagged
};

Report make_report(const Table& t, const std::optional<std::string>& position, const std::string& history) {
  Report r{t, game_for_query(t, position, history), position.has_value(), {}, {}, {}, uses_tag(t.rules()), {}};
  r.answer = query_game(t, r.game);
  r.over = game_over_reason(r.game);
  r.note = query_note(t.rules(), r.game, r.from_position);
  r.pv_end = pv_end_reason(t, r.game, r.answer);
  return r;
}

void print_moves_text(const Board& board, const Rules& rules, const QueryAnswer& a, Side to_move) {
  std::cout << "moves, best first (value for " << side_name(to_move) << " after the move; * marks the best):\n";
  std::optional<Value> group;
  for (const std::size_t i : best_first(a.moves)) {
    const MoveAnswer& m = a.moves[i];
    if (group != m.value) std::cout << group_label(m.value) << "\n";
    group = m.value;
    std::string name = format_move(board, rules, m.move);
    std::string cap = m.move.captured ? "x " + format_squares(board, m.move.captured) : "";
    std::cout << "  " << (m.best ? "* " : "  ") << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ')
              << cap << std::string(cap.size() < 12 ? 12 - cap.size() : 1, ' ') << value_text(m.value, m.dist) << "\n";
  }
  if (a.best >= 0)
    std::cout << "best:     " << format_move(board, rules, a.moves[std::size_t(a.best)].move)
              << " (fastest win, else keep the draw, else slowest loss; ties in move order)\n";
}

void print_text(const Report& r) {
  const Board& board = r.table.board();
  const Rules& rules = r.table.rules();
  const Game& g = r.game;
  const QueryAnswer& a = r.answer;
  const Position& p = current(g);
  std::cout << "table:    " << r.table.path() << " (" << describe(rules) << ")\n";
  std::cout << "position: " << format_position(board, p);
  if (!g.moves.empty()) std::cout << "  (after " << format_history(g) << ")";
  std::cout << "\n" << draw_position(board, p);
  if (r.tagged) std::cout << "note:     " << r.note << "\n";
  std::cout << "value:    " << value_text(a.value, a.dist) << " for " << side_name(p.to_move) << " (to move)";
  if (!r.over.empty()) std::cout << ": " << r.over;
  std::cout << "\n";
  if (r.tagged) {
    if (!a.stored)
      std::cout << "          (the table does not hold this state: found by searching " << a.searched_plies
                << (a.searched_plies == 1 ? " ply" : " plies") << " on to states it holds)\n";
    std::cout << "history:  " << histories_text(stored_tags(r.table, p)) << "\n";
  }
  if (a.moves.empty()) return;
  print_moves_text(board, rules, a, p.to_move);
  if (!a.pv.empty()) {
    std::cout << "principal variation (" << a.pv.size() << " plies):";
    for (const Move& m : a.pv) std::cout << " " << format_move(board, rules, m);
    std::cout << "\n  then " << r.pv_end << "\n";
  } else if (a.value == Value::draw) {
    std::cout << "no principal variation: with best play the game never ends (a draw)\n";
  }
}

}  // namespace

int cmd_query(int argc, char** argv) {
  CommandLine cl("gonu query FILE [POSITION] [--history \"MOVES\"] [--json]\n"
                 "       gonu query --certificate FILE [POSITION] [--history \"MOVES\"] [--json]");
  cl.history("moves played from POSITION (or the table's root) first");
  cl.json("print one JSON object (schema in tools/README-query.md)");
  cl.add()("certificate", po::value<std::string>(),
           "answer from this superko proof instead of a table: the strategy's move, or the loser's legal replies");
  cl.positional("file");
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  const bool json = cl.has("json");
  try {
    if (cl.has("certificate")) {
      // No table: the positional slot holds POSITION.
      if (cl.has("position")) cl.usage_error("with --certificate give at most a POSITION, no FILE");
      const std::string path = cl.text("certificate");
      const CertificatePlayer p = CertificatePlayer::load(path);
      const Game g = certificate_game(p, cl.optional_text("file"), cl.text_or_empty("history"));
      if (json) std::cout << certificate_query_json(p, path, g).dump(2) << "\n";
      else print_certificate_query(p, path, g);
      return 0;
    }
    const std::string file = cl.required("file", "FILE");
    if (std::filesystem::is_directory(file)) return jungi_query(cl, file);
    if (jungi::is_jungi_table_file(file)) return jungi_query(cl, file);
    const Table t = Table::open(cl.required("file", "FILE"));
    const Report r = make_report(t, cl.optional_text("position"), cl.text_or_empty("history"));
    if (json)
      std::cout << json_text(query_json(r.table, r.game, r.answer, r.from_position)) << "\n";
    else
      print_text(r);
  } catch (const GonuError& e) {
    if (!json) throw;
    // A program reading the JSON gets the error as JSON too, on stdout.
    std::cout << json_text(nlohmann::ordered_json{{"schema", "gonu-query/1"}, {"error", e.what()}}) << "\n";
    return kExitBadInput;
  }
  return 0;
}

}  // namespace gonu::cli
