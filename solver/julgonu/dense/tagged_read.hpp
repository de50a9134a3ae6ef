// One board's reached tagged states in key order, for the dense read-off (tagged_readoff.cpp)
// and the compact engine's StateSource (compact_tagged.cpp), over either store (tagged_space.hpp).
// A board's reached slots come in their tags' code order, so key order; a state that is not
// canonical takes its value from its image's cell.
#pragma once
#include <algorithm>

#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu::dense {

// put(key, value, dist) for the reached states of board bid (position p) whose ids are in
// [from, to), in key order.
template <class Store, class Put>
void read_board(const TaggedSpace& space, const Store& store, const KeyCodec& codec, std::uint64_t bid,
                const Position& p, std::uint64_t from, std::uint64_t to, Put&& put) {
  const std::uint64_t first = space.base(bid), lo = std::max(first, from), hi = std::min(space.base(bid + 1), to);
  if (!store.any_reached(lo, hi)) return;
  const Board& b = codec.board;
  const BoardSteps steps(b, p);
  const std::uint64_t w = pack(p), mw = space.mirror_board(w);
  const Key board_key = encode_board_side(codec, p) << codec.tag_bits;
  auto put_cell = [&](std::uint32_t code, std::uint64_t cell) {
    const Value v = store.value(cell);
    put(board_key | code, v, v == Value::draw ? std::uint16_t(0) : store.dist(cell));  // a draw's may hold the reach level
  };
  if (w < mw || !space.mirroring()) {  // every state canonical
    store.for_each_state(lo, hi, [&](std::uint64_t id, std::uint64_t cell) {
      put_cell(steps.code(std::uint32_t(id - first)), cell);
    });
    return;
  }
  // A state that is not canonical takes its image's cell, on the image board; on a board that is
  // its own image, the canonical one of a pair is the smaller code, so slot.
  const Position image = unpack(mw, p.to_move);
  const std::uint64_t image_base = mw < w ? space.base(space.board_id(image)) : first;
  const SlotMirror to_image(b, space, steps, image);
  store.reached.for_each(lo, hi, [&](std::uint64_t id) {
    const std::uint32_t slot = std::uint32_t(id - first);
    std::uint32_t mi, ti, ban;
    steps.split(slot, mi, ti, ban);
    const std::uint32_t mirrored = to_image(mi, ti, ban);
    const std::uint32_t code = steps.code(mi, ti, ban);
    put_cell(code, store.index(image_base + (mw < w ? mirrored : std::min(slot, mirrored))));
  });
}

}  // namespace gonu::dense
