// The steps every distributed engine shares (steps.hpp).
#include "solver/julgonu/mpi/steps.hpp"

#include <sys/resource.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <iostream>

#include "solver/julgonu/mpi/checkpoint.hpp"

namespace gonu::mpi {

namespace {

std::uint64_t peak_resident() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return std::uint64_t(u.ru_maxrss) * 1024;
}

// Every process's states read as records and gathered on process 0 in process order, which is
// key order: the Solution's arrays (for --verify and --stats on boards whose arrays fit). One
// array at a time, each part freed once sent: process 0 holds at most one array twice.
void gather_arrays(Steps& st, const RangeStates& mine, Solution& s) {
  RangeRecords all = read_records(mine, 0, mine.size());
  const auto fill = [&](auto& part, auto& into) {
    const auto gathered = st.comm.gather(part);
    std::vector<typename std::decay_t<decltype(part)>::value_type>().swap(part);
    if (!st.root()) return;
    into.resize(gathered.size());
    std::copy(gathered.begin(), gathered.end(), into.begin());
  };
  fill(all.keys, s.keys);
  fill(all.value, s.value);
  fill(all.dist, s.dist);
  if (st.root()) count_values(s);
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

void say_traffic(Steps& r, const std::string& what) {
  const std::uint64_t bytes = r.comm.sum(r.comm.take_sent());
  r.sent += bytes;
  const std::uint64_t peak = r.comm.max(peak_resident());  // so far, the largest process's
  if (r.mpi.report && r.root())
    std::cerr << "mpi: " << what << ": " << bytes << " bytes sent, peak " << (peak >> 20) << " MiB\n";
}

// The end of a level on every process: its traffic said, its restart point written (the previous
// one removed once every process has written this one), and the stop a test may ask for.
void end_step(Steps& r, Part& pt, const char* phase, std::uint32_t level) {
  ++pt.step;
  say_traffic(r, std::string(phase) + " level " + std::to_string(level));
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

std::uint64_t read_off(Steps& st, bool compact_result, RangeStates mine, Solution& s) {
  number_ranges(st.comm, mine);
  count_ranges(st.comm, mine, s);
  std::uint64_t table_bytes = 0;
  if (!st.mpi.table.empty()) table_bytes = write_table_parts(st.comm, st.mpi.table, s, mine);
  if (compact_result)
    pick_report_states(st.comm, mine, s);
  else
    gather_arrays(st, mine, s);
  say_traffic(st, compact_result ? "table and report" : "table, report and the gathered arrays");
  return table_bytes;
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
