// Jungi's un-moves: every position and move that lead to a given position, for retrograde
// analysis. Positions here carry no first-move rights (as in the tables and in the notation), so a
// King's or Queen's first-move 2-step is never un-made. The en-passant field of a predecessor
// matters only to the move that uses it: a predecessor is returned with no field ('-') except
// when its move captures what passed by, where it carries the one field that capture needs; the
// same board with any other possible field reaches the position by the same move.
#pragma once
#include <vector>

#include "core/jungi/moves.hpp"

namespace gonu::jungi {

struct Predecessor {
  Position position;  // the side to move is the one that made `move`
  Move move;
};

// Every predecessor of p (which must have no first-move rights): the moved piece taken back
// (unpromoted too, when the move could have promoted it), any piece of the side to move it may
// have captured put back (its royal exactly when that royal is missing), the en-passant field
// undone. Each is checked by generating the move forward, so the list holds exactly the
// (position, move) pairs with apply_move(position, move) == p.
std::vector<Predecessor> predecessors(const Rules& r, const Position& p);

}  // namespace gonu::jungi
