// Counts over a solved state set, for reports and figures: states and W/L/D (for the side to
// move) per distance to the end, per material (pieces of each side), and per BFS level (plies
// from the root by the shortest route). The engines do not record a state's level, so levels
// come from a breadth-first search over the successors of the Solution's keys (find_state for
// each successor: about as costly as one more pass over the edges); distance and material come
// from one pass over the keys, values and distances.
#pragma once
#include <cstdint>
#include <vector>

#include "solver/julgonu/state/solution.hpp"

namespace gonu {

struct ValueCounts {
  std::uint64_t states = 0, wins = 0, losses = 0, draws = 0;
  void add(Value v) {
    ++states;
    (v == Value::win ? wins : v == Value::loss ? losses : draws) += 1;
  }
  void add(const ValueCounts& o) {
    states += o.states;
    wins += o.wins;
    losses += o.losses;
    draws += o.draws;
  }
};

struct MaterialCounts {
  int black = 0, white = 0;  // pieces on the board
  ValueCounts counts;
};

struct SolutionStats {
  std::vector<ValueCounts> by_distance;     // index: distance (draws all at 0)
  std::vector<MaterialCounts> by_material;  // those present, by black then white pieces, descending
  std::vector<ValueCounts> by_level;        // index: BFS level from the root; empty unless asked
};

// `levels`: also run the BFS for by_level.
SolutionStats solution_stats(const Solution& s, bool levels);

}  // namespace gonu
