// gonu play's game: an analysis board over a table. The human plays one side (or both), the
// engine the other with perfect play (the best move by query.hpp's rule, or with --vary one of
// the best moves at random from a printed seed); between moves the human may ask for a hint
// (every move grouped by value, with distances), take moves back, turn the value display on or
// off, see the record. A move that changes the mover's value (a blunder, or a gift) is said
// ("DRAW -> LOSS in 26"). The game ends by the rules, by a position standing for the third time
// (a draw: the table's rule sets treat endless play as a draw), by quit or by the end of input;
// then the record is printed in the --history notation.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/table/query.hpp"
#include "solver/table/table.hpp"
#include "tools/play_input.hpp"

namespace gonu::cli {

struct PlaySettings {
  std::optional<Side> human;      // nullopt: the human plays both sides
  bool vary = false;              // engine: a random best move
  std::uint64_t seed = 0;         // of --vary's choices
  bool values = true;             // show each position's value
  std::optional<std::string> position;  // POSITION as given (for the record's replay line)
};

class PlaySession {
 public:
  PlaySession(const Table& t, const Game& start, const PlaySettings& s);
  void run(LineReader& in);

 private:
  enum class Turn { moved, stop };  // after the human's turn: a move (or undo) was made, or stop

  void print_intro() const;
  void print_position(const QueryAnswer& a) const;
  std::string ending() const;  // why the game is over now, or empty
  void print_end(const std::string& why) const;
  void print_record() const;
  void engine_move(const QueryAnswer& a);
  Turn human_turn(const QueryAnswer& a, LineReader& in);
  // One line of the human's: true when the turn is over (a move or an undo was made).
  bool human_line(const QueryAnswer& a, const std::string& word, const std::string& line, Turn& turn);
  void print_moves(const QueryAnswer& a) const;
  void print_hint(const QueryAnswer& a) const;
  void print_help() const;
  bool undo();
  bool try_move(const QueryAnswer& a, const std::string& line);
  bool human_moves(Side s) const { return !settings_.human || *settings_.human == s; }

  const Table& table_;
  const Game start_;  // the game as it began (its tag included), for undo
  Game game_;
  PlaySettings settings_;
  std::mt19937_64 rng_;
};

}  // namespace gonu::cli
