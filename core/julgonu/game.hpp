// A game record: a start position, the moves played, and what the repetition rule needs of the
// history (the tag for immediate/undo; every board since the last capture for superko, since a
// capture makes every earlier board impossible to recreate). Legality is checked against it.
#pragma once
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/repetition.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu {

struct Game {
  Rules rules;
  Board board;
  Position start;
  std::vector<Move> moves;
  std::vector<Position> positions;  // positions[0] = start, positions[i] after moves[i-1]
  Tag tag;                          // immediate / undo
  std::vector<Position> since_capture;  // superko: boards (with side) since the last capture
};

Game new_game(const Rules& r, const Position& start);
const Position& current(const Game& g);

// Why `m` (a move of generate_moves for the current position) is banned by the repetition rule,
// or an empty string if it is not.
std::string ban_reason(const Game& g, const Move& m);

// The legal moves now (repetition applied), in generate_moves order. Empty when the game is over.
std::vector<Move> legal_moves(const Game& g);

// "" while the game goes on; otherwise why the side to move has lost.
std::string game_over_reason(const Game& g);

// Plays a move in notation; throws GonuError with the reason if it is malformed or illegal.
Move play(Game& g, std::string_view text);
// Plays a move that must be legal (throws GonuError otherwise).
void play(Game& g, const Move& m);

// Plays a space-separated list; an error names the move's number and text, and why it is illegal.
void play_history(Game& g, std::string_view moves);

}  // namespace gonu
