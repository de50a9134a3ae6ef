// A Jungi position: the 81 squares' pieces, the side to move, the en-passant field (the squares
// the last move passed through and the square it ended on; READING.md "Capturing what passed
// by"), and the first-move rights (squares of base Kings and Queens that have not moved, which may
// still make their 2-step). Invariants of a position parsed or reached by moves: each side has at
// most one royal (King or Emperor) and `royal` names its square; every passed square is empty;
// `first_move` holds only squares of base Kings and Queens. A side whose royal was captured has
// lost: royal[side] is kNoSquare and the position has no moves.
//
// Notation (READING.md): ranks 9 down to 1 separated by '/', a digit for a run of empty squares,
// letters K Q P N E M S C R L O (upper case South, lower case North, '+' before a promoted piece),
// then the side to move (s or n), then the en-passant field: '-' or the passed squares in the
// order passed, ':' and the end square ("e4:e5"). gonu adds an optional fourth field, the
// first-move rights as squares ("e1e2e8e9"), written only when there are any: the reading's
// notation carries none, so a King or Queen written without it has already moved.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/jungi/board.hpp"
#include "core/jungi/pieces.hpp"
#include "core/jungi/rules.hpp"

namespace gonu::jungi {

struct Position {
  std::array<Piece, kSquares> cell{};
  Side to_move = Side::south;
  Set passed = 0;                      // en-passant field: the squares passed (0: no field)
  std::int8_t passed_end = kNoSquare;  // and the square that move ended on
  Set first_move = 0;                  // squares of base Kings and Queens that have not moved
  std::array<std::int8_t, 2> royal{kNoSquare, kNoSquare};
};
bool operator==(const Position& a, const Position& b);

// The provisional start (the source's picture is lost): Pawns on ranks 3 and 7, the King on e1
// (e9) with the Queen in front of it on e2 (e8), the Elephants on the back rank; every King and
// Queen with its first-move right. See docs/jungi.md, "The start is provisional".
Position start_position();
// Whether `p` may stand on `sq`: an unpromoted piece not in its zone (unless promotion is
// optional), a Pawn not on its side's first two ranks.
bool can_stand(const Rules& r, Piece p, int sq);

// Parses the notation strictly; throws GonuError with one line naming what is wrong (a bad
// letter, a rank of the wrong length, a piece that cannot stand where it is, a royal missing or
// doubled, an en-passant field no last move could have left, a first-move right without a King or
// Queen). Surrounding and repeated whitespace is allowed between fields.
Position parse_position(const Rules& r, std::string_view text);
std::string format_position(const Position& p);
// The passed squares in the order the last move passed them: "e4", "a2a3a4", or "" for none.
std::string format_passed(const Position& p);
// An 9x9 diagram with rank and file labels.
std::string draw_position(const Position& p);

// Whether some move of the side that just moved could have left the position's en-passant field
// (true when there is none): the piece on its end square is that side's, every passed square is
// empty, and the piece (or its unpromoted form, if the move promoted it) can slide along the
// passed line from an empty square, make its 2-step there, or is an Emperor whose two-step passed
// one neighbour.
bool field_is_possible(const Rules& r, const Position& p);
// The position's pieces and side, with `royal` recomputed; used after editing cells by hand.
void find_royals(Position& p);

}  // namespace gonu::jungi
