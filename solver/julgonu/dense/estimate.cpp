// Memory estimates per engine (estimate.hpp).
#include "solver/julgonu/dense/estimate.hpp"

#include <algorithm>
#include <cmath>

#include "solver/julgonu/dense/board_rank.hpp"
#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu::dense {

namespace {

// What every solve holds besides its arrays: the program and its libraries, TBB's threads, small
// tables (a 3x3 solve peaks at 11 MiB resident).
constexpr double kBase = 11.0 * (1 << 20);

// The share of the dense space reachable from the start (fitted on results/values.md); a
// position other than the start reaches no more, so these bound it from above in practice.
double reachable_share(const Rules& r) {
  if (!uses_tag(r)) return 0.74;  // 0.71 to 0.77 on 4x4, 4x5, 5x4 and 5x5
  // Of the tag slots: immediate 0.37 (3x4), 0.42 (4x4), 0.45 (5x4); undo 0.22 (3x4), 0.24 (4x4).
  return r.repetition == Repetition::undo ? 0.24 : 0.43;
}

struct Sizes {
  std::uint64_t ids = 0, boards = 0;  // dense ids (tag slots), board ids (both sides)
  double states = 0;
  bool mirroring = false;  // the root is its own file-mirror image (the untagged engines halve)
};

// Boards of n points with at most kb black and kw white pieces, as a double (boards past 32
// points, which BoardRank does not rank, are only estimated).
double fillings(int n, int kb, int kw) {
  double sum = 0;
  for (int x = 0; x <= kb && x <= n; ++x)
    for (int y = 0; y <= kw && x + y <= n; ++y) sum += std::exp(std::lgamma(n + 1) - std::lgamma(x + 1) - std::lgamma(y + 1) - std::lgamma(n - x - y + 1));
  return sum;
}

// A tagged board holds some 160 tag slots on 5x4 and 4x5 (39.2 billion over 247 million board
// ids); boards past 32 points are only estimated, with that.
constexpr double kSlotsPerBoard = 160;

Sizes sizes(const Game& from) {
  const Board& b = from.board;
  const Position root = current(from);
  if (b.n > 32) {
    Sizes z;
    const double boards = 2 * fillings(b.n, popcount(root.black), popcount(root.white));
    z.boards = std::uint64_t(std::min(boards, 1e19));
    z.ids = std::uint64_t(std::min(boards * (uses_tag(from.rules) ? kSlotsPerBoard : 1.0), 1e19));
    z.states = double(z.ids) * reachable_share(from.rules);
    return z;
  }
  const BoardRank rank(b.n, popcount(root.black), popcount(root.white));
  Sizes z;
  z.boards = 2 * rank.size();
  z.ids = uses_tag(from.rules) ? count_tagged_states(b, rank) : z.boards;
  z.states = double(z.ids) * reachable_share(from.rules);
  z.mirroring = b.n <= 32 && FileMirror(b).board(pack(root)) == pack(root);
  return z;
}

// The dense engines: 4 bytes and a bit an id (plus 12 bytes a board id when tagged), the
// frontier, and the solution's 11 bytes a state. The tagged engine's peak comes as its arrays
// are read off into the solution, when the frontier is gone: 8.2 bytes a state on top of the
// arrays, fitted on 4x4 (the cells of unreached slots partly never touched).
double dense_bytes(const Sizes& z, bool tagged) {
  if (tagged) return kBase + 4.125 * double(z.ids) + 12.0 * double(z.boards) + 8.2 * z.states;
  return kBase + 4.125 * double(z.ids) + 11.0 * z.states + 1.0 * z.states;
}

// The compact engines, split into what a process holds whole and what processes share out (one
// process holds both), and when the arrays are asked for, the solution's 11 bytes a state.
//   untagged: two ranked bitmaps (canonical states, then all reached), 3 bytes a canonical state
//     (half the states when the root mirrors), the level lists (0.35 bytes a state on 5x5 free);
//   tagged: one ranked bitmap, the slot bases and list marks (12 bytes a board id, held whole),
//     and 2.1 bytes a state at the peak on 5x4 `encyclopedia` (3 bytes of cells a state, but a
//     mirror image's cell and a draw's distance are never written, so part of them is never
//     resident; the sorted level lists).
CompactShares compact_shares_of(const Sizes& z, bool tagged) {
  const double bitmap = double(RankedBits::bytes_for(z.ids));
  if (!tagged) return {kBase, 2 * bitmap + (z.mirroring ? 1.5 : 3.0) * z.states + 0.35 * z.states, z.states};
  return {kBase + 12.0 * double(z.boards), bitmap + 2.1 * z.states, z.states};
}

double compact_bytes(const Sizes& z, bool tagged, bool arrays) {
  const CompactShares c = compact_shares_of(z, tagged);
  return c.whole + c.divided + (arrays ? 11.0 * z.states : 0.0);
}

// The state graph: keys, edge lists and the store, about 60 bytes a state.
double graph_bytes(const Sizes& z) { return kBase + 60.0 * z.states; }

}  // namespace

// Untagged on up to 32 points, tagged (compact_tagged.cpp) where the keys fit, as the dense engine.
CompactShares compact_shares(const Game& from) { return compact_shares_of(sizes(from), uses_tag(from.rules)); }

bool compact_engine_applies(const Rules& r) {
  const int n = r.rows * r.cols;
  return (r.repetition == Repetition::none && n <= 32) || (uses_tag(r) && n <= 27);
}

MemoryEstimate estimate_engine_memory(const Game& from, const SolveOptions& options) {
  const Rules& r = from.rules;
  const Sizes z = sizes(from);
  const double limit = double(options.max_memory ? options.max_memory : physical_memory());
  MemoryEstimate e;
  e.ids = z.ids;
  e.states = std::uint64_t(z.states);
  const bool dense_ok = dense_engine_applies(r), compact_ok = compact_engine_applies(r);
  Engine pick = options.engine;
  const double dense = dense_ok ? dense_bytes(z, uses_tag(r)) : 0.0;
  if (pick == Engine::automatic)
    pick = r.repetition == Repetition::superko ? Engine::graph
           : dense_ok && (dense <= limit || !compact_ok) ? Engine::dense
           : compact_ok                                  ? Engine::compact
                                                         : Engine::graph;
  e.engine = pick;
  const double bytes = pick == Engine::dense     ? dense
                       : pick == Engine::compact ? compact_bytes(z, uses_tag(r), !options.compact_result)
                                                 : graph_bytes(z);
  e.bytes = std::uint64_t(std::llround(bytes));
  e.basis = std::to_string(z.ids) + (uses_tag(r) ? " tag slots" : " dense ids") + ", about " +
            std::to_string(e.states) + " reachable states expected";
  return e;
}

}  // namespace gonu::dense
