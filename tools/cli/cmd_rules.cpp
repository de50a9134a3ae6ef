// gonu rules: the named rule sets, each with its parts and source.
#include <iostream>

#include "tools/jungi/jungi_cli.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {

int cmd_rules(int argc, char** argv) {
  CommandLine cl("gonu rules [--game jungi]");
  cl.add()("game", po::value<std::string>(), "julgonu (default) | jungi: the rules of that game");
  if (!cl.parse(argc, argv)) return 0;
  if (cl.jungi()) return jungi_rules_list();
  for (const auto& s : named_rule_sets()) {
    std::cout << describe(s.rules) << "\n    source: " << s.source << "\n";
  }
  std::cout << "\nEvery part is also a flag: --capture line|single, --corner on|off,\n"
               "--repetition none|immediate|undo|superko, --board RxC, --first black|white.\n";
  return 0;
}

}  // namespace gonu::cli
