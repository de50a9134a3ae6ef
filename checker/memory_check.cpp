// The check of a strategy with memory (see memory_check.hpp): the block read whole, then one
// depth-first walk of the (state, label) graph from the root that checks every condition on the
// way but one, the first states, which are known only when the walk is done.
#include "checker/memory_check.hpp"

#include <unordered_set>
#include <vector>

#include "core/error.hpp"

namespace gonu::checker {

void read_memory_block(Reader& rd, MemoryBlock& b) {
  rd.expect("memory");
  const std::string kind = rd.word("the label kind");
  if (kind != "winner-moves") throw Flaw{"malformed certificate: unknown label kind '" + kind + "'"};
  const long m = rd.number("the label's range");
  if (m < 1 || m > (1 << 20)) throw Flaw{"malformed certificate: the label's range " + std::to_string(m) + " is not 1 to 2^20"};
  b.m = int(m);
  rd.expect("strategy");
  const long np = rd.number("the number of strategy entries");
  const Board& board = b.ranked.board;
  for (long i = 0; i < np; ++i) {
    const Position p = read_position(rd, board, "a strategy position");
    if (p.to_move != b.ranked.winner)
      throw Flaw{"malformed certificate: strategy entry " + format_position(board, p) + " is not the winner's turn"};
    const long label = rd.number("a label");
    if (label >= m) throw Flaw{"malformed certificate: label " + std::to_string(label) + " is not below " + std::to_string(m)};
    if (!b.paired.emplace(MemoryBlock::Key{p, int(label)}, rd.word("a strategy move")).second)
      throw Flaw{"malformed certificate: strategy state and label listed twice"};
  }
  // The ranked part: format 2's lines.
  rd.expect("ranked");
  const long nr = rd.number("the number of ranked entries");
  for (long i = 0; i < nr; ++i) {
    const Position p = read_position(rd, board, "a ranked position");
    StrategyEntry e;
    e.ranked = true;
    e.rank = rd.number("a rank");
    e.move = rd.word("a ranked move");
    if ((e.move == "-") == (p.to_move == b.ranked.winner))
      throw Flaw{"malformed certificate: ranked entry " + format_position(board, p) + " has the wrong move field"};
    if (!b.ranked.entries.emplace(p, e).second) throw Flaw{"malformed certificate: ranked state listed twice"};
  }
  for (const auto& [k, mv] : b.paired)
    if (b.ranked.entries.count(k.pos))
      throw Flaw{"malformed certificate: " + format_position(board, k.pos) + " is listed both ranked and paired"};
}

namespace {

// The walk's state: what it has seen and what the paired moves aim at.
class MemoryWalk {
 public:
  MemoryWalk(const MemoryBlock& b, const Game& g) : b_(b), board_(b.ranked.board), rules_(b.ranked.rules) {
    history_.insert(g.since_capture.begin(), g.since_capture.end() - 1);
    firsts_.insert(current(g));
    push({current(g), 0});
  }

  MemoryCheck run() {
    while (!stack_.empty()) {
      const MemoryBlock::Key x = stack_.back();
      stack_.pop_back();
      ++out_.reached;
      if (states_.insert(x.pos).second) ++out_.states;
      if (x.pos.to_move == b_.ranked.winner) winner_node(x);
      else loser_node(x);
    }
    for (const auto& [y, w] : paired_into_)
      if (firsts_.count(y))
        throw Flaw{"the paired move at " + format_position(board_, w) + " goes to " + format_position(board_, y) +
                   ", the first state of a segment"};
    return out_;
  }

 private:
  void push(const MemoryBlock::Key& k) {
    if (seen_.insert(k).second) stack_.push_back(k);
  }
  std::vector<Move> moves_at(const Position& p) const {
    return lost_by_material(p) ? std::vector<Move>{} : generate_moves(board_, rules_, p);
  }
  bool lower_ranked(const Position& y, long rank) const {
    const auto it = b_.ranked.entries.find(y);
    return it != b_.ranked.entries.end() && it->second.rank < rank;
  }
  std::string at(const MemoryBlock::Key& x) const {
    return format_position(board_, x.pos) + " (label " + std::to_string(x.label) + ")";
  }

  // S1, the history, and the part's own condition: ranks fall, or one board into each target.
  void winner_node(const MemoryBlock::Key& x) {
    const std::vector<Move> moves = moves_at(x.pos);
    if (moves.empty()) throw Flaw{"the winner has lost at " + at(x) + ", reachable under the strategy"};
    const auto r = b_.ranked.entries.find(x.pos);
    const auto p = b_.paired.find(x);
    if (r == b_.ranked.entries.end() && p == b_.paired.end())
      throw Flaw{"no move for the winner at " + at(x) + ", reachable under the strategy"};
    const bool ranked = r != b_.ranked.entries.end();
    const std::string& mv = ranked ? r->second.move : p->second;
    ++(ranked ? out_.ranked : out_.paired);
    Move m;
    try {
      m = parse_move(board_, rules_, x.pos, mv, moves);
    } catch (const GonuError& err) {
      throw Flaw{"move " + mv + " at " + at(x) + ": " + err.what()};
    }
    const Position y = apply_move(x.pos, m);
    if (m.captured) {
      firsts_.insert(y);
    } else {
      if (history_.count(y)) throw Flaw{"the move " + mv + " at " + at(x) + " recreates a board of the history"};
      const bool finished = lost_by_material(y) || generate_moves(board_, rules_, y).empty();
      if (ranked && !finished && !lower_ranked(y, r->second.rank))
        throw Flaw{"the ranked move " + mv + " at " + at(x) + " does not lower the rank"};
      if (!ranked) {
        const auto [it, fresh] = paired_into_.emplace(y, x.pos);
        if (!fresh && !(it->second == x.pos))
          throw Flaw{"two boards of the strategy move to " + format_position(board_, y) + ": " +
                     format_position(board_, it->second) + " and " + at(x)};
      }
    }
    push({y, m.captured ? 0 : (x.label + 1) % b_.m});
  }

  // Every ban-free move; from a ranked state, each non-capturing one to a lower rank.
  void loser_node(const MemoryBlock::Key& x) {
    const auto r = b_.ranked.entries.find(x.pos);
    if (r != b_.ranked.entries.end()) ++out_.ranked;
    for (const Move& m : moves_at(x.pos)) {
      const Position z = apply_move(x.pos, m);
      if (m.captured) firsts_.insert(z);
      else if (r != b_.ranked.entries.end() && !lower_ranked(z, r->second.rank))
        throw Flaw{"the loser's move " + format_move(board_, rules_, m) + " at " + at(x) +
                   " leaves the ranked states or does not lower the rank"};
      push({z, m.captured ? 0 : x.label});
    }
  }

  const MemoryBlock& b_;
  const Board& board_;
  const Rules& rules_;
  std::unordered_set<Position, PosHash> history_, firsts_, states_;
  std::unordered_map<Position, Position, PosHash> paired_into_;  // target -> the board moving there
  std::unordered_set<MemoryBlock::Key, MemoryBlock::KeyHash> seen_;
  std::vector<MemoryBlock::Key> stack_;
  MemoryCheck out_;
};

}  // namespace

MemoryCheck check_memory_strategy(const MemoryBlock& b, const Game& g) { return MemoryWalk(b, g).run(); }

}  // namespace gonu::checker
