// The untagged dense engine's retrograde analysis (dense_solve.hpp): level-synchronous from the
// terminal states, one distance at a time, so distances are exact and nothing depends on thread
// timing. The engine supplies, for a state type T:
//   id(state, side)                 its cell,
//   orbit(state)                    how many states it stands for (2 for a mirror pair),
//   predecessors(state, side, emit) emit(id, predecessor, edges) for each canonical reached
//                                   predecessor, `edges` being how many of its edges the call
//                                   stands for.
// and the cells, a store with set_terminal_loss(i), prefetch(i) and reach_predecessor(i, lost, d,
// edges) (DenseCells here over the dense engine's Cell array; CompactCells, compact_store.hpp).
// Predecessors are gathered for a few states at a time and their cells prefetched, so that the
// cache misses overlap instead of coming one after another.
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "solver/julgonu/dense/parts.hpp"

namespace gonu::dense {

// The dense engine's cells (a Cell per id) as a store for retrograde_levels.
struct DenseCells {
  HugeArray<Cell>& cell;
  void set_terminal_loss(std::uint64_t i) { cell[i].value.store(std::uint8_t(Value::loss), std::memory_order_relaxed); }
  void prefetch(std::uint64_t i) const { __builtin_prefetch(&cell[i], 1); }
  Value reach_predecessor(std::uint64_t i, bool lost, std::uint32_t d, std::uint8_t edges) {
    return dense::reach_predecessor(cell[i], lost, d, edges);
  }
};

// terminal[side]: the reached states with no legal move (losses at distance 0); consumed.
template <class T, class Cells, class Id, class Orbit, class Predecessors>
void retrograde_levels(std::vector<T> (&terminal)[2], Cells&& cells, std::size_t grain, std::uint64_t states,
                       const SolveOptions& options, Id id, Orbit orbit, Predecessors predecessors) {
  struct Update {
    std::uint64_t id;
    T state;
    std::uint8_t edges;
  };
  // level[side][lost]: the states decided at distance d, wins and losses apart.
  std::vector<T> level[2][2] = {{{}, std::move(terminal[0])}, {{}, std::move(terminal[1])}};
  for (int sd = 0; sd < 2; ++sd)
    for (const T& e : level[sd][1]) cells.set_terminal_loss(id(e, Side(sd)));
  std::uint64_t decided = 0;
  tbb::enumerable_thread_specific<std::vector<T>> next[2][2];  // kept across levels (gather_into)
  for (std::uint32_t d = 0;; ++d) {
    std::size_t size = 0;
    for (int sd = 0; sd < 2; ++sd)
      for (int lost = 0; lost < 2; ++lost) {
        size += level[sd][lost].size();
        if (options.progress)  // counted for the report only: a serial pass with a mirror per state
          for (const T& e : level[sd][lost]) decided += std::uint64_t(orbit(e));
      }
    if (size == 0) break;
    if (d + 1 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
    for (int sd = 0; sd < 2; ++sd)
      for (int lost = 0; lost < 2; ++lost) {
        const std::vector<T>& cur = level[sd][lost];
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cur.size(), grain), [&](const auto& range) {
          std::vector<T>& won = next[1 - sd][0].local();
          std::vector<T>& lose = next[1 - sd][1].local();
          constexpr std::size_t kBatch = 16;
          std::vector<Update> batch;
          auto emit = [&](std::uint64_t pid, const T& pred, std::uint8_t edges) {
            cells.prefetch(pid);
            batch.push_back({pid, pred, edges});
          };
          for (std::size_t i0 = range.begin(); i0 < range.end(); i0 += kBatch) {
            batch.clear();
            for (std::size_t i = i0; i < std::min(range.end(), i0 + kBatch); ++i) predecessors(cur[i], Side(sd), emit);
            for (const Update& u : batch) {
              const Value v = cells.reach_predecessor(u.id, lost, d, u.edges);
              if (v == Value::win) won.push_back(u.state);
              if (v == Value::loss) lose.push_back(u.state);
            }
          }
        }, tbb::simple_partitioner());
      }
    for (int sd = 0; sd < 2; ++sd)
      for (int lost = 0; lost < 2; ++lost) gather_into(next[sd][lost], level[sd][lost]);
    if (options.progress) options.progress("retrograde", decided, states);
  }
}

}  // namespace gonu::dense
