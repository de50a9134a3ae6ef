// Level-synchronous parallel breadth-first enumeration (see enumerate.hpp). Each level runs three
// phases separated by barriers: expand and look up (read-only store), sort and number the new
// keys, insert them; then a second expansion writes the successor ids of the level.
#include "solver/enumerate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

#include "core/error.hpp"
#include "solver/state_graph.hpp"
#include "solver/state_store.hpp"

namespace gonu {

StateGraph enumerate_states(const KeyCodec& c, Key root, const ProgressFn& progress) {
  StateGraph g;
  StateStore store;
  store.insert(root, 0);
  store.add_size(1);
  g.keys.push_back(root);
  g.offsets.push_back(0);
  std::size_t begin = 0;
  while (begin < g.keys.size()) {
    const std::size_t end = g.keys.size();
    g.offsets.resize(end + 1);
    // Phase 1: expand the level, collect successors the store does not know.
    tbb::enumerable_thread_specific<std::vector<Key>> fresh;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, 256), [&](const auto& range) {
      auto& local = fresh.local();
      Successor succ[kMaxMoves];
      for (std::size_t id = range.begin(); id < range.end(); ++id) {
        const int n = expand_key(c, g.keys[id], succ);
        g.offsets[id + 1] = std::uint64_t(n);
        for (int j = 0; j < n; ++j)
          if (store.find(succ[j].key) == kNoId) local.push_back(succ[j].key);
      }
    });
    // Phase 2: the new level, sorted and numbered in key order.
    std::vector<Key> level;
    for (auto& v : fresh) level.insert(level.end(), v.begin(), v.end());
    fresh.clear();
    tbb::parallel_sort(level.begin(), level.end());
    level.erase(std::unique(level.begin(), level.end()), level.end());
    if (g.keys.size() + level.size() >= kNoId) throw GonuError("more than 4 billion states: too many for this solver");
    store.reserve_more(level.size());
    g.store_bytes = std::max(g.store_bytes, store.memory_bytes());
    // Phase 3: insert the new level.
    tbb::parallel_for(std::size_t(0), level.size(),
                      [&](std::size_t i) { store.insert(level[i], std::uint32_t(end + i)); });
    store.add_size(level.size());
    g.keys.insert(g.keys.end(), level.begin(), level.end());
    // Phase 4: offsets of the level, then its successor ids.
    for (std::size_t id = begin; id < end; ++id) g.offsets[id + 1] += g.offsets[id];
    g.targets.resize(g.offsets[end]);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, 256), [&](const auto& range) {
      Successor succ[kMaxMoves];
      for (std::size_t id = range.begin(); id < range.end(); ++id) {
        const int n = expand_key(c, g.keys[id], succ);
        std::uint32_t* out = g.targets.data() + g.offsets[id];
        for (int j = 0; j < n; ++j) out[j] = store.find(succ[j].key);
      }
    });
    ++g.levels;
    begin = end;
    if (progress) progress("enumerate", begin, g.keys.size());
  }
  return g;
}

}  // namespace gonu
