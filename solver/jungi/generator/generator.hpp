// The Jungi endgame generator: every position of one material solved, WIN/LOSS/DRAW for the side
// to move with the distance in plies to the end (the enemy royal's capture; a side without a legal
// move has lost, LOSS in 0, or DRAW in 0 under stalemate=draw). Captures and promotions lead to
// smaller materials (material_closure), solved first and kept in the same TableSet.
//
// Positions with an en-passant field are not stored: see child_value in generator.cpp for how
// their values are derived from the stored position and its captures of what passed by.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/jungi/moves.hpp"
#include "solver/jungi/generator/indexing.hpp"
#include "solver/jungi/generator/material.hpp"

namespace gonu::jungi {

enum class Result : std::uint8_t { invalid, win, loss, draw };
struct Value {
  Result result = Result::invalid;
  int dist = 0;
  bool operator==(const Value&) const = default;
};
std::string value_text(const Value& v);  // "WIN in 5", "LOSS in 0", "DRAW", "invalid"

// What one solve counted, for the side to move (index 0 South, 1 North).
struct TableStats {
  std::uint64_t indices = 0, positions = 0;  // all indices; the valid ones (both mirror images of an e-file royal)
  std::array<std::uint64_t, 2> wins{}, losses{}, draws{};
  // The same counts over the whole board, each distinct position once: a valid index whose South
  // royal stands on files a-d stands for itself and its mirror image (not indexed), one on the
  // e-file for itself alone (its mirror image has its own index, or is itself).
  std::uint64_t board_positions = 0;
  std::array<std::uint64_t, 2> board_wins{}, board_losses{}, board_draws{};
  int longest_win = -1;                      // plies; -1: no win
  std::uint64_t longest_win_index = 0;       // the first index with that longest win
  int longest_loss = 0;                      // plies
  int sweeps = 0;
  bool child_lists = false;                  // solved over child lists (else forward sweeps)
  bool retrograde = false;                   // solved by un-moves (retrograde.cpp); `sweeps` then counts
                                             // the levels the sweeps would have taken
  double seconds = 0;
};

struct Table {
  Table(const Rules& rules, const Material& material) : indexer(rules, material) {}
  Indexer indexer;
  // One entry per index: 0 invalid, 1 not yet known (while solving), else the result in the top
  // two bits (1 win, 2 loss, 3 draw) and the distance in the low 14.
  std::vector<std::uint16_t> entries;
  TableStats stats;
  // Where not empty (TableOptions::keep_derived), one bit an index, bit i % 64 of word i / 64: the
  // valid indices whose value follows from another's or from the rules alone, as the retrograde
  // solver found them: the side to move takes a royal (a WIN in 1), or the position is a mirror
  // image of one at a smaller index (its South royal on the e-file). A table file stores neither
  // (sources_of derives them); its writer reads these bits instead of deriving each again.
  std::vector<std::uint64_t> derived;
  // Where set (a table read from its file block by block, solver/jungi/table/tables.hpp),
  // entries is empty and TableSet::entry reads each index's entry through it, derived indices
  // derived.
  std::function<std::uint16_t(std::uint64_t)> read;
  // Where true (a table read from its file for a few questions: TableFile::load_stored), the
  // derived indices (source_of) hold what the file stores there, not their values, and only
  // TableSet::entry reads the table: it derives them as it reads them. A query then does not pay
  // for the pass over every index that deriving them all takes (most of a full load's time).
  bool derive_on_read = false;
  Value value(std::uint64_t index) const;
  bool is_derived(std::uint64_t i) const { return derived[i / 64] >> (i % 64) & 1; }
};

// Where a valid index's value comes from: the code stored at the index; WIN in 1 when the side to
// move takes the enemy royal (takes_royal: no other value is possible, whatever the rules); or,
// with South's royal on the e-file, the value of the mirror image (a symmetry of every rule),
// when that image's index is smaller (that image is then stored: it does not take the royal
// either, a symmetry again). `p` is the index's position (Indexer::decode). A table file stores
// neither derived kind (solver/jungi/table/table_file.hpp).
struct ValueSource {
  enum Kind : std::uint8_t { stored, royal_taken, mirror, invalid } kind;
  std::uint64_t image;  // the mirror image's index, for `mirror`
};
ValueSource source_of(const Indexer& indexer, const Rules& r, std::uint64_t index, const Position& p);

// How the levels are found: by un-moves from the positions decided, with a counter of moves a
// position (retrograde, the fastest: 4 bytes an index while solving); or by sweeping every
// unknown position, generating its moves again at each level (forward), or once into lists of
// the indices they lead to (lists, up to some 700 bytes an index). automatic is retrograde; the
// sweeps stay as a check written the other way round. Same results.
enum class SweepMethod : std::uint8_t { automatic, forward, lists, retrograde };

// Progress: a material, the level just swept, the positions it decided, seconds since that
// table's start.
using LevelReport = std::function<void(const Material&, int, std::uint64_t, double)>;

struct TableOptions {
  SweepMethod sweeps = SweepMethod::automatic;
  std::uint64_t max_memory = 0;  // bytes the tables may take; 0: the machine's physical memory
  // Called after each table is solved (in dependency order).
  std::function<void(const Table&)> on_solved;
  LevelReport on_level;
  // The retrograde solver keeps Table::derived (an eighth of a byte an index, held with the
  // table until TableSet::drop_derived): for a run that writes each table's file.
  bool keep_derived = false;
};

// The retrograde solver's working memory an index of the table it solves, besides the table: the
// distance a move leaving the material forces on a loss (retrograde.cpp, Solver::fixed_loss_).
constexpr std::uint64_t kSolverBytesPerIndex = 2;

// The materials whose tables a solve of m reads (never m itself), sorted: the materials of m's
// pieces that one promotion leads to, and every smaller material within four captures or
// promotions. A move takes at most two steps (a capture that promotes; an Emperor's two captures,
// the Emperor being promoted already), and the captures of what passed by that a field left by a
// move allows take two more (one capture, which may promote); a move that keeps every piece
// promotes once at most. A superset of what the Reader and the retrograde Solver look up; they
// throw (GonuError) on a table that is not held, so a gap here cannot go unnoticed. The kept
// materials (canonical): a flipped material is read from its kept table.
std::vector<Material> materials_read(const Material& m);

// The tables solved so far, by material (kept materials only: a flipped material's positions are
// read from its kept table, entry and probe), under one reading of the rules.
class TableSet {
 public:
  explicit TableSet(const Rules& rules) : rules_(rules) {}
  const Rules& rules() const { return rules_; }
  // The table of m, held only for a kept material (is_canonical); nullptr if not held.
  const Table* find(const Material& m) const;
  // Where set, entry and probe ask it for the table of a kept material not held (a set of table
  // files opened as questions reach them, solver/jungi/table/tables.hpp): it returns the table,
  // whose pointer stays valid while this set lives, or throws (GonuError) naming what is missing.
  using Lookup = std::function<const Table*(const Material&)>;
  void set_lookup(Lookup lookup) { lookup_ = std::move(lookup); }
  // The stored entry of a placement (no field) with `to_move` to move, read through the colour
  // flip where its material is not kept. Throws GonuError if that table is not held.
  std::uint16_t entry(const Placement& pl, Side to_move) const;
  // Solves m's table (that of canonical(m), which holds m's positions flipped) and every kept
  // material it leads to that is not solved yet, smallest first; refuses (GonuError, one line)
  // when the tables together would pass the memory limit.
  const Table& solve(const Material& m, const TableOptions& options = {});
  // The bytes that solving m would add: the tables of its closure not solved yet, and the
  // retrograde solver's working array for the largest of them (kSolverBytesPerIndex).
  std::uint64_t bytes_needed(const Material& m) const;
  // The value for the side to move of any position whose material is solved here, with or
  // without an en-passant field (the field's captures read from the tables they lead to).
  Value probe(const Position& p) const;
  // Takes in a table of a kept material solved before under these rules (read from a table
  // file, with its entries final at the valid indices; what its invalid ones hold is never
  // read): find, probe and solve then use it as one solved here. Throws GonuError if its
  // material is held already or not kept, or its entries are not one an index.
  const Table& adopt(std::unique_ptr<Table> table);
  // Solves m alone (its kept table, canonical(m)), its closure not looked at: every table of
  // materials_read(m) must be held (solved or adopted); a GonuError names the first that is not. What a run that holds only some
  // tables calls (gonu solve --dir: each material after loading what it reads); no memory check.
  const Table& solve_alone(const Material& m, const TableOptions& options = {});
  // Drops m's table (if held), so that a run through many materials holds only what is still read
  // (its file keeps it); find(m) is then null.
  void release(const Material& m);
  // Drops m's Table::derived bits (once its file is written).
  void drop_derived(const Material& m);
  // The bytes of the entries of every table held, and of their derived bits.
  std::uint64_t held_bytes() const;
  // The materials whose tables are held, in no set order.
  std::vector<Material> held() const;

 private:
  void solve_one(const Material& m, SweepMethod method, const TableOptions& options);
  Rules rules_;
  Lookup lookup_;
  // Hashed: the solver looks a table up for every capture it values.
  struct MaterialHash {
    std::size_t operator()(const Material& m) const;
  };
  std::unordered_map<Material, std::unique_ptr<Table>, MaterialHash> tables_;
};

// The machine's physical memory in bytes (0 if unknown).
std::uint64_t physical_memory_bytes();

}  // namespace gonu::jungi
