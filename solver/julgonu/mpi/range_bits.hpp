// A process's bitmap over its range of a space seen with the whole space's ids (the tagged
// engine over MPI, solve_mpi_tagged.cpp: its range of tag slots starts at lo), so that the
// single-process engine's code (solver/julgonu/dense/tagged_*.hpp) runs on it unchanged.
#pragma once
#include <cstdint>

#include "solver/julgonu/dense/compact_store.hpp"

namespace gonu::mpi {

// A process's reached bits, addressed by the ids of the whole space (its range starts at lo).
class RangeBits {
 public:
  RangeBits(dense::RankedBits& bits, std::uint64_t lo) : bits_(&bits), lo_(lo) {}
  bool claim(std::uint64_t id) { return bits_->claim(id - lo_); }
  bool test(std::uint64_t id) const { return bits_->test(id - lo_); }
  void prefetch(std::uint64_t id) const { bits_->prefetch(id - lo_); }
  std::uint64_t rank(std::uint64_t id) const { return bits_->rank(id - lo_); }
  bool any(std::uint64_t a, std::uint64_t b) const { return bits_->any(a - lo_, b - lo_); }
  template <class Visit>
  void for_each(std::uint64_t a, std::uint64_t b, Visit&& visit) const {
    bits_->for_each(a - lo_, b - lo_, [&](std::uint64_t x) { visit(x + lo_); });
  }

 private:
  dense::RankedBits* bits_;  // the Part's (a restart point reloads it in place)
  std::uint64_t lo_;
};

}  // namespace gonu::mpi
