// The dense engine for the tagged rule sets (repetition immediate, undo): see dense_solve.hpp and
// tagged_space.hpp. This file drives the phases and sizes the space: the number of tagged states
// is counted from the board's shape before anything large is allocated, so that a root whose
// space would not fit is refused at once.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu {

namespace dense {

// A board's slots number 2 (a + 1)(c + 1) (tag_slots.hpp), a and c being the steps of the mover
// and the waiter: the pairs (q, t) of an empty point q and its neighbour t holding their piece.
// Summed over both sides to move, the slots of D are 4 * sum over boards of (B + 1)(W + 1), B
// and W counting such pairs for black and white pieces. By linearity each term is a count of
// boards with a few points fixed: B is a sum over the pairs of "q empty, t black", and B * W over
// two pairs ((q, t) and (q2, t2), t black and t2 white) that agree where they meet; the boards
// with k points fixed number fillings(n - k, budgets less the fixed pieces).
std::uint64_t count_tagged_states(const Board& b, const BoardRank& rank) {
  struct Pair {
    int empty, piece;
  };
  std::vector<Pair> pairs;
  for (int q = 0; q < b.n; ++q)
    for (int d = 0; d < 4; ++d)
      if (const Bits t = shift(b, bit(q), d)) pairs.push_back(Pair{q, lowest(t)});
  const int n = b.n, kb = rank.max_black(), kw = rank.max_white();
  const std::uint64_t p = pairs.size();
  std::uint64_t sum = rank.fillings(n, kb, kw) + p * rank.fillings(n - 2, kb - 1, kw) + p * rank.fillings(n - 2, kb, kw - 1);
  for (const Pair& x : pairs)    // x.piece black
    for (const Pair& y : pairs)  // y.piece white
      if (x.piece != y.piece && x.piece != y.empty && y.piece != x.empty)
        sum += rank.fillings(n - (x.empty == y.empty ? 3 : 4), kb - 1, kw - 1);
  return 4 * sum;
}

// slot_base: every board's slot count, summed in board-id order (blocks walked in order). The
// reach's --max-states check (end_level) can only come after this table: every state's id needs
// its board's slot base, a prefix sum over all boards before it, so the table is whole before
// the root gets an id, and filling it on demand would add a test to every id lookup of the hot
// loops. The cells and reached bits are mapped but committed only where touched, so a
// --max-states stop holds this table (8 bytes per board id) and little else.
void TaggedSpace::index_slots() {
  base_.resize(2 * boards_ + 1);
  constexpr std::uint64_t kBlock = 1 << 16;
  const std::uint64_t n = 2 * boards_, blocks = (n + kBlock - 1) / kBlock;
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    walk(blk * kBlock, std::min(n, (blk + 1) * kBlock),
         [&](std::uint64_t id, const Position& p) { base_[id + 1] = tag_space(b_, p).size(); });
  });
  for (std::uint64_t id = 0; id < n; ++id) base_[id + 1] += base_[id];
}

namespace {

// The bytes of the space and its arrays (slot bases, cells, reached bits, list marks), refused
// before any is allocated if the machine has less.
std::size_t memory_need(const TaggedSpace& space) {
  const std::uint64_t n = space.size();
  const std::size_t need = std::size_t(n) * sizeof(Cell) + n / 8 + space.bytes() + space.board_ids() * 4;
  if (const std::size_t have = physical_memory(); have && need > have)
    throw GonuError("the dense space of this root has " + std::to_string(n) + " tagged states and needs " +
                    std::to_string(need >> 20) + " MiB, more than this machine's " + std::to_string(have >> 20) +
                    " MiB");
  return need;
}

}  // namespace

}  // namespace dense

// The phases (tagged_space.hpp): sizes and the memory check, the slot table and the arrays,
// then reach, retrograde and read-off.
Solution solve_dense_tagged(const Game& from, const SolveOptions& options) {
  using namespace dense;
  Solution s;
  s.codec = make_key_codec(from.rules);
  if (!s.codec.tagged)  // make_key_codec refused tagged boards whose keys would not fit
    throw GonuError("the tagged dense engine solves only repetition immediate or undo");
  s.root = current(from);
  s.root_tag = from.tag;
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const std::uint32_t root_code = pack_tag(s.codec.board, s.root_tag);
  TaggedSpace space(s.codec.board, s.root, root_code);
  const std::size_t need = memory_need(space);
  space.index_slots();
  DenseStore store(space.size());
  TaggedRun t(s, options, space, store, root_code, need);
  reach(t);
  if (space.mirroring()) mark_images(t);
  retrograde(t);
  read_off_tagged(t);
  return s;
}

}  // namespace gonu
