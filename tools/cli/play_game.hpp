// The per-game part of gonu play (tools/cli/play_session.hpp is the part both games share): a game
// over a table as the session asks it, in plain data. Sides are numbers, 0 for the side that
// moves first in the game's own notation (Jul-gonu: black, white; Jungi: south, north). A move
// is its text in the notation the record writes, which play() reads back; what the session
// shows of a position (its value, its moves valued, best first) is one PlayAnswer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "solver/common/value.hpp"

namespace gonu::cli {

struct PlayMove {
  std::string text;          // the notation the record writes
  std::string captures;      // the squares it captures, for people ("c3 d3"), or empty
  bool known = true;         // false: no table at hand values it
  Value value = Value::draw;  // for the side that makes it
  std::uint16_t dist = 0;    // plies to the end from before the move (0 for a draw)
  std::string unknown;       // when unknown: why, for people ("no table of KRvK")
};

struct PlayAnswer {
  bool known = true;          // false: no table at hand values the position (moves unvalued)
  Value value = Value::draw;  // for the side to move
  std::uint16_t dist = 0;
  std::string unknown;        // when unknown: why
  std::vector<PlayMove> moves;     // every legal move, in the game's move order (their numbers)
  std::vector<std::size_t> order;  // indices into moves, best first, the unknown ones last
  std::vector<std::size_t> best;   // the known moves as good as the first (--vary picks among them)
  std::optional<std::size_t> engine;  // the move perfect play picks; none when no move is known
};

// The end of a game by its rules: `why` for people, empty while the game goes on; the winner,
// none for a draw.
struct PlayEnd {
  std::string why;
  std::optional<int> winner;
};

class PlayGame {
 public:
  virtual ~PlayGame() = default;

  virtual std::string side_name(int side) const = 0;  // lower case: "black", "south"
  // The side a --as value names; throws GonuError (one line) naming the sides.
  virtual int parse_side(const std::string& text) const = 0;
  virtual std::string rules_text() const = 0;  // the rules in one line
  virtual std::vector<std::string> notes() const { return {}; }  // said after the intro
  // Why endless play is a draw in these rules, said when a position stands the third time.
  virtual std::string repetition_note() const = 0;
  virtual std::string example_move(int side) const = 0;  // a legal move for `side` here, or ""
  // The help lines of the move syntax (the first starts with the syntax in 22 columns).
  virtual std::string move_help() const = 0;

  // The game so far: every move from the start (POSITION, before --history), in order.
  virtual std::size_t plies() const = 0;
  virtual int to_move() const = 0;
  virtual int side_before(std::size_t ply) const = 0;  // the side that made move `ply` (0-based)
  virtual std::vector<std::string> record() const = 0;
  virtual std::size_t times_seen() const = 0;  // how often the position now has stood in the game
  virtual std::string position_text() const = 0;  // in notation
  virtual std::string diagram() const = 0;        // a drawing, ending with a newline

  virtual PlayEnd ending() const = 0;
  // The position now valued (only asked while the game goes on).
  virtual PlayAnswer answer() const = 0;
  // The move `typed` names as its text in the record's notation; throws GonuError why not.
  virtual std::string parse(const std::string& typed) const = 0;
  virtual void play(const std::string& text) = 0;  // a text of parse() or of answer().moves
  virtual void take_back_to(std::size_t plies) = 0;
};

}  // namespace gonu::cli
