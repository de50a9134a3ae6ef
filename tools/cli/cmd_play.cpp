// gonu play [FILE] [POSITION] [--history MOVES] [--as black|white|both] [--vary [--seed N]]: an
// analysis board over a table, Jul-gonu's or Jungi's (tools/cli/play_session.hpp): play against perfect
// play, or both sides, with hints, take-backs, the value of every position and the record at the end. Lines come from
// libedit on a terminal, else from stdin (echoed), so a game can be piped in and replays exactly.
// With rule options instead of FILE (gonu play --rules free --board 3x4) the rule set is solved
// in memory first, where the solve's estimate is small enough to take a few seconds.
#include <filesystem>

#include "solver/jungi/table/table_file.hpp"
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

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
  if (cl.has("certificate")) return julgonu_play_certificate(cl);
  if (!julgonu_rule_options_given(cl) && cl.has("file") && std::filesystem::is_directory(cl.text("file")))
    return jungi_play(cl, jungi_table_in(cl, cl.text("file")));
  if (!julgonu_rule_options_given(cl) && cl.has("file") && jungi::is_jungi_table_file(cl.text("file"))) return jungi_play(cl, cl.text("file"));
  return julgonu_play(cl);
}

}  // namespace gonu::cli
