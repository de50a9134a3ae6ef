// The levels of a distributed solve as every engine over MPI ends them (solve_mpi.cpp for the
// untagged rule sets, solve_mpi_tagged.cpp for the tagged ones): a level's traffic counted and
// said, its restart point written (checkpoint.hpp), the stop a test may ask for; the resumption
// from the newest restart point every process holds; and the run's end (traffic, peak memory per
// process, the restart points removed); the read-off of the result kept where it was computed
// (table_mpi.hpp); and the joining of the threads' per-owner buckets before an exchange.
#pragma once
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "solver/mpi/comm.hpp"
#include "solver/mpi/part.hpp"
#include "solver/mpi/solve_mpi.hpp"
#include "solver/mpi/table_mpi.hpp"

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

// The bytes every process sent since the last count, added to the run's and said on process 0's
// stderr ("mpi: WHAT: N bytes sent").
void say_traffic(Steps& st, const std::string& what);

// The end of a level on every process (pt.step counts it).
void end_step(Steps& st, Part& pt, const char* phase, std::uint32_t level);

// pt from the newest restart point every process holds; false if there is none (or no folder).
bool resume(Steps& st, Part& pt);

// The read-off, the same for every engine once each process has its range's states in key order
// (`mine`, read through its source and numbered here): the counts summed into s, the table written in parts (mpi.table), and
// the root's and its moves' states sent to process 0 for the report; only when the caller reads
// the arrays (not compact_result: --verify, --stats) every process's states gathered on process
// 0 as s's arrays. The engine sets s.edges and s.levels first. Returns the table's size (0 if none).
std::uint64_t read_off(Steps& st, bool compact_result, RangeStates mine, Solution& s);

// The run's traffic and each process's peak resident memory (process 0's stderr, s.peak_bytes on
// process 0); the restart points removed, the solve being done.
void finish(Steps& st, const Part& pt, Solution& s);

}  // namespace gonu::mpi
