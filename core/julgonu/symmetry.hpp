// Board symmetries and the colour swap. The rules treat every direction alike and corners as
// corners, so each map below sends games to games: moves, captures and values commute with it.
// Symmetry k of a board maps (file f, rank r) as: 0 identity, 1 mirror files, 2 mirror ranks,
// 3 half turn; on square boards also 4 transpose (r, f), 5 (R-1-r, f), 6 (r, C-1-f),
// 7 (R-1-r, C-1-f). The colour swap exchanges the colours and the side to move and mirrors the
// ranks, so each side's home stays its home.
#pragma once
#include "core/julgonu/board.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"

namespace gonu {

int symmetry_count(const Board& b);  // 8 for square boards, 4 otherwise
int map_square(const Board& b, int sym, int sq);
Bits map_bits(const Board& b, int sym, Bits bits);
Position map_position(const Board& b, int sym, const Position& p);
Move map_move(const Board& b, int sym, const Move& m);

Position swap_colours(const Board& b, const Position& p);
Move swap_colours(const Board& b, const Move& m);

}  // namespace gonu
