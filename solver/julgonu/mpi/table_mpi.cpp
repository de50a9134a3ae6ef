// The result kept where it was computed (table_mpi.hpp): counts, the report's few states, and the
// table written in parts with the single-process writer's phases.
#include "solver/julgonu/mpi/table_mpi.hpp"

#include <mpi.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"
#include "solver/container/file.hpp"
#include "solver/julgonu/mpi/part.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/julgonu/table/write_phases.hpp"
#include "util/atomic_file.hpp"

namespace gonu::mpi {

namespace {

using namespace table_write;

constexpr std::uint64_t S = kTableBlockSize;
constexpr std::uint64_t kReadChunk = std::uint64_t(1) << 16;  // states a task reads at a time

// A run of state numbers [lo, hi).
struct Span {
  std::uint64_t lo = 0, hi = 0;
};

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The blocks a process writes: those whose first state is in its range.
Span blocks_of(Span range) { return {ceil_div(range.lo, S), ceil_div(range.hi, S)}; }

// The states its writer reads: its blocks' and the one before the first (empty without blocks).
Span window_of(Span range, std::uint64_t n) {
  const Span b = blocks_of(range);
  if (b.lo == b.hi) return {range.lo, range.lo};
  return {b.lo > 0 ? b.lo * S - 1 : 0, std::min(n, b.hi * S)};
}

// Every process's range of state numbers, in process order.
std::vector<Span> all_ranges(const RangeStates& mine, int procs) {
  const std::uint64_t me[2] = {mine.first, mine.end()};
  std::vector<std::uint64_t> all(2 * std::size_t(procs));
  MPI_Allgather(me, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, MPI_COMM_WORLD);
  std::vector<Span> ranges(static_cast<std::size_t>(procs));
  for (std::size_t p = 0; p < ranges.size(); ++p) ranges[p] = {all[2 * p], all[2 * p + 1]};
  return ranges;
}

// The sum of x over the processes before this one.
std::uint64_t sum_before(const Comm& comm, std::uint64_t x) {
  std::uint64_t r = 0;
  MPI_Exscan(&x, &r, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return comm.rank() == 0 ? 0 : r;
}

std::string broadcast(const std::string& text) {
  std::uint64_t size = text.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::string out = text;
  out.resize(std::size_t(size));
  MPI_Bcast(out.data(), int(size), MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

std::uint64_t record_word(const RangeRecords& r, std::uint64_t i) {
  return std::uint64_t(r.value[i]) | std::uint64_t(r.dist[i]) << 2;
}

void push_state(RangeRecords& r, Key k, std::uint64_t vd) {
  r.keys.push_back(k);
  r.value.push_back(Value(vd & 3u));
  r.dist.push_back(std::uint16_t(vd >> 2));
}

// The states held as records (record_range).
class RecordSource final : public StateSource {
 public:
  explicit RecordSource(RangeRecords r) : r_(std::move(r)) {}
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    const auto a = std::ptrdiff_t(lo), b = std::ptrdiff_t(hi);
    std::copy(r_.keys.begin() + a, r_.keys.begin() + b, keys);
    std::copy(r_.value.begin() + a, r_.value.begin() + b, value);
    std::copy(r_.dist.begin() + a, r_.dist.begin() + b, dist);
  }
  std::optional<std::uint64_t> find(Key k) const override {
    const auto it = std::lower_bound(r_.keys.begin(), r_.keys.end(), k);
    if (it == r_.keys.end() || *it != k) return std::nullopt;
    return std::uint64_t(it - r_.keys.begin());
  }

 private:
  RangeRecords r_;
};

// The part of the state numbers [lo, hi) that r holds, copied to where it goes in the arrays of
// [lo, hi).
void copy_overlap(const RangeStates& r, std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value,
                  std::uint16_t* dist) {
  const std::uint64_t a = std::max(lo, r.first), b = std::min(hi, r.end());
  if (a < b) r.states->read(a - r.first, b - r.first, keys + (a - lo), value + (a - lo), dist + (a - lo));
}

std::optional<std::uint64_t> find_in(const RangeStates& r, Key k) {
  const auto i = r.states->find(k);
  if (!i) return std::nullopt;
  return r.first + *i;
}

// A writer's states: its own range and the few states around it that the others sent.
class WindowSource final : public StateSource {
 public:
  WindowSource(const RangeStates& own, RangeStates before, RangeStates after)
      : own_(own), before_(std::move(before)), after_(std::move(after)) {}
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    for (const RangeStates* r : {&before_, &own_, &after_}) copy_overlap(*r, lo, hi, keys, value, dist);
  }
  std::optional<std::uint64_t> find(Key k) const override {
    for (const RangeStates* r : {&before_, &own_, &after_})
      if (const auto i = find_in(*r, k)) return i;
    return std::nullopt;
  }

 private:
  const RangeStates& own_;
  RangeStates before_, after_;
};

// The states process 0's report reads, each with its number; no other state can be read.
class PickedSource final : public StateSource {
 public:
  struct State {
    std::uint64_t number;
    Key key;
    Value value;
    std::uint16_t dist;
  };
  explicit PickedSource(std::vector<State> states) : states_(std::move(states)) {}
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    for (std::uint64_t i = lo; i < hi; ++i) {
      const auto it = std::find_if(states_.begin(), states_.end(), [&](const State& s) { return s.number == i; });
      if (it == states_.end()) throw std::logic_error("the MPI report read a state it did not ask for");
      keys[i - lo] = it->key;
      value[i - lo] = it->value;
      dist[i - lo] = it->dist;
    }
  }
  std::optional<std::uint64_t> find(Key k) const override {
    const auto it = std::find_if(states_.begin(), states_.end(), [&](const State& s) { return s.key == k; });
    if (it == states_.end()) return std::nullopt;
    return it->number;
  }

 private:
  std::vector<State> states_;
};

// The writer's view of the table: the header's fields from `head`, the states of the window
// (this process's range and the others' states its blocks need, exchanged here).
Solution window_solution(Comm& comm, const Solution& head, const RangeStates& mine, const std::vector<Span>& ranges) {
  const std::uint64_t n = ranges.back().hi;
  std::vector<Boards> out(ranges.size());
  for (std::size_t q = 0; q < ranges.size(); ++q) {
    if (int(q) == comm.rank()) continue;
    const Span w = window_of(ranges[q], n);
    const std::uint64_t a = std::max(w.lo, mine.first), b = std::max(a, std::min(w.hi, mine.end()));
    const RangeRecords part = read_records(mine, a - mine.first, b - mine.first);
    for (std::uint64_t i = 0; i < part.size(); ++i) {
      out[q].push_back(part.keys[i]);
      out[q].push_back(record_word(part, i));
    }
  }
  const Boards in = comm.exchange(out);  // in state order: before this range, then after it
  const Span w = window_of(ranges[std::size_t(comm.rank())], n);
  const std::uint64_t wanted_before = w.lo < mine.first ? mine.first - w.lo : 0;
  RangeRecords before, after;
  for (std::size_t i = 0; i + 1 < in.size(); i += 2)
    push_state(before.size() < wanted_before ? before : after, in[i], in[i + 1]);
  RangeStates b = record_range(std::move(before)), a = record_range(std::move(after));
  b.first = w.lo;
  a.first = mine.end();
  Solution s;
  s.codec = head.codec;
  s.root = head.root;
  s.root_tag = head.root_tag;
  s.root_key = head.root_key;
  s.edges = head.edges;
  s.states = n;
  s.source = std::make_shared<WindowSource>(mine, std::move(b), std::move(a));
  return s;
}

// fn() on every process; if it failed on any, every process throws (its own error, if it had one).
template <class Fn>
void agree(const Comm& comm, const std::string& path, Fn&& fn) {
  std::string error;
  try {
    fn();
  } catch (const FileWriteError& e) {
    error = table_container::write_error(path, e.what()).what();
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm.min(error.empty() ? 1 : 0) == 1) return;
  throw GonuError(error.empty() ? "cannot write table " + path + ": another process failed (its stderr says why)"
                                : error);
}

Counts summed(const Comm& comm, const Counts& c) {
  Counts all;
  all.wins = comm.sum(c.wins);
  all.losses = comm.sum(c.losses);
  all.draws = comm.sum(c.draws);
  all.max_dist = std::uint16_t(comm.max(c.max_dist));
  all.max_code = std::uint32_t(comm.max(c.max_code));
  return all;
}

// Process 0 makes the temporary file (named, for the others to open), every process writes its
// blocks into it, and once all have synced process 0 finishes and commits it.
void write_file(const Comm& comm, const std::string& path, const Solution& window, const Index& part,
                const Index& whole, const Counts& c, unsigned vb, const Layout& l) {
  const bool root = comm.rank() == 0;
  std::optional<AtomicFileWriter> out;
  TableHeader h;
  agree(comm, path, [&] {
    if (!root) return;
    h = make_header(window, c, vb, whole, l);
    out.emplace(path, comm.size() > 1 ? TempFileKind::named : TempFileKind::any);
  });
  const std::string temp = broadcast(root ? out->temp_path() : std::string());
  agree(comm, path, [&] {
    if (root) {
      encode_blocks(window, part, vb, l, [&](std::uint64_t at, const void* d, std::size_t n) { out->write_at(at, d, n); });
      return;
    }
    FileRangeWriter mine(temp);
    encode_blocks(window, part, vb, l, [&](std::uint64_t at, const void* d, std::size_t n) { mine.write_at(at, d, n); });
    mine.sync();
  });
  if (!root) return;
  table_container::writing(path, [&] {
    finish_file(*out, window, h, whole, l);
    out->commit();
  });
}

}  // namespace

void number_ranges(Comm& comm, RangeStates& mine) { mine.first = sum_before(comm, mine.size()); }

RangeStates record_range(RangeRecords records) {
  RangeStates r;
  r.count = records.size();
  r.states = std::make_shared<RecordSource>(std::move(records));
  return r;
}

RangeRecords read_records(const RangeStates& mine, std::uint64_t lo, std::uint64_t hi) {
  RangeRecords r;
  const std::uint64_t n = hi > lo ? hi - lo : 0, chunks = (n + kReadChunk - 1) / kReadChunk;
  r.keys.resize(std::size_t(n));
  r.value.resize(std::size_t(n));
  r.dist.resize(std::size_t(n));
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    const std::uint64_t a = c * kReadChunk, b = std::min(n, a + kReadChunk);
    mine.states->read(lo + a, lo + b, &r.keys[a], &r.value[a], &r.dist[a]);
  });
  return r;
}

