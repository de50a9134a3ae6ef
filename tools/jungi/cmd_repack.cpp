// gonu repack FILE...: Jungi table files written again in this gonu's format, their values
// unchanged (solver/jungi/table's repack_table_file checks the new encoding before it replaces a
// file). Tables already in this format are left as they are.
#include <iostream>

#include "core/error.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tools/report/format_number.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {

int cmd_repack(int argc, char** argv) {
  CommandLine cl("gonu repack FILE...");
  cl.positional_list("file");
  if (!cl.parse(argc, argv)) return 0;
  std::uint64_t before = 0, after = 0;
  for (const std::string& path : cl.required_list("file", "FILE")) {
    if (!jungi::is_jungi_table_file(path)) throw GonuError(path + " is not a gonu Jungi table (repack writes Jungi tables again)");
    const jungi::RepackResult r = jungi::repack_table_file(path);
    before += r.old_bytes;
    after += r.new_bytes;
    if (r.old_format == r.new_format) std::cout << path << ": format " << r.new_format << " already\n";
    else
      std::cout << path << ": format " << r.old_format << " to " << r.new_format << ", " << with_commas(r.old_bytes) << " to "
                << with_commas(r.new_bytes) << " bytes\n";
    std::cout.flush();
  }
  std::cout << "in all: " << with_commas(before) << " to " << with_commas(after) << " bytes\n";
  return 0;
}

}  // namespace gonu::cli
