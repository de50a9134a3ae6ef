// Shared pieces of the gonu subcommands: the exit codes (1 for bad input, 2 for usage errors, 3
// for a superko value not proven), the usage error, and the registry of subcommands that main.cpp
// dispatches on. A command's options are declared and parsed through CommandLine (tools/cli/options.hpp).
#pragma once
#include <boost/program_options.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace gonu::cli {

namespace po = boost::program_options;

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNotProven = 3;  // gonu solve under superko: the value is not proven within the budgets

// Thrown for a usage error: the message is printed with the command's usage, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Command {
  std::string name;
  std::string summary;
  int (*run)(int argc, char** argv);  // argv[0] is the subcommand name
};
const std::vector<Command>& commands();

}  // namespace gonu::cli
