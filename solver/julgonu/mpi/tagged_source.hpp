// A process's states of a tagged distributed solve (solve_mpi_tagged.cpp) read straight from its
// compact form, as range_source.hpp does for the untagged rule sets: no record per state is built.
//
// A process owns the boards [board_lo, board_hi) with every tag slot of them, the ids [lo, hi)
// of the tagged space (solver/julgonu/dense/tagged_space.hpp). Its reached states there are
//   - on a canonical board, or one that is its own image: Part::bits, which index the cells;
//   - on any other board: the mirror images of its canonical board's states, marked from that
//     board's bits when it is this process's, else from the image words another process sent
//     (RemoteImages: the image's id - lo, and its value word).
// `reached` marks all of them by id - lo; a state's number in the range is its rank there, key
// order (boards follow key order, and a board's slots its states' tag codes).
#pragma once
#include <cstdint>
#include <memory>

#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"
#include "solver/julgonu/mpi/part.hpp"
#include "solver/julgonu/mpi/range_bits.hpp"
#include "solver/julgonu/mpi/range_source.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::mpi {

struct TaggedRange {
  const KeyCodec& codec;
  const dense::TaggedSpace& space;
  Part& part;  // its bits are read only (RangeBits takes them as it finds them)
  std::uint64_t board_lo, board_hi;
  bool owns(std::uint64_t board_id) const { return board_id >= board_lo && board_id < board_hi; }
};

// visit(image id, value word) for every reached state of the canonical board bid (position p,
// not its own image), its image's id on the mirror board with the state's value word (a draw's
// distance 0, as the table has it).
template <class Visit>
void for_each_image(const TaggedRange& r, std::uint64_t bid, const Position& p, Visit&& visit) {
  const dense::TaggedSpace& space = r.space;
  const std::uint64_t base = space.base(bid), end = space.base(bid + 1);
  RangeBits bits(r.part.bits, r.part.lo);
  if (!bits.any(base, end)) return;
  const Position image = dense::unpack(space.mirror_board(dense::pack(p)), p.to_move);
  const std::uint64_t image_base = space.base(space.board_id(image));
  const dense::BoardSteps steps(r.codec.board, p);
  const dense::SlotMirror to_image(r.codec.board, space, steps, image);
  std::uint64_t cell = bits.rank(base);
  bits.for_each(base, end, [&](std::uint64_t id) {
    std::uint32_t mi, ti, ban;
    steps.split(std::uint32_t(id - base), mi, ti, ban);
    const Value v = r.part.cells.value(cell);
    visit(image_base + to_image(mi, ti, ban), value_word(v, v == Value::draw ? 0 : r.part.cells.dist(cell)));
    ++cell;
  });
}

// The reached states of the range (above), marked by id - lo; returned finished.
dense::RankedBits mark_tagged_reached(const TaggedRange& r, const RemoteImages& remote);

// The range's states as a StateSource (numbers from 0 in the range). It keeps references to
// what r names, which must outlive it; reached (from mark_tagged_reached) and remote it owns.
std::shared_ptr<const StateSource> tagged_range_source(const TaggedRange& r, dense::RankedBits reached,
                                                       RemoteImages remote);

}  // namespace gonu::mpi
