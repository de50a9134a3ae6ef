// The check of a memoryless strategy (certificate format 2, and the strategy leaves of format 3;
// solver/superko/SUPERKO.md, F7). From a node (a Game: position and boards since the last capture)
// it walks every state the play can reach when the winner follows the block's moves and the loser
// plays any ban-free move (a superset of its superko moves), and checks the conditions under which
// every move of the winner is new: paired moves go to distinct states, none to a segment's first
// state (the node, or a state entered by a capture) nor to an earlier board of the node's history;
// ranked states are closed and their ranks fall at every non-capturing move.
#pragma once
#include <cstdint>

#include "core/game.hpp"
#include "checker/certificate_read.hpp"

namespace gonu::checker {

class StrategyChecker {
 public:
  explicit StrategyChecker(StrategyBlock b) : block(std::move(b)) {}

  // Throws Flaw at the first condition that fails. Counts add up over calls (format 3 checks a
  // block once per leaf that names it).
  void check(const Game& g);

  StrategyBlock block;
  std::uint64_t paired = 0, ranked = 0, reached = 0;  // winner states checked by part; states walked

 private:
  bool loser_finished(const Position& p) const;
  bool lower_ranked(const Position& y, long rank) const;
};

}  // namespace gonu::checker
