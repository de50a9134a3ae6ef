// run_gonu: the whole of the gonu program but its signal set-up: argv as main() gets it (argv[0]
// the program, argv[1] the command), its output on std::cout and std::cerr, the exit status back.
// Bad input is one line "gonu: error: ..." on stderr (or {"error": ...} on stdout with --json) and
// 1; a usage error the usage and 2. The commands it runs are in tools/cli/cmd_*.cpp.
#pragma once

namespace gonu::cli {

int run_gonu(int argc, char** argv);

}  // namespace gonu::cli
