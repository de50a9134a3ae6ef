// The solver's front door: enumerate every state reachable from a root, analyse it, and return
// the result as plain arrays in ascending key order (solver/julgonu/state/solution.hpp), exactly what a
// table stores. Only the finite repetition rules (none, immediate, undo); superko has its own
// solver (solver/julgonu/superko/).
#pragma once
#include <cstdint>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu {

// Solves from the game's current state (its position and tag) with the engine the options name:
// the dense engine (solver/julgonu/dense/) where it applies, else the state graph (solver/julgonu/graph/). Throws
// GonuError for superko, or for Engine::dense where it does not apply.
Solution solve(const Game& from, const SolveOptions& options = {});

// What a solve will need (solver/julgonu/dense/estimate.hpp), before anything large is allocated.
MemoryEstimate estimate_memory(const Game& from, const SolveOptions& options = {});

// The limit a solve is held to: options.max_memory, or the machine's physical memory if 0.
std::uint64_t memory_limit(const SolveOptions& options);

}  // namespace gonu
