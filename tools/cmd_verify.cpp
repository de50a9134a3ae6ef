// gonu verify FILE...: checks the header, the payload checksum, and re-derives every value and
// distance from the successors' values read from the same file (a Jungi table: and from the
// tables beside it; several Jungi tables in one run share the tables they read). Prints OK with
// the counts, or fails (exit 1) naming the first thing that is wrong.
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
  CommandLine cl("gonu verify FILE... [--quiet] [--sample N] [--max-memory SIZE]");
  cl.quiet();
  cl.count("sample", 1, "Jungi tables: re-derive every Nth placement only (the counts in full)", 1);
  cl.byte_size("max-memory", "Jungi tables: the tables kept from one file for the next (default: physical memory)");
  cl.positional_list("file");
  if (!cl.parse(argc, argv)) return 0;
  const std::vector<std::string> files = cl.required_list("file", "FILE");
  if (jungi::is_jungi_table_file(files.front()))
    return jungi_verify(files, std::uint64_t(cl.count_value("sample")), cl.byte_size_value("max-memory"));
  // Opened first: a file that is no table at all is that one-line error, whatever the options.
  const Table t = Table::open(files.front());
  if (files.size() > 1) cl.usage_error("several files go with Jungi tables only");
  if (cl.count_value("sample") != 1) cl.usage_error("--sample goes with a Jungi table");
  if (cl.has("max-memory")) cl.usage_error("--max-memory goes with Jungi tables");
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
