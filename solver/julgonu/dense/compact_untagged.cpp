// The compact engine for the untagged rule sets (dense_solve.hpp): the dense engine's ids and
// passes, with memory per reachable state instead of per id (compact_store.hpp). 5x5's dense
// space has 3.2 billion ids; at the dense engine's 4 bytes an id and 11 bytes a state for the
// result it needs about 40 GB, here about 6 GB.
//
// What it holds, with n ids and S reached states (mirror images counted), C of them canonical
// (about S / 2 when the root is its own mirror image, as the start is):
//   canonical  RankedBits over the ids: the reached canonical states (1.14 bits an id);
//   cells      CompactCells by rank in `canonical`: 3 bytes a canonical state;
//   reached    RankedBits over the ids: every reached state, built after the analysis; a
//              state's number in the result (key order) is its rank here;
//   the frontier and the level lists: 8 bytes a state of one level.
// The phases:
//   1. reach: breadth-first from the root over canonical states, claiming bits; terminal
//      states kept. The cells cannot exist yet: a state's rank is known only when the search
//      is over.
//   2. count: the ranks fixed, each canonical state's successors counted into its cell.
//   3. retrograde: level-synchronous (retrograde_levels.hpp), cells by rank.
//   4. result: `reached` built from `canonical` and the mirror, then either the solution's
//      arrays filled, or (SolveOptions::compact_result) the whole kept as a StateSource that
//      reads states in key order without arrays: 5x5's result streams into its table.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <memory>

#include "core/error.hpp"
#include "core/julgonu/unmoves.hpp"
#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/retrograde_levels.hpp"
#include "solver/julgonu/dense/untagged_space.hpp"

namespace gonu {

namespace {

using namespace dense;

constexpr std::size_t kGrain = 4096;
// Ids per task of the passes over the whole id range (a multiple of 64: whole bitmap words).
constexpr std::uint64_t kIdChunk = std::uint64_t(1) << 16;

using Boards = std::vector<std::uint64_t>;

// Everything the result needs, kept alive by the StateSource when the solve returns one.
struct Store {
  Store(const KeyCodec& c, const Position& root) : codec(c), space(c.board, root), canonical(space.size()) {}
  KeyCodec codec;
  Space space;
  RankedBits canonical;
  CompactCells cells{0};
  RankedBits reached{0};
  // The cell of a canonical state's packed board.
  std::uint64_t cell(std::uint64_t w, Side side) const { return canonical.rank(space.id(unpack(w, side))); }
};

// What the phases share.
struct Run {
  Solution& s;
  const SolveOptions& options;
  Store& st;
  std::size_t need;          // bytes held besides the per-state arrays
  double per_state;          // bytes each reached state will need (end_level's check)
  std::uint64_t states = 0;  // reached, mirror images counted
  Boards terminal[2];        // reached canonical states with no legal move, by side to move
};

// Walks the canonical states of the ids [lo, hi) in order: visit(id, position, cell).
template <class Visit>
void for_each_canonical(const Store& st, std::uint64_t lo, std::uint64_t hi, Visit&& visit) {
  std::uint64_t cell = st.canonical.rank(lo);
  st.space.walk(lo, hi, [&](std::uint64_t id, const Position& p) {
    if (st.canonical.test(id)) visit(id, p, cell++);
  });
}

// Passes over the whole id range in chunks, in parallel, reporting the ids done as `phase`.
template <class Body>
void over_ids(const Store& st, const SolveOptions& options, const char* phase, Body&& body) {
  const std::uint64_t n = st.space.size(), chunks = (n + kIdChunk - 1) / kIdChunk;
  std::atomic<std::uint64_t> done{0};
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    body(c * kIdChunk, std::min(n, (c + 1) * kIdChunk));
    const std::uint64_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (options.progress && d % 64 == 0) options.progress(phase, std::min(n, d * kIdChunk), n);
  });
}

// 1. reach, one level: expands the frontier states [lo, hi), claiming their successors'
// canonical forms (prefetched a few states at a time, so that the misses overlap).
void expand_range(Run& t, const Boards& frontier, std::size_t lo, std::size_t hi, Side side, Boards& out, Boards& ends,
                  std::uint64_t& e, std::uint64_t& f) {
  constexpr std::size_t kBatch = 8;
  struct Successor {
    std::uint64_t canonical, id;
    bool two;  // the pair has two boards
  };
  Successor succ[kBatch * kMaxMoves];
  const Side to = other(side);
  const Space& space = t.st.space;
  const Board& b = t.s.codec.board;
  for (std::size_t i0 = lo; i0 < hi; i0 += kBatch) {
    const std::size_t i1 = std::min(hi, i0 + kBatch);
    int count = 0;
    for (std::size_t i = i0; i < i1; ++i) {
      const Position p = unpack(frontier[i], side);
      const int k = lost_by_material(p) ? 0 : for_each_successor(b, t.s.codec.rules, p, [&](const Position& x) {
        const Space::Pair q = space.pair(pack(x));
        const std::uint64_t id = space.id(unpack(q.canonical, to));
        t.st.canonical.prefetch(id);
        succ[count++] = Successor{q.canonical, id, q.image != q.canonical};
      });
      if (k > kMaxCompactMoves)
        throw GonuError("a position with more than " + std::to_string(kMaxCompactMoves) +
                        " moves: too many for the compact engine");
      if (k == 0) ends.push_back(frontier[i]);
      e += std::uint64_t(k) * std::uint64_t(space.pair(frontier[i]).orbit);
    }
    for (int j = 0; j < count; ++j) {
      if (!t.st.canonical.claim(succ[j].id)) continue;
      out.push_back(succ[j].canonical);
      f += 1 + std::uint64_t(succ[j].two);
    }
  }
}

