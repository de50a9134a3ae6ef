// libFuzzer target: the gonu program's command line, run in-process through run_gonu (the code
// main() runs, tools/cli/dispatch.cpp) with std::cout and std::cerr captured. The input's first byte
// picks the command line's frame, the rest (split at '\n', at most kMaxArgs pieces) are its
// arguments, fuzzer-chosen bytes: positions, histories, option names and values.
//   bits 0-1  the command: query, moves, show, perft
//   bit  2    query: the table, 3x3 free or 3x3 encyclopedia (its states tagged with the history),
//             both solved once at start-up; its path is the first argument
//   bit  3    --json appended
//   bit  4    --game jungi appended (moves, show, perft)
// Every answer must be gonu's: exit 0, 1 or 2; stdout and stderr valid UTF-8; exit 0 with --json
// one JSON document on stdout (help excepted); exit 1 one line "gonu: error: ..." on stderr, or
// for query --json an {"error": "one line"} object on stdout; exit 2 the usage on stderr; never
// "internal error" (an exception of gonu's own). A sanitizer report or a crash is a finding too.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tools/cli/dispatch.hpp"

namespace {

constexpr std::size_t kMaxArgs = 12;
constexpr int kMaxPerftDepth = 3;  // deeper counts take seconds (Jungi's start, big boards)

struct Tables {
  std::string free, encyclopedia;
};

const Tables& tables() {
  static const Tables* t = [] {
    char dir[] = "/tmp/gonu-fuzz-cli-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    auto* made = new Tables;
    for (const char* name : {"free", "encyclopedia"}) {
      gonu::Rules rules = gonu::rules_by_name(name);
      rules.rows = rules.cols = 3;
      const gonu::Board board = gonu::make_board(rules.rows, rules.cols);
      const gonu::Solution s = gonu::solve(gonu::new_game(rules, gonu::start_position(board, rules.first)));
      const std::string path = std::string(dir) + "/" + name + ".gonu";
      gonu::write_table(path, s);
      (std::string_view(name) == "free" ? made->free : made->encyclopedia) = path;
    }
    return made;
  }();
  return *t;
}

[[noreturn]] void fail(const char* what, const std::vector<std::string>& args, const std::string& out,
                       const std::string& err) {
  std::string line;
  for (const std::string& a : args) line += " '" + gonu::printable(a) + "'";
  std::fprintf(stderr, "fuzz_cli: %s\n  argv:%s\n  stdout: %s\n  stderr: %s\n", what, line.c_str(),
               gonu::printable(out).c_str(), gonu::printable(err).c_str());
  std::abort();
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = gonu::utf8_char_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// The whole of text is one line ending in '\n'.
bool one_line(std::string_view text) { return !text.empty() && text.find('\n') == text.size() - 1; }

// The command line the input describes (argv[0] "gonu"), or empty to skip it.
std::vector<std::string> command_line(std::string_view input) {
  static const char* const kCommands[] = {"query", "moves", "show", "perft"};
  const auto frame = std::uint8_t(input[0]);
  input.remove_prefix(1);
  const std::string command = kCommands[frame & 3];
  std::vector<std::string> args = {"gonu", command};
  if (command == "query") args.push_back(frame & 4 ? tables().encyclopedia : tables().free);
  for (std::size_t n = 0; !input.empty() && n < kMaxArgs; ++n) {
    const std::size_t nl = input.find('\n');
    const std::string_view piece = input.substr(0, nl);
    args.emplace_back(piece.substr(0, piece.find('\0')));  // as argv holds it: up to a NUL
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
  }
  if (frame & 8) args.push_back("--json");
  if ((frame & 16) && command != "query") args.insert(args.end(), {"--game", "jungi"});
  if (command == "perft") {
    for (const std::string& a : args) {  // any piece that stoi reads whole could be DEPTH
      try {
        std::size_t used = 0;
        if (std::stoi(a, &used) > kMaxPerftDepth && used == a.size()) return {};
      } catch (const std::exception&) {
      }
    }
  }
  return args;
}

struct Answer {
  int status;
  std::string out, err;
};

Answer run(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out, err;
  std::streambuf* const cout_buf = std::cout.rdbuf(out.rdbuf());
  std::streambuf* const cerr_buf = std::cerr.rdbuf(err.rdbuf());
  const int status = gonu::cli::run_gonu(int(args.size()), argv.data());
  std::cout.rdbuf(cout_buf);
  std::cerr.rdbuf(cerr_buf);
  return {status, out.str(), err.str()};
}

bool json_error(const std::string& out) {
  if (!nlohmann::json::accept(out)) return false;
  const nlohmann::json j = nlohmann::json::parse(out);
  return j.is_object() && j.contains("error") && j["error"].is_string() &&
         j["error"].get<std::string>().find('\n') == std::string::npos;
}

// json: the frame appended --json (the fuzzer's own arguments may say it too, or "--js", which the
// option parser completes: query's errors are then JSON as well).
void check(const std::vector<std::string>& args, bool json, const Answer& a) {
  if (!valid_utf8(a.out) || !valid_utf8(a.err)) fail("output that is not valid UTF-8", args, a.out, a.err);
  if (a.err.rfind("gonu: error: internal error", 0) == 0) fail("an internal error", args, a.out, a.err);
  switch (a.status) {
    case 0: {
      const bool help = a.out.rfind("usage: ", 0) == 0;
      if (json && !help && !nlohmann::json::accept(a.out)) fail("--json output that is not JSON", args, a.out, a.err);
      if (!a.err.empty()) fail("exit 0 with something on stderr", args, a.out, a.err);
      break;
    }
    case 1: {
      const bool line = one_line(a.err) && a.err.rfind("gonu: error: ", 0) == 0 && a.out.empty();
      const bool as_json = args[1] == "query" && a.err.empty() && json_error(a.out);
      if (!line && !as_json) fail("an error that is not one line", args, a.out, a.err);
      break;
    }
    case 2:
      if (a.err.rfind("gonu " + args[1] + ": ", 0) != 0) fail("a usage error without the usage", args, a.out, a.err);
      break;
    default:
      fail("an exit status other than 0, 1 or 2", args, a.out, a.err);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tables();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 2048) return 0;
  const std::vector<std::string> args = command_line(std::string_view(reinterpret_cast<const char*>(data), size));
  if (args.empty()) return 0;
  check(args, (data[0] & 8) != 0, run(args));
  return 0;
}