void count_ranges(Comm& comm, const RangeStates& mine, Solution& s) {
  struct Counts {
    std::uint64_t by_value[3] = {0, 0, 0};
    std::uint16_t max_dist = 0;
  };
  const std::uint64_t chunks = (mine.size() + kReadChunk - 1) / kReadChunk;
  const Counts c = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, chunks), Counts{},
      [&](const tbb::blocked_range<std::uint64_t>& r, Counts acc) {
        for (std::uint64_t ch = r.begin(); ch < r.end(); ++ch) {
          const RangeRecords part = read_records(mine, ch * kReadChunk, std::min(mine.size(), (ch + 1) * kReadChunk));
          for (std::uint64_t i = 0; i < part.size(); ++i) {
            ++acc.by_value[std::uint8_t(part.value[i])];
            acc.max_dist = std::max(acc.max_dist, part.dist[i]);
          }
        }
        return acc;
      },
      [](Counts x, const Counts& y) {
        for (int v = 0; v < 3; ++v) x.by_value[v] += y.by_value[v];
        x.max_dist = std::max(x.max_dist, y.max_dist);
        return x;
      });
  s.draws = comm.sum(c.by_value[std::uint8_t(Value::draw)]);
  s.wins = comm.sum(c.by_value[std::uint8_t(Value::win)]);
  s.losses = comm.sum(c.by_value[std::uint8_t(Value::loss)]);
  s.max_dist = std::uint16_t(comm.max(c.max_dist));
  s.states = comm.sum(mine.size());
}

