// Enumeration: every state reachable from a root, as a graph in compressed sparse rows.
// Breadth-first and level-synchronous: each level is expanded in parallel, the new states it finds
// are sorted and numbered in key order, so ids (and everything after) never depend on thread
// timing. Terminal states (a loss for the side to move) have no successors.
#pragma once
#include <cstdint>
#include <vector>

#include "util/huge_array.hpp"
#include "util/progress.hpp"
#include "solver/julgonu/state/state_key.hpp"

namespace gonu {

struct StateGraph {
  HugeArray<Key> keys;                  // by id; id 0 is the root
  HugeArray<std::uint64_t> offsets;     // successors of id i: targets[offsets[i] .. offsets[i+1])
  HugeArray<std::uint32_t> targets;     // successor ids, in expand_state order
  int levels = 0;                       // breadth-first levels
  std::size_t store_bytes = 0;          // peak size of the state store
  std::size_t size() const { return keys.size(); }
  std::uint64_t edges() const { return targets.size(); }
  bool terminal(std::uint32_t id) const { return offsets[id] == offsets[id + 1]; }
};

// Throws GonuError once more than max_states states are found (0: no limit but the 32-bit ids).
StateGraph enumerate_states(const KeyCodec& c, Key root, const ProgressFn& progress = {}, std::uint64_t max_states = 0);

}  // namespace gonu
