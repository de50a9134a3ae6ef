// The check of a memoryless strategy (certificate formats 2 and 4, and the strategy leaves of
// formats 3 and 5; solver/julgonu/superko/SUPERKO.md, F7 and F9). From a node (a Game: position and boards
// since the last capture) it walks every state the play can reach when the winner follows the
// block's moves and the loser plays any ban-free move (a superset of its superko moves), and checks
// the conditions under which every move of the winner is new:
//   - injective (formats 2 and 3, F7): paired moves go to distinct states, none to a segment's
//     first state (the node, or a state entered by a capture) nor to an earlier board of the node's
//     history; ranked states are closed and their ranks fall at every non-capturing move;
//   - scc (formats 4 and 5, F9, S1-S3): no non-capturing move to a board of the history, and for
//     every non-capturing winner move w -> t inside one strongly connected part of the reach's
//     graph, t is not the node, not the target of a capture, and w is t's only predecessor. The
//     ranks are read but not relied on.
// Format 6 adds exits: a capture (by either side) onto a position in `exits` (the roots of other
// blocks, proven for the same winner when entered fresh; lower material, as every capture lowers
// it) ends the walk there: that block's strategy takes over (F10).
#pragma once
#include <cstdint>
#include <unordered_set>

#include "core/julgonu/game.hpp"
#include "checker/certificate_read.hpp"

namespace gonu::checker {

enum class StrategyCondition : std::uint8_t { injective, scc };

class StrategyChecker {
 public:
  StrategyChecker(StrategyBlock b, StrategyCondition c) : block(std::move(b)), condition(c) {}

  // Throws Flaw at the first condition that fails. Counts add up over calls (formats 3 and 5 check a
  // block once per leaf that names it).
  void check(const Game& g);

  StrategyBlock block;
  StrategyCondition condition;
  const std::unordered_set<Position, PosHash>* exits = nullptr;  // format 6; null: none
  std::uint64_t exits_taken = 0;  // captures that ended at an exit
  std::uint64_t paired = 0, ranked = 0, reached = 0;  // winner states checked by part; states walked

 private:
  bool loser_finished(const Position& p) const;
  bool lower_ranked(const Position& y, long rank) const;
};

}  // namespace gonu::checker
