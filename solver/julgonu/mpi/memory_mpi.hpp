// One process's memory in a solve over MPI processes, estimated from the root before anything
// large is allocated (as solver/julgonu/dense/estimate.hpp does for one process), and the limit each
// process is held to, so that a run too large for its nodes is refused at once with one line
// instead of being killed on a node halfway through.
#pragma once
#include <cstdint>

#include "core/julgonu/game.hpp"
#include "solver/mpi/session.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::mpi {

// The peak of process `rank` of `procs`: what the compact engine holds whole on every process
// (the base; for the tagged rule sets the slot bases and list marks of every board), its share
// of what the processes share out (bitmaps, cells, lists), Open MPI's own, and the levels'
// batches and the read-off's (the mirror images other processes send; memory_mpi.cpp). Process 0
// adds the gathered arrays (11 bytes a state of all) when the caller reads them (not
// options.compact_result: --verify, --stats).
MemoryEstimate estimate_process_memory(const Game& from, const SolveOptions& options, int procs, int rank);

// One process's limit: options.max_memory (per process under --mpi), else the node's physical
// memory shared evenly by the run's processes on that node (0: unknown, no limit).
std::uint64_t process_memory_limit(const SolveOptions& options, int on_node);

}  // namespace gonu::mpi
