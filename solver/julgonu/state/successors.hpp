// The game graph the solver works on, defined once: a state's legal moves (repetition tag
// applied) and the successor state of each. Enumeration, verification, tables and queries all
// call this, so they cannot disagree on what the game is.
#pragma once
#include "core/julgonu/moves.hpp"
#include "solver/julgonu/state/state_key.hpp"

namespace gonu {

struct Successor {
  Move move;
  Key key;
};

// Lists the legal moves of the state and the key after each, in generate_moves order. Returns
// the count; 0 means the state is terminal: a loss for the side to move (at most one piece, or no
// legal move). `out` must hold kMaxMoves entries.
int expand_state(const KeyCodec& c, const Position& p, const Tag& t, Successor* out);
int expand_key(const KeyCodec& c, Key k, Successor* out);

// expand_state for an untagged codec, giving the successors' positions instead of their keys (the
// same moves in the same order): for readers that number states by board, not by key.
// `moves` and `out` must hold kMaxMoves entries.
int expand_untagged(const KeyCodec& c, const Position& p, Move* moves, Position* out);

}  // namespace gonu
