// Enumerate, analyse, then re-order by key so the result can be searched and written as is.
#include "solver/julgonu/solve.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

#include "core/error.hpp"

#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/estimate.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/graph/retrograde.hpp"
#include "solver/julgonu/graph/enumerate.hpp"

namespace gonu {

namespace {

// Refuses, before anything large is allocated, a solve whose estimated peak passes the limit.
void check_estimate(const MemoryEstimate& e, const SolveOptions& options) {
  const std::uint64_t limit = memory_limit(options);
  if (!limit || e.bytes <= limit) return;
  throw GonuError("this solve needs an estimated " + std::to_string(e.bytes >> 20) + " MiB (" + e.basis +
                  "), more than the memory limit of " + std::to_string(limit >> 20) + " MiB (--max-memory raises it)");
}

}  // namespace

Solution solve(const Game& from, const SolveOptions& options) {
  // Superko goes to the state graph, which refuses it with the reason, unless an engine is named.
  if (from.rules.repetition != Repetition::superko || options.engine == Engine::dense ||
      options.engine == Engine::compact) {
    const MemoryEstimate e = estimate_memory(from, options);
    check_estimate(e, options);
    if (e.engine == Engine::dense) return solve_dense(from, options);
    if (e.engine == Engine::compact)
      return uses_tag(from.rules) ? solve_compact_tagged(from, options) : solve_compact(from, options);
  }
  Solution s;
  s.codec = make_key_codec(from.rules);
  s.root = current(from);
  s.root_tag = s.codec.tagged ? from.tag : Tag{};
  s.root_key = encode_key(s.codec, s.root, s.root_tag);

  StateGraph g = enumerate_states(s.codec, s.root_key, options.progress, options.max_states);
  s.edges = g.edges();
  s.levels = g.levels;
  const std::size_t n = g.keys.size();
  const std::size_t graph_bytes = n * (sizeof(Key) + sizeof(std::uint64_t)) + g.targets.size() * 4;
  const std::size_t enumerate_peak = graph_bytes + g.store_bytes;
  Values v = retrograde(g, options.progress);
  const std::size_t analyse_peak = n * sizeof(Key) + v.work_bytes + n * 3;

  // Re-order by key: sort (key, id) pairs, then gather the values.
  std::vector<std::pair<Key, std::uint32_t>> order(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { order[i] = {g.keys[i], std::uint32_t(i)}; });
  g.keys = HugeArray<Key>();
  tbb::parallel_sort(order.begin(), order.end());
  s.keys.resize(n);
  s.value.resize(n);
  s.dist.resize(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
    s.keys[i] = order[i].first;
    s.value[i] = v.value[order[i].second];
    s.dist[i] = v.dist[order[i].second];
  });
  s.peak_bytes = std::max({enumerate_peak, analyse_peak, n * (sizeof(Key) + 4 + 2 * (sizeof(Key) + 3))});
  count_values(s);
  return s;
}

std::uint64_t memory_limit(const SolveOptions& options) {
  return options.max_memory ? options.max_memory : dense::physical_memory();
}

MemoryEstimate estimate_memory(const Game& from, const SolveOptions& options) {
  return dense::estimate_engine_memory(from, options);
}

}  // namespace gonu
