// The check of a memoryless strategy (see strategy_check.hpp): one depth-first walk of the reach,
// then the paired targets against the segments' first states met on the way.
#include "checker/strategy_check.hpp"

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/error.hpp"

namespace gonu::checker {

bool StrategyChecker::loser_finished(const Position& p) const {
  return lost_by_material(p) || generate_moves(block.board, block.rules, p).empty();
}

bool StrategyChecker::lower_ranked(const Position& y, long rank) const {
  const auto it = block.entries.find(y);
  return it != block.entries.end() && it->second.ranked && it->second.rank < rank;
}

void StrategyChecker::check(const Game& g) {
  const Board& board = block.board;
  const Rules& rules = block.rules;
  const Position root = current(g);
  std::unordered_set<Position, PosHash> history(g.since_capture.begin(), g.since_capture.end() - 1);
  std::unordered_set<Position, PosHash> seen{root}, firsts{root};
  std::unordered_map<Position, Position, PosHash> paired_into;  // target -> the paired state moving there
  std::vector<Position> stack{root};
  while (!stack.empty()) {
    const Position x = stack.back();
    stack.pop_back();
    ++reached;
    const std::vector<Move> moves = lost_by_material(x) ? std::vector<Move>{} : generate_moves(board, rules, x);
    const auto it = block.entries.find(x);
    std::vector<Position> next;
    if (x.to_move == block.winner) {
      if (moves.empty()) throw Flaw{"the winner has lost at " + format_position(board, x) + ", reachable under the strategy"};
      if (it == block.entries.end())
        throw Flaw{"no move for the winner at " + format_position(board, x) + ", reachable under the strategy"};
      const StrategyEntry& e = it->second;
      ++(e.ranked ? ranked : paired);
      Move m;
      try {
        m = parse_move(board, rules, x, e.move, moves);
      } catch (const GonuError& err) {
        throw Flaw{"move " + e.move + " at " + format_position(board, x) + ": " + err.what()};
      }
      const Position y = apply_move(x, m);
      if (m.captured) {
        firsts.insert(y);
      } else {
        if (history.count(y))
          throw Flaw{"the move " + e.move + " at " + format_position(board, x) + " recreates a board of the history"};
        if (e.ranked && !loser_finished(y) && !lower_ranked(y, e.rank))
          throw Flaw{"the ranked move " + e.move + " at " + format_position(board, x) + " does not lower the rank"};
        if (!e.ranked && !paired_into.emplace(y, x).second)
          throw Flaw{"two states of the strategy move to " + format_position(board, y) + ": " +
                     format_position(board, paired_into.at(y)) + " and " + format_position(board, x)};
      }
      next.push_back(y);
    } else {
      if (it != block.entries.end()) ++ranked;
      for (const Move& m : moves) {
        const Position z = apply_move(x, m);
        if (m.captured) firsts.insert(z);
        else if (it != block.entries.end() && !lower_ranked(z, it->second.rank))
          throw Flaw{"the loser's move " + format_move(board, rules, m) + " at " + format_position(board, x) +
                     " leaves the ranked states or does not lower the rank"};
        next.push_back(z);
      }
    }
    for (const Position& y : next)
      if (seen.insert(y).second) stack.push_back(y);
  }
  for (const auto& [y, x] : paired_into)
    if (firsts.count(y))
      throw Flaw{"the paired move at " + format_position(board, x) + " goes to " + format_position(board, y) +
                 ", the first state of a segment"};
}

}  // namespace gonu::checker