void reach(Run& t) {
  const Space& space = t.st.space;
  const Space::Pair root = space.pair(pack(t.s.root));
  Side side = t.s.root.to_move;
  Boards frontier{root.canonical};
  t.st.canonical.claim(space.id(unpack(root.canonical, side)));
  t.states = std::uint64_t(root.orbit);
  tbb::enumerable_thread_specific<Boards> next;
  while (!frontier.empty()) {
    tbb::enumerable_thread_specific<Boards> ends;
    tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      expand_range(t, frontier, range.begin(), range.end(), side, next.local(), ends.local(), edges.local(),
                   found.local());
    }, tbb::simple_partitioner());
    end_level(t.s, t.states, side, frontier, t.terminal, next, ends, edges, found, t.options, t.need, t.per_state);
  }
}

// 2. count: the cells allocated for the canonical states (refused if they pass the limit), and
// each one's successors counted.
void count_successors(Run& t) {
  Store& st = t.st;
  const std::uint64_t c = st.canonical.finish();
  const std::size_t cells = CompactCells::bytes_for(c), limit = memory_limit_of(t.options);
  if (limit && t.need + cells > limit)
    throw GonuError(std::to_string(t.states) + " states reached: their cells (" + std::to_string(cells >> 20) +
                    " MiB) and the solver's " + std::to_string(t.need >> 20) + " MiB pass the memory limit of " +
                    std::to_string(limit >> 20) + " MiB (--max-memory raises it)");
  st.cells = CompactCells(c);
  t.need += cells;
  const Board& b = t.s.codec.board;
  const Rules& rules = t.s.codec.rules;
  over_ids(st, t.options, "count moves", [&](std::uint64_t lo, std::uint64_t hi) {
    for_each_canonical(st, lo, hi, [&](std::uint64_t, const Position& p, std::uint64_t cell) {
      const int k = lost_by_material(p) ? 0 : for_each_successor(b, rules, p, [](const Position&) {});
      st.cells.set_pending(cell, k);
    });
  });
}

// 3. retrograde, as the dense engine's (untagged.cpp: analyse, where the mirror's cases are
// explained), with cells by rank.
void analyse(Run& t) {
  const Store& st = t.st;
  const Space& space = st.space;
  const Board& b = t.s.codec.board;
  const Rules& rules = t.s.codec.rules;
  retrograde_levels(
      t.terminal, t.st.cells, kGrain, t.states, t.options, [&](std::uint64_t w, Side sd) { return st.cell(w, sd); },
      [&](std::uint64_t w) { return space.orbit(unpack(w, Side::black)); },
      [&](std::uint64_t w, Side sd, auto&& emit) {
        const Position p = unpack(w, sd);
        const bool self_image = space.orbit(p) == 1;
        for_each_unmove(b, rules, p, [&](const Position& before, const Move&) {
          if (!space.inside(before)) return;
          const Space::Pair pred = space.pair(pack(before));
          if (self_image && !pred.kept) return;
          const std::uint64_t pid = space.id(unpack(pred.canonical, before.to_move));
          if (!st.canonical.test(pid)) return;
          emit(st.canonical.rank(pid), pred.canonical, std::uint8_t(!self_image && pred.orbit == 1 ? 2 : 1));
        });
      });
}

// 4. result: every reached state's bit (a canonical state's and its image's), and the counts.
void mark_reached(Run& t) {
  Store& st = t.st;
  st.reached = RankedBits(st.space.size());
  t.need += st.reached.bytes();
  over_ids(st, t.options, "mark reached", [&](std::uint64_t lo, std::uint64_t hi) {
    for_each_canonical(st, lo, hi, [&](std::uint64_t id, const Position& p, std::uint64_t) {
      st.reached.claim(id);
      const Space::Pair q = st.space.pair(pack(p));
      if (q.orbit == 2) st.reached.claim(st.space.id(unpack(q.image, p.to_move)));
    });
  });
  st.reached.finish();
}

