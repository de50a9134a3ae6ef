// The dense engine: solves with no keys and no stored edges.
//
// Repetition none (untagged.cpp), boards of up to 32 points: a state is (side, board); its id
// is side * |D| + BoardRank::rank(board), where D is every board with at most the root's number
// of pieces per side, so ids follow key order. Per id it keeps 1 bit (reached) and a 4-byte Cell
// (value, successor counter, distance): about 4.1 bytes for each state of D, reached or not
// (memory for untouched pages is never committed).
//   1. reach: breadth-first from the root, a frontier of boards, the reached bitmap claimed with
//      an atomic or (so each state is expanded once); successor counts are stored.
//   2. retrograde: level-synchronous from the terminal states; predecessors come from
//      for_each_unmove (core/julgonu/unmoves.hpp), unreached ones ignored.
//   3. read off: reached ids in order give the solution's keys already sorted.
// When the root state is its own file-mirror image (the start is), only one state of each mirror
// pair is worked on (parts.hpp: FileMirror; both engines).
//
// Repetition immediate and undo (tagged*.cpp, tagged_space.hpp), up to 27 points: a state is
// (side, board, tag) and its id is the board's first slot plus the tag's slot within the board
// (tag_slots.hpp): the same three steps, with predecessor tags found by inverting the tag rules,
// and both passes going a board at a time (a level's work is a list of boards). Per id 4 bytes
// and a bit, plus 12 bytes per board of D (slot offset, work-list mark).
//
// The compact engine (compact_untagged.cpp, compact_store.hpp) runs the untagged passes with
// memory per reachable state instead of per id: the reached set as a bitmap with ranks (1.14
// bits an id), 3 bytes a reached canonical state, and the result kept in that form and read in
// key order (a StateSource) instead of 11-byte records, so that 5x5 (3.2 billion ids) fits.
// solve() picks it where the dense engine's estimate does not fit (estimate.hpp).
//
// All check the memory they need before allocating anything large: the sizes are computed
// first (the tagged space's by counting, tagged.cpp), so a root too big is refused at once.
//
// The compact engine for the tagged rule sets (compact_tagged.cpp) runs the same phases with memory
// per reachable state (compact_store.hpp): a ranked bitmap over the tag slots, 12 bytes a board
// id, and 3 bytes a reached state by rank; it can return its own form (Solution::source).
//
// Frontier order depends on thread timing; nothing else does, since every result is stored by id.
#pragma once
#include "core/julgonu/game.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu {

// True if the dense engine handles the rule set: repetition none on at most 32 points, or
// immediate or undo where the keys fit (at most 27 points).
bool dense_engine_applies(const Rules& r);

// Same contract as solve(); throws GonuError if !dense_engine_applies, or if the dense arrays
// would not fit in this machine's memory. Dispatches to solve_dense_tagged for tagged rules.
Solution solve_dense(const Game& from, const SolveOptions& options = {});

// The compact engine (compact_untagged.cpp): the same ids and passes with memory per reachable
// state (compact_store.hpp); with options.compact_result the result is a StateSource.
Solution solve_compact(const Game& from, const SolveOptions& options = {});

// The tagged rule sets (tagged.cpp).
Solution solve_dense_tagged(const Game& from, const SolveOptions& options = {});

// The compact engine for the same rule sets (compact_tagged.cpp): the same results. With
// options.compact_result it returns Solution::source and the counts instead of the arrays.
// Throws GonuError for other rule sets, or when the memory it needs passes options.max_memory
// (else the machine's): before the bitmap is allocated, and again once the reach has counted
// the states.
Solution solve_compact_tagged(const Game& from, const SolveOptions& options = {});

}  // namespace gonu
