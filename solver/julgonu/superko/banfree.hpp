// The ban-free oracle of the superko solver: the ban-free game (same board and captures,
// repetition none) solved once from the root by the retrograde solver, then looked up by position.
// Every superko line from the root is a ban-free line, so every state the superko search meets is
// in the solution.
#pragma once
#include <cstdint>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

struct BanFreeOracle {
  Rules rules;  // the ban-free rules (repetition none)
  Solution solution;
  // The key of a position (board and side to move) in the ban-free key layout.
  Key key(const Position& p) const { return encode_board_side(solution.codec, p); }
  // Value for the side to move and distance; draw (0) for a key not in the solution.
  Value value(Key k, std::uint16_t& dist) const;
};

// Throws OutOfTime once `deadline` has passed: the retrograde solver is stopped from its progress
// callback, which every engine calls once a level (the compact engine from its workers, whose
// exception TBB carries to the caller), so the solve stops within a level of the deadline.
BanFreeOracle make_banfree_oracle(const Game& g, const ProgressFn& progress = {}, const RunDeadline& deadline = {});

}  // namespace gonu
