// gonu info FILE|DIR: a table's header in human form (opening checks the header and the index; the
// payload checksum is checked by gonu verify), or a directory of Jungi tables summed up.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "solver/jungi/table/table_file.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/cli/options.hpp"
#include "tools/report/format_number.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

namespace {
std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

int cmd_info(int argc, char** argv) {
  CommandLine cl("gonu info FILE|DIR");
  cl.positional("file");
  if (!cl.parse(argc, argv)) return 0;
  if (std::filesystem::is_directory(cl.required("file", "FILE"))) return jungi_info_dir(cl.text("file"));
  if (jungi::is_jungi_table_file(cl.required("file", "FILE"))) return jungi_info(cl.text("file"));
  const Table t = Table::open(cl.required("file", "FILE"));
  const TableHeader& h = t.header();
  const Board& b = t.board();
  const auto root = t.find(h.root_key);
  std::cout << "file:             " << t.path() << " (" << with_commas(h.file_size) << " bytes)\n";
  std::cout << "format:           gonu table, format version " << h.format_version << ", written by gonu "
            << h.gonu_version << "\n";
  std::cout << "rules:            " << describe(h.rules) << "\n";
  std::cout << "rules id:         " << h.rules_id << "\n";
  std::cout << "root:             " << format_position(b, h.root);
  if (h.tagged) std::cout << "  (history tag: " << tag_text(b, h.root_tag) << ")";
  std::cout << "\n";
  std::cout << "root key:         0x" << hex(h.root_key) << "\n";
  std::cout << "root value:       " << value_text(root->value, root->dist) << " for " << to_string(h.root.to_move)
            << " (side to move)\n";
  std::cout << "states:           " << with_commas(h.states) << "\n";
  std::cout << "move edges:       " << with_commas(h.edges) << "\n";
  std::cout << "values (side to move): WIN " << with_commas(h.wins) << " / LOSS " << with_commas(h.losses)
            << " / DRAW " << with_commas(h.draws) << "\n";
  std::cout << "largest distance: " << h.max_dist << " plies\n";
  std::cout << "state keys:       " << (h.tagged ? "19-bit history tag, " : "") << "side bit, "
            << int(h.key_board_bits) << "-bit ternary board\n";
  char per_state[32];
  std::snprintf(per_state, sizeof per_state, "%.3f", double(h.file_size) / double(h.states));
  std::cout << "layout:           " << h.block_size << " states a block, " << with_commas(h.blocks) << " blocks; "
            << int(h.value_bits) << "-bit value codes\n";
  std::cout << "sections:         header " << kTableHeaderSize << ", index " << with_commas(h.index_size) << ", keys "
            << with_commas(h.keys_size) << ", values " << with_commas(h.values_size) << " bytes\n";
  std::cout << "bytes per state:  " << per_state << "\n";
  std::cout << "checksums (XXH3): header " << hex(h.header_xxh3) << ", index " << hex(h.index_xxh3) << " (checked), payload "
            << hex(h.payload_xxh3) << " (checked by gonu verify)\n";
  return 0;
}

}  // namespace gonu::cli
