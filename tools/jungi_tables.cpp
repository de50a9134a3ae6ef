// gonu query / info / verify for a Jungi table file (the game is read from the file's magic:
// cmd_query.cpp, cmd_info.cpp and cmd_verify.cpp hand such a file here). The tables a table's
// moves lead to are read from the same directory (solver/jungi_table/query.hpp).
#include <filesystem>
#include <iostream>

#include "core/error.hpp"
#include "solver/jungi_table/query.hpp"
#include "solver/jungi_table/tables.hpp"
#include "tools/cli.hpp"
#include "tools/format_number.hpp"
#include "tools/jungi_cli.hpp"
#include "tools/jungi_query_json.hpp"
#include "tools/options.hpp"
#include "tools/play_input.hpp"
#include "tools/play_moves.hpp"

namespace gonu::cli {

namespace {

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

// gonu play on a Jungi table: one game against perfect play (the best move of the ranked list:
// fastest win, keep the draw, slowest loss; ties in move order, so a game replays exactly).
struct JungiGame {
  const jungi::TableFamily& f;
  std::optional<jungi::Side> human;  // none: the user plays both sides
  std::vector<jungi::Position> line;
  std::vector<std::string> record;

  const jungi::Position& now() const { return line.back(); }
  void show(const jungi::PositionAnswer& a) const {
    std::cout << jungi::draw_position(a.position) << jungi::format_position(a.position) << "\n";
    std::cout << "value: " << value_text(a.value, a.dist) << " for " << jungi_side_name(a.position.to_move) << " (to move)\n";
  }
  void play(const jungi::Move& m, const std::string& text) {
    record.push_back(text);
    line.push_back(jungi::apply_move(now(), m));
  }
  // One turn; false when the game or the input has ended.
  bool turn(LineReader& in) {
    if (now().royal[0] < 0 || now().royal[1] < 0) return over("a royal was captured");
    const jungi::PositionAnswer a = jungi::query_position(f, now(), false, true);
    show(a);
    if (a.moves.empty()) return over(a.end);
    const jungi::MoveValue& best = a.moves[a.order.front()];
    if (human && now().to_move != *human) {
      if (!best.known) throw GonuError("the engine's moves need tables absent from " + f.dir);
      std::cout << "gonu plays " << best.text << "\n";
      play(best.move, best.text);
      return true;
    }
    for (;;) {
      const auto typed = in.read(std::string(jungi_side_name(now().to_move)) + " to move> ");
      if (!typed || *typed == "quit" || *typed == "q") return false;
      if (*typed == "hint") {
        std::cout << "hint: " << best.text << " (" << (best.known ? value_text(best.value, best.dist) : "unknown") << ")\n";
        continue;
      }
      if (*typed == "undo" && line.size() > 1) {
        const std::size_t back = human && line.size() > 2 ? 2 : 1;
        line.resize(line.size() - back), record.resize(record.size() - back);
        return true;
      }
      try {
        const jungi::Move m = jungi::parse_move(f.file.rules(), now(), *typed);
        play(m, jungi::format_move(f.file.rules(), now(), m));
        return true;
      } catch (const GonuError& e) {
        std::cout << "not a move here: " << e.what() << " (moves, hint, undo, quit)\n";
      }
    }
  }
  bool over(const std::string& why) {
    std::cout << "game over: " << why << "\n";
    return false;
  }
};

}  // namespace

std::string jungi_table_in(const CommandLine& cl, const std::string& dir) {
  const auto text = cl.optional_text("position");
  if (!text) throw GonuError("a directory of Jungi tables needs a POSITION: its material names the table");
  return jungi::table_file_for(dir, [&](const jungi::Rules& r) { return jungi_position(cl, r, text); });
}

int jungi_play(const CommandLine& cl, const std::string& path) {
  const jungi::TableFamily f = jungi::open_family(path);
  const auto text = cl.optional_text("position");
  if (!text) throw GonuError("play on a Jungi table needs a POSITION (of " + f.file.header().material_text + ")");
  const jungi::Position p = jungi_position(cl, f.file.rules(), text);
  jungi::query_position(f, p, false);  // refuses a position of another material before the game
  JungiGame g{f, p.to_move, {p}, {}};
  if (cl.has("as")) {
    const std::string as = cl.text("as");
    if (as == "both") g.human.reset();
    else if (as == "south") g.human = jungi::Side::south;
    else if (as == "north") g.human = jungi::Side::north;
    else throw GonuError("--as: south, north or both for a Jungi table, not '" + as + "'");
  }
  std::cout << "table: " << path << " (" << f.file.header().material_text << ", " << jungi::describe(f.file.rules()) << ")\n";
  LineReader in;
  while (g.turn(in)) {
  }
  std::cout << wrap_words("record: ", g.record, 2, " ");
  return 0;
}

int jungi_query(const CommandLine& cl, const std::string& path) {
  // A question reads a few blocks of a few tables: a small cache does (the query's whole memory,
  // binary included, stays under 64 MiB).
  constexpr std::uint64_t kQueryCache = std::uint64_t{24} << 20;
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

int jungi_verify(const std::vector<std::string>& paths, std::uint64_t every, std::uint64_t max_bytes) {
  const auto report = [&](const jungi::TableFamily& f, const jungi::FamilyVerifyResult& r) {
    const std::string& path = f.file.path();
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
  jungi::verify_families(paths, every, max_bytes ? max_bytes : jungi::physical_memory_bytes(), report);
  return 0;
}

}  // namespace gonu::cli
