// Retrograde analysis of a state graph: the value of every state for the side to move and its
// exact distance (plies to the end with perfect play: a win as fast as possible, a loss as slow
// as possible). Terminal states are losses at distance 0; a state with a losing successor is a
// win at 1 + the least such distance; a state whose successors are all wins is a loss at 1 + the
// largest of their distances; what is never decided is a draw (play can go on forever).
// Level-synchronous: states decided at distance d are processed together, so distances are right
// by construction, and the result does not depend on the thread count.
#pragma once
#include <cstdint>
#include <vector>

#include "solver/julgonu/graph/enumerate.hpp"
#include "solver/common/value.hpp"

namespace gonu {

struct Values {
  std::vector<Value> value;        // by state id
  std::vector<std::uint16_t> dist; // 0 for draws
  std::size_t work_bytes = 0;      // peak extra memory of the analysis
};

// Consumes the graph's successor rows (freed once predecessors are built) to keep the peak low;
// g.keys is left as it was.
Values retrograde(StateGraph& g, const ProgressFn& progress = {});

}  // namespace gonu
