// gonu query / info / verify for a Jungi table file (the game is read from the file's magic:
// cmd_query.cpp, cmd_info.cpp and cmd_verify.cpp hand such a file here). The tables a table's
// moves lead to are read from the same directory (solver/jungi_table/query.hpp).
#include <iostream>

#include "core/error.hpp"
#include "solver/jungi_table/query.hpp"
#include "solver/state/move_order.hpp"
#include "tools/cli.hpp"
#include "tools/format_number.hpp"
#include "tools/jungi_cli.hpp"
#include "tools/jungi_query_json.hpp"
#include "tools/options.hpp"
#include "tools/play_moves.hpp"

namespace gonu::cli {

namespace {

void print_moves(const jungi::PositionAnswer& a) {
  std::cout << "moves, best first (value for " << jungi_side_name(a.position.to_move)
            << " after the move; * marks the best):\n";
  std::string group;
  for (std::size_t k = 0; k < a.order.size(); ++k) {
    const jungi::MoveValue& m = a.moves[a.order[k]];
    const std::string label = m.known ? group_label(m.value) : "moves whose table is absent:";
    if (label != group) std::cout << label << "\n";
    group = label;
    const jungi::MoveValue& top = a.moves[a.order.front()];
    const bool best = m.known && top.known && move_score(m.value, m.dist) == move_score(top.value, top.dist);
    const std::string value = m.known ? value_text(m.value, m.dist) : "unknown (no table of " + m.unknown_material + ")";
    std::cout << "  " << (best ? "* " : "  ") << m.text << std::string(m.text.size() < 12 ? 12 - m.text.size() : 1, ' ') << value
              << "\n";
  }
}

void print_query(const jungi::TableFamily& f, const jungi::PositionAnswer& a) {
  std::cout << "table:    " << f.file.path() << " (" << jungi::describe(f.file.rules()) << ")\n";
  std::cout << "material: " << f.file.header().material_text << "\n";
  std::cout << "position: " << jungi::format_position(a.position) << "\n" << jungi::draw_position(a.position);
  std::cout << "value:    " << value_text(a.value, a.dist) << " for " << jungi_side_name(a.position.to_move) << " (to move)";
  if (!a.end.empty()) std::cout << ": " << a.end;
  std::cout << "\n";
  if (a.moves.empty()) return;
  print_moves(a);
  if (!a.pv.empty()) std::cout << wrap_words("principal variation (" + std::to_string(a.pv.size()) + " plies): ", a.pv, 2, " ");
}

}  // namespace

int jungi_query(const CommandLine& cl, const std::string& path) {
  const jungi::TableFamily f = jungi::open_family(path);
  const auto text = cl.optional_text("position");
  if (!text) throw GonuError("query of a Jungi table needs a POSITION (of " + f.file.header().material_text + ")");
  const jungi::Position p = jungi_position(cl, f.file.rules(), text);
  const jungi::PositionAnswer a = jungi::query_position(f, p);
  if (cl.has("json")) std::cout << json_text(jungi_query_json(f, a)) << "\n";
  else print_query(f, a);
  return 0;
}

int jungi_info(const std::string& path) {
  const jungi::TableFile t = jungi::TableFile::open(path);
  const jungi::TableFileHeader& h = t.header();
  std::cout << "file:             " << path << " (" << with_commas(h.file_size) << " bytes)\n";
  std::cout << "format:           gonu Jungi table, format version " << h.format_version << ", index layout "
            << h.layout_version << ", written by gonu " << h.gonu_version << "\n";
  std::cout << "game:             " << h.game << "\n";
  std::cout << "rules:            " << jungi::describe(h.rules) << "\n";
  std::cout << "rules id:         " << h.rules_id << "\n";
  std::cout << "material:         " << h.material_text << "\n";
  std::cout << "indices:          " << with_commas(h.indices) << " (" << with_commas(h.positions) << " positions)\n";
  for (const std::size_t s : {0u, 1u})
    std::cout << (s == 0 ? "South to move:    " : "North to move:    ") << "WIN " << with_commas(h.wins[s]) << " / LOSS "
              << with_commas(h.losses[s]) << " / DRAW " << with_commas(h.draws[s]) << "\n";
  if (h.longest_win >= 0) {
    jungi::Position p;
    t.indexer().decode(h.longest_win_index, p);
    std::cout << "longest win:      " << h.longest_win << " plies, " << jungi::format_position(p) << "\n";
  } else {
    std::cout << "longest win:      none\n";
  }
  std::cout << "longest loss:     " << h.longest_loss << " plies\n";
  char per[64];
  std::snprintf(per, sizeof per, "%.4f bytes an index, %.3f a position", double(h.file_size) / double(h.indices),
                h.positions ? double(h.file_size) / double(h.positions) : 0.0);
  std::cout << "layout:           " << with_commas(h.blocks) << " zstd blocks of " << with_commas(h.block_indices) << " indices, "
            << int(h.code_bytes) << "-byte value codes\n";
  std::cout << "size:             " << per << "\n";
  char sums[128];
  std::snprintf(sums, sizeof sums, "header %016llx, index %016llx (checked), payload %016llx (checked by gonu verify)",
                (unsigned long long)h.header_xxh3, (unsigned long long)h.index_xxh3, (unsigned long long)h.payload_xxh3);
  std::cout << "checksums (XXH3): " << sums << "\n";
  return 0;
}

int jungi_verify(const std::string& path) {
  const jungi::TableFamily f = jungi::open_family(path);
  const jungi::FamilyVerifyResult r = jungi::verify_family(f);
  if (!r.ok) throw GonuError(path + ": verify failed: " + r.first_error);
  std::cout << "OK " << path << ": header, checksums, and " << with_commas(r.positions)
            << " positions re-derived from their successors (" << jungi::describe(f.file.rules()) << ")\n";
  for (const std::size_t s : {0u, 1u})
    std::cout << (s == 0 ? "South to move: " : "North to move: ") << "WIN " << with_commas(r.wins[s]) << " / LOSS "
              << with_commas(r.losses[s]) << " / DRAW " << with_commas(r.draws[s]) << "\n";
  return 0;
}

}  // namespace gonu::cli
