// Reading a superko certificate into plain data (format: solver/julgonu/superko/SUPERKO.md): words and
// numbers with a one-line Flaw for a truncated or malformed file, the rules id, positions, the
// trees of formats 1 and 3, the ban-free table of format 1 and the strategy blocks of formats 2
// and 3. Nothing here judges the proof (strategy_check.hpp and tree_check.hpp do). Like the whole
// checker, it includes only core/ and util/.
#pragma once
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu::checker {

// The first flaw of a certificate, in reading or in checking: the message check_certificate reports.
struct Flaw {
  std::string what;
};

struct PosHash {
  std::size_t operator()(const Position& p) const {
    return std::hash<std::uint64_t>()(p.black * 0x9E3779B97F4A7C15ull ^ (p.white + 0x632BE59BD9B4E019ull) ^
                                      std::uint64_t(p.to_move == Side::white));
  }
};

// Whitespace-separated words of the certificate.
class Reader {
 public:
  explicit Reader(std::istream& in) : in_(in) {}
  std::string word(const char* expecting);
  void expect(const std::string& w);
  long number(const char* what);  // a non-negative decimal of at most 12 digits
  bool at_end();

 private:
  std::istream& in_;
};

// Where a flaw stands: `where`, then ", after" and the last 12 of `moves` (the line from its start).
std::string flaw_place(std::string where, const std::vector<std::string>& moves);

// "RxC/capture/corner|nocorner/repetition/first"; a Flaw unless it names superko rules.
Rules parse_rules_id(const std::string& id);

// A position as two words (board and side to move).
Position read_position(Reader& rd, const Board& board, const char* what);

// A node of a tree of format 1 or 3.
struct TreeNode {
  char kind = 0;  // W L T B R S
  int ref = -1;   // R: section; S: strategy
  std::vector<std::pair<std::string, int>> next;  // W: one (move, node); L: every (move, node)
};

// Reads one tree, appending its nodes; returns its root's index. strategy_leaves: `S i` leaves are
// allowed (format 3).
int read_tree(Reader& rd, bool strategy_leaves, std::vector<TreeNode>& nodes);

// Format 1's table of a ranked ban-free strategy.
struct TableEntry {
  long rank = 0;
  std::string move;  // "-" for the loser's states
};
using Table = std::unordered_map<Position, TableEntry, PosHash>;

// "table K" and K lines "POSITION RANK MOVE|-" (formats 1 and 8).
void read_table(Reader& rd, const Board& board, Table& table);

// Format 1 after the header: the sections and the table, up to and including end-certificate.
struct SectionsCertificate {
  std::vector<TreeNode> nodes;
  std::vector<Position> section_pos;
  std::vector<int> section_root;
  Table table;
};
void read_sections_certificate(Reader& rd, const Board& board, SectionsCertificate& c);

// A strategy block of formats 2 and 3: the winner's paired moves, and the ranked states with
// their ranks (and the winner's move, "-" at the loser's).
struct StrategyEntry {
  bool ranked = false;
  long rank = 0;
  std::string move;  // "-" for a ranked state of the loser
};
struct StrategyBlock {
  Rules rules;
  Board board;
  Side winner = Side::black;
  std::unordered_map<Position, StrategyEntry, PosHash> entries;
};
// Reads "strategy K ... ranked J ..." into b (whose rules, board and winner are set).
void read_strategy_block(Reader& rd, StrategyBlock& b);

// The end of every format: end-certificate, then nothing.
void read_end(Reader& rd);

}  // namespace gonu::checker
