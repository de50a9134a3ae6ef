// A position: the two sides' pieces as bit sets over the board's points, and the side to move.
// Invariant: black & white == 0, both inside the board. Text form (Games of Soldiers diagrams),
// top rank first, ranks separated by '/': 'x' Black, 'w' White, '.' one empty point, a number a
// run of empty points; then a space and the side to move ('x' or 'w'): "xxxx/4/4/wwww x".
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "core/julgonu/board.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu {

struct Position {
  Bits black = 0, white = 0;
  Side to_move = Side::black;
  friend bool operator==(const Position&, const Position&) = default;
};

inline Bits pieces(const Position& p, Side s) { return s == Side::black ? p.black : p.white; }
inline Bits mover(const Position& p) { return pieces(p, p.to_move); }
inline Bits waiter(const Position& p) { return pieces(p, other(p.to_move)); }
inline Bits occupied(const Position& p) { return p.black | p.white; }

// Both home ranks full (Black on rank R, White on rank 1), `first` to move.
Position start_position(const Board& b, Side first);

struct ParsedPosition {
  int rows = 0, cols = 0;
  Position position;
};
// Strict parser: the board size comes from the text; every problem (unknown character, ranks of
// unequal length, a size out of range, a missing or unknown side) throws GonuError naming it and
// its place.
ParsedPosition parse_position_text(std::string_view text);
// The same, and the size must be rows x cols.
Position parse_position(const Board& b, std::string_view text);

std::string format_position(const Board& b, const Position& p);
// A drawing with file letters and rank numbers, for people.
std::string draw_position(const Board& b, const Position& p);

}  // namespace gonu
