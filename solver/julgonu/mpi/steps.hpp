// The levels of a distributed solve as every engine over MPI ends them (solve_mpi.cpp for the
// untagged rule sets, solve_mpi_tagged.cpp for the tagged ones): a level's traffic counted and
// said, its restart point written (checkpoint.hpp), the stop a test may ask for; the resumption
// from the newest restart point every process holds; and the run's end (traffic, peak memory per
// process, the restart points removed); the read-off of the result kept where it was computed
// (table_mpi.hpp); and the joining of the threads' per-owner buckets before an exchange, and the
// batches a level's exchange is cut into.
#pragma once
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "solver/mpi/comm.hpp"
#include "solver/julgonu/mpi/part.hpp"
#include "solver/julgonu/mpi/range_source.hpp"
#include "solver/julgonu/mpi/solve_mpi.hpp"
#include "solver/julgonu/mpi/table_mpi.hpp"

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

// From MpiOptions::batch (by default 2^19 states a batch, about 5 million words sent): the boards
// of a tagged retrograde level per exchange (each has up to a few hundred states), and the ids (or
// tag slots) of a range whose mirror images go in one round of the read-off.
inline std::size_t board_batch(const MpiOptions& m) { return std::max<std::size_t>(1, m.batch >> 6); }
inline std::uint64_t round_ids(const MpiOptions& m) { return std::uint64_t(m.batch) << 5; }

// body(a, b) for the entries [a, b) of a list of n, in batches of at most `per` (>= 1), the same number
// of batches on every process (each batch ends in an exchange): what a batch sends, before its
// duplicates are dropped, is held at once, and a whole level's would set the run's peak.
template <class Body>
void in_batches(const Comm& comm, std::size_t n, std::size_t per, Body&& body) {
  const std::uint64_t batches = comm.max((n + per - 1) / per);
  for (std::uint64_t k = 0; k < batches; ++k)
    body(std::min(n, std::size_t(k * per)), std::min(n, std::size_t((k + 1) * per)));
}

// The read-off's mirror images exchanged in `rounds` rounds (the same number on every process):
// fill(k, out) puts round k's image words (range_source.hpp) into the calling thread's buckets by
// process, in parallel; each round's words received are sorted and kept as one run.
template <class Fill>
RemoteImages exchange_images(Comm& comm, std::uint64_t rounds, Fill&& fill) {
  const std::size_t procs = std::size_t(comm.size());
  RemoteImages got;
  for (std::uint64_t k = 0; k < rounds; ++k) {
    tbb::enumerable_thread_specific<Buckets> out([&] { return Buckets(procs); });
    fill(k, out);
    Buckets send = join(out, procs, false);
    Boards in = comm.exchange(send);
    tbb::parallel_sort(in.begin(), in.end());
    if (!in.empty()) got.runs.push_back(std::move(in));
  }
  return got;
}

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
