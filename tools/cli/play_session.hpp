// gonu play's session, one for both games: an analysis board over a table (the per-game part,
// tools/cli/play_game.hpp, answers for the table and knows the notation). The human plays one side
// (or both), the engine the other with perfect play (the best move by query.hpp's rule, or with
// --vary one of the best moves at random from a printed seed); between moves the human may ask
// for a hint (every move grouped by value, with distances), list the moves numbered (a number
// plays one), take moves back and play them again (undo, redo), turn the values (of the position
// and beside each listed move) on or off, see the record. A move that changes the mover's value
// is said ("DRAW -> LOSS in 26: a blunder"). The game ends by the rules, naming the winner, or by
// a position standing for the third time (a draw: the tables treat endless play as a draw); the
// board then stays open for undo (and another try) until quit or the end of input, when the
// record is printed in the --history notation.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tools/cli/options.hpp"
#include "tools/cli/play_game.hpp"
#include "tools/cli/play_input.hpp"

namespace gonu::cli {

struct PlaySettings {
  std::optional<int> human;       // nullopt: the human plays both sides
  bool vary = false;              // engine: a random best move
  std::uint64_t seed = 0;         // of --vary's choices
  bool values = true;             // show each position's value
  std::optional<std::string> position;  // POSITION as given (for the record's replay line)
  std::string source;             // where perfect play comes from, for people: the table's path
  std::string replay;             // the command that replays the record, up to POSITION
};

// --as (default: the side to move now), --values, --vary and --seed read for `g`; a bad value is
// a usage error, a side `g` does not know a GonuError.
PlaySettings play_settings(const CommandLine& cl, const PlayGame& g);

class PlaySession {
 public:
  PlaySession(PlayGame& game, const PlaySettings& s);
  void run(LineReader& in);

 private:
  enum class Turn { moved, stop };  // after a turn: a move (undo, redo) was made, or stop

  void print_intro() const;
  void print_position(const PlayAnswer& a) const;
  std::string ending() const;  // why the game is over now, or empty
  void print_end(const std::string& why) const;
  void print_record() const;
  void engine_move(const PlayAnswer& a);  // a.engine must be set
  // `over`: the game has ended (moves are refused; undo, redo and the rest still work).
  Turn human_turn(const PlayAnswer& a, LineReader& in, bool over);
  // One line of the human's: true when the turn is over (a move or an undo was made).
  bool human_line(const PlayAnswer& a, const std::string& word, const std::string& line, bool over, Turn& turn);
  void print_moves(const PlayAnswer& a) const;
  void print_hint(const PlayAnswer& a) const;
  void print_help() const;
  bool undo();
  bool redo();
  bool try_move(const PlayAnswer& a, const std::string& line);
  void say_move(const PlayAnswer& a, const std::string& who, const std::string& text) const;
  bool human_moves(int side) const { return !settings_.human || *settings_.human == side; }
  std::string side(int s) const { return game_.side_name(s); }

  PlayGame& game_;
  PlaySettings settings_;
  std::vector<std::string> redo_;  // moves taken back, the next to play again first; a new move clears it
  std::mt19937_64 rng_;
};

}  // namespace gonu::cli
