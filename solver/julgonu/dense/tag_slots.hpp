// Local numbering of history tags within a position, for the dense engine's tagged rule sets.
//
// In normal form (core/julgonu/repetition.hpp) a tag's `mine` is a step whose reverse is possible now,
// so it ends on a piece of the side to move next to an empty point; `theirs`, the step just
// played, ends on an opponent's piece next to the empty point it came from (for `immediate`,
// a capture clears the whole tag). So with M(p) the steps (q -> t) where t holds a piece of the
// side to move and q is an empty neighbour, T(p) the same for the opponent, a = |M|, c = |T|:
//   slot = ban * (a + 1) * (c + 1) + theirs_index * (a + 1) + mine_index,
// with index 0 for no step and 1 + the step's rank by pack_tag code within M or T. This is
// pack_tag's order (mine, then theirs << 9, then ban << 18), so a position's slots ascend with
// its tags' codes, and with the board-major keys of state_key.hpp, (board, slot) order is key
// order. Some slots hold no tag in normal form (ban without mine, for one); they are simply
// never reached. Steps are counted on whole sets: t with an empty neighbour in direction
// d ^ 2 (the step travelled d) are the pieces in shift(empty, d).
#pragma once
#include <cstdint>

#include "core/julgonu/position.hpp"
#include "core/julgonu/repetition.hpp"

namespace gonu {

// Steps ending on a piece of `side_pieces` from an empty point: count, and rank of one by code.
inline int step_count(const Board& b, Bits side_pieces, Bits empty) {
  return popcount(side_pieces & shift(b, empty, 0)) + popcount(side_pieces & shift(b, empty, 1)) +
         popcount(side_pieces & shift(b, empty, 2)) + popcount(side_pieces & shift(b, empty, 3));
}
// code = 1 + to * 4 + direction travelled (pack_tag's step code); the step must be one of them.
inline int step_rank(const Board& b, Bits side_pieces, Bits empty, std::uint32_t code) {
  const int to = int((code - 1) / 4), dir = int((code - 1) % 4);
  const Bits below = bit(to) - 1;
  int r = 0;
  for (int d = 0; d < 4; ++d) {
    const Bits ends = side_pieces & shift(b, empty, d);
    r += popcount(ends & below) + (d < dir ? int((ends >> to) & 1) : 0);
  }
  return r;
}
struct TagSpace {
  int mine_steps, theirs_steps;  // a and c
  std::uint32_t size() const { return 2u * std::uint32_t(mine_steps + 1) * std::uint32_t(theirs_steps + 1); }
};

inline TagSpace tag_space(const Board& b, const Position& p) {
  const Bits empty = b.all & ~occupied(p);
  return TagSpace{step_count(b, mover(p), empty), step_count(b, waiter(p), empty)};
}

// The slot of a tag code (a tag in normal form for p).
inline std::uint32_t tag_slot(const Board& b, const Position& p, const TagSpace& s, std::uint32_t code) {
  const Bits empty = b.all & ~occupied(p);
  const std::uint32_t mine = code & 511u, theirs = (code >> 9) & 511u, ban = code >> 18;
  const std::uint32_t mi = mine ? 1u + std::uint32_t(step_rank(b, mover(p), empty, mine)) : 0u;
  const std::uint32_t ti = theirs ? 1u + std::uint32_t(step_rank(b, waiter(p), empty, theirs)) : 0u;
  const std::uint32_t row = std::uint32_t(s.mine_steps + 1);
  return (ban * std::uint32_t(s.theirs_steps + 1) + ti) * row + mi;
}

}  // namespace gonu
