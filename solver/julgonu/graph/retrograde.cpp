// Parallel retrograde analysis by predecessor counting (see retrograde.hpp). Predecessors are
// built from the successor rows once; each state keeps a count of successors not yet known to be
// wins for the opponent, and becomes a loss when it reaches zero.
#include "solver/julgonu/graph/retrograde.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>

#include "core/error.hpp"
#include "util/huge_array.hpp"

namespace gonu {

Values retrograde(StateGraph& g, const ProgressFn& progress) {
  const std::size_t n = g.size();
  // Predecessor rows: count, prefix sum, fill (order within a row is irrelevant to the result).
  HugeArray<std::atomic<std::uint32_t>> counter(n);  // zero-filled
  tbb::parallel_for(std::size_t(0), g.targets.size(),
                    [&](std::size_t e) { counter[g.targets[e]].fetch_add(1, std::memory_order_relaxed); });
  std::vector<std::uint64_t> pred_offsets(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) pred_offsets[i + 1] = pred_offsets[i] + counter[i].load(std::memory_order_relaxed);
  HugeArray<std::uint32_t> preds(g.targets.size());
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { counter[i].store(0, std::memory_order_relaxed); });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t s = range.begin(); s < range.end(); ++s)
      for (std::uint64_t e = g.offsets[s]; e < g.offsets[s + 1]; ++e) {
        const std::uint32_t t = g.targets[e];
        preds[pred_offsets[t] + counter[t].fetch_add(1, std::memory_order_relaxed)] = std::uint32_t(s);
      }
  });
  // Counters now hold: successors not yet known to be wins. The successor rows are done with.
  const std::size_t peak = n * (sizeof(std::uint32_t) + 2 * sizeof(std::uint64_t)) + 2 * preds.size() * sizeof(std::uint32_t);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
    counter[i].store(std::uint32_t(g.offsets[i + 1] - g.offsets[i]), std::memory_order_relaxed);
  });
  g.targets = HugeArray<std::uint32_t>();
  g.offsets = HugeArray<std::uint64_t>();

  Values out;
  out.dist.assign(n, 0);
  HugeArray<std::atomic<std::uint8_t>> value(n);
  std::vector<std::uint32_t> frontier;
  for (std::size_t i = 0; i < n; ++i) {
    const bool term = counter[i].load(std::memory_order_relaxed) == 0;
    value[i].store(term ? std::uint8_t(Value::loss) : std::uint8_t(Value::draw), std::memory_order_relaxed);
    if (term) frontier.push_back(std::uint32_t(i));
  }
  out.work_bytes = peak;

  std::uint64_t decided = 0;
  for (std::uint32_t d = 0; !frontier.empty(); ++d) {
    if (d + 1 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
    decided += frontier.size();
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> next;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), 256), [&](const auto& range) {
      auto& local = next.local();
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        const std::uint32_t s = frontier[i];
        const bool lost = value[s].load(std::memory_order_relaxed) == std::uint8_t(Value::loss);
        for (std::uint64_t e = pred_offsets[s]; e < pred_offsets[s + 1]; ++e) {
          const std::uint32_t p = preds[e];
          if (lost) {
            std::uint8_t expected = std::uint8_t(Value::draw);
            if (value[p].compare_exchange_strong(expected, std::uint8_t(Value::win), std::memory_order_relaxed)) {
              out.dist[p] = std::uint16_t(d + 1);
              local.push_back(p);
            }
          } else if (value[p].load(std::memory_order_relaxed) == std::uint8_t(Value::draw)) {
            // Reaches zero only if every successor is a win, so no loss successor races with it.
            if (counter[p].fetch_sub(1, std::memory_order_relaxed) == 1) {
              value[p].store(std::uint8_t(Value::loss), std::memory_order_relaxed);
              out.dist[p] = std::uint16_t(d + 1);
              local.push_back(p);
            }
          }
        }
      }
    });
    frontier.clear();
    for (auto& v : next) frontier.insert(frontier.end(), v.begin(), v.end());
    if (progress) progress("retrograde", decided, n);
  }
  out.value.resize(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { out.value[i] = Value(value[i].load(std::memory_order_relaxed)); });
  return out;
}

}  // namespace gonu
