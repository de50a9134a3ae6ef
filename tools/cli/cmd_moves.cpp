// gonu moves [POSITION] [--history MOVES]: every legal move with what it captures; without a
// position, from the start of the rule set the flags name; either game's (julgonu_moves,
// jungi_moves).
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

int cmd_moves(int argc, char** argv) {
  CommandLine cl("gonu moves [POSITION] [--rules NAME] [--history \"b4-b3 c1-c2 ...\"]   (none: the start)");
  cl.rule_options();
  cl.history("moves played from POSITION first, e.g. \"b4-b3 c1-c2\"");
  cl.game_option();
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  return cl.jungi() ? jungi_moves(cl) : julgonu_moves(cl);
}

}  // namespace gonu::cli
