// Shared pieces of the gonu subcommands: the rule-set options every command takes, option
// parsing with the usual exit codes (2 for usage errors, 1 for bad input), and the registry of
// subcommands that main.cpp dispatches on.
#pragma once
#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/rules.hpp"

namespace gonu::cli {

namespace po = boost::program_options;

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

// Thrown for a usage error: the message is printed with the command's usage, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --rules NAME, --capture, --corner, --repetition, --board RxC, --first.
void add_rule_options(po::options_description& d);
// The rule set the options name. If `position_text` is given and no --board, the board size is
// taken from the position; with --board they must agree.
Rules rules_from_options(const po::variables_map& vm, const std::optional<std::string>& position_text = {});

// Parses argv for a subcommand; prints help and returns false if --help was given.
// Throws UsageError on unknown or malformed options.
bool parse_options(int argc, char** argv, const std::string& usage_line, po::options_description& visible,
                   const po::positional_options_description& positional, po::variables_map& vm,
                   po::options_description hidden = po::options_description());

struct Command {
  std::string name;
  std::string summary;
  int (*run)(int argc, char** argv);  // argv[0] is the subcommand name
};
const std::vector<Command>& commands();

}  // namespace gonu::cli
