// gonu play's Jul-gonu part (tools/cli/play_game.hpp): a game over a Jul-gonu table, its moves in
// the --history notation (b4-b3), sides 0 black and 1 white.
#pragma once
#include "core/julgonu/game.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tools/cli/play_game.hpp"

namespace gonu::cli {

// A Jul-gonu move as people type it, in the notation parse_move reads: spaces dropped, a '-' put
// between the two points when it is missing (b4b3, b4 b3), lower case on boards of up to 26 files
// (whose points are all named in lower case: B4-B3).
std::string move_notation(const Board& b, const std::string& typed);

class JulgonuPlay : public PlayGame {
 public:
  // `origin`: the game at POSITION (or the table's root); `now`: it after --history.
  JulgonuPlay(const Table& t, const Game& origin, const Game& now) : table_(t), origin_(origin), game_(now) {}

  std::string side_name(int side) const override;
  int parse_side(const std::string& text) const override;
  std::string rules_text() const override;
  std::vector<std::string> notes() const override;
  std::string repetition_note() const override;
  std::string example_move(int side) const override;
  std::string move_help() const override;
  std::size_t plies() const override { return game_.moves.size(); }
  int to_move() const override;
  int side_before(std::size_t ply) const override;
  std::vector<std::string> record() const override;
  std::size_t times_seen() const override;
  std::string position_text() const override;
  std::string diagram() const override;
  PlayEnd ending() const override;
  PlayAnswer answer() const override;
  std::string parse(const std::string& typed) const override;
  void play(const std::string& text) override;
  void take_back_to(std::size_t plies) override;

 private:
  const Table& table_;
  const Game origin_;  // the game as it began (its tag included), for take_back_to
  Game game_;
};

}  // namespace gonu::cli
