// Jungi's moves: generation, application, notation, the game's end, and perft. There is no check:
// every move generated is legal (a move that leaves one's royal attacked loses to its capture), so
// the generator is the whole of legality. A move is its squares and its kind; what it captures is
// read from the position it is played in (captured_squares).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/jungi/position.hpp"

namespace gonu::jungi {

enum class MoveKind : std::uint8_t {
  step,        // a step or leap: passes nothing, captures what stands on `to`
  slide,       // passes the squares strictly between, captures what stands on `to`
  double_step, // a Pawn's, King's or Queen's 2-step: passes `mid`
  passed_by,   // a one-step onto an empty passed square: captures the piece that made the last move
  two_step     // the Emperor's two King steps via `mid`: captures on `mid` and on `to` (back on
               // its own square only after capturing on `mid`); passes `mid`
};

// Plain data without default values, so that a MoveList's array is not written when made.
struct Move {
  std::int8_t from, to, mid;  // mid: kNoSquare unless a 2-step or two-step
  MoveKind kind;
  bool promotes;
};
bool operator==(const Move& a, const Move& b);

// The most moves a position can have: 27 pieces, none with more than 32 targets (an Empress in
// the centre), each doubled under optional promotion, and an Emperor's 88; far below this bound.
constexpr int kMaxMoves = 2048;
struct MoveList {
  std::array<Move, kMaxMoves> moves;
  int size = 0;
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
};

// Every legal move of the side to move, in a fixed order (by square, then the piece's table);
// none when its royal has been captured.
void generate_moves(const Rules& r, const Position& p, MoveList& out);
std::vector<Move> legal_moves(const Rules& r, const Position& p);
// The moves of the piece on `from` alone (it must be the side to move's).
void generate_piece_moves(const Rules& r, const Position& p, int from, MoveList& out);

// Whether a legal move of the side to move captures the enemy royal (a win in one ply: the side
// whose royal is taken has lost): the same answer as generate_moves and captured_squares, found
// from the attacking piece's tables without generating its moves (an en-passant field whose mover
// is the royal is left to the generator). False when either royal is missing.
bool takes_royal(const Rules& r, const Position& p);
// Whether the piece on `from` takes the enemy royal, whichever side is to move: takes_royal's test
// of one piece, for a caller that knows where the pieces stand (a table's pass over every index
// tests both sides to move of a placement at once). p has no en-passant field.
bool piece_takes_royal(const Rules& r, const Position& p, int from);

// The position after `m` (which must be legal in p).
Position apply_move(const Position& p, const Move& m);
// p after the space-separated moves of `history`, each parsed and checked legal in turn; throws
// GonuError "<label> move N: why" for a malformed or illegal move, or one after the game ended.
Position play_history(const Rules& r, Position p, const std::string& history, const std::string& label);
// The squares whose pieces `m` captures in p, in the order taken.
std::vector<int> captured_squares(const Position& p, const Move& m);

// Notation: "e2-e3", "e2xe3" when it captures, "e5xe6-e7" for an Emperor's two-step; a '+'
// suffix only under optional promotion, for the move that promotes.
std::string format_move(const Rules& r, const Position& p, const Move& m);
// The move as people write it: the moving piece's letter (upper case for either side, '+' before
// a promoted piece), then format_move's squares, then "=+" and the letter for a move that
// promotes: "Qa6-a7=+Q", "+Ka3-c5", "Rd4xd6", "+Ke5xe6-e7". Under optional promotion the move
// that stays unpromoted has no suffix, so the squares and the suffix tell the two apart, as
// format_move's '+' does.
std::string format_move_san(const Rules& r, const Position& p, const Move& m);
// Reads a move in either notation: format_move's ("e2-e3") or format_move_san's ("Pe2-e3"; the
// letter in either case). 'x' and '-' are interchangeable; the promotion may be written "=+Q" or
// '+' (under compulsory promotion it may be left out). A piece letter or a promotion letter that
// is not the piece on the from-square's is refused. Throws GonuError naming what is wrong, with
// the legal moves of that piece when the move is not one of them.
Move parse_move(const Rules& r, const Position& p, std::string_view text);

enum class Outcome : std::uint8_t { ongoing, loss, draw };  // for the side to move
// loss once the side to move's royal is captured, or when it has no legal move (draw under
// stalemate=draw); else ongoing. `reason` says which.
Outcome outcome(const Rules& r, const Position& p, std::string* reason = nullptr);

// The number of move sequences of `depth` plies (the last ply counted without playing it).
std::uint64_t perft(const Rules& r, const Position& p, int depth);

}  // namespace gonu::jungi
