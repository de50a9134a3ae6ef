// The check of a memoryless strategy (see strategy_check.hpp): one depth-first walk of the reach
// that records its graph, then the condition of the block's format: the paired targets against the
// segments' first states met on the way (injective), or the strongly connected parts of the graph
// (scc, by Tarjan's algorithm without recursion: the reach can hold millions of states).
#include "checker/strategy_check.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace gonu::checker {

namespace {

// The graph of the reach: states by index in the order the walk met them, every edge with whether
// it captures (a winner state has one edge, its strategy move; a loser state one per move).
struct ReachGraph {
  std::vector<Position> state;
  std::unordered_map<Position, std::uint32_t, PosHash> index;
  std::vector<std::vector<std::pair<std::uint32_t, bool>>> out;

  // The index of p, added (with no edges yet) if new; `added` says which.
  std::uint32_t at(const Position& p, bool& added) {
    const auto [it, fresh] = index.emplace(p, std::uint32_t(state.size()));
    added = fresh;
    if (fresh) {
      state.push_back(p);
      out.emplace_back();
    }
    return it->second;
  }
};

// The strongly connected part of every state (Tarjan; an explicit stack of (state, next edge)).
std::vector<std::uint32_t> strong_parts(const ReachGraph& g) {
  const std::uint32_t none = ~std::uint32_t(0);
  const std::size_t n = g.state.size();
  std::vector<std::uint32_t> part(n, none), order(n, none), low(n, 0);
  std::vector<std::uint32_t> open;  // Tarjan's stack of states not yet given a part
  std::vector<std::uint8_t> on_open(n, 0);
  std::vector<std::pair<std::uint32_t, std::size_t>> call;
  std::uint32_t counter = 0, parts = 0;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (order[s] != none) continue;
    call.push_back({s, 0});
    order[s] = low[s] = counter++;
    open.push_back(s);
    on_open[s] = 1;
    while (!call.empty()) {
      auto& [v, k] = call.back();
      if (k < g.out[v].size()) {
        const std::uint32_t w = g.out[v][k++].first;
        if (order[w] == none) {
          order[w] = low[w] = counter++;
          open.push_back(w);
          on_open[w] = 1;
          call.push_back({w, 0});
        } else if (on_open[w]) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      const std::uint32_t done = v;
      call.pop_back();
      if (!call.empty()) low[call.back().first] = std::min(low[call.back().first], low[done]);
      if (low[done] == order[done]) {
        std::uint32_t w;
        do {
          w = open.back();
          open.pop_back();
          on_open[w] = 0;
          part[w] = parts;
        } while (w != done);
        ++parts;
      }
    }
  }
  return part;
}

// S3: inside a strongly connected part, a winner's non-capturing move goes to a state that is no
// segment's first state (neither the state the strategy starts from, numbered 0 by the walk, nor a
// capture's target) and has no other predecessor. Each clause has its own message (a capture's
// target also has another predecessor, the capturing winner state, but is named as what it is).
void check_strong_parts(const ReachGraph& graph, const std::unordered_set<Position, PosHash>& firsts,
                        const StrategyBlock& block) {
  const std::vector<std::uint32_t> part = strong_parts(graph);
  std::vector<std::uint32_t> preds(graph.state.size(), 0);
  for (std::uint32_t w = 0; w < graph.state.size(); ++w)
    if (graph.state[w].to_move == block.winner)
      for (const auto& [t, captures] : graph.out[w]) ++preds[t];
  for (std::uint32_t w = 0; w < graph.state.size(); ++w) {
    if (graph.state[w].to_move != block.winner) continue;
    for (const auto& [t, captures] : graph.out[w]) {
      if (captures || part[w] != part[t]) continue;
      const std::string where = "the move at " + format_position(block.board, graph.state[w]) + " to " +
                                format_position(block.board, graph.state[t]) + ", inside a strongly connected part, ";
      if (t == 0) throw Flaw{where + "goes back to the state the strategy starts from, the first state of its segment"};
      if (firsts.count(graph.state[t])) throw Flaw{where + "goes to the target of a capture, the first state of a segment"};
      if (preds[t] > 1) throw Flaw{where + "goes to a state with another predecessor"};
    }
  }
}

}  // namespace

