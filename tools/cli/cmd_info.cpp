// gonu info FILE|DIR: a table's header in human form (opening checks the header and the index; the
// payload checksum is checked by gonu verify), or a directory of Jungi tables summed up.
#include <filesystem>

#include "solver/jungi/table/table_file.hpp"
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

int cmd_info(int argc, char** argv) {
  CommandLine cl("gonu info FILE|DIR");
  cl.positional("file");
  if (!cl.parse(argc, argv)) return 0;
  if (std::filesystem::is_directory(cl.required("file", "FILE"))) return jungi_info_dir(cl.text("file"));
  if (jungi::is_jungi_table_file(cl.required("file", "FILE"))) return jungi_info(cl.text("file"));
  return julgonu_info(cl.text("file"));
}

}  // namespace gonu::cli
