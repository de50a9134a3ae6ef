// Format 8, a proof graph (solver/julgonu/superko/SUPERKO.md, "Certificate format 8"): blocks (a position
// and a tree of format 1's nodes) that later blocks, the root and the capture-entry states refer
// to by number, so a proof shared by many lines is written once. Each block is checked once, from
// its own position, and the check computes the condition on the history before it under which
// its tree is a proof (F5's reliance, made explicit): boards that must be unvisited (targets of
// the winner's moves), boards that must be visited (the loser's moves the tree leaves out), and
// the least rank the history's states of the ban-free strategy must have (its ban-free leaves). Every use of a block
// checks that condition where it is used: against the line inside the referring block (what lies
// before that block going into its own condition), against the game's full history at the root,
// against the entry's own board at an entry and after a capture. References go to earlier blocks
// only, so the graph has no cycles. Recursive in a block's depth: run on a large stack.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/julgonu/game.hpp"
#include "checker/certificate_read.hpp"

namespace gonu::checker {

struct GraphCertificate {
  std::vector<TreeNode> nodes;
  std::vector<Position> block_pos;
  std::vector<int> block_root;  // each block's tree (an index into nodes)
  struct Entry {
    Position pos;
    bool win = false;  // for the side to move
    int block = -1;
  };
  std::vector<Entry> entries;
  int root = -1;  // the root's block; -1: no root claimed
  // The ban-free strategy below the B leaves: the winner's move at each of the winner's states
  // (the loser's states and every rank are derived by the check).
  std::unordered_map<Position, std::string, PosHash> strategy;
};

// Format 8 after the header, up to and including end-certificate; `root_claimed`: "root i", else
// "root none".
void read_graph_certificate(Reader& rd, const Board& board, bool root_claimed, GraphCertificate& c);

// What a block's proof needs of the boards H since the last capture before it (its own board
// last): none of `unvisited` in H, all of `visited` in H, every strategy state of H but its own
// board of rank >= threshold (-1: no ban-free leaf).
struct HistoryCondition {
  std::unordered_set<Position, PosHash> unvisited, visited;
  long threshold = -1;
};

class GraphChecker {
 public:
  GraphChecker(const Rules& r, const Board& b, GraphCertificate c) : rules(r), board(b), cert(std::move(c)) {}

  // The strategy (every reply of the loser stays in it, no cycle; the ranks computed), every block
  // in file order (its condition computed), every entry against its own board; throws Flaw.
  void check();
  // The root's block against the game's history (its value: win for the side to move).
  void check_root(const Game& g, bool win);

  Rules rules;
  Board board;
  GraphCertificate cert;
  std::vector<HistoryCondition> conditions;  // by block, once checked
  std::vector<char> wins;                    // by block: the side to move wins
  std::uint64_t replayed = 0;                // tree nodes checked
  std::uint64_t reuses = 0;                  // references to blocks inside blocks
  // The rank of each strategy state: the winner's listed states and the loser's states they move
  // to; a loser's state ranks one above its highest reply, a winner's one above its move's state.
  std::unordered_map<Position, long, PosHash> rank;

 private:
  struct Line {  // the boards from the block's start (or the last capture) to the node
    std::vector<Position> path;
    std::unordered_set<Position, PosHash> on_path;
    HistoryCondition cond;
  };
  [[noreturn]] void flaw(const std::string& what);
  void check_strategy();
  long loser_rank(const Position& x);
  bool role_of(int node, const Position& p);
  void node(Line& l, int id, const Position& q, bool win);
  void loser(Line& l, const TreeNode& n, const Position& q);
  void edge(Line& l, const Position& q, const Move& m, const std::string& text, int child, bool win_after);
  void leaf(Line& l, const Position& q, bool win);
  void reference(Line& l, int j, const Position& q, bool win);
  void ranks_at_least(const Line& l, long threshold, const std::string& why);

  int block_ = -1;                 // the block being checked
  std::vector<std::string> moves_;  // the moves from its start
};

}  // namespace gonu::checker
