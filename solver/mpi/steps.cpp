// The steps every distributed engine shares (steps.hpp).
#include "solver/mpi/steps.hpp"

#include <sys/resource.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <iostream>

#include "solver/mpi/checkpoint.hpp"

namespace gonu::mpi {

namespace {

std::uint64_t peak_resident() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return std::uint64_t(u.ru_maxrss) * 1024;
}

}  // namespace

// The threads' buckets joined, each one sorted and without repeats when `unique` (a reach's
// successors: one claim is enough; a retrograde's words each stand for an edge and all count).
Buckets join(tbb::enumerable_thread_specific<Buckets>& threads, std::size_t procs, bool unique) {
  Buckets out(procs);
  for (Buckets& t : threads)
    for (std::size_t p = 0; p < procs; ++p) {
      out[p].insert(out[p].end(), t[p].begin(), t[p].end());
      Boards().swap(t[p]);
    }
  if (unique)
    for (Boards& b : out) {
      tbb::parallel_sort(b.begin(), b.end());
      b.erase(std::unique(b.begin(), b.end()), b.end());
    }
  return out;
}

// The end of a level on every process: its traffic said, its restart point written (the previous
// one removed once every process has written this one), and the stop a test may ask for.
void end_step(Steps& r, Part& pt, const char* phase, std::uint32_t level) {
  ++pt.step;
  const std::uint64_t bytes = r.comm.sum(r.comm.take_sent());
  r.sent += bytes;
  if (r.mpi.report && r.root())
    std::cerr << "mpi: " << phase << " level " << level << ": " << bytes << " bytes sent\n";
  if (!r.mpi.checkpoint_dir.empty()) {
    save_part(r.mpi.checkpoint_dir, r.signature, r.comm.rank(), pt);
    r.comm.barrier();
    if (pt.step > 1) remove_part(r.mpi.checkpoint_dir, r.comm.rank(), pt.step - 1);
  }
  if (r.mpi.stop_after_step == std::int64_t(pt.step)) {
    r.comm.barrier();
    if (r.root()) std::cerr << "gonu: stopped after restart point " << pt.step << " (as asked)\n";
    abort_run(75);
  }
}

// The run from the newest restart point every process holds, if there is one.
bool resume(Steps& r, Part& pt) {
  if (r.mpi.checkpoint_dir.empty()) return false;
  const std::optional<std::uint32_t> mine = newest_step(r.mpi.checkpoint_dir, r.comm.rank());
  const std::int64_t step = r.comm.min(mine ? std::int64_t(*mine) : -1);
  if (step < 0) return false;
  load_part(r.mpi.checkpoint_dir, r.signature, r.comm.rank(), std::uint32_t(step), pt);
  if (r.root() && r.mpi.report) std::cerr << "mpi: resuming from restart point " << step << "\n";
  return true;
}


// The run's traffic and each process's peak resident memory, on process 0's stderr; the restart
// points removed, the solve being done.
void finish(Steps& r, const Part& pt, Solution& s) {
  const std::vector<std::uint64_t> peaks = r.comm.gather(std::vector<std::uint64_t>{peak_resident()});
  r.sent += r.comm.sum(r.comm.take_sent());
  if (r.root()) {
    s.peak_bytes = std::size_t(*std::max_element(peaks.begin(), peaks.end()));
    if (r.mpi.report) {
      std::cerr << "mpi: " << r.comm.size() << " processes, " << r.sent << " bytes sent in all; peak resident (MiB):";
      for (const std::uint64_t p : peaks) std::cerr << " " << (p >> 20);
      std::cerr << "\n";
    }
  }
  if (!r.mpi.checkpoint_dir.empty()) {
    r.comm.barrier();
    remove_part(r.mpi.checkpoint_dir, r.comm.rank(), pt.step);
    if (pt.step > 0) remove_part(r.mpi.checkpoint_dir, r.comm.rank(), pt.step - 1);
  }
}

}  // namespace gonu::mpi
