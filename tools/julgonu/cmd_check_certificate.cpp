// gonu check-certificate FILE: replays a superko certificate (see checker/certificate_check.hpp);
// prints OK and a summary (and a line per capture-entry value of format 8), or the first flaw, and
// exits 1 on a flaw.
#include <iostream>

#include "checker/certificate_check.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {

int cmd_check_certificate(int argc, char** argv) {
  CommandLine cl("gonu check-certificate FILE");
  cl.positional("file");
  if (!cl.parse(argc, argv)) return 0;
  const CertificateCheck c = check_certificate_file(cl.required("file", "FILE"));
  if (c.ok) {
    std::cout << c.message << " [" << c.rules_id << "]\n";
    for (const std::string& e : c.entry_lines) std::cout << e << "\n";
    return 0;
  }
  std::cout << "FLAW: " << c.message << "\n";
  return kExitBadInput;
}

}  // namespace gonu::cli
