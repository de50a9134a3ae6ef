// What the generators share (internal to solver/jungi/generator/): the entry codes of Table::entries, the
// value of a move from the value of the position it leads to, the best of several options, and
// the Reader, which values positions reached by moves from the tables (en-passant fields
// included: see Reader::child). Both the level sweeps (generator.cpp) and the retrograde
// generator (retrograde.cpp) read values through it, so that they mean the same thing.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>

#include "solver/jungi/generator/generator.hpp"

namespace gonu::jungi::entry {

// Entry codes (Table::entries): the result in the top two bits, the distance in the low 14.
constexpr std::uint16_t kInvalidEntry = 0, kUnknown = 1, kWin = 0x4000, kLoss = 0x8000, kDraw = 0xC000;
constexpr std::uint16_t kKindMask = 0xC000, kDistMask = 0x3FFF;
constexpr int kMaxDist = kDistMask - 1;

inline std::uint16_t kind(std::uint16_t c) { return c & kKindMask; }
inline int dist(std::uint16_t c) { return c & kDistMask; }
inline bool decided(std::uint16_t c) { return kind(c) == kWin || kind(c) == kLoss; }
inline std::uint16_t code(std::uint16_t k, int d) { return static_cast<std::uint16_t>(k | std::min(d, kMaxDist)); }

// The value of a move for its mover, from the value of the position it leads to for the opponent.
inline std::uint16_t through_move(std::uint16_t c) {
  if (kind(c) == kWin) return code(kLoss, dist(c) + 1);
  if (kind(c) == kLoss) return code(kWin, dist(c) + 1);
  return c;  // draw, or not yet known
}

// The best of several options for one side: the shortest win, else a draw, else the longest loss.
// An option not yet known might be anything but a win shorter than the known ones.
struct Best {
  bool win = false, all_loss = true, unknown = false;
  int win_dist = INT_MAX, loss_dist = 0;
  void add(std::uint16_t c) {
    if (kind(c) == kWin) {
      win = true;
      win_dist = std::min(win_dist, dist(c));
    } else if (kind(c) == kLoss) {
      loss_dist = std::max(loss_dist, dist(c));
    } else {
      all_loss = false;
      unknown = unknown || c == kUnknown;
    }
  }
  std::uint16_t result() const {
    if (win) return code(kWin, win_dist);
    if (all_loss) return code(kLoss, loss_dist);
    return unknown ? kUnknown : kDraw;
  }
};

// Reads values of positions from the tables: `own` is the table being built (null once every
// table is final, or when only smaller tables are read), whose entries with a distance of `level`
// or more were written in the current sweep and are read as not yet known, so that a sweep's
// result does not depend on the order (or the threads) in which it visits positions.
struct Reader {
  const TableSet& set;
  const Rules& rules;
  Table* own = nullptr;
  int level = INT_MAX;

  // The value of c for its side to move, its en-passant field ignored.
  std::uint16_t stored(const Position& c) const;
  // The value of c (reached by a move) for its side to move, with its en-passant field (see
  // reader.cpp for how a field is valued).
  std::uint16_t child(const Position& c) const;
  // The best of c's captures of what passed by for c's side to move (kInvalidEntry if it has
  // none); `alone` when they are c's only moves (stalemate=draw, see child).
  std::uint16_t passed_by_captures(const Position& c, bool& alone) const;
  bool no_moves_without_field(Position c) const;
};

// Whether piece x on `from` captures what passed by on the empty passed square `to`.
bool captures_passed_by_onto(Piece x, int from, int to);

}  // namespace gonu::jungi::entry
