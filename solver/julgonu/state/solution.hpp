// What a solve is asked (SolveOptions) and what it gives (Solution): plain arrays in ascending key
// order, exactly what a table stores, with the counts a report needs. Every engine fills one; the
// table writer, the verifier and the tools read it. Knows nothing of how a solve is done.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/julgonu/position.hpp"
#include "core/julgonu/repetition.hpp"
#include "solver/julgonu/state/state_key.hpp"
#include "solver/common/value.hpp"
#include "util/huge_array.hpp"
#include "util/progress.hpp"

namespace gonu {

// A solved state set kept in an engine's own compact form, for boards whose arrays would not fit
// (5x5: 11 bytes a state would pass 24 GB): read in key order a range of state numbers at a
// time, or looked up by key. Safe to call from many threads at once.
struct StateSource {
  virtual ~StateSource() = default;
  // The keys, values and distances of the states [lo, hi) (state numbers, hi <= the count).
  virtual void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const = 0;
  // The state number of a key, if it is in the set.
  virtual std::optional<std::uint64_t> find(Key k) const = 0;
};

struct Solution {
  KeyCodec codec;
  Position root;
  Tag root_tag;
  Key root_key = 0;
  HugeVector<Key> keys;              // ascending; the index of a key is its state number
  HugeVector<Value> value;           // for the side to move
  HugeVector<std::uint16_t> dist;    // plies to the end with perfect play; 0 for draws
  // Set instead of the three arrays above (which are then empty) when the solve was asked to
  // keep its compact form (SolveOptions::compact_result) and the engine has one.
  std::shared_ptr<const StateSource> source;
  std::uint64_t states = 0;          // the number of states, in either form
  std::uint64_t edges = 0;           // legal moves summed over non-terminal states
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  int levels = 0;
  std::size_t peak_bytes = 0;        // estimate of the solve's largest memory use
};

// automatic: the dense engine (solver/julgonu/dense/) where it applies and its arrays fit, the compact
// engine (solver/julgonu/dense/, memory per reachable state) where they do not, else the state graph
// (solver/julgonu/graph/). All give the same states, values and distances; tests compare them.
enum class Engine { automatic, graph, dense, compact };

struct SolveOptions {
  ProgressFn progress;
  Engine engine = Engine::automatic;
  std::uint64_t max_states = 0;  // refuse (GonuError) past this many states; 0: no limit
  // Refuse (GonuError, before anything large is allocated) a solve whose estimated peak passes
  // this many bytes; 0: the machine's physical memory.
  std::uint64_t max_memory = 0;
  // Let the compact engine return its own form (Solution::source) instead of filling the arrays:
  // for callers that only stream the result (table writing, counts, the root's value).
  bool compact_result = false;
};

// What a solve will need, worked out before anything large is allocated: the engine the options
// pick for this root, and its peak memory in bytes (the per-id arrays exactly; the per-state
// ones from the expected share of the dense space that is reachable, calibrated on the boards
// solved in results/values.md). `basis` says in a few words what it counted.
struct MemoryEstimate {
  Engine engine = Engine::automatic;  // the one solve() will run
  std::uint64_t bytes = 0;
  std::uint64_t ids = 0;              // of the dense space (tag slots for the tagged rule sets)
  std::uint64_t states = 0;           // expected reachable states
  std::string basis;
};

// Fills states, wins, losses, draws and max_dist from the value and dist arrays (for the engines).
void count_values(Solution& s);

// The state number of a key, if it is in the solution (either form).
std::optional<std::size_t> find_state(const Solution& s, Key k);

// The number of states (either form; a hand-built solution need not set `states`).
inline std::uint64_t state_count(const Solution& s) { return s.source ? s.states : s.keys.size(); }

// State i's value and distance (either form).
struct StateValue {
  Value value = Value::draw;
  std::uint16_t dist = 0;
};
StateValue state_value(const Solution& s, std::uint64_t i);

// The states [lo, hi) in key order (either form): what a streaming reader (the table writer) uses.
void read_states(const Solution& s, std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist);

}  // namespace gonu
