// The tagged dense engine's read-off (tagged_space.hpp, readoff.hpp): blocks of boards in order,
// and within each board its reached slots (tagged_read.hpp: read_board), so key order.
#include <algorithm>

#include "solver/julgonu/dense/readoff.hpp"
#include "solver/julgonu/dense/tagged_read.hpp"

namespace gonu::dense {

// 3. read off: blocks of boards; per block, its reached slots counted, then listed in order.
template <class Store>
void read_off_tagged(TaggedRunOf<Store>& t) {
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
        space.walk(blk * kBlock, std::min(nboards, (blk + 1) * kBlock), [&](std::uint64_t bid, const Position& p) {
          read_board(space, t.store, t.s.codec, bid, p, 0, space.size(),
                     [&](Key k, Value v, std::uint16_t d) { out.put(k, v, d); });
        });
      });
}

template void read_off_tagged(TaggedRunOf<DenseStore>&);
template void read_off_tagged(TaggedRunOf<CompactStore>&);

}  // namespace gonu::dense
