// Moves: one own piece steps orthogonally to an adjacent empty point, then captures by the rule
// set's capture parts. A Move carries the exact set it captures, so under `single` capture each
// capture choice is its own Move. Capturing is never optional. Repetition bans are not applied
// here (see repetition.hpp and game.hpp): these are the moves of the ban-free game.
//
// Notation: "b4-b3"; a capture choice under `single` capture is named: "b4-b3xc3". Under `line`
// capture the captures follow from the step, so they are not printed, but the parser accepts a
// suffix that lists them all ("b4-b3xc3").
#pragma once
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/julgonu/captures.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu {

// Trivial (no member initializers) so that move buffers cost nothing to declare.
struct Move {
  std::int8_t from, to;
  Bits captured;
  friend bool operator==(const Move&, const Move&) = default;
};

// The captures a step from `from` to `to` makes (to must be empty, from the mover's): one set
// under `line` (possibly empty), one set per choice under `single` (none if nothing to capture).
// Appends to `out` and returns how many were appended.
int capture_choices(const Board& b, const Rules& r, const Position& p, int from, int to, Bits* out);

// Every move of the side to move, ignoring repetition; appended in a fixed order (pieces by
// square, directions N E S W, captures by lowest square). Returns the count.
// At most 4 * pieces * (max captures per step) moves; callers size `out` with kMaxMoves.
constexpr int kMaxMoves = 4 * 64 * 4;
int generate_moves(const Board& b, const Rules& r, const Position& p, Move* out);
std::vector<Move> generate_moves(const Board& b, const Rules& r, const Position& p);

// The same moves in no promised order, for the engines that only need the set: under line
// capture without corner capture the steps are found a direction at a time on whole sets (work
// by moves, not by pieces times directions); otherwise as generate_moves. Returns the count.
int generate_moves_any_order(const Board& b, const Rules& r, const Position& p, Move* out);

// Inline: the engines apply every move of every state.
inline Position apply_move(const Position& p, const Move& m) {
  const Bits step = bit(m.from) | bit(m.to);
  if (p.to_move == Side::black) return Position{p.black ^ step, p.white & ~m.captured, Side::white};
  return Position{p.black & ~m.captured, p.white ^ step, Side::black};
}

// visit(successor) for the position after each move of generate_moves, in no promised order;
// returns the count. For the engines that need only the positions moved to: under line capture
// without corner capture the steps are taken a direction at a time as bit pairs (for_each_step),
// with no Move built, and a step's captures looked up only where an arrival captures at all;
// otherwise by generate_moves.
template <class Visit>
int for_each_successor(const Board& b, const Rules& r, const Position& p, Visit&& visit) {
  if (r.capture != Capture::line || r.corner) {
    Move moves[kMaxMoves];
    const int k = generate_moves(b, r, p, moves);
    for (int j = 0; j < k; ++j) visit(apply_move(p, moves[j]));
    return k;
  }
  const Bits own = mover(p), enemy = waiter(p), empty = b.all & ~(own | enemy);
  const Bits capturing = arrival_capture_points(b, own, enemy, false) & empty;
  const bool black = p.to_move == Side::black;
  int k = 0;
  for_each_direction([&]<int kDir>(std::integral_constant<int, kDir>) {
    const Bits movers = own & shift(b, empty, kDir ^ 2);
    for_each_step<kDir>(b, movers, [&](Bits step, Bits to) {
      const Bits taken = to & capturing ? line_arrival(b, lowest(to), own, enemy) : Bits{0};
      visit(black ? Position{own ^ step, enemy ^ taken, Side::white} : Position{enemy ^ taken, own ^ step, Side::black});
    });
    k += popcount(movers);
  });
  return k;
}

// The side to move has lost by material: at most one piece.
inline bool lost_by_material(const Position& p) { return popcount(mover(p)) <= 1; }

// Notation. format_move names the capture when the rules make it a choice (`single`).
std::string format_move(const Board& b, const Rules& r, const Move& m);
// Lists captured squares as "c3 d3" (empty string if none).
std::string format_squares(const Board& b, Bits squares);
// Resolves text against the given candidate moves (normally the legal ones); throws GonuError
// with the reason if the text is malformed, names no candidate, or is ambiguous.
Move parse_move(const Board& b, const Rules& r, const Position& p, std::string_view text,
                const std::vector<Move>& candidates);

}  // namespace gonu
