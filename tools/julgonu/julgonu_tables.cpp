// gonu query, info, verify and play on a Jul-gonu table, and query and play on a superko proof
// (--certificate), as tools/jungi/jungi_tables.cpp is Jungi's: the commands in tools/cli/ read the
// command line and hand a Jul-gonu table here (julgonu_cli.hpp).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "core/error.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/cli/play_session.hpp"
#include "tools/cli/progress_display.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/julgonu/play_certificate.hpp"
#include "tools/julgonu/play_julgonu.hpp"
#include "tools/julgonu/query_json.hpp"
#include "tools/julgonu/table_cli.hpp"
#include "tools/report/format_number.hpp"
#include "tools/report/play_moves.hpp"

namespace gonu::cli {

namespace {

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}
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

// Past this many expected states an in-memory solve takes more than a few seconds (3x4
// encyclopedia, 7.1 million states, solves in about 2 s on two cores; 4x4 undo, 111 million, 10 s).
constexpr std::uint64_t kMaxInMemoryStates = 20'000'000;

// The rule options that name `r` again, for the replay line.
std::string rules_args(const Rules& r) {
  const std::string board = " --board " + std::to_string(r.rows) + "x" + std::to_string(r.cols);
  if (r.name != "custom") return "--rules " + r.name + board;
  return "--capture " + to_string(r.capture) + " --corner " + (r.corner ? "on" : "off") + " --repetition " +
         to_string(r.repetition) + " --first " + to_string(r.first) + board;
}

// Solves the game's rule set from its start (POSITION or the start position) and opens the
// result as a table: written to a temporary file that is unlinked once mapped.
Table solve_in_memory(const Game& from) {
  if (from.rules.repetition == Repetition::superko)
    throw GonuError("superko rule sets have no table to play against; gonu solve proves them");
  const MemoryEstimate e = estimate_memory(from);
  if (e.states > kMaxInMemoryStates)
    throw GonuError("solving " + describe(from.rules) + " takes about " + std::to_string(e.states) +
                    " states, more than a few seconds in memory; write a table first (gonu solve " +
                    rules_args(from.rules) + " --out FILE) and play on it (gonu play FILE)");
  std::cout << "solving in memory (about " << e.states << " states)..." << std::flush;
  const auto t0 = std::chrono::steady_clock::now();
  const Solution s = solve(from);
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/gonu-play-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw GonuError("cannot make a temporary file in " + std::string(dir && *dir ? dir : "/tmp"));
  close(fd);
  try {
    write_table(path, s);
    Table t = Table::open(path);
    unlink(path.c_str());
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::cout << " " << state_count(s) << " states in " << seconds << " s\n";
    return t;
  } catch (...) {
    unlink(path.c_str());
    throw;
  }
}

}  // namespace

int julgonu_query(const CommandLine& cl, const std::string& path) {
  const Table t = Table::open(path);
  const Report r = make_report(t, cl.optional_text("position"), cl.text_or_empty("history"));
  if (cl.has("json"))
    std::cout << json_text(query_json(r.table, r.game, r.answer, r.from_position)) << "\n";
  else
    print_text(r);
  return 0;
}

int julgonu_certificate_query(const CommandLine& cl) {
  // No table: the positional slot holds POSITION.
  if (cl.has("position")) cl.usage_error("with --certificate give at most a POSITION, no FILE");
  const std::string path = cl.text("certificate");
  const CertificatePlayer p = CertificatePlayer::load(path);
  const Game g = certificate_game(p, cl.optional_text("file"), cl.text_or_empty("history"));
  if (cl.has("json")) std::cout << certificate_query_json(p, path, g).dump(2) << "\n";
  else print_certificate_query(p, path, g);
  return 0;
}

