// A process's tagged states read from its compact form (tagged_source.hpp).
#include "solver/julgonu/mpi/tagged_source.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "solver/julgonu/dense/tagged_read.hpp"

namespace gonu::mpi {

namespace {

using dense::RankedBits;

constexpr std::uint64_t kBoardChunk = 1 << 12;  // boards per task of a pass over the range

// The store read_board (solver/julgonu/dense/tagged_read.hpp) reads: the reached marks for the states a
// board has, the bits of the canonical states for their cells.
struct ReadStore {
  RangeBits reached, bits;
  const dense::CompactCells& cells;
  std::uint64_t index(std::uint64_t id) const { return bits.rank(id); }
  bool any_reached(std::uint64_t lo, std::uint64_t hi) const { return lo < hi && reached.any(lo, hi); }
  // On a canonical board, or one that is its own image, the reached states are the bits' states.
  template <class Visit>
  void for_each_state(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    if (lo >= hi) return;
    std::uint64_t r = bits.rank(lo);
    bits.for_each(lo, hi, [&](std::uint64_t id) { visit(id, r++); });
  }
  Value value(std::uint64_t i) const { return cells.value(i); }
  std::uint16_t dist(std::uint64_t i) const { return cells.dist(i); }
};

class TaggedRangeSource final : public StateSource {
 public:
  TaggedRangeSource(const TaggedRange& r, RankedBits reached, RemoteImages remote)
      : r_(r), marks_(std::move(reached)), remote_(std::move(remote)),
        store_{RangeBits(marks_, r.part.lo), RangeBits(r.part.bits, r.part.lo), r.part.cells} {}
  TaggedRangeSource(const TaggedRangeSource&) = delete;
  TaggedRangeSource& operator=(const TaggedRangeSource&) = delete;

  // The boards of the first and the last state, walked in order, each read within their ids.
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    if (lo >= hi) return;
    const dense::TaggedSpace& space = r_.space;
    const std::uint64_t first = r_.part.lo + marks_.select(lo), end = r_.part.lo + marks_.select(hi - 1) + 1;
    RemoteCursor remote(remote_, first - r_.part.lo);
    std::size_t at = 0;
    const auto put = [&](Key k, Value v, std::uint16_t d) {
      keys[at] = k;
      value[at] = v;
      dist[at] = d;
      ++at;
    };
    space.walk(space.board_of(first), space.board_of(end - 1) + 1, [&](std::uint64_t bid, const Position& p) {
      const std::uint64_t w = dense::pack(p), mw = space.mirror_board(w);
      if (w <= mw || r_.owns(space.board_id(dense::unpack(mw, p.to_move)))) {
        dense::read_board(space, store_, r_.codec, bid, p, first, end, put);
        return;
      }
      // The image of another process's canonical board: the values it sent, in slot order.
      const std::uint64_t base = space.base(bid);
      const dense::BoardSteps steps(r_.codec.board, p);
      const Key board_key = encode_board_side(r_.codec, p) << r_.codec.tag_bits;
      store_.reached.for_each(std::max(base, first), std::min(space.base(bid + 1), end), [&](std::uint64_t id) {
        const std::uint64_t word = remote.take(id - r_.part.lo);
        put(board_key | steps.code(std::uint32_t(id - base)), Value(word & 3u), std::uint16_t(word >> 2));
      });
    });
  }

  // The key's board and tag turned into a slot (a key whose tag is not its board's simply is not
  // found: the slot's code differs).
  std::optional<std::uint64_t> find(Key k) const override {
    const dense::TaggedSpace& space = r_.space;
    const Key tag_mask = (Key(1) << r_.codec.tag_bits) - 1;
    Position p;
    Tag none;
    decode_key(r_.codec, k & ~tag_mask, p, none);
    if ((p.black | p.white) & ~r_.codec.board.all || (p.black & p.white) || !space.inside(p) ||
        encode_board_side(r_.codec, p) != k >> r_.codec.tag_bits)
      return std::nullopt;
    const std::uint64_t bid = space.board_id(p);
    if (!r_.owns(bid)) return std::nullopt;
    const std::uint32_t code = std::uint32_t(k & tag_mask);
    const dense::BoardSteps steps(r_.codec.board, p);
    const std::uint64_t base = space.base(bid);
    std::optional<std::uint64_t> found;
    store_.reached.for_each(base, space.base(bid + 1), [&](std::uint64_t id) {
      if (!found && steps.code(std::uint32_t(id - base)) == code) found = store_.reached.rank(id);
    });
    return found;
  }

 private:
  TaggedRange r_;
  RankedBits marks_;
  RemoteImages remote_;
  ReadStore store_;
};

}  // namespace

RankedBits mark_tagged_reached(const TaggedRange& r, const RemoteImages& remote) {
  const dense::TaggedSpace& space = r.space;
  RankedBits reached(r.part.hi - r.part.lo);
  RangeBits mark(reached, r.part.lo), bits(r.part.bits, r.part.lo);
  const std::uint64_t chunks = (r.board_hi - r.board_lo + kBoardChunk - 1) / kBoardChunk;
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    const std::uint64_t a = r.board_lo + c * kBoardChunk, b = std::min(r.board_hi, a + kBoardChunk);
    space.walk(a, b, [&](std::uint64_t bid, const Position& p) {
      bits.for_each(space.base(bid), space.base(bid + 1), [&](std::uint64_t id) { mark.claim(id); });
      const std::uint64_t w = dense::pack(p), mw = space.mirror_board(w);
      if (w >= mw || !r.owns(space.board_id(dense::unpack(mw, p.to_move)))) return;
      for_each_image(r, bid, p, [&](std::uint64_t id, std::uint64_t) { mark.claim(id); });
    });
  });
  for (const Boards& run : remote.runs)
    tbb::parallel_for(std::size_t(0), run.size(), [&](std::size_t i) { reached.claim(run[i] >> kValueWordBits); });
  reached.finish();
  return reached;
}

std::shared_ptr<const StateSource> tagged_range_source(const TaggedRange& r, RankedBits reached, RemoteImages remote) {
  return std::make_shared<TaggedRangeSource>(r, std::move(reached), std::move(remote));
}

}  // namespace gonu::mpi
