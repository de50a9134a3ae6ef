// Comm over MPI_COMM_WORLD (comm.hpp). Exchanges: the counts first (MPI_Alltoall), then the words
// in rounds of at most INT_MAX / size() per pair, so that every count and displacement of a round's
// MPI_Alltoallv fits in an int.
#include "solver/mpi/comm.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <utility>

namespace gonu::mpi {

namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t(1) << 30;  // of a point-to-point message

}  // namespace

Comm::Comm() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

std::uint64_t Comm::sum(std::uint64_t x) const {
  std::uint64_t r = 0;
  MPI_Allreduce(&x, &r, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return r;
}

std::uint64_t Comm::max(std::uint64_t x) const {
  std::uint64_t r = 0;
  MPI_Allreduce(&x, &r, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return r;
}

std::int64_t Comm::min(std::int64_t x) const {
  std::int64_t r = 0;
  MPI_Allreduce(&x, &r, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  return r;
}

void Comm::barrier() const { MPI_Barrier(MPI_COMM_WORLD); }

std::vector<std::uint64_t> Comm::exchange(std::vector<std::vector<std::uint64_t>>& out) {
  const auto n = std::size_t(size_);
  std::vector<std::uint64_t> send_count(n), recv_count(n);
  std::uint64_t most = 0;
  for (std::size_t p = 0; p < n; ++p) {
    send_count[p] = out[p].size();
    most = std::max(most, send_count[p]);
    if (int(p) != rank_) sent_ += send_count[p] * 8;
  }
  MPI_Alltoall(send_count.data(), 1, MPI_UINT64_T, recv_count.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  std::vector<std::uint64_t> at(n + 1, 0);  // where each source's words go in the result
  for (std::size_t p = 0; p < n; ++p) at[p + 1] = at[p] + recv_count[p];
  std::vector<std::uint64_t> in(at[n]);
  const std::uint64_t per = std::uint64_t(INT_MAX) / n, rounds = (max(most) + per - 1) / per;
  std::vector<int> sc(n), sd(n), rc(n), rd(n);
  std::vector<std::uint64_t> send, recv;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const std::uint64_t from = r * per;
    auto slice = [&](std::uint64_t count) { return count > from ? std::min(per, count - from) : 0; };
    send.clear();
    int s = 0, t = 0;
    for (std::size_t p = 0; p < n; ++p) {
      sc[p] = int(slice(send_count[p]));
      sd[p] = s;
      s += sc[p];
      send.insert(send.end(), out[p].begin() + std::ptrdiff_t(from), out[p].begin() + std::ptrdiff_t(from) + sc[p]);
      rc[p] = int(slice(recv_count[p]));
      rd[p] = t;
      t += rc[p];
    }
    recv.resize(std::size_t(t));
    MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_UINT64_T, recv.data(), rc.data(), rd.data(), MPI_UINT64_T,
                  MPI_COMM_WORLD);
    for (std::size_t p = 0; p < n; ++p)
      std::copy_n(recv.begin() + rd[p], rc[p], in.begin() + std::ptrdiff_t(at[p] + from));
  }
  for (auto& o : out) std::vector<std::uint64_t>().swap(o);
  return in;
}

std::vector<std::uint64_t> Comm::gather_counts(std::uint64_t mine) const {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(size_));
  MPI_Gather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return counts;
}

void Comm::send_bytes(int to, const void* data, std::uint64_t bytes) {
  sent_ += bytes;
  const char* p = static_cast<const char*>(data);
  for (std::uint64_t off = 0; off < bytes; off += kChunkBytes)
    MPI_Send(p + off, int(std::min(kChunkBytes, bytes - off)), MPI_BYTE, to, 0, MPI_COMM_WORLD);
}

void Comm::receive_bytes(int from, void* data, std::uint64_t bytes) const {
  char* p = static_cast<char*>(data);
  for (std::uint64_t off = 0; off < bytes; off += kChunkBytes)
    MPI_Recv(p + off, int(std::min(kChunkBytes, bytes - off)), MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

}  // namespace gonu::mpi
