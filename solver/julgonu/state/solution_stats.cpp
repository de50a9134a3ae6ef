// Per-distance, per-material and per-level counts of a Solution: the first two in one parallel
// pass over the arrays, the levels by a parallel breadth-first search from the root.
#include "solver/julgonu/state/solution_stats.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>

#include "solver/julgonu/state/successors.hpp"

namespace gonu {

namespace {

// Per-thread tallies of one pass: distance, and material as a (cells+1)^2 grid.
struct Tally {
  std::vector<ValueCounts> distance, material;
};

void tally_distance_and_material(const Solution& s, SolutionStats& out) {
  const std::size_t side = std::size_t(s.codec.board.rows * s.codec.board.cols + 1);
  tbb::combinable<Tally> tallies([&] {
    return Tally{std::vector<ValueCounts>(std::size_t(s.max_dist) + 1), std::vector<ValueCounts>(side * side)};
  });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, s.keys.size(), 1 << 16), [&](const auto& r) {
    Tally& t = tallies.local();
    Position p;
    Tag tag;
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      decode_key(s.codec, s.keys[i], p, tag);
      t.distance[s.dist[i]].add(s.value[i]);
      t.material[std::size_t(popcount(p.black)) * side + std::size_t(popcount(p.white))].add(s.value[i]);
    }
  });
  out.by_distance.assign(std::size_t(s.max_dist) + 1, {});
  std::vector<ValueCounts> material(side * side);
  tallies.combine_each([&](const Tally& t) {
    for (std::size_t d = 0; d < t.distance.size(); ++d) out.by_distance[d].add(t.distance[d]);
    for (std::size_t m = 0; m < t.material.size(); ++m) material[m].add(t.material[m]);
  });
  for (std::size_t b = side; b-- > 0;)
    for (std::size_t w = side; w-- > 0;)
      if (material[b * side + w].states) out.by_material.push_back({int(b), int(w), material[b * side + w]});
}

constexpr std::uint32_t kUnseen = 0xffffffff;

// Breadth-first search from the root over the successors; each state counted at its first level.
void tally_levels(const Solution& s, SolutionStats& out) {
  std::vector<std::atomic<std::uint32_t>> level(s.keys.size());
  for (auto& l : level) l.store(kUnseen, std::memory_order_relaxed);
  std::vector<std::size_t> frontier{*find_state(s, s.root_key)};
  level[frontier[0]] = 0;
  for (std::uint32_t depth = 0; !frontier.empty(); ++depth) {
    ValueCounts here;
    for (const std::size_t i : frontier) here.add(s.value[i]);
    out.by_level.push_back(here);
    tbb::enumerable_thread_specific<std::vector<std::size_t>> next;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), 1024), [&](const auto& r) {
      Successor succ[kMaxMoves];
      auto& mine = next.local();
      for (std::size_t f = r.begin(); f < r.end(); ++f) {
        const int k = expand_key(s.codec, s.keys[frontier[f]], succ);
        for (int m = 0; m < k; ++m) {
          const std::size_t t = *find_state(s, succ[m].key);
          std::uint32_t unseen = kUnseen;
          if (level[t].compare_exchange_strong(unseen, depth + 1, std::memory_order_relaxed)) mine.push_back(t);
        }
      }
    });
    frontier.clear();
    for (auto& v : next) frontier.insert(frontier.end(), v.begin(), v.end());
  }
}

}  // namespace

SolutionStats solution_stats(const Solution& s, bool levels) {
  SolutionStats out;
  tally_distance_and_material(s, out);
  if (levels) tally_levels(s, out);
  return out;
}

}  // namespace gonu