bool StrategyChecker::loser_finished(const Position& p) const {
  return lost_by_material(p) || generate_moves(block.board, block.rules, p).empty();
}

bool StrategyChecker::lower_ranked(const Position& y, long rank) const {
  const auto it = block.entries.find(y);
  return it != block.entries.end() && it->second.ranked && it->second.rank < rank;
}

// The walk records the graph and checks S1 (a move at every winner state, legal ban-free), S2 (no
// move to the history) and, for the injective condition, the ranks and distinct paired targets;
// the rest of each condition is checked on the whole graph after the walk.
void StrategyChecker::check(const Game& g) {  // one walk in one loop (about 70 lines): its state is local
  const Board& board = block.board;
  const Rules& rules = block.rules;
  const bool injective = condition == StrategyCondition::injective;
  const Position root = current(g);
  std::unordered_set<Position, PosHash> history(g.since_capture.begin(), g.since_capture.end() - 1);
  std::unordered_set<Position, PosHash> firsts{root};
  std::unordered_map<Position, Position, PosHash> paired_into;  // target -> the paired state moving there
  ReachGraph graph;
  bool added = false;
  auto is_exit = [&](const Position& y) {  // a capture onto another block's root: not walked (format 6)
    const bool hit = exits && exits->count(y);
    exits_taken += hit;
    return hit;
  };
  std::vector<std::uint32_t> stack{graph.at(root, added)};
  while (!stack.empty()) {
    const std::uint32_t xi = stack.back();
    stack.pop_back();
    const Position x = graph.state[xi];
    ++reached;
    const std::vector<Move> moves = lost_by_material(x) ? std::vector<Move>{} : generate_moves(board, rules, x);
    const auto it = block.entries.find(x);
    std::vector<std::pair<Position, bool>> next;
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
        if (is_exit(y)) continue;  // not in the reach: no first state of it
        firsts.insert(y);
      } else {
        if (history.count(y))
          throw Flaw{"the move " + e.move + " at " + format_position(board, x) + " recreates a board of the history"};
        if (injective && e.ranked && !loser_finished(y) && !lower_ranked(y, e.rank))
          throw Flaw{"the ranked move " + e.move + " at " + format_position(board, x) + " does not lower the rank"};
        if (injective && !e.ranked && !paired_into.emplace(y, x).second)
          throw Flaw{"two states of the strategy move to " + format_position(board, y) + ": " +
                     format_position(board, paired_into.at(y)) + " and " + format_position(board, x)};
      }
      next.push_back({y, m.captured != 0});
    } else {
      if (it != block.entries.end()) ++ranked;
      for (const Move& m : moves) {
        const Position z = apply_move(x, m);
        if (m.captured && is_exit(z)) continue;
        if (m.captured) firsts.insert(z);
        else if (injective && it != block.entries.end() && !lower_ranked(z, it->second.rank))
          throw Flaw{"the loser's move " + format_move(board, rules, m) + " at " + format_position(board, x) +
                     " leaves the ranked states or does not lower the rank"};
        next.push_back({z, m.captured != 0});
      }
    }
    for (const auto& [y, captures] : next) {
      const std::uint32_t yi = graph.at(y, added);
      graph.out[xi].push_back({yi, captures});
      if (added) stack.push_back(yi);
    }
  }
  if (injective) {
    for (const auto& [y, x] : paired_into)
      if (firsts.count(y))
        throw Flaw{"the paired move at " + format_position(board, x) + " goes to " + format_position(board, y) +
                   ", the first state of a segment"};
    return;
  }
  check_strong_parts(graph, firsts, block);
}

}  // namespace gonu::checker
