// The dense engine (see dense_solve.hpp).
#include "solver/julgonu/dense/dense_solve.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>

#include "core/error.hpp"
#include "core/julgonu/unmoves.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/readoff.hpp"
#include "solver/julgonu/dense/retrograde_levels.hpp"
#include "solver/julgonu/dense/untagged_space.hpp"
#include "util/huge_array.hpp"

namespace gonu {

namespace {

using namespace dense;

// Chunks of a frontier: big enough that splitting costs little, small enough to balance 2 to 16
// threads (simple_partitioner: TBB's adaptive splitting showed up in profiles).
constexpr std::size_t kGrain = 4096;

// A state on the breadth-first frontier: its packed board and its cell (ranked when it was
// claimed, not again when it is expanded).
struct Listed {
  std::uint64_t board, id;
};
using Frontier = std::vector<Listed>;
using Boards = std::vector<std::uint64_t>;

// What the phases share: the solution being built, the space and the per-state arrays.
struct Untagged {
  Untagged(Solution& solution, const SolveOptions& opts, const Space& sp, std::size_t bytes)
      : s(solution), options(opts), b(solution.codec.board), rules(solution.codec.rules), space(sp), need(bytes),
        reached(sp.size()), cell(sp.size()) {}
  Solution& s;
  const SolveOptions& options;
  const Board& b;
  const Rules& rules;
  const Space& space;
  std::size_t need;         // bytes of the arrays below (memory_need)
  Reached reached;
  HugeArray<Cell> cell;     // zero: undecided
  std::uint64_t states = 0; // reached so far, mirror images counted
  Boards terminal[2];       // reached states with no legal move, by side to move
};

// The bytes of the per-state arrays, refused before they are allocated if the machine has less.
std::size_t memory_need(const Space& space) {
  const std::uint64_t n = space.size();
  const std::size_t need = std::size_t(n) * sizeof(Cell) + n / 8;
  if (const std::size_t have = physical_memory(); have && need > have)
    throw GonuError("the dense space of this root has " + std::to_string(n) + " states and needs " +
                    std::to_string(need >> 20) + " MiB, more than this machine's " + std::to_string(have >> 20) +
                    " MiB");
  return need;
}

// Expands the frontier states [lo, hi) (reach, one level): a few states at a time, their
// successors' ids first, with the reached words and the states' cells prefetched, then the
// claims, so that the cache misses overlap. A new state's mirror image is claimed too (for the
// read-off). Adds the edges and the new states (mirror images counted) to e and f.
void expand_range(Untagged& t, const Frontier& frontier, std::size_t lo, std::size_t hi, Side side, Frontier& out,
                  Boards& ends, std::uint64_t& e, std::uint64_t& f) {
  constexpr std::size_t kBatch = 8;
  struct Successor {
    std::uint64_t canonical, image, id;  // the pair of boards, and the canonical one's id
  };
  Successor succ[kBatch * kMaxMoves];
  const Side to = other(side);
  const Space& space = t.space;
  for (std::size_t i0 = lo; i0 < hi; i0 += kBatch) {
    const std::size_t i1 = std::min(hi, i0 + kBatch);
    int count = 0;
    for (std::size_t i = i0; i < i1; ++i) {
      const std::uint64_t w = frontier[i].board;
      const Position p = unpack(w, side);
      Cell& c = t.cell[frontier[i].id];
      __builtin_prefetch(&c, 1);
      const int k = lost_by_material(p) ? 0 : for_each_successor(t.b, t.rules, p, [&](const Position& x) {
        const Space::Pair q = space.pair(pack(x));
        const std::uint64_t id = space.id(unpack(q.canonical, to));
        t.reached.prefetch(id);
        succ[count++] = Successor{q.canonical, q.image, id};
      });
      if (k > 255) throw GonuError("a position with more than 255 moves: too many for the dense engine");
      if (k == 0) ends.push_back(w);
      e += std::uint64_t(k) * std::uint64_t(space.pair(w).orbit);
      c.pending.store(std::uint8_t(k), std::memory_order_relaxed);
    }
    for (int j = 0; j < count; ++j) {
      const Successor& q = succ[j];
      if (!t.reached.claim(q.id)) continue;
      out.push_back(Listed{q.canonical, q.id});
      const bool two = q.image != q.canonical;
      if (two) t.reached.claim(space.id(unpack(q.image, to)));
      f += 1 + std::uint64_t(two);
    }
  }
}

// 1. reach: breadth-first from the root over canonical states, a level at a time.
void reach(Untagged& t) {
  const Space::Pair root = t.space.pair(pack(t.s.root));
  Side side = t.s.root.to_move;
  Frontier frontier{Listed{root.canonical, t.space.id(unpack(root.canonical, side))}};
  t.reached.claim(frontier[0].id);
  if (root.orbit == 2) t.reached.claim(t.space.id(unpack(root.image, side)));
  t.states = std::uint64_t(root.orbit);
  tbb::enumerable_thread_specific<Frontier> next;  // kept across levels (gather_into)
  while (!frontier.empty()) {
    tbb::enumerable_thread_specific<Boards> ends;
    tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      expand_range(t, frontier, range.begin(), range.end(), side, next.local(), ends.local(), edges.local(),
                   found.local());
    }, tbb::simple_partitioner());
    end_level(t.s, t.states, side, frontier, t.terminal, next, ends, edges, found, t.options, t.need);
  }
}

