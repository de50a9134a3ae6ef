// gonu show [POSITION] [rule flags]: draws a position; without one, the start of the rule set the
// flags name (4x4 free by default), so that a first try shows something; Jul-gonu's
// (tools/julgonu/julgonu_cli.hpp) or with --game jungi Jungi's (tools/jungi/jungi_cli.hpp).
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

int cmd_show(int argc, char** argv) {
  CommandLine cl("gonu show [POSITION] [--rules NAME] [--board RxC]   (e.g. 'xxxx/4/4/wwww x'; none: the start)");
  cl.rule_options();
  cl.game_option();
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  return cl.jungi() ? jungi_show(cl) : julgonu_show(cl);
}

}  // namespace gonu::cli
