// gonu's dispatch: the registry of subcommands, and run_gonu, which runs the command argv names and
// turns what it throws into gonu's answers: bad input one line "gonu: error: ..." on stderr and exit
// 1, a usage error the message and the usage and exit 2. main() is run_gonu and nothing more, so
// that the command-line fuzz target (tests/fuzz/fuzz_cli.cpp) drives the code gonu runs.
#include "tools/cli/dispatch.hpp"

#include <pthread.h>
#include <sys/resource.h>

#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <system_error>

#include "core/error.hpp"
#include "tools/cli/cli.hpp"
#include "tools/cli/options.hpp"
#include "util/version.hpp"

namespace gonu::cli {
int cmd_rules(int argc, char** argv);
int cmd_show(int argc, char** argv);
int cmd_moves(int argc, char** argv);
int cmd_solve(int argc, char** argv);
int cmd_check_certificate(int argc, char** argv);
int cmd_query(int argc, char** argv);
int cmd_play(int argc, char** argv);
int cmd_verify(int argc, char** argv);
int cmd_info(int argc, char** argv);
int cmd_repack(int argc, char** argv);
int cmd_serve(int argc, char** argv);
int cmd_perft(int argc, char** argv);

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"rules", "list the named rule sets and their sources", cmd_rules},
      {"show", "draw a position", cmd_show},
      {"moves", "list the legal moves of a position, with captures", cmd_moves},
      {"perft", "count the move sequences of a given length (a move generator's check)", cmd_perft},
      {"solve", "solve a rule set: every reachable state, its value and distance", cmd_solve},
      {"check-certificate", "check a superko certificate against every choice of the loser", cmd_check_certificate},
      {"query", "a position's value from a table file, every move ranked, the best line", cmd_query},
      {"play", "play against perfect play from a table file", cmd_play},
      {"verify", "check a table file: checksums, and every value re-derived", cmd_verify},
      {"info", "a table file's header", cmd_info},
      {"repack", "write Jungi table files again in this gonu's format, their values unchanged", cmd_repack},
      {"serve", "explore table files in a web browser (a local HTTP server)", cmd_serve},
  };
  return list;
}
}  // namespace gonu::cli

namespace {

void print_usage(std::ostream& out) {
  out << "gonu " << gonu::kVersion << " - exact solver for Jul-gonu and its rule variants\n\n"
      << "usage: gonu <command> [options]   (gonu <command> --help or gonu help <command> for each)\n\ncommands:\n";
  for (const auto& c : gonu::cli::commands()) {
    out << "  " << c.name << std::string(c.name.size() < 18 ? 18 - c.name.size() : 1, ' ') << c.summary << "\n";
  }
}

// Prints the help of subcommand `name` (as `gonu NAME --help`); false if there is no such command.
bool print_command_help(const std::string& name) {
  for (const gonu::cli::Command& c : gonu::cli::commands()) {
    if (c.name != name) continue;
    std::string arg0 = name, help = "--help";
    char* argv[] = {arg0.data(), help.data(), nullptr};
    c.run(2, argv);
    return true;
  }
  return false;
}

// "; did you mean 'solve'?" for a command name close to a known one, else "".
std::string did_you_mean(const std::string& word) {
  std::vector<std::string> names;
  for (const auto& c : gonu::cli::commands()) names.push_back(c.name);
  const std::string near = gonu::cli::closest_word(word, names);
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}

// Under a small stack limit (ulimit -s 256) the main thread cannot hold the solvers' frames (one
// step of the dense engine keeps 200 KiB of moves on the stack): the command then runs on a thread
// with a stack of kCommandStack while the main thread waits, with the stop signals blocked so that
// they reach the command's threads (gonu serve waits for them with sigwait).
constexpr std::size_t kCommandStack = std::size_t(64) << 20;

int run_with_enough_stack(const gonu::cli::Command& c, int argc, char** argv) {
  rlimit lim{};
  if (getrlimit(RLIMIT_STACK, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= (8u << 20))
    return c.run(argc, argv);
  struct Call {
    const gonu::cli::Command* c;
    int argc;
    char** argv;
    int status = 0;
    std::exception_ptr error;
  } call{&c, argc, argv, 0, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kCommandStack);
  pthread_t thread;
  const int failed = pthread_create(&thread, &attr, [](void* arg) -> void* {
    auto* k = static_cast<Call*>(arg);
    try {
      k->status = k->c->run(k->argc, k->argv);
    } catch (...) {
      k->error = std::current_exception();
    }
    return nullptr;
  }, &call);
  pthread_attr_destroy(&attr);
  if (failed)
    throw gonu::GonuError("the stack limit (ulimit -s) is " + std::to_string(lim.rlim_cur >> 10) +
                          " KiB and no thread with a larger stack can be started: " + std::strerror(failed) +
                          "; raise ulimit -s to 8192");
  sigset_t stop;
  sigemptyset(&stop);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&stop, sig);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  pthread_join(thread, nullptr);
  if (call.error) std::rethrow_exception(call.error);
  return call.status;
}

// A usage error's lines (the message, then the usage), each made printable.
std::string printable_lines(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
    out += gonu::printable(std::string_view(text).substr(from, nl - from)) + "\n";
  return out + gonu::printable(std::string_view(text).substr(from));
}

}  // namespace

namespace gonu::cli {

int run_gonu(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "help" && argc >= 3) {  // gonu help COMMAND: that command's --help
    if (print_command_help(argv[2])) return 0;
    std::cerr << "gonu: unknown command '" << gonu::printable(argv[2]) << "'" << did_you_mean(argv[2]) << "\n";
    return kExitUsage;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (name == "--version") {
    std::cout << "gonu " << gonu::kVersion << "\n";
    return 0;
  }
  for (const auto& c : commands()) {
    if (c.name != name) continue;
    try {
      return run_with_enough_stack(c, argc - 1, argv + 1);
    } catch (const UsageError& e) {
      std::cerr << "gonu " << name << ": " << printable_lines(e.what()) << "\n";
      return kExitUsage;
    } catch (const gonu::GonuError& e) {
      std::cerr << "gonu: error: " << e.what() << "\n";
      return kExitBadInput;
    } catch (const std::bad_alloc&) {
      std::cerr << "gonu: error: out of memory\n";
      return kExitBadInput;
    } catch (const std::system_error& e) {  // e.g. no thread could be started (ulimit -v, -u)
      std::cerr << "gonu: error: " << gonu::printable(e.what()) << " (a resource limit? see ulimit -a)\n";
      return kExitBadInput;
    } catch (const std::exception& e) {  // a fault of gonu's, still answered with one line
      std::cerr << "gonu: error: internal error: " << gonu::printable(e.what()) << "\n";
      return kExitBadInput;
    } catch (...) {
      std::cerr << "gonu: error: internal error\n";
      return kExitBadInput;
    }
  }
  std::cerr << "gonu: unknown command '" << gonu::printable(name) << "'" << did_you_mean(name) << "\n\n";
  print_usage(std::cerr);
  return kExitUsage;
}

}  // namespace gonu::cli