void count_result(Run& t) {
  struct Counts {
    std::uint64_t by_value[3] = {0, 0, 0};
    std::uint16_t max_dist = 0;
  };
  const Store& st = t.st;
  const std::uint64_t n = st.space.size(), chunks = (n + kIdChunk - 1) / kIdChunk;
  const Counts c = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, chunks), Counts{},
      [&](const tbb::blocked_range<std::uint64_t>& r, Counts acc) {
        for (std::uint64_t ch = r.begin(); ch < r.end(); ++ch)
          for_each_canonical(st, ch * kIdChunk, std::min(n, (ch + 1) * kIdChunk),
                             [&](std::uint64_t, const Position& p, std::uint64_t cell) {
                               acc.by_value[std::uint8_t(st.cells.value(cell))] += std::uint64_t(st.space.orbit(p));
                               acc.max_dist = std::max(acc.max_dist, st.cells.dist(cell));
                             });
        return acc;
      },
      [](Counts x, const Counts& y) {
        for (int v = 0; v < 3; ++v) x.by_value[v] += y.by_value[v];
        x.max_dist = std::max(x.max_dist, y.max_dist);
        return x;
      });
  t.s.draws = c.by_value[std::uint8_t(Value::draw)];
  t.s.wins = c.by_value[std::uint8_t(Value::win)];
  t.s.losses = c.by_value[std::uint8_t(Value::loss)];
  t.s.max_dist = c.max_dist;
  t.s.states = st.reached.total();
}

// The result read in key order: a state's number is its rank in `reached`, its value its
// canonical form's cell.
class CompactSource final : public StateSource {
 public:
  explicit CompactSource(std::unique_ptr<Store> st) : st_(std::move(st)) {}
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    if (lo >= hi) return;
    const Store& st = *st_;
    std::uint64_t i = 0;
    st.space.walk(st.reached.select(lo), st.reached.select(hi - 1) + 1, [&](std::uint64_t id, const Position& p) {
      if (!st.reached.test(id)) return;
      const Space::Pair q = st.space.pair(pack(p));
      const std::uint64_t cell = st.canonical.rank(q.kept ? id : st.space.id(unpack(q.canonical, p.to_move)));
      keys[i] = encode_board_side(st.codec, p);
      value[i] = st.cells.value(cell);
      dist[i] = st.cells.dist(cell);
      ++i;
    });
  }
  std::optional<std::uint64_t> find(Key k) const override {
    const Store& st = *st_;
    Position p;
    Tag tag;
    decode_key(st.codec, k, p, tag);
    if (!st.space.inside(p)) return std::nullopt;
    const std::uint64_t id = st.space.id(p);
    if (!st.reached.test(id)) return std::nullopt;
    return st.reached.rank(id);
  }

 private:
  std::unique_ptr<Store> st_;
};

// The solution's arrays filled from the source, in parallel chunks of state numbers.
void fill_arrays(Solution& s, const CompactSource& src, std::size_t need) {
  constexpr std::uint64_t kStates = 1 << 16;
  const std::uint64_t n = s.states, chunks = (n + kStates - 1) / kStates;
  size_solution(s, std::size_t(n), need);
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    const std::uint64_t lo = c * kStates, hi = std::min(n, lo + kStates);
    src.read(lo, hi, &s.keys[lo], &s.value[lo], &s.dist[lo]);
  });
}

}  // namespace

// The phases (see the top of this file). The bitmap of canonical states is refused before it is
// allocated if it alone passes the limit; the cells once their number is known.
Solution solve_compact(const Game& from, const SolveOptions& options) {
  if (uses_tag(from.rules) || from.rules.repetition != Repetition::none || from.board.n > 32)
    throw GonuError("the compact engine solves repetition none on boards of up to 32 points");
  Solution s;
  s.codec = make_key_codec(from.rules);
  s.root = current(from);
  s.root_tag = Tag{};
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const std::uint64_t ids = BoardRank(s.codec.board.n, popcount(s.root.black), popcount(s.root.white)).size() * 2;
  const std::size_t need = RankedBits::bytes_for(ids), limit = memory_limit_of(options);
  if (limit && 2 * need > limit)
    throw GonuError("the dense space of this root has " + std::to_string(ids) + " ids; its bitmaps alone need " +
                    std::to_string((2 * need) >> 20) + " MiB, more than the memory limit of " +
                    std::to_string(limit >> 20) + " MiB");
  auto st = std::make_unique<Store>(s.codec, s.root);
  // Cells for the canonical states (about half when mirroring), and the arrays if asked.
  const double per_state = (st->space.mirroring() ? 1.7 : 3.0) +
                           (options.compact_result ? 0.0 : 11.0);
  Run t{s, options, *st, need, per_state, 0, {}};
  reach(t);
  count_successors(t);
  analyse(t);
  mark_reached(t);
  count_result(t);
  s.peak_bytes = t.need + (options.compact_result ? 0 : std::size_t(s.states) * 11);
  auto src = std::make_shared<CompactSource>(std::move(st));
  if (options.compact_result)
    s.source = std::move(src);
  else
    fill_arrays(s, *src, t.need);
  return s;
}

}  // namespace gonu
