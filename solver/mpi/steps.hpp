// The levels of a distributed solve as every engine over MPI ends them (solve_mpi.cpp for the
// untagged rule sets, solve_mpi_tagged.cpp for the tagged ones): a level's traffic counted and
// said, its restart point written (checkpoint.hpp), the stop a test may ask for; the resumption
// from the newest restart point every process holds; and the run's end (traffic, peak memory per
// process, the restart points removed); and the joining of the threads' per-owner buckets
// before an exchange.
#pragma once
#include <tbb/enumerable_thread_specific.h>

#include <cstdint>
#include <string>
#include <vector>

#include "solver/mpi/comm.hpp"
#include "solver/mpi/part.hpp"
#include "solver/mpi/solve_mpi.hpp"

namespace gonu::mpi {

using Buckets = std::vector<Boards>;  // words by the process they go to

// The threads' buckets joined, each one sorted and without repeats when `unique` (a reach's
// successors: one claim is enough; a retrograde's words each stand for an edge and all count).
Buckets join(tbb::enumerable_thread_specific<Buckets>& threads, std::size_t procs, bool unique);

// What the steps need of a run: its processes, options, restart points' signature, and the bytes
// sent by every process so far.
struct Steps {
  Comm& comm;
  const MpiOptions& mpi;
  const std::string& signature;
  std::uint64_t& sent;
  bool root() const { return comm.rank() == 0; }
};

// The end of a level on every process (pt.step counts it).
void end_step(Steps& st, Part& pt, const char* phase, std::uint32_t level);

// pt from the newest restart point every process holds; false if there is none (or no folder).
bool resume(Steps& st, Part& pt);

// The run's traffic and each process's peak resident memory (process 0's stderr, s.peak_bytes on
// process 0); the restart points removed, the solve being done.
void finish(Steps& st, const Part& pt, Solution& s);

}  // namespace gonu::mpi
