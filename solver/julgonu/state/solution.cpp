// The counts a report needs, and key lookup, over a Solution's arrays.
#include "solver/julgonu/state/solution.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>

namespace gonu {

void count_values(Solution& s) {
  // Counted by value as an index (values follow no pattern, so a branch on each mispredicts), in
  // parallel: sums and a maximum come out the same for any split.
  struct Counts {
    std::uint64_t by_value[3] = {0, 0, 0};
    std::uint16_t max_dist = 0;
  };
  const Counts c = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, s.keys.size(), 1 << 16), Counts{},
      [&](const tbb::blocked_range<std::size_t>& r, Counts acc) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          ++acc.by_value[std::uint8_t(s.value[i])];
          acc.max_dist = std::max(acc.max_dist, s.dist[i]);
        }
        return acc;
      },
      [](Counts x, const Counts& y) {
        for (int v = 0; v < 3; ++v) x.by_value[v] += y.by_value[v];
        x.max_dist = std::max(x.max_dist, y.max_dist);
        return x;
      });
  s.draws = c.by_value[std::uint8_t(Value::draw)];
  s.wins = c.by_value[std::uint8_t(Value::win)];
  s.losses = c.by_value[std::uint8_t(Value::loss)];
  s.max_dist = c.max_dist;
  s.states = s.keys.size();
}

std::optional<std::size_t> find_state(const Solution& s, Key k) {
  if (s.source) return s.source->find(k);
  const auto it = std::lower_bound(s.keys.begin(), s.keys.end(), k);
  if (it == s.keys.end() || *it != k) return std::nullopt;
  return std::size_t(it - s.keys.begin());
}

StateValue state_value(const Solution& s, std::uint64_t i) {
  if (!s.source) return {s.value[i], s.dist[i]};
  Key k;
  StateValue v;
  s.source->read(i, i + 1, &k, &v.value, &v.dist);
  return v;
}

void read_states(const Solution& s, std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) {
  if (s.source) return s.source->read(lo, hi, keys, value, dist);
  std::copy(s.keys.begin() + std::ptrdiff_t(lo), s.keys.begin() + std::ptrdiff_t(hi), keys);
  std::copy(s.value.begin() + std::ptrdiff_t(lo), s.value.begin() + std::ptrdiff_t(hi), value);
  std::copy(s.dist.begin() + std::ptrdiff_t(lo), s.dist.begin() + std::ptrdiff_t(hi), dist);
}

}  // namespace gonu
