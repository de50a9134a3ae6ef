// The dense engines' read-off (both engines' step 3): reached ids in order are the solution's
// keys already sorted, so the ids are cut into blocks, each block's reached states counted in
// parallel, the counts summed into each block's first place in the solution, the solution sized
// (size_solution: refused if it would not fit), then every block written from its place in
// parallel. Also fills in the value counts and the peak memory estimate.
#pragma once
#include <tbb/parallel_for.h>

#include <cstdint>
#include <vector>

#include "solver/julgonu/dense/parts.hpp"

namespace gonu::dense {

// Writes a block's states one after another from its first place in the solution.
class SolutionWriter {
 public:
  SolutionWriter(Solution& s, std::size_t at) : s_(s), at_(at) {}
  void put(Key key, Value v, std::uint16_t dist) {
    s_.keys[at_] = key;
    s_.value[at_] = v;
    s_.dist[at_] = dist;
    ++at_;
  }

 private:
  Solution& s_;
  std::size_t at_;
};

// count(block): the reached states of the block; write(block, writer): puts them in key order.
// `need` is the solver's memory besides the solution (for size_solution and peak_bytes).
template <class Count, class Write>
void read_off(Solution& s, std::size_t need, std::uint64_t blocks, Count&& count, Write&& write) {
  std::vector<std::uint64_t> start(blocks + 1, 0);
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) { start[blk + 1] = count(blk); });
  for (std::uint64_t blk = 0; blk < blocks; ++blk) start[blk + 1] += start[blk];
  const std::size_t total = start[blocks];
  size_solution(s, total, need);
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    SolutionWriter out(s, start[blk]);
    write(blk, out);
  });
  count_values(s);
  s.peak_bytes = need + total * (sizeof(Key) + sizeof(Value) + sizeof(std::uint16_t));
}

}  // namespace gonu::dense