int julgonu_info(const std::string& path) {
  const Table t = Table::open(path);
  const TableHeader& h = t.header();
  const Board& b = t.board();
  const auto root = t.find(h.root_key);
  std::cout << "file:             " << t.path() << " (" << with_commas(h.file_size) << " bytes)\n";
  std::cout << "format:           gonu table, format version " << h.format_version << ", written by gonu "
            << h.gonu_version << "\n";
  std::cout << "rules:            " << describe(h.rules) << "\n";
  std::cout << "rules id:         " << h.rules_id << "\n";
  std::cout << "root:             " << format_position(b, h.root);
  if (h.tagged) std::cout << "  (history tag: " << tag_text(b, h.root_tag) << ")";
  std::cout << "\n";
  std::cout << "root key:         0x" << hex(h.root_key) << "\n";
  std::cout << "root value:       " << value_text(root->value, root->dist) << " for " << to_string(h.root.to_move)
            << " (side to move)\n";
  std::cout << "states:           " << with_commas(h.states) << "\n";
  std::cout << "move edges:       " << with_commas(h.edges) << "\n";
  std::cout << "values (side to move): WIN " << with_commas(h.wins) << " / LOSS " << with_commas(h.losses)
            << " / DRAW " << with_commas(h.draws) << "\n";
  std::cout << "largest distance: " << h.max_dist << " plies\n";
  std::cout << "state keys:       " << (h.tagged ? "19-bit history tag, " : "") << "side bit, "
            << int(h.key_board_bits) << "-bit ternary board\n";
  char per_state[32];
  std::snprintf(per_state, sizeof per_state, "%.3f", double(h.file_size) / double(h.states));
  std::cout << "layout:           " << h.block_size << " states a block, " << with_commas(h.blocks) << " blocks; "
            << int(h.value_bits) << "-bit value codes\n";
  std::cout << "sections:         header " << kTableHeaderSize << ", index " << with_commas(h.index_size) << ", keys "
            << with_commas(h.keys_size) << ", values " << with_commas(h.values_size) << " bytes\n";
  std::cout << "bytes per state:  " << per_state << "\n";
  std::cout << "checksums (XXH3): header " << hex(h.header_xxh3) << ", index " << hex(h.index_xxh3) << " (checked), payload "
            << hex(h.payload_xxh3) << " (checked by gonu verify)\n";
  return 0;
}

int julgonu_verify(const CommandLine& cl, const std::vector<std::string>& files) {
  // Opened first: a file that is no table at all is that one-line error, whatever the options.
  const Table t = Table::open(files.front());
  if (files.size() > 1) cl.usage_error("several files go with Jungi tables only");
  if (cl.count_value("sample") != 1) cl.usage_error("--sample goes with a Jungi table");
  if (cl.has("max-memory")) cl.usage_error("--max-memory goes with Jungi tables");
  const ProgressFn progress = make_progress(cl.has("quiet"));
  const TableVerifyResult r = verify_table(t, progress);
  end_progress(progress);
  if (!r.ok) throw GonuError(t.path() + ": verify failed: " + r.first_error);
  std::cout << "OK " << t.path() << ": header, checksums, and " << with_commas(r.states)
            << " states re-derived from their successors (" << describe(t.rules()) << ")\n";
  std::cout << "states " << with_commas(r.states) << ", edges " << with_commas(r.edges) << ", WIN "
            << with_commas(r.wins) << " / LOSS " << with_commas(r.losses) << " / DRAW " << with_commas(r.draws)
            << ", largest distance " << r.max_dist << "\n";
  return 0;
}

int julgonu_play_certificate(const CommandLine& cl) {
  if (cl.has("position") || julgonu_rule_options_given(cl) || cl.has("vary"))
    cl.usage_error("with --certificate give at most a POSITION (no FILE, rule options or --vary)");
  const std::string path = cl.text("certificate");
  const CertificatePlayer p = CertificatePlayer::load(path);
  const Game g = certificate_game(p, cl.optional_text("file"), cl.text_or_empty("history"));
  std::optional<Side> human = other(p.winner());
  if (cl.has("as") && cl.text("as") == "both") human.reset();
  else if (cl.has("as") && parse_side(cl.text("as")) == p.winner())
    throw GonuError("the proof's strategy plays " + to_string(p.winner()) + "; you play " +
                    to_string(other(p.winner())) + " (or both, with --as both)");
  LineReader in;
  play_certificate(p, path, g, human, in);
  return 0;
}

int julgonu_play(const CommandLine& cl) {
  const bool in_memory = julgonu_rule_options_given(cl);
  if (in_memory && cl.has("position")) cl.usage_error("with rule options there is no FILE: give only POSITION");
  const std::optional<std::string> position = in_memory ? cl.optional_text("file") : cl.optional_text("position");
  std::optional<Table> table;
  std::string source, replay;
  if (in_memory) {
    const Rules rules = julgonu_rules(cl, position);
    const Board board = make_board(rules.rows, rules.cols);
    table.emplace(solve_in_memory(new_game(rules, position ? parse_position(board, *position)
                                                           : start_position(board, rules.first))));
    source = "an in-memory solve";
    replay = "gonu play " + rules_args(rules);
  } else {
    table.emplace(Table::open(cl.required("file", "FILE")));
    source = table->path();
    replay = "gonu play '" + table->path() + "'";  // quoted, so that the line can be pasted
  }
  // The game at POSITION, and after --history: undo may take the history's moves back too.
  JulgonuPlay game(*table, game_for_query(*table, position, ""), game_for_query(*table, position, cl.text_or_empty("history")));
  PlaySettings s = play_settings(cl, game);
  s.position = position, s.source = source, s.replay = replay;
  LineReader in;
  PlaySession(game, s).run(in);
  return 0;
}

}  // namespace gonu::cli
