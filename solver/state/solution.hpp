// What a solve is asked (SolveOptions) and what it gives (Solution): plain arrays in ascending key
// order, exactly what a table stores, with the counts a report needs. Every engine fills one; the
// table writer, the verifier and the tools read it. Knows nothing of how a solve is done.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/position.hpp"
#include "core/repetition.hpp"
#include "solver/state/state_key.hpp"
#include "solver/state/value.hpp"
#include "util/huge_array.hpp"
#include "util/progress.hpp"

namespace gonu {

struct Solution {
  KeyCodec codec;
  Position root;
  Tag root_tag;
  Key root_key = 0;
  HugeVector<Key> keys;              // ascending; the index of a key is its state number
  HugeVector<Value> value;           // for the side to move
  HugeVector<std::uint16_t> dist;    // plies to the end with perfect play; 0 for draws
  std::uint64_t edges = 0;           // legal moves summed over non-terminal states
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  int levels = 0;
  std::size_t peak_bytes = 0;        // estimate of the solve's largest memory use
};

// automatic: the dense engine (solver/dense/) where it applies, else the state graph
// (solver/graph/). Both give the same Solution; tests compare them.
enum class Engine { automatic, graph, dense };

struct SolveOptions {
  ProgressFn progress;
  Engine engine = Engine::automatic;
  std::uint64_t max_states = 0;  // refuse (GonuError) past this many states; 0: no limit
};

// Fills wins, losses, draws and max_dist from the value and dist arrays (for the engines).
void count_values(Solution& s);

// The state number of a key, if it is in the solution.
std::optional<std::size_t> find_state(const Solution& s, Key k);

}  // namespace gonu
