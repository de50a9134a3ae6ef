// gonu rules: the named rule sets, each with its parts and source (julgonu_rules_list); with
// --game jungi Jungi's pieces and options (jungi_rules_list).
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

int cmd_rules(int argc, char** argv) {
  CommandLine cl("gonu rules [--game jungi]");
  cl.add()("game", po::value<std::string>(), "julgonu (default) | jungi: the rules of that game");
  if (!cl.parse(argc, argv)) return 0;
  return cl.jungi() ? jungi_rules_list() : julgonu_rules_list();
}

}  // namespace gonu::cli
