// The replay of a certificate's trees (format 1, and the tree part of format 3;
// solver/julgonu/superko/SUPERKO.md): every node is replayed with core's Game record (superko legality
// from the full board history), every `L` node must answer exactly the loser's legal moves, every
// `W` move must be legal, `T` a finished game with the loser to move, `R` follow a capture and name
// the section starting there, `B` meet the rank condition against the ban-free table, `S` pass its
// strategy's check (strategy_check.hpp) with the node's history. The table is checked by its ranks.
// Recursive in the tree's depth: run it on a large stack (util/large_stack.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "checker/certificate_read.hpp"
#include "checker/strategy_check.hpp"

namespace gonu::checker {

class TreeChecker {
 public:
  TreeChecker(const Rules& r, const Board& b, Side w) : rules(r), board(b), winner(w) {}

  // Every entry of the table: the winner's move leads to a table state of lower rank (or ends the
  // loser's game), every move of the loser to a table state of lower rank.
  void check_table();
  // The subtree at node `id` from the game's current state; throws Flaw with where it failed.
  void check_node(Game& g, int id);

  Rules rules;
  Board board;
  Side winner;
  std::vector<TreeNode> nodes;
  std::vector<Position> section_pos;  // format 1: where each section starts
  Table table;                        // format 1
  std::vector<StrategyChecker> strategies;  // format 3: the blocks `S i` leaves refer to
  std::uint64_t replayed = 0;         // nodes checked
  int section = 0;                    // the section being replayed (for the flaw's place)

 private:
  [[noreturn]] void flaw(const std::string& what);
  void check_leaf_banfree(const Game& g);
  void check_strategy_leaf(const Game& g, int ref);
  void check_winner_move(Game& g, const TreeNode& n);
  void check_loser_moves(Game& g, const TreeNode& n);
  void follow(Game& g, const Move& m, const std::string& text, int child);

  std::vector<std::string> path;  // the moves from the section's start to the node
};

}  // namespace gonu::checker
