// gonu verify FILE: checks the header, the payload checksum, and re-derives every value and
// distance from the successors' values read from the same file. Prints OK with the counts, or
// fails (exit 1) naming the first thing that is wrong.
#include <iostream>

#include "core/error.hpp"
#include "solver/table/table.hpp"
#include "tools/cli.hpp"
#include "tools/format_number.hpp"
#include "tools/progress_display.hpp"

namespace gonu::cli {

int cmd_verify(int argc, char** argv) {
  po::options_description opts("options");
  opts.add_options()("quiet", "no progress on stderr");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>(), "table");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  const std::string usage = "gonu verify FILE [--quiet]";
  if (!parse_options(argc, argv, usage, opts, pos, vm, hidden)) return 0;
  if (!vm.count("file")) throw UsageError("missing FILE\nusage: " + usage);
  const Table t = Table::open(vm["file"].as<std::string>());
  const ProgressFn progress = make_progress(vm.count("quiet") > 0);
  const TableVerifyResult r = verify_table(t, progress);
  if (progress) std::cerr << "\r" << std::string(60, ' ') << "\r";
  if (!r.ok) throw GonuError(t.path() + ": verify failed: " + r.first_error);
  std::cout << "OK " << t.path() << ": header, checksums, and " << with_commas(r.states)
            << " states re-derived from their successors (" << describe(t.rules()) << ")\n";
  std::cout << "states " << with_commas(r.states) << ", edges " << with_commas(r.edges) << ", WIN "
            << with_commas(r.wins) << " / LOSS " << with_commas(r.losses) << " / DRAW " << with_commas(r.draws)
            << ", largest distance " << r.max_dist << "\n";
  return 0;
}

}  // namespace gonu::cli
