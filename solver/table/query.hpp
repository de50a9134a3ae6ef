// Questions about one state of a table: its value, every legal move ranked, the best move by a
// fixed rule, and the principal variation - all read from the table, nothing solved again.
// gonu query, gonu play and the lookup benchmark all call this, so they agree.
//
// Best move: the fastest win; else a move that keeps the draw; else the slowest loss. Ties are
// broken by generate_moves order (pieces by square, directions N E S W, captures by lowest
// square), so play from a table is reproducible.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/table/table.hpp"

namespace gonu {

struct MoveAnswer {
  Move move;
  Key key = 0;                 // the state after the move
  Value value = Value::draw;   // for the side that makes the move
  std::uint16_t dist = 0;      // plies to the end from before the move (0 for draws)
  bool best = false;
};

struct QueryAnswer {
  Position position;
  Tag tag;
  Key key = 0;
  std::uint64_t index = 0;            // the state's number in the table
  Value value = Value::draw;          // for the side to move
  std::uint16_t dist = 0;
  std::vector<MoveAnswer> moves;      // the legal moves, in generate_moves order
  int best = -1;                      // index in moves of the move the rule picks; -1 if none
  std::vector<Move> pv;               // decided positions: best play to the end of the game
};

// The mover's value and distance after a move, from the successor's entry.
inline Value mover_value(Value after) {
  return after == Value::win ? Value::loss : after == Value::loss ? Value::win : Value::draw;
}

// How good a move is for its mover (larger is better): a win beats a draw beats a loss; a faster
// win and a slower loss are better.
inline long long move_score(Value mover_value, int dist) {
  if (mover_value == Value::win) return 1'000'000LL - dist;
  if (mover_value == Value::draw) return 0;
  return -1'000'000LL + dist;
}

// The one order of every list of moves gonu shows (query's text and --json, the explorer's API,
// Python's Probe.moves, solve's root list): best first for the mover, the fastest win, then the
// draws, then the slowest loss; equal moves keep generate_moves order (a stable sort). Returns the
// indices of `moves` in that order; M has the mover's `value` and the `dist`.
template <class M>
std::vector<std::size_t> best_first(const std::vector<M>& moves) {
  std::vector<std::size_t> order(moves.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return move_score(moves[a].value, int(moves[a].dist)) > move_score(moves[b].value, int(moves[b].dist));
  });
  return order;
}

// The move the rule picks among `moves` (-1 if there are none): the first of best_first.
int best_move_index(const std::vector<MoveAnswer>& moves);

// Answers for the state (position, tag). Throws GonuError if the table does not hold the state
// (not reachable from the table's root under its rules), if a successor is missing, or if the
// table contradicts itself (a stored value that its moves do not give); the last two mean a
// damaged or wrong table and name `gonu verify`.
QueryAnswer query_state(const Table& t, const Position& p, const Tag& tag, bool with_pv = true);

// The state a game has reached, with the error for an unreachable one phrased for people.
QueryAnswer query_game(const Table& t, const Game& g, bool with_pv = true);

// "WIN in 7" / "LOSS in 12" / "DRAW".
std::string value_text(Value v, std::uint16_t dist);

}  // namespace gonu
