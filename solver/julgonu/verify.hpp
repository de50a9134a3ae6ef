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
#include "solver/common/value.hpp"
#include "solver/julgonu/state/state_key.hpp"

namespace gonu {

struct VerifyResult {
  bool ok = true;
  std::uint64_t checked = 0;
  std::string first_error;  // the lowest-numbered wrong state, with what was expected
};

// The rule above for one state, fed its successors' values one at a time.
struct SuccessorRule {
  std::uint32_t min_loss = ~0u, max_win = 0;
  bool any_draw = false, all_win = true;
  void add(Value v, std::uint16_t d) {
    if (v == Value::loss) min_loss = d < min_loss ? d : min_loss;
    if (v == Value::win) max_win = d > max_win ? d : max_win;
    if (v != Value::win) all_win = false;
    if (v == Value::draw) any_draw = true;
  }
  // "" if `value` and `dist` are what the rule gives a state of `moves` successors (0: terminal,
  // a loss at 0) with the values added, else "expected WANT, table has HAVE".
  std::string check(int moves, Value value, std::uint16_t dist) const;
};

// "state I (POSITION): WHY", the form of VerifyResult::first_error.
std::string state_error(const KeyCodec& c, std::uint64_t i, Key k, const std::string& why);

// keys ascending; value/dist by the same index.
VerifyResult verify_values(const KeyCodec& c, const Key* keys, const Value* value, const std::uint16_t* dist,
                           std::size_t n, const ProgressFn& progress = {});

}  // namespace gonu
