// One process's memory in a solve over MPI processes (memory_mpi.hpp).
#include "solver/julgonu/mpi/memory_mpi.hpp"

#include <cmath>
#include <string>

#include "solver/julgonu/dense/estimate.hpp"
#include "solver/julgonu/dense/parts.hpp"

namespace gonu::mpi {

namespace {

// Open MPI's libraries and buffers in each process (4x4 free on 1 process peaks at 47 MiB before
// its read-off, where the single-process engine holds 21 MiB in all).
constexpr double kMpiBase = 40.0 * (1 << 20);

// The levels expand a frontier or a retrograde level in batches (the untagged engine,
// solve_mpi.cpp) or a board's states at a time (the tagged one), their words held at once before
// they are sent: a fixed amount (4x5 free, one process: 592 MiB at the peak, where the compact
// engine's arrays are 410 MiB). The read-off reads the states from the bits and cells
// (range_source.hpp, tagged_source.hpp) and holds the mirror images that other processes send,
// 8 bytes each: those of the non-canonical states (about half) whose canonical form is another
// process's (1 - 2 / processes of them: a board and its mirror image have the same side to move,
// and each side has half the ids), and about 3.5 bytes a state of the range besides (the reached
// bitmap, the writer's chunks, a round of images in flight): 4x5 free on 8 processes peaks at
// 356 MiB, its retrograde at 198; 4x4 encyclopedia at 358, its reach at 277.
constexpr double kBatches = 128.0 * (1 << 20);
constexpr double kStreamedReadOff = 3.5;
double remote_images(int procs) { return procs > 2 ? 8.0 * 0.5 * (1.0 - 2.0 / procs) : 0.0; }

}  // namespace

MemoryEstimate estimate_process_memory(const Game& from, const SolveOptions& options, int procs, int rank) {
  const dense::CompactShares c = dense::compact_shares(from);
  const double range = c.states / double(procs);
  double bytes = kMpiBase + c.whole + c.divided / double(procs);
  bytes += kBatches + (kStreamedReadOff + remote_images(procs)) * range;
  if (rank == 0 && !options.compact_result) bytes += 11.0 * c.states;
  SolveOptions compact = options;
  compact.engine = Engine::compact;
  MemoryEstimate e = dense::estimate_engine_memory(from, compact);
  e.bytes = std::uint64_t(std::llround(bytes));
  e.basis += "; process " + std::to_string(rank) + " of " + std::to_string(procs);
  return e;
}

std::uint64_t process_memory_limit(const SolveOptions& options, int on_node) {
  if (options.max_memory) return options.max_memory;
  return std::uint64_t(dense::physical_memory()) / std::uint64_t(on_node > 0 ? on_node : 1);
}

}  // namespace gonu::mpi
