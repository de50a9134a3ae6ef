// gonu: the command-line entry point. The commands and their dispatch are in the gonu_cli library
// (tools/cli/dispatch.cpp: one subcommand per file, cmd_*.cpp); bad input prints one line
// "gonu: error: ..." and exits 1; usage errors print the usage and exit 2.
#include <csignal>

#include "tools/cli/dispatch.hpp"

int main(int argc, char** argv) {
  // Past a file-size limit (ulimit -f) a write then fails with EFBIG, which the writers report as
  // an error, instead of the signal ending the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  return gonu::cli::run_gonu(argc, argv);
}
