// gonu play [FILE] [POSITION] [--history MOVES] [--as black|white|both] [--vary [--seed N]]: an
// analysis board over a table, Jul-gonu's or Jungi's (tools/cli/play_session.hpp): play against perfect
// play, or both sides, with hints, take-backs, the value of every position and the record at the end. Lines come from
// libedit on a terminal, else from stdin (echoed), so a game can be piped in and replays exactly.
// With rule options instead of FILE (gonu play --rules free --board 3x4) the rule set is solved
// in memory first, where the solve's estimate is small enough to take a few seconds.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/error.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/cli/options.hpp"
#include "tools/julgonu/play_certificate.hpp"
#include "tools/julgonu/play_julgonu.hpp"
#include "tools/cli/play_session.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

namespace {

// Past this many expected states an in-memory solve takes more than a few seconds (3x4
// encyclopedia, 7.1 million states, solves in about 2 s on two cores; 4x4 undo, 111 million, 10 s).
constexpr std::uint64_t kMaxInMemoryStates = 20'000'000;

bool rule_options_given(const CommandLine& cl) {
  for (const char* name : {"rules", "capture", "corner", "repetition", "board", "first"})
    if (cl.has(name)) return true;
  return false;
}

// gonu play --certificate FILE [POSITION]: the proof's strategy against the user's defence.
int play_against_certificate(const CommandLine& cl) {
  if (cl.has("position") || rule_options_given(cl) || cl.has("vary"))
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

int cmd_play(int argc, char** argv) {
  CommandLine cl("gonu play FILE [POSITION] [--history \"MOVES\"] [--as black|white|both] [--vary [--seed N]]\n"
                 "       gonu play JUNGI-TABLE|DIR POSITION [--history \"MOVES\"] [--as south|north|both] [...]\n"
                 "       gonu play --rules NAME [--board RxC ...] [POSITION] [...]   (solved in memory)\n"
                 "       gonu play --certificate FILE [POSITION] [--history \"MOVES\"] [--as LOSER|both]");
  cl.history("moves played from POSITION (or the table's root) first");
  cl.add()("as", po::value<std::string>(), "your side: black | white | both (default: the side to move first; a Jungi table: south | north | both)")
          ("vary", "the engine picks at random among its best moves (the seed is printed)")
          ("seed", po::value<std::uint64_t>(), "seed of --vary's choices (default: a random one)")
          ("values", po::value<std::string>()->default_value("on"), "show the values of positions and moves: on | off");
  cl.add()("certificate", po::value<std::string>(),
           "play the winner's strategy of this superko proof against you (you defend; see gonu check-certificate)");
  cl.rule_options();
  cl.positional("file");
  cl.positional("position");
  cl.epilog(
      "Commands during the game: a move (b4-b3, b4b3, b4 b3, B4-B3) or its number, hint, undo (or back), redo,\n"
      "values on|off, moves, board, record, help, quit (or exit, q). The game ends by the rules or when a\n"
      "position stands for the third time (a draw); the board stays open for undo until quit or the end of\n"
      "input, and the record is printed in --history notation. With rule options instead of FILE the rule set\n"
      "is solved in memory first, if that takes a few seconds (up to 20 million states). With --certificate FILE\n"
      "the winner's strategy of a superko proof plays against you, with the whole history and superko applied.\n"
      "On a Jungi table (or a directory of them) the same session plays the ending from POSITION; moves are\n"
      "listed as people write them (Ra1-a8=+R) and read so or from-to (a1-a8).\n");
  if (!cl.parse(argc, argv)) return 0;
  if (cl.has("certificate")) return play_against_certificate(cl);
  if (!rule_options_given(cl) && cl.has("file") && std::filesystem::is_directory(cl.text("file")))
    return jungi_play(cl, jungi_table_in(cl, cl.text("file")));
  if (!rule_options_given(cl) && cl.has("file") && jungi::is_jungi_table_file(cl.text("file"))) return jungi_play(cl, cl.text("file"));
  const bool in_memory = rule_options_given(cl);
  if (in_memory && cl.has("position")) cl.usage_error("with rule options there is no FILE: give only POSITION");
  const std::optional<std::string> position = in_memory ? cl.optional_text("file") : cl.optional_text("position");
  std::optional<Table> table;
  std::string source, replay;
  if (in_memory) {
    const Rules rules = cl.rules(position);
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
