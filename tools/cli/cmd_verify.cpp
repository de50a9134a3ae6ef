// gonu verify FILE|DIR...: checks the header, the payload checksum, and re-derives every value and
// distance from the successors' values read from the same file (a Jungi table: and from the
// tables beside it; several Jungi tables in one run share the tables they read; a directory's in
// dependency order). Prints OK with the counts, or fails (exit 1) naming the first thing that is
// wrong; progress on a terminal.
#include <filesystem>

#include "core/error.hpp"
#include "solver/jungi/table/tables.hpp"
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

namespace {

// The files to verify: each FILE, and each DIR's Jungi tables in dependency order.
std::vector<std::string> expand_directories(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (!std::filesystem::is_directory(a)) {
      out.push_back(a);
      continue;
    }
    const std::vector<std::string> files = jungi::table_files_in_order(a);
    if (files.empty()) throw GonuError(a + " is a directory with no Jungi table in it");
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

}  // namespace

int cmd_verify(int argc, char** argv) {
  CommandLine cl("gonu verify FILE|DIR... [--quiet] [--sample N] [--max-memory SIZE]\n"
                 "  A Jul-gonu table: its header, checksums, and every state's value re-derived from its successors.\n"
                 "  A Jungi table (or every table of DIR, each after the tables its moves lead to): its header's every\n"
                 "  field, the payload checksum, every index's code, the counts, and every position's value\n"
                 "  re-derived from its moves, which read the tables beside it: some 10 us a position on this\n"
                 "  project's 2-core machine, minutes for a 4-piece table (--sample N re-derives every Nth placement).");
  cl.quiet();
  cl.count("sample", 1, "Jungi tables: re-derive every Nth placement only (the counts in full)", 1);
  cl.byte_size("max-memory", "Jungi tables: the tables kept from one file for the next (default: physical memory)");
  cl.positional_list("file");
  if (!cl.parse(argc, argv)) return 0;
  const std::vector<std::string> files = expand_directories(cl.required_list("file", "FILE"));
  if (jungi::is_jungi_table_file(files.front()))
    return jungi_verify(files, std::uint64_t(cl.count_value("sample")), cl.byte_size_value("max-memory"), cl.has("quiet"));
  return julgonu_verify(cl, files);
}

}  // namespace gonu::cli
