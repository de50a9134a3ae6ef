// Df-pn's proofs written as a proof graph (certificate format 8, SUPERKO.md): the winner's move at
// the winner's nodes, every legal reply at the loser's, and a node reached again (by another line,
// or by a capture onto the same state) written once and referred to wherever the condition on the
// history under which its proof holds (F5's (U, X, t), computed from the proof as written) is met
// by the history there. Built by walking a finished search's table (what it forgot is proven
// again within the node budget) with the history of each line, so every reuse is decided on the
// actual history; the checker (checker/graph_check.hpp) computes the same conditions itself.
// The searches must run without fresh values and without symmetry (their proofs then use F3's
// leaves alone and name the positions the game reaches), as for format 1. One graph may hold the
// root's proof and the proofs of capture-entry states (a --dfpn-layer pass), sharing nodes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "solver/julgonu/superko/dfpn.hpp"

namespace gonu {

class DfpnProofGraph {
 public:
  explicit DfpnProofGraph(const BanFreeOracle& oracle);

  // The proof of `value`, which search.solve(g) proved, as the root; an error message if it was
  // not written (too large, or re-proving ran past the search's budget), else empty. A finished
  // walk proves the value from the rules' leaves, whatever the table's entries rest on.
  std::string add_root(DfpnSearch& search, const Game& g, SkValue value, std::uint64_t max_nodes);
  // The proof of the value of p entered fresh (a capture-entry state with no history before it),
  // which search.solve_entry(p) proved, as an entry.
  std::string add_entry(DfpnSearch& search, const Position& p, SkValue value, std::uint64_t max_nodes);

  // Why the last add_root or add_entry wrote nothing: "node budget", "time budget",
  // "certificate size" or "not certifiable"; empty when it was written.
  const std::string& stopped_by() const { return stop_; }
  bool empty() const { return !root_ && entries_.empty(); }
  std::size_t entries() const { return entries_.size(); }
  std::uint64_t nodes() const { return nodes_.size(); }
  // Format 8 for the game g (the root's history); value UNKNOWN and winner none without a root.
  std::string text(const Game& g) const;

  struct Node {
    Position pos;
    char kind = 0;  // W (the side to move wins: one move), L (it loses: every move), T, B
    std::vector<std::pair<Move, int>> next;
    std::vector<Key> unvisited, visited;  // the condition, relative to pos (pos itself left out)
    int threshold = -1;                   // the largest rank (ban-free distance) of a B leaf below
    std::uint32_t uses = 0;               // references: more than one makes it a block
    bool block = false;                   // the root's or an entry's: a block whatever its uses
  };

 private:
  friend class DfpnProofBuilder;  // the walk through a search's table (dfpn_certificate.cpp)
  struct Entry {
    Position pos;
    SkValue value;
    int node;
  };
  const BanFreeOracle& oracle_;
  Board board_;
  std::vector<Node> nodes_;                            // children before parents
  std::unordered_map<Key, std::vector<int>> by_key_;   // inner nodes, for reuse under their condition
  std::unordered_map<Key, int> fresh_;                 // states entered with no history
  std::vector<Position> seeds_;                        // B leaves
  std::vector<Entry> entries_;
  std::optional<Entry> root_;
  std::string stop_;
};

}  // namespace gonu
