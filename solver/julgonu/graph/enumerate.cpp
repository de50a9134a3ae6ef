// Level-synchronous parallel breadth-first enumeration (see enumerate.hpp). Each level runs in
// phases separated by barriers:
//   1. expand: fixed chunks of the level are expanded in parallel; each successor is looked up in
//      the store (find_or_claim); a known one is recorded by id, a new one by key and listed once
//      (or, past the store's claim budget, possibly more than once);
//   2. number: the listed keys are sorted and deduplicated; the new level takes ids in key order;
//   3. insert: the new level's ids go into the store;
//   4. link: each chunk's recorded new keys become ids by a store lookup.
// Chunks have fixed boundaries and results are placed by chunk, so nothing depends on timing.
#include "solver/julgonu/graph/enumerate.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

#include "core/error.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/julgonu/graph/state_store.hpp"

namespace gonu {

namespace {

constexpr std::size_t kChunk = 2048;
constexpr std::uint64_t kKnown = std::uint64_t(1) << 63;  // state keys never use bit 63

struct Chunk {
  std::vector<std::uint64_t> succ;  // per edge: kKnown | id, or the key of a state not yet stored
};
using Fresh = tbb::enumerable_thread_specific<std::vector<Key>>;

// The level being worked on: the ids [begin, end), in fixed chunks of kChunk.
struct Level {
  std::size_t begin, end, nchunks;
};

// 1. expand: each chunk's successors, recorded in its Chunk; their count per state in
// offsets[id + 1]; the new keys listed in `fresh`.
void expand(const KeyCodec& c, StateGraph& g, StateStore& store, const Level& lv, std::vector<Chunk>& chunks,
            Fresh& fresh) {
  tbb::parallel_for(std::size_t(0), lv.nchunks, [&](std::size_t ci) {
    auto& local = fresh.local();
    Chunk& ch = chunks[ci];
    Successor succ[kMaxMoves];
    const std::size_t lo = lv.begin + ci * kChunk, hi = std::min(lv.end, lo + kChunk);
    for (std::size_t id = lo; id < hi; ++id) {
      const int n = expand_key(c, g.keys[id], succ);
      g.offsets[id + 1] = std::uint64_t(n);
      for (int j = 0; j < n; ++j) {
        bool list = false;
        const std::uint32_t known = store.find_or_claim(succ[j].key, list);
        ch.succ.push_back(known != kNoId ? kKnown | known : succ[j].key);
        if (list) local.push_back(succ[j].key);
      }
    }
  });
}

// 2. number: the listed keys gathered, sorted and deduplicated (the new level, in key order),
// then the limits enforced.
std::vector<Key> number(Fresh& fresh, const StateGraph& g, const Level& lv, std::uint64_t max_states) {
  std::vector<Key> level;
  std::size_t total = 0;
  for (auto& v : fresh) total += v.size();
  level.reserve(total);
  for (auto& v : fresh) {
    level.insert(level.end(), v.begin(), v.end());
    std::vector<Key>().swap(v);
  }
  tbb::parallel_sort(level.begin(), level.end());
  level.erase(std::unique(level.begin(), level.end()), level.end());
  if (lv.end + level.size() >= kNoId) throw GonuError("more than 4 billion states: too many for this solver");
  if (max_states && lv.end + level.size() > max_states)
    throw GonuError("more than " + std::to_string(max_states) + " states after " + std::to_string(g.levels + 1) +
                    " levels: over the --max-states limit (the solve would not fit in memory)");
  return level;
}

// 3. insert: the new level's ids, from `end` on, into the store.
void insert(StateGraph& g, StateStore& store, const Level& lv, const std::vector<Key>& level) {
  store.reserve_more(level.size());
  g.store_bytes = std::max(g.store_bytes, store.memory_bytes());
  tbb::parallel_for(std::size_t(0), level.size(),
                    [&](std::size_t i) { store.set_id(level[i], std::uint32_t(lv.end + i)); });
  store.add_size(level.size());
}

// 4. link: the level's rows of targets, each chunk's recorded new keys made ids by a store
// lookup; then the new level appended to the keys.
void link(StateGraph& g, const StateStore& store, const Level& lv, const std::vector<Chunk>& chunks,
          const std::vector<Key>& level) {
  for (std::size_t id = lv.begin; id < lv.end; ++id) g.offsets[id + 1] += g.offsets[id];
  g.targets.resize(g.offsets[lv.end]);
  tbb::parallel_for(std::size_t(0), lv.nchunks, [&](std::size_t ci) {
    const Chunk& ch = chunks[ci];
    std::uint32_t* out = g.targets.data() + g.offsets[lv.begin + ci * kChunk];
    for (std::size_t e = 0; e < ch.succ.size(); ++e) {
      const std::uint64_t s = ch.succ[e];
      out[e] = (s & kKnown) ? std::uint32_t(s & ~kKnown) : store.find(s);
    }
  });
  g.keys.resize(lv.end + level.size());
  std::copy(level.begin(), level.end(), g.keys.begin() + lv.end);
}

}  // namespace

StateGraph enumerate_states(const KeyCodec& c, Key root, const ProgressFn& progress, std::uint64_t max_states) {
  StateGraph g;
  StateStore store;
  store.set_id(root, 0);
  store.add_size(1);
  g.keys.resize(1);
  g.keys[0] = root;
  g.offsets.resize(1);
  std::size_t begin = 0;
  std::vector<Chunk> chunks;
  while (begin < g.keys.size()) {
    const Level lv{begin, g.keys.size(), (g.keys.size() - begin + kChunk - 1) / kChunk};
    g.offsets.resize(lv.end + 1);
    chunks.assign(lv.nchunks, Chunk{});
    store.reserve_more(lv.end - lv.begin);
    store.open_claims();
    Fresh fresh;
    expand(c, g, store, lv, chunks, fresh);
    const std::vector<Key> level = number(fresh, g, lv, max_states);
    insert(g, store, lv, level);
    link(g, store, lv, chunks, level);
    ++g.levels;
    begin = lv.end;
    if (progress) progress("enumerate", begin, g.keys.size());
  }
  return g;
}

}  // namespace gonu
