// The tagged dense engine's read-off (tagged_space.hpp, readoff.hpp): blocks of boards in order,
// and within each board its reached slots, whose order is their tags' code order, so key order.
// A state that is not canonical takes its value from its image's cell.
#include <algorithm>

#include "solver/dense/readoff.hpp"
#include "solver/dense/tagged_space.hpp"

namespace gonu::dense {

namespace {

// The reached states of one board (id bid, position p, cells [first, last)) in key order.
void read_board(const TaggedRun& t, std::uint64_t bid, const Position& p, SolutionWriter& out) {
  const TaggedSpace& space = t.space;
  const std::uint64_t first = space.base(bid), last = space.base(bid + 1);
  if (!t.reached.count(first, last)) return;
  const BoardSteps steps(t.b, p);
  const std::uint64_t w = pack(p), mw = space.mirror_board(w);
  const Key board_key = encode_board_side(t.s.codec, p) << t.s.codec.tag_bits;
  auto put = [&](std::uint32_t code, const Cell& cl) {
    const Value v = Value(cl.value.load(std::memory_order_relaxed));
    out.put(board_key | code, v, v == Value::draw ? 0 : cl.dist.load(std::memory_order_relaxed));  // a draw's held the reach level
  };
  if (w < mw || !space.mirroring()) {  // every state canonical
    t.reached.for_each(first, last, [&](std::uint64_t id) { put(steps.code(std::uint32_t(id - first)), t.cell[id]); });
    return;
  }
  // A state that is not canonical takes its image's cell, on the image board; on a board that is
  // its own image, the canonical one of a pair is the smaller code, so slot.
  const Position image = unpack(mw, p.to_move);
  const std::uint64_t image_base = mw < w ? space.base(space.board_id(image)) : first;
  const SlotMirror to_image(t.b, space, steps, image);
  t.reached.for_each(first, last, [&](std::uint64_t id) {
    const std::uint32_t slot = std::uint32_t(id - first);
    std::uint32_t mi, ti, ban;
    steps.split(slot, mi, ti, ban);
    const std::uint32_t mirrored = to_image(mi, ti, ban);
    const std::uint32_t code = steps.code(mi, ti, ban);
    put(code, t.cell[image_base + (mw < w ? mirrored : std::min(slot, mirrored))]);
  });
}

}  // namespace

// 3. read off: blocks of boards; per block, its reached slots counted, then listed in order.
void read_off_tagged(TaggedRun& t) {
  constexpr std::uint64_t kBlock = 1 << 14;
  const TaggedSpace& space = t.space;
  const std::uint64_t nboards = space.board_ids(), blocks = (nboards + kBlock - 1) / kBlock;
  read_off(
      t.s, t.need, blocks,
      [&](std::uint64_t blk) {
        const std::uint64_t lo = blk * kBlock, hi = std::min(nboards, lo + kBlock);
        return t.reached.count(space.base(lo), space.base(hi));
      },
      [&](std::uint64_t blk, SolutionWriter& out) {
        space.walk(blk * kBlock, std::min(nboards, (blk + 1) * kBlock),
                   [&](std::uint64_t bid, const Position& p) { read_board(t, bid, p, out); });
      });
}

}  // namespace gonu::dense