void pick_report_states(Comm& comm, const RangeStates& mine, Solution& s) {
  Successor succ[kMaxMoves];
  const int k = expand_key(s.codec, s.root_key, succ);
  std::vector<std::uint64_t> words;  // (key, number, value word) of the wanted states held here
  for (int i = -1; i < k; ++i) {
    const Key key = i < 0 ? s.root_key : succ[i].key;
    if (const auto at = find_in(mine, key))
      words.insert(words.end(), {key, *at, record_word(read_records(mine, *at - mine.first, *at - mine.first + 1), 0)});
  }
  const std::vector<std::uint64_t> all = comm.gather(words);
  if (comm.rank() != 0) return;
  std::vector<PickedSource::State> picked;
  for (std::size_t i = 0; i + 2 < all.size(); i += 3)
    picked.push_back({all[i + 1], all[i], Value(all[i + 2] & 3u), std::uint16_t(all[i + 2] >> 2)});
  s.source = std::make_shared<PickedSource>(std::move(picked));
  if (!s.source->find(s.root_key)) throw GonuError("the root is not among the solved states");
}

std::uint64_t write_table_parts(Comm& comm, const std::string& path, const Solution& head, const RangeStates& mine) {
  const std::vector<Span> ranges = all_ranges(mine, comm.size());
  const std::uint64_t n = ranges.back().hi;
  const Span blocks = blocks_of(ranges[std::size_t(comm.rank())]);
  const Solution window = window_solution(comm, head, mine, ranges);
  Index part;
  Counts c;
  agree(comm, path, [&] {
    check_writable(window);
    c = check_blocks(window, blocks.lo, blocks.hi, part);
  });
  const std::uint64_t bytes = key_bytes(part), key_data = comm.sum(bytes);
  place(part, sum_before(comm, bytes));
  c = summed(comm, c);
  const unsigned vb = value_bits(c.max_code);
  const Layout l = layout_of(n, key_data, vb);
  Index whole;  // on process 0
  whole.bytes = comm.gather(part.bytes);
  whole.key_end = key_data;
  write_file(comm, path, window, part, whole, c, vb, l);
  return l.file_size;
}

}  // namespace gonu::mpi
