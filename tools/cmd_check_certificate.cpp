// gonu check-certificate FILE: replays a superko certificate (see solver/certificate_check.hpp);
// prints OK and a summary, or the first flaw, and exits 1 on a flaw.
#include <iostream>

#include "checker/certificate_check.hpp"
#include "tools/cli.hpp"

namespace gonu::cli {

int cmd_check_certificate(int argc, char** argv) {
  po::options_description opts("options");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>(), "certificate file");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  const std::string usage = "gonu check-certificate FILE";
  if (!parse_options(argc, argv, usage, opts, pos, vm, hidden)) return 0;
  if (!vm.count("file")) throw UsageError("missing FILE\nusage: " + usage);
  const CertificateCheck c = check_certificate_file(vm["file"].as<std::string>());
  if (c.ok) {
    std::cout << c.message << " [" << c.rules_id << "]\n";
    return 0;
  }
  std::cout << "FLAW: " << c.message << "\n";
  return kExitBadInput;
}

}  // namespace gonu::cli
