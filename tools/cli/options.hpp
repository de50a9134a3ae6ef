// One subcommand's command line, stated once: its usage line, its options in the order --help
// lists them (the shared ones by name: the rule flags, --history, --json, --quiet, --threads,
// counts and time budgets), and its positional arguments. Parsing applies the checks every
// command shares, so a command reads only values that passed them: a usage error (an unknown
// option, a malformed or out-of-range value, a missing argument) is thrown as UsageError with the
// usage line (exit 2).
#pragma once
#include <tbb/global_control.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/cli/cli.hpp"

namespace gonu::cli {

// j printed with `indent` (-1: one line); text that is not valid UTF-8 (from a file name or the
// command line) is written U+FFFD, where nlohmann's dump would throw.
std::string json_text(const nlohmann::ordered_json& j, int indent = 2);

class CommandLine {
 public:
  // `usage` follows "usage: " in --help and after a usage error; `missing_usage`, when given,
  // replaces it after a missing positional argument.
  explicit CommandLine(std::string usage, std::string missing_usage = {});
  CommandLine(const CommandLine&) = delete;  // add() hands out a pointer to the description
  CommandLine& operator=(const CommandLine&) = delete;

  // Declaring; each option is listed by --help in the order declared, --help itself last in the
  // first group.
  po::options_description_easy_init add();  // options of this command alone
  // Options declared from here on are listed by --help under their own heading ("memory
  // options"); options declared before any group are under "options". A first group declared
  // before any option takes their place (and gets --help).
  void group(const char* heading);
  void positional(const char* name);        // the next positional argument (not in --help)
  void positional_list(const char* name);   // every remaining positional argument
  // Jul-gonu's rule flags, read by julgonu_rules (tools/julgonu/julgonu_cli.hpp):
  void rule_options();                      // --rules/-r --capture --corner --repetition --board/-b --first
  void history(const char* help);
  // --game julgonu|jungi (default julgonu) and Jungi's rule flags (--hobbling, --promotion,
  // --stalemate, --lancer), which only --game jungi accepts, as Jul-gonu's rule flags only it.
  void game_option();
  bool jungi() const;
  void json(const char* help = "print one JSON object");
  void quiet();                             // --quiet/-q
  void threads();                           // --threads/-j
  // A whole number >= `min`; a negative (below `min`) or non-numeric value is a usage error.
  // `short_name`, when given, is its one-letter alias ('j' for -j).
  void count(const char* name, std::int64_t default_value, const char* help, std::int64_t min = 0,
             char short_name = 0);
  // A time budget in seconds (default 0): a finite number >= 0, else a usage error.
  void seconds(const char* name, const char* help, double default_value = 0);
  // A byte size (parse_byte_size in tools/report/units.hpp: 512M, 20G, 1.5GiB, plain bytes), 0 when
  // absent; anything else is a usage error.
  void byte_size(const char* name, const char* help);

  // Text --help prints after the options (exit codes, notes).
  void epilog(std::string text) { epilog_ = std::move(text); }

  // Parses argv (argv[0] is the subcommand's name) and checks every count and budget given;
  // prints the help and returns false if --help was given.
  bool parse(int argc, char** argv);

  // Reading, after parse().
  bool has(const char* name) const { return vm_.count(name) > 0; }
  std::string text(const char* name) const;  // a string option that is present
  std::optional<std::string> optional_text(const char* name) const;
  std::string text_or_empty(const char* name) const;
  // A positional argument; throws "missing WHAT" with the usage when it was not given.
  std::string required(const char* name, const char* what) const;
  std::vector<std::string> required_list(const char* name, const char* what) const;  // at least one
  std::int64_t count_value(const char* name) const;
  // An option of a command's own type (declared with po::value<T>()) that is present.
  template <class T>
  T value(const char* name) const {
    return vm_[name].as<T>();
  }
  double seconds_value(const char* name) const;
  std::uint64_t byte_size_value(const char* name) const;  // 0 when not given
  [[noreturn]] void usage_error(const std::string& message) const;

 private:
  void check_values() const;

  std::string usage_, missing_usage_, epilog_;
  std::vector<std::unique_ptr<po::options_description>> groups_;  // as --help lists them
  po::options_description hidden_;
  po::positional_options_description positional_;
  po::variables_map vm_;
  struct Bound {
    std::string name;
    std::int64_t min;
  };
  std::vector<Bound> counts_;
  std::vector<std::string> budgets_;
  std::vector<std::string> byte_sizes_;
};

// The closest of `known` to `word` (case ignored, at most two edits and fewer than half its
// letters), or empty: for "did you mean ...?".
std::string closest_word(const std::string& word, const std::vector<std::string>& known);

// --threads N for the scope of a command: at most N worker threads (0: all cores). N above the
// machine's cores is allowed (a command line may be shared between machines) and said once on
// stderr unless quiet; the cores are then the limit. N above kThreadsPerCoreLimit times the cores
// is refused (UsageError): it is a typo, not a machine.
constexpr int kThreadsPerCoreLimit = 16;
class ThreadLimit {
 public:
  ThreadLimit(std::int64_t threads, bool quiet);

 private:
  std::optional<tbb::global_control> limit_;
};

}  // namespace gonu::cli
