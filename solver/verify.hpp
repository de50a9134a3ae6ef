// Independent check of a solved state set: every value and distance is re-derived from the
// successors' values alone, with a plain rule per state (a terminal state is a loss at 0; a win
// has a losing successor at distance - 1 and none closer; a loss has only winning successors, the
// farthest at distance - 1; a draw has no losing successor and at least one drawn one), and every
// successor must be in the set. Local checks suffice: distances strictly decrease along decided
// lines, so no cycle can be labelled won or lost, and a true win or loss labelled a draw would
// break the rule at the state of least true distance.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/progress.hpp"
#include "solver/state/value.hpp"
#include "solver/state/state_key.hpp"

namespace gonu {

struct VerifyResult {
  bool ok = true;
  std::uint64_t checked = 0;
  std::string first_error;  // the lowest-numbered wrong state, with what was expected
};

// keys ascending; value/dist by the same index.
VerifyResult verify_values(const KeyCodec& c, const Key* keys, const Value* value, const std::uint16_t* dist,
                           std::size_t n, const ProgressFn& progress = {});

}  // namespace gonu
