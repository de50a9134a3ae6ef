// The memory a solve will need, estimated from the root alone before anything large is
// allocated, and the engine that choice of memory picks (automatic: the dense engine where its
// estimate fits the limit, else the compact one; the state graph where neither applies).
//
// The per-id arrays are exact (the dense space's size is a count: BoardRank, count_tagged_states).
// The per-state ones need the number of reachable states, which only the solve finds: it is the
// dense space times the share of it reachable, a constant per family of rule sets fitted on the
// boards of results/values.md (the shares vary little with the board: 0.71-0.77 for the untagged
// rule sets on 4x4, 4x5 and 5x4). tests/test_dense_estimate.cpp holds the estimate to the peaks
// recorded there.
#pragma once
#include "core/julgonu/game.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::dense {

MemoryEstimate estimate_engine_memory(const Game& from, const SolveOptions& options);

// The compact engine's estimate in parts, for a solve spread over processes (solver/julgonu/mpi/): the
// bytes every process holds whole, those the processes share out, and the expected states.
struct CompactShares {
  double whole = 0, divided = 0, states = 0;
};
CompactShares compact_shares(const Game& from);

// True if the compact engine handles the rule set.
bool compact_engine_applies(const Rules& r);

}  // namespace gonu::dense
