// gonu query / info / verify for a Jungi table file (the game is read from the file's magic:
// cmd_query.cpp, cmd_info.cpp and cmd_verify.cpp hand such a file here), and gonu play's start on
// one (the game itself is tools/cli/play_session.hpp's, with tools/jungi/play_jungi.hpp). The tables a table's
// moves lead to are read from the same directory (solver/jungi/table/query.hpp).
#include <cstdio>
#include <filesystem>
#include <map>
#include <iostream>

#include "core/error.hpp"
#include "solver/jungi/table/query.hpp"
#include "solver/jungi/table/tables.hpp"
#include "tools/cli/cli.hpp"
#include "tools/report/format_number.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/jungi/jungi_query_json.hpp"
#include "tools/cli/options.hpp"
#include "tools/jungi/play_jungi.hpp"
#include "tools/report/play_moves.hpp"
#include "tools/cli/play_session.hpp"
#include "tools/cli/progress_display.hpp"

namespace gonu::cli {

namespace {

// A question reads a few blocks of a few tables: a small cache does (a query's or a game's whole
// memory, binary included, stays under 64 MiB).
constexpr std::uint64_t kQueryCache = std::uint64_t{24} << 20;

std::string directory_of(const std::string& path) {
  const std::string d = std::filesystem::path(path).parent_path().string();
  return d.empty() ? "." : d;
}

void print_moves(const jungi::PositionAnswer& a) {
  std::cout << "moves, best first (value for " << jungi_side_name(a.position.to_move)
            << " after the move; * marks the best):\n";
  std::string group;
  for (std::size_t k = 0; k < a.order.size(); ++k) {
    const jungi::MoveValue& m = a.moves[a.order[k]];
    const std::string label = m.known ? group_label(m.value) : "moves whose table is absent:";
    if (label != group) std::cout << label << "\n";
    group = label;
    const bool best = jungi::is_best(a, m);
    const std::string value = m.known ? value_text(m.value, m.dist) : "unknown (no table of " + m.unknown_material + ")";
    const std::string both = m.san + " (" + m.text + ")";
    std::cout << "  " << (best ? "* " : "  ") << both << std::string(both.size() < 28 ? 28 - both.size() : 1, ' ') << value << "\n";
  }
}

void print_query(const jungi::TableFile& file, const jungi::PositionAnswer& a) {
  std::cout << "table:    " << file.path() << " (" << jungi::describe(file.rules()) << ")\n";
  std::cout << "material: " << file.header().material_text << "\n";
  std::cout << "position: " << jungi::format_position(a.position) << "\n" << jungi::draw_position(a.position);
  std::cout << "value:    " << value_text(a.value, a.dist) << " for " << jungi_side_name(a.position.to_move) << " (to move)";
  if (!a.end.empty()) std::cout << ": " << a.end;
  std::cout << "\n";
  if (a.moves.empty()) return;
  print_moves(a);
  if (!a.pv.empty())
    std::cout << wrap_words("principal variation (" + std::to_string(a.pv.size()) + " plies): ", pv_san(file.rules(), a.position, a.pv), 2, " ");
  if (!a.pv_end.empty()) std::cout << "principal variation stops: " << a.pv_end << "\n";
}

}  // namespace

std::string jungi_table_in(const CommandLine& cl, const std::string& dir) {
  const auto text = cl.optional_text("position");
  if (!text) throw GonuError("a directory of Jungi tables needs a POSITION: its material names the table");
  return jungi::table_file_for(dir, [&](const jungi::Rules& r) { return jungi_position(cl, r, text); });
}

int jungi_play(const CommandLine& cl, const std::string& path) {
  // The table and those beside it, where a move's capture or promotion leads.
  const jungi::Tables tables({path, directory_of(path)}, kQueryCache);
  const jungi::TableFile file = jungi::TableFile::open(path);
  const jungi::Rules r = file.rules();
  const auto text = cl.optional_text("position");
  if (!text) throw GonuError("play on a Jungi table needs a POSITION (of " + file.header().material_text + ")");
  const jungi::Position p = jungi::parse_position(r, *text);
  // Refuses a bad --history, a position (after it) of another material, one with first-move
  // rights or whose own table is absent, before the game.
  const jungi::Position after = jungi_position(cl, r, text);
  if (jungi::canonical(jungi::material_of(after)) != file.material())
    throw GonuError("the position is of " + jungi::material_text(jungi::material_of(after)) + ", the table of " +
                    file.header().material_text + " (and of its colour flip)");
  tables.query(r, after, false);
  // The one place the game asks the tables: the answer for a position, its moves valued.
  const JungiAsk ask = [&tables, r](const jungi::Position& at) { return tables.query(r, at, false); };
  JungiPlay game(r, ask, p, cl.text_or_empty("history"));
  PlaySettings s = play_settings(cl, game);
  s.position = text;
  s.source = path + " (" + file.header().material_text + ")";
  s.replay = "gonu play '" + cl.text("file") + "'";  // the table or the directory, as given
  LineReader in;
  PlaySession(game, s).run(in);
  return 0;
}

int jungi_query(const CommandLine& cl, const std::string& path) {
  const bool dir = std::filesystem::is_directory(path);
  // A file's neighbours are the tables beside it; the file itself is the table of its material.
  const jungi::Tables tables(dir ? std::vector<std::string>{path} : std::vector<std::string>{path, directory_of(path)}, kQueryCache);
  std::optional<jungi::TableFile> named;
  if (!dir) named.emplace(jungi::TableFile::open(path));
  const jungi::Rules r = named ? named->rules() : tables.only_reading();
  const auto text = cl.optional_text("position");
  if (!text)
    throw GonuError(named ? "query of a Jungi table needs a POSITION (of " + named->header().material_text + ")"
                          : "a directory of Jungi tables needs a POSITION: its material names the table");
  const jungi::Position p = jungi_position(cl, r, text);
  const jungi::Material m = jungi::canonical(jungi::material_of(p));
  if (named && m != named->material() && !cl.has("history"))
    throw GonuError("the position is of " + jungi::material_text(jungi::material_of(p)) + ", the table of " + named->header().material_text +
                    " (and of its colour flip)");
  const jungi::PositionAnswer a = tables.query(r, p);
  const jungi::TableFile* file = tables.table(r, m);
  if (cl.has("json")) std::cout << json_text(jungi_query_json(*file, a)) << "\n";
  else print_query(*file, a);
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
  if (h.counts_whole_board())
    std::cout << "positions:        " << with_commas(h.positions) << " (the whole board, each distinct position once) in "
              << with_commas(h.indices) << " indices\n";
  else
    std::cout << "indices:          " << with_commas(h.indices) << " (" << with_commas(h.positions)
              << " valid: format " << h.format_version << " counts indices, not the board's positions; gonu repack rewrites it)\n";
  for (const std::size_t s : {0u, 1u})
    std::cout << (s == 0 ? "South to move:    " : "North to move:    ") << "WIN " << with_commas(h.wins[s]) << " / LOSS "
              << with_commas(h.losses[s]) << " / DRAW " << with_commas(h.draws[s]) << "\n";
  jungi::Position p;
  if (h.longest_win >= 0 && t.indexer().decode(h.longest_win_index, p)) {  // a valid index: TableFile::open checks it
    std::cout << "longest win:      " << h.longest_win << " plies, " << jungi::format_position(p) << "\n";
  } else {
    std::cout << "longest win:      none\n";
  }
  std::cout << "longest loss:     " << h.longest_loss << " plies\n";
  char per[64];
  std::snprintf(per, sizeof per, "%.4f bytes an index, %.3f a position", double(h.file_size) / double(h.indices),
                h.positions ? double(h.file_size) / double(h.positions) : 0.0);
  std::cout << "layout:           " << with_commas(h.blocks) << (h.codec == jungi::kJungiCodecXz ? " xz" : " zstd") << " blocks of " << with_commas(h.block_indices) << " indices, "
            << int(h.code_bytes) << "-byte value codes\n";
  std::cout << "size:             " << per << "\n";
  char sums[128];
  std::snprintf(sums, sizeof sums, "header %016llx, index %016llx (checked), payload %016llx (checked by gonu verify)",
                (unsigned long long)h.header_xxh3, (unsigned long long)h.index_xxh3, (unsigned long long)h.payload_xxh3);
  std::cout << "checksums (XXH3): " << sums << "\n";
  return 0;
}

int jungi_verify(const std::vector<std::string>& paths, std::uint64_t every, std::uint64_t max_bytes, bool quiet) {
  const ProgressFn progress = make_progress(quiet);
  const auto report = [&](const jungi::TableFamily& f, const jungi::FamilyVerifyResult& r) {
    const std::string& path = f.file.path();
    end_progress(progress);
    if (!r.ok) throw GonuError(path + ": verify failed: " + r.first_error);
    std::cout << "OK " << path << ": header, checksums, and " << with_commas(r.derived)
              << (every > 1 ? " positions (every " + with_commas(every) + "th placement) of " + with_commas(r.positions)
                            : std::string(" positions"))
              << " re-derived from their successors (" << jungi::describe(f.file.rules()) << ")\n";
    // The header's counts, checked against the table's (of the whole board from format 5).
    const jungi::TableFileHeader& h = f.file.header();
    for (const std::size_t s : {0u, 1u})
      std::cout << (s == 0 ? "South to move: " : "North to move: ") << "WIN " << with_commas(h.wins[s]) << " / LOSS "
                << with_commas(h.losses[s]) << " / DRAW " << with_commas(h.draws[s]) << "\n";
    std::cout.flush();
  };
  jungi::verify_families(paths, every, max_bytes ? max_bytes : jungi::physical_memory_bytes(), report, progress);
  return 0;
}

namespace {

std::string share(std::uint64_t part, std::uint64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return text;
}

}  // namespace

int jungi_info_dir(const std::string& dir) {
  const jungi::Tables tables({dir});
  std::uint64_t bytes = 0;
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> by_pieces;  // tables, bytes
  std::cout << "directory:  " << dir << " (" << with_commas(tables.entries().size()) << " Jungi tables, " << tables.readings().size()
            << (tables.readings().size() == 1 ? " reading)\n" : " readings)\n");
  std::string reading;
  for (const jungi::TableEntry& e : tables.entries()) {
    if (jungi::rules_id(e.rules) != reading) {
      reading = jungi::rules_id(e.rules);
      std::cout << "reading:    " << jungi::describe(e.rules) << " (" << reading << ")\n";
      std::cout << "  material: positions (the whole board); South to move wins / loses / draws; North to move wins; longest win; bytes\n";
    }
    try {
      const jungi::TableFileHeader& h = tables.table(e.rules, e.material)->header();
      const std::uint64_t side = h.wins[0] + h.losses[0] + h.draws[0], north = h.wins[1] + h.losses[1] + h.draws[1];
      std::cout << "  " << h.material_text << ": " << with_commas(h.positions) << (h.counts_whole_board() ? "" : " (valid indices: format 4 or older)")
                << "; " << share(h.wins[0], side) << " / " << share(h.losses[0], side) << " / " << share(h.draws[0], side) << "; "
                << share(h.wins[1], north) << "; " << (h.longest_win >= 0 ? std::to_string(h.longest_win) + " plies" : std::string("none"))
                << "; " << with_commas(h.file_size) << "\n";
      bytes += h.file_size;
      auto& [count, size] = by_pieces[e.material.pieces()];
      ++count, size += h.file_size;
    } catch (const GonuError& x) {
      std::cout << "  " << jungi::material_text(e.material) << ": refused: " << x.what() << "\n";
    }
  }
  for (const auto& [pieces, cs] : by_pieces)
    std::cout << "pieces " << pieces << ":   " << with_commas(cs.first) << " tables, " << with_commas(cs.second) << " bytes\n";
  std::cout << "in all:     " << with_commas(bytes) << " bytes\n";
  return 0;
}

}  // namespace gonu::cli
