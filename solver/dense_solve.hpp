// The dense engine: solves rule sets without a history tag (repetition none) on boards of up to
// 32 points with no keys and no stored edges. A state is (side, board); its id is
// side * |D| + BoardRank::rank(board), where D is every board with at most the root's number of
// pieces per side, so ids follow key order. Per id it keeps 1 bit (reached), 1 byte (successor
// count, then successors not yet known to be wins), 1 byte (value) and 2 bytes (distance):
// about 4.1 bytes for each point of D, reached or not (memory for untouched pages is never
// committed).
//   1. reach: breadth-first from the root, a frontier of boards, the reached bitmap claimed with
//      an atomic or (so each state is expanded once); successor counts are stored.
//   2. retrograde: level-synchronous from the terminal states; predecessors come from
//      for_each_unmove (core/unmoves.hpp), unreached ones ignored.
//   3. read off: reached ids in order give the solution's keys already sorted.
// Frontier order depends on thread timing; nothing else does, since every result is stored by id.
#pragma once
#include "solver/solve.hpp"

namespace gonu {

// True if the dense engine handles the rule set (no history tag, at most 32 points).
bool dense_engine_applies(const Rules& r);

// Same contract as solve(); throws GonuError if !dense_engine_applies, or if the dense arrays
// would not fit in this machine's memory.
Solution solve_dense(const Game& from, const SolveOptions& options = {});

}  // namespace gonu
