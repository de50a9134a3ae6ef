// gonu play's Jungi part (tools/cli/play_game.hpp): a game over Jungi tables, its moves as people
// write them (format_move_san: Ra1-a8=+R; parse_move reads from-to too), sides 0 south and
// 1 north. The tables are asked through one function, `ask` (the answer for a position: its
// value and its moves valued and ranked), so that what answers can change without the rest.
#pragma once
#include <functional>

#include "solver/jungi/table/query.hpp"
#include "tools/cli/play_game.hpp"

namespace gonu::cli {

// The tables' answer for a position (no principal variation needed); throws GonuError when the
// position's own value needs a table that is absent.
using JungiAsk = std::function<jungi::PositionAnswer(const jungi::Position&)>;

class JungiPlay : public PlayGame {
 public:
  // The game from `start`, after the moves of `history` (each checked: GonuError
  // "--history move N: why").
  JungiPlay(const jungi::Rules& r, JungiAsk ask, const jungi::Position& start, const std::string& history);

  std::string side_name(int side) const override { return side == 0 ? "south" : "north"; }
  int parse_side(const std::string& text) const override;
  std::string rules_text() const override;
  std::string repetition_note() const override;
  std::string example_move(int side) const override;
  std::string move_help() const override;
  // The position now asked of the tables (answer), a move read (parse) and played, the rules' end.
  PlayAnswer answer() const override;
  std::string parse(const std::string& typed) const override;
  void play(const std::string& text) override;
  void take_back_to(std::size_t plies) override;
  PlayEnd ending() const override;
  std::size_t plies() const override { return record_.size(); }
  int to_move() const override { return jungi::index(now().to_move); }
  int side_before(std::size_t ply) const override { return jungi::index(line_[ply].to_move); }
  std::vector<std::string> record() const override { return record_; }
  std::size_t times_seen() const override;
  std::string position_text() const override { return jungi::format_position(now()); }
  std::string diagram() const override { return jungi::draw_position(now()); }

 private:
  const jungi::Position& now() const { return line_.back(); }

  jungi::Rules rules_;
  JungiAsk ask_;
  std::vector<jungi::Position> line_;  // line_[0] the start, line_[i] after record_[i - 1]
  std::vector<std::string> record_;    // format_move_san of each move
};

}  // namespace gonu::cli
