// Questions about one state of a table: its value, every legal move ranked, the best move by a
// fixed rule, and the principal variation - all read from the table, nothing solved again.
// gonu query, gonu play and the lookup benchmark all call this, so they agree.
//
// Under the tagged rule sets (repetition immediate and undo) a state is a position and a history
// tag (core/julgonu/repetition.hpp), and the table holds only the states reachable from its root.
// A position typed without its moves is the state with the empty tag, which the table often does
// not hold (under undo only the root has it). Such a state is answered by a short search: its
// moves are followed until every line reaches states the table holds (under undo two plies fix
// the whole tag), and negamax over those exact values gives its exact value. stored_tags lists,
// beside it, every tag under which the table holds the position: the values the history can give.
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
#include "solver/common/move_order.hpp"
#include "solver/julgonu/table/table.hpp"

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
  // False when the table does not hold the state (tagged tables only): the value and the moves'
  // values were found by searching on to states it holds; `index` is then 0 and `searched_plies`
  // is the depth that search needed.
  bool stored = true;
  int searched_plies = 0;
};

// One history tag under which a table holds a position, and that state's value.
struct TagValue {
  Tag tag;
  std::uint64_t index = 0;
  Value value = Value::draw;
  std::uint16_t dist = 0;
};

// mover_value, move_score and best_first (the one order of every list of moves gonu shows: query's
// text and --json, the explorer's API, Python's Probe.moves, solve's root list) are in
// solver/common/move_order.hpp, which Jungi's tables share.

// The move the rule picks among `moves` (-1 if there are none): the first of best_first.
int best_move_index(const std::vector<MoveAnswer>& moves);

// Answers for the state (position, tag). Throws GonuError if the table does not hold the state
// (not reachable from the table's root under its rules; a tagged table's missing state is first
// searched as the header says, and only a failed search throws), if a successor is missing, or if
// the table contradicts itself (a stored value that its moves do not give); the last two mean a
// damaged or wrong table and name `gonu verify`.
QueryAnswer query_state(const Table& t, const Position& p, const Tag& tag, bool with_pv = true);

// The state a game has reached, with the error for an unreachable one phrased for people.
QueryAnswer query_game(const Table& t, const Game& g, bool with_pv = true);

// Every tag in normal form for p under which the table holds (p, tag), in pack_tag order (at most
// 2 (a + 1) (c + 1) lookups, a and c the steps of solver/julgonu/dense/tag_slots.hpp). Empty for an
// untagged table.
std::vector<TagValue> stored_tags(const Table& t, const Position& p);

// Whether a is a better value than b for the side to move (faster win, draw, slower loss).
bool better_value(Value a, std::uint16_t a_dist, Value b, std::uint16_t b_dist);

}  // namespace gonu
