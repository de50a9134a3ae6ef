// The solver's front door: enumerate every state reachable from a root, analyse it, and return
// the result as plain arrays in ascending key order - exactly what a table stores - with the
// counts a report needs. Only the finite repetition rules (none, immediate, undo).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/game.hpp"
#include "solver/huge_array.hpp"
#include "solver/progress.hpp"
#include "solver/retrograde.hpp"
#include "solver/state_key.hpp"

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

// automatic: the dense engine (dense_solve.hpp) where it applies, else the state graph
// (enumerate.hpp + retrograde.hpp). Both give the same Solution; tests compare them.
enum class Engine { automatic, graph, dense };

struct SolveOptions {
  ProgressFn progress;
  Engine engine = Engine::automatic;
  std::uint64_t max_states = 0;  // refuse (GonuError) past this many states; 0: no limit
};

// Solves from the game's current state (its position and tag). Throws GonuError for superko, or
// for Engine::dense where it does not apply.
Solution solve(const Game& from, const SolveOptions& options = {});

// Fills wins, losses, draws and max_dist from the value and dist arrays (for the engines).
void count_values(Solution& s);

// The state number of a key, if it is in the solution.
std::optional<std::size_t> find_state(const Solution& s, Key k);

}  // namespace gonu
