// Questions asked of a Jungi table file and of the tables beside it in its directory: a position's
// value, each of its moves valued and ranked best first (solver/common/move_order.hpp, the order
// every move list of gonu shares), the principal variation, and the full check of a table (every
// value re-derived from its successors). A move that leaves the material (a capture, a promotion)
// is valued from the table of the material it leads to, read from the same directory
// (table_file_name); where that table is absent the move's value is unknown.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "solver/jungi/table/table_file.hpp"
#include "solver/common/value.hpp"
#include "util/progress.hpp"

namespace gonu::jungi {

// A table and the tables its moves lead to, read into one TableSet as they are needed (a table of
// four pieces leads to up to ten others of four: they are read only when a move reaches them).
// Thread-safe: every question locks the family.
struct TableFamily {
  TableFile file;  // the table asked about
  std::string dir;
  mutable TableSet set;  // the tables read so far
  mutable std::vector<Material> absent;  // looked for beside the file and not found
  std::optional<LoadCheck> check;  // what the file's load found, if asked (open_family), for verify_family
  std::unique_ptr<std::mutex> lock = std::make_unique<std::mutex>();
  // Reads m's table from the directory if it is there and not read yet; false if it is absent.
  // Refuses (GonuError, one line) a file there of another reading or material. As stored
  // (TableFile::load_stored), its derived indices derived as they are read: a question, or the
  // verification of a table whose moves lead there, reads few of its positions.
  bool ensure(const Material& m) const;
};
// Opens `path` and reads its table whole: as stored, where a question reads a few positions
// (TableFile::load_stored); with `check`, by TableFile::load with its check, which verify_family
// reads instead of a second pass.
TableFamily open_family(const std::string& path, bool check = false);

struct MoveValue {
  Move move;
  std::string text;              // format_move (from-to: "a6-a7")
  std::string san;               // the piece's letter, from, - or x, to, the promotion ("Qa6-a7=+Q")
  bool known = false;            // false: the table of the material it leads to is absent
  gonu::Value value = gonu::Value::draw;  // for the mover
  std::uint16_t dist = 0;        // plies to the end from before the move (0 for a draw)
  std::string unknown_material;  // when unknown: the material whose table is missing
};

struct PositionAnswer {
  Position position;
  gonu::Value value = gonu::Value::draw;  // for the side to move
  std::uint16_t dist = 0;
  std::vector<MoveValue> moves;           // in generate_moves order
  std::vector<std::size_t> order;         // best first: known moves by best_first, then unknown ones
  std::vector<std::string> pv;            // a decided position: best play to the end, while known
  std::string pv_end;                     // empty when pv reaches the end; else why it stops there
  std::string end;                        // why the game is over (no moves) or empty
};

// A position's value for its side to move, read from some tables: nullopt, with `missing` set to
// a material's text, where a table it needs is absent (a TableFamily's directory, a Tables).
using Probe = std::function<std::optional<Value>(const Position&, std::string& missing)>;
// What a question says where a position's own value needs an absent table (of that material).
using MissingText = std::function<std::string(const std::string& material)>;

// The answer for p from `probe`: its value, every move valued (a move is unknown only where a
// table its position needs is absent) and ranked, and with `with_pv` the principal variation,
// which follows a best move (one whose value is the position's) each ply while the tables at hand
// give one, and otherwise stops, saying why in pv_end. Throws GonuError (missing_text's line)
// where p's own value needs an absent table.
PositionAnswer answer_position(const Rules& r, const Probe& probe, const Position& p, bool with_pv, const MissingText& missing_text);

// The answer for a position of the family's material (its en-passant field read as
// TableSet::probe reads it). Throws GonuError (one line) for a position of another material
// (unless `any_material`: a game played on leaves the table's material), one with first-move
// rights (the tables hold none), or one whose own value needs an absent table.
PositionAnswer query_position(const TableFamily& f, const Position& p, bool with_pv = true, bool any_material = false);

// Whether m is a best move: known, and of the position's own value and distance (so that a best
// move shown never disagrees with the value shown, even where an unknown move is the best).
bool is_best(const PositionAnswer& a, const MoveValue& m);

// A move's value read from the family: known or not, mover's value and distance.
MoveValue value_move(const TableFamily& f, const Position& p, const Move& m);
gonu::Value game_value(Result r);

struct FamilyVerifyResult {
  bool ok = true;
  std::string first_error;  // the lowest index's
  std::uint64_t positions = 0;
  std::array<std::uint64_t, 2> wins{}, losses{}, draws{};
  std::uint64_t derived = 0;  // positions whose value was re-derived (all of them unless sampled)
};
// The full check: the payload checksum, every valid index has a value, the header's counts, and
// every position's value and distance re-derived from its successors' (read from the family: the
// table itself and those its moves lead to). Needs the table of every material one move leads to
// (refuses with the missing one named) and reads every table of the closure present beside it
// first (a position that needs an absent one fails, naming it). The result does not depend on
// the thread count. Not to be called while another thread asks the family questions.
// With `every` > 1, only every `every`-th placement (both sides to move: the indices i with
// (i / 2) % every == 0) is re-derived, the rest counted from the stored values: a 4-piece table
// re-derived whole takes some 10 µs a position here, hours for all of them.
// `progress`, where given, is told the placements re-derived so far (phase: the material's text).
FamilyVerifyResult verify_family(const TableFamily& f, std::uint64_t every = 1, const ProgressFn& progress = {});
// verify_family of each file in turn (opened with the check), the tables read for one kept for the
// next while they hold at most `max_bytes` (beyond, those the next does not read are dropped
// first), so that a directory's tables given smallest first are each read about once, not once
// for every table that reads it. Files of another directory or reading start afresh. Calls
// done(family, result) after each; stops after the first that fails, returning false.
bool verify_families(const std::vector<std::string>& paths, std::uint64_t every, std::uint64_t max_bytes,
                     const std::function<void(const TableFamily&, const FamilyVerifyResult&)>& done,
                     const ProgressFn& progress = {});


}  // namespace gonu::jungi