// 2. retrograde, one distance at a time. A canonical P counts down every edge into a pair
// {S, mirror(S)} once. The un-moves of S are the edges into S; an edge P -> mirror(S) is the
// image of mirror(P) -> S. So each un-move is brought to canonical form, except that:
//   - when S is its own image, an un-move from a non-canonical P would repeat the edges of its
//     canonical image, so only canonical P are taken;
//   - when P is its own image (and S is not), its edge into S stands for itself and its image
//     into mirror(S), which no un-move of S meets: it counts twice.
void analyse(Untagged& t) {
  const Space& space = t.space;
  retrograde_levels(
      t.terminal, DenseCells{t.cell}, kGrain, t.states, t.options,
      [&](std::uint64_t w, Side sd) { return space.id(unpack(w, sd)); },
      [&](std::uint64_t w) { return space.orbit(unpack(w, Side::black)); },
      [&](std::uint64_t w, Side sd, auto&& emit) {
        const Position p = unpack(w, sd);
        const bool self_image = space.orbit(p) == 1;
        for_each_unmove(t.b, t.rules, p, [&](const Position& before, const Move&) {
          if (!space.inside(before)) return;
          const Space::Pair pred = space.pair(pack(before));
          if (self_image && !pred.kept) return;
          const std::uint64_t pid = space.id(unpack(pred.canonical, before.to_move));
          if (!t.reached.test(pid)) return;
          emit(pid, pred.canonical, std::uint8_t(!self_image && pred.orbit == 1 ? 2 : 1));
        });
      });
}

// 3. read off (readoff.hpp), in blocks of reached words; each block's boards are walked in
// order (a step is cheaper than unranking each), a mirror image's value taken from its
// canonical state.
void read_off_untagged(Untagged& t) {
  constexpr std::size_t kBlockWords = 512;
  const std::uint64_t n = t.space.size();
  const std::size_t words = t.reached.words(), blocks = (words + kBlockWords - 1) / kBlockWords;
  const Space& space = t.space;
  read_off(
      t.s, t.need, blocks,
      [&](std::uint64_t blk) {
        std::uint64_t c = 0;
        for (std::size_t w = blk * kBlockWords; w < std::min(words, (blk + 1) * kBlockWords); ++w)
          c += std::uint64_t(popcount(t.reached.word(w)));
        return c;
      },
      [&](std::uint64_t blk, SolutionWriter& out) {
        const std::uint64_t lo = blk * kBlockWords * 64, hi = std::min<std::uint64_t>(n, lo + kBlockWords * 64);
        space.walk(lo, hi, [&](std::uint64_t id, const Position& p) {
          if (!t.reached.test(id)) return;
          const Space::Pair q = space.pair(pack(p));
          const Cell& c = t.cell[q.kept ? id : space.id(unpack(q.canonical, p.to_move))];
          out.put(encode_board_side(t.s.codec, p), Value(c.value.load(std::memory_order_relaxed)),
                  c.dist.load(std::memory_order_relaxed));
        });
      });
}

}  // namespace

bool dense_engine_applies(const Rules& r) {
  const int n = r.rows * r.cols;
  return (r.repetition == Repetition::none && n <= 32) || (uses_tag(r) && n <= 27);
}

// The phases: the sizes and the memory check before anything is allocated, then reach,
// retrograde and read-off.
Solution solve_dense(const Game& from, const SolveOptions& options) {
  if (!dense_engine_applies(from.rules))
    throw GonuError("the dense engine solves repetition none on boards of up to 32 points, and immediate or undo "
                    "on up to 27");
  if (uses_tag(from.rules)) return solve_dense_tagged(from, options);
  Solution s;
  s.codec = make_key_codec(from.rules);
  s.root = current(from);
  s.root_tag = Tag{};
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const Space space(s.codec.board, s.root);
  Untagged t(s, options, space, memory_need(space));
  reach(t);
  analyse(t);
  read_off_untagged(t);
  return s;
}

}  // namespace gonu
