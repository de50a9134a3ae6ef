// One process's memory in a solve over MPI processes (memory_mpi.hpp).
#include "solver/mpi/memory_mpi.hpp"

#include <mpi.h>

#include <cmath>
#include <string>

#include "solver/dense/estimate.hpp"
#include "solver/dense/parts.hpp"

namespace gonu::mpi {

MemoryEstimate estimate_process_memory(const Game& from, const SolveOptions& options, int procs, int rank) {
  const dense::CompactShares c = dense::compact_shares(from);
  const double range = c.states / double(procs);
  double bytes = c.whole + c.divided / double(procs) + (11.0 + 16.0 / 2) * range;
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

int processes_on_node() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

int first_process_where(bool over) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int mine = over ? rank : size;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return first == size ? -1 : first;
}

}  // namespace gonu::mpi
