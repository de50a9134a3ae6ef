// The processes of an MPI run as the distributed solver uses them (MPI_COMM_WORLD): sums and
// minima over every process, the all-to-all exchange of per-owner buckets of 64-bit words that
// each level of the passes makes, and the gathering of each process's part to process 0. Bytes
// sent to other processes are counted, so that a run can report its traffic per level.
// MPI's counts are ints: exchanges and gathers go in rounds small enough for them, so a level
// may send any number of words.
#pragma once
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace gonu::mpi {

class Comm {
 public:
  Comm();  // MPI must be initialised (MpiSession, session.hpp)
  int rank() const { return rank_; }
  int size() const { return size_; }
  std::uint64_t sum(std::uint64_t x) const;
  std::uint64_t max(std::uint64_t x) const;
  std::int64_t min(std::int64_t x) const;
  void barrier() const;

  // Sends out[p] to process p (out has size() buckets; they are emptied) and returns what every
  // process sent to this one, in process order.
  std::vector<std::uint64_t> exchange(std::vector<std::vector<std::uint64_t>>& out);

  // Process 0 gets every process's `part` one after another in process order; the others get an
  // empty vector. T is plain data.
  template <class T>
  std::vector<T> gather(const std::vector<T>& part) {
    std::vector<std::uint64_t> counts = gather_counts(part.size());
    std::vector<T> all;
    if (rank_ == 0) {
      std::uint64_t total = 0;
      for (const std::uint64_t c : counts) total += c;
      all.resize(total);
      std::memcpy(all.data(), part.data(), part.size() * sizeof(T));
      std::uint64_t at = part.size();
      for (int p = 1; p < size_; ++p) {
        receive_bytes(p, all.data() + at, counts[std::size_t(p)] * sizeof(T));
        at += counts[std::size_t(p)];
      }
    } else {
      send_bytes(0, part.data(), part.size() * sizeof(T));
    }
    return all;
  }

  // Bytes this process sent to others since the last call, and the count reset.
  std::uint64_t take_sent() { return std::exchange(sent_, 0); }

 private:
  std::vector<std::uint64_t> gather_counts(std::uint64_t mine) const;
  void send_bytes(int to, const void* data, std::uint64_t bytes);
  void receive_bytes(int from, void* data, std::uint64_t bytes) const;
  int rank_ = 0, size_ = 1;
  std::uint64_t sent_ = 0;
};

}  // namespace gonu::mpi
