// gonu verify FILE: checks the header, the payload checksum, and re-derives every value and
// distance from the successors' values read from the same file. Prints OK with the counts, or
// fails (exit 1) naming the first thing that is wrong.
#include <iostream>

#include "core/error.hpp"
#include "solver/jungi_table/table_file.hpp"
#include "solver/table/table.hpp"
#include "tools/jungi_cli.hpp"
#include "tools/options.hpp"
#include "tools/format_number.hpp"
#include "tools/progress_display.hpp"

namespace gonu::cli {

int cmd_verify(int argc, char** argv) {
  CommandLine cl("gonu verify FILE [--quiet] [--sample N]");
  cl.quiet();
  cl.count("sample", 1, "Jungi tables: re-derive every Nth placement only (the counts in full)", 1);
  cl.positional("file");
  if (!cl.parse(argc, argv)) return 0;
  if (jungi::is_jungi_table_file(cl.required("file", "FILE")))
    return jungi_verify(cl.text("file"), std::uint64_t(cl.count_value("sample")));
  if (cl.count_value("sample") != 1) cl.usage_error("--sample goes with a Jungi table");
  const Table t = Table::open(cl.required("file", "FILE"));
  const ProgressFn progress = make_progress(cl.has("quiet"));
  const TableVerifyResult r = verify_table(t, progress);
  end_progress(progress);
  if (!r.ok) throw GonuError(t.path() + ": verify failed: " + r.first_error);
  std::cout << "OK " << t.path() << ": header, checksums, and " << with_commas(r.states)
            << " states re-derived from their successors (" << describe(t.rules()) << ")\n";
  std::cout << "states " << with_commas(r.states) << ", edges " << with_commas(r.edges) << ", WIN "
            << with_commas(r.wins) << " / LOSS " << with_commas(r.losses) << " / DRAW " << with_commas(r.draws)
            << ", largest distance " << r.max_dist << "\n";
  return 0;
}

}  // namespace gonu::cli
