// gonu play FILE [POSITION] [--history MOVES] [--as black|white|both] [--vary [--seed N]]: an
// analysis board over a table (tools/play_session.hpp): play against perfect play, or both sides,
// with hints, take-backs, the value of every position and the record at the end. Lines come from
// libedit on a terminal, else from stdin (echoed), so a game can be piped in and replays exactly.
#include <random>

#include "core/error.hpp"
#include "tools/options.hpp"
#include "tools/play_session.hpp"
#include "tools/table_cli.hpp"

namespace gonu::cli {

int cmd_play(int argc, char** argv) {
  CommandLine cl("gonu play FILE [POSITION] [--history \"MOVES\"] [--as black|white|both] [--vary [--seed N]]");
  cl.history("moves played from POSITION (or the table's root) first");
  cl.add()("as", po::value<std::string>(), "your side: black | white | both (default: the side to move first)")
          ("vary", "the engine picks at random among its best moves (the seed is printed)")
          ("seed", po::value<std::uint64_t>(), "seed of --vary's choices (default: a random one)")
          ("values", po::value<std::string>()->default_value("on"), "show each position's value: on | off");
  cl.positional("file");
  cl.positional("position");
  cl.epilog(
      "Commands during the game: a move (b4-b3) or its number, hint, undo (or back), values on|off, moves,\n"
      "board, record, help, quit (or exit, q). The game ends by the rules, when a position stands for the\n"
      "third time (a draw), by quit or at the end of input; the record is printed in --history notation.\n");
  if (!cl.parse(argc, argv)) return 0;
  const Table t = Table::open(cl.required("file", "FILE"));
  PlaySettings s;
  s.position = cl.optional_text("position");
  const Game g = game_for_query(t, s.position, cl.text_or_empty("history"));
  const std::string as = cl.has("as") ? cl.text("as") : to_string(current(g).to_move);
  if (as != "both") s.human = parse_side(as);
  const std::string values = cl.text("values");
  if (values != "on" && values != "off") cl.usage_error("--values takes on or off");
  s.values = values == "on";
  s.vary = cl.has("vary");
  if (cl.has("seed") && !s.vary) cl.usage_error("--seed goes with --vary");
  s.seed = cl.has("seed") ? cl.value<std::uint64_t>("seed") : std::random_device{}();
  LineReader in;
  PlaySession(t, g, s).run(in);
  return 0;
}

}  // namespace gonu::cli
