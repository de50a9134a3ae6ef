// Format 8's check (see graph_check.hpp): the file read, then the strategy, the blocks in file order
// (each node of a block's tree checked from the block's position, its condition gathered), the
// entries and the root against their histories.
#include "checker/graph_check.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gonu::checker {

void read_graph_certificate(Reader& rd, const Board& board, bool root_claimed, GraphCertificate& c) {
  rd.expect("blocks");
  const long nb = rd.number("the number of blocks");
  for (long i = 0; i < nb; ++i) {
    rd.expect("block");
    c.block_pos.push_back(read_position(rd, board, "a block's position"));
    c.block_root.push_back(read_tree(rd, false, c.nodes));
  }
  auto block_number = [&](const char* what) {
    const long b = rd.number(what);
    if (b >= nb) throw Flaw{"malformed certificate: " + std::string(what) + " " + std::to_string(b) + " is not a block"};
    return int(b);
  };
  rd.expect("entries");
  const long ne = rd.number("the number of entries");
  for (long i = 0; i < ne; ++i) {
    rd.expect("entry");
    GraphCertificate::Entry e;
    e.pos = read_position(rd, board, "an entry position");
    const std::string v = rd.word("an entry's value");
    if (v != "WIN" && v != "LOSS") throw Flaw{"malformed certificate: entry value '" + v + "'"};
    e.win = v == "WIN";
    e.block = block_number("an entry's block");
    c.entries.push_back(e);
  }
  rd.expect("root");
  if (root_claimed) c.root = block_number("the root's block");
  else rd.expect("none");
  rd.expect("strategy");
  const long ns = rd.number("the number of strategy states");
  for (long i = 0; i < ns; ++i) {
    const Position p = read_position(rd, board, "a strategy position");
    if (!c.strategy.emplace(p, rd.word("a strategy move")).second)
      throw Flaw{"malformed certificate: strategy state " + format_position(board, p) + " listed twice"};
  }
  read_end(rd);
}

void GraphChecker::flaw(const std::string& what) {
  throw Flaw{flaw_place(block_ >= 0 ? "block " + std::to_string(block_) : "graph", moves_) + ": " + what};
}

// The ban-free strategy of the B leaves (F3 with ranks): at each listed state the winner's move is
// legal, and after it every move of the loser (none: the loser has lost) leads to a listed state;
// the states, linked so, form no cycle, and the ranks are the longest plays to the end.
void GraphChecker::check_strategy() {
  struct Next {
    Position after;                     // the loser's state after the winner's move
    std::vector<const Position*> next;  // the winner's states after each reply
  };
  std::unordered_map<Position, Next, PosHash> graph;
  for (const auto& [p, mv] : cert.strategy) {
    const std::string at = " at " + format_position(board, p);
    if (lost_by_material(p)) flaw("strategy: the winner has at most one piece" + at);
    const std::vector<Move> all = generate_moves(board, rules, p);
    Move m;
    try {
      m = parse_move(board, rules, p, mv, all);
    } catch (const GonuError& err) {
      flaw("strategy: move " + mv + at + ": " + err.what());
    }
    Next n{apply_move(p, m), {}};
    if (cert.strategy.count(n.after)) flaw("strategy: the move " + mv + at + " leads to a winner's state of the strategy");
    if (!lost_by_material(n.after))
      for (const Move& r : generate_moves(board, rules, n.after)) {
        const auto it = cert.strategy.find(apply_move(n.after, r));
        if (it == cert.strategy.end())
          flaw("strategy: after " + mv + at + ", the loser's move " + format_move(board, rules, r) + " leaves the strategy");
        n.next.push_back(&it->first);
      }
    graph.emplace(p, std::move(n));
  }
  std::unordered_map<Position, char, PosHash> state;  // 1: on the walk's stack, 2: ranked
  for (const auto& [p, unused] : graph) {
    if (state[p] != 0) continue;
    std::vector<std::pair<const Position*, std::size_t>> stack{{&p, 0}};
    state[p] = 1;
    while (!stack.empty()) {
      const Position* w = stack.back().first;
      const Next& n = graph.at(*w);
      if (stack.back().second < n.next.size()) {
        const Position* s = n.next[stack.back().second++];
        char& st = state[*s];
        if (st == 1) flaw("strategy: its moves go round a cycle through " + format_position(board, *s));
        if (st == 0) {
          st = 1;
          stack.push_back({s, 0});
        }
        continue;
      }
      long r = 0;
      for (const Position* s : n.next) r = std::max(r, rank.at(*s) + 1);
      rank[n.after] = r;
      rank[*w] = r + 1;
      state[*w] = 2;
      stack.pop_back();
    }
  }
}

// A loser's state at a B leaf: its rank (every move leads to a strategy state), else -1.
long GraphChecker::loser_rank(const Position& x) {
  if (const auto it = rank.find(x); it != rank.end()) return cert.strategy.count(x) ? -1 : it->second;
  if (lost_by_material(x)) return 0;
  long r = 0;
  for (const Move& m : generate_moves(board, rules, x)) {
    const Position s = apply_move(x, m);
    if (!cert.strategy.count(s)) return -1;
    r = std::max(r, rank.at(s) + 1);
  }
  return r;
}

// Whether the side to move wins at a block's root node.
bool GraphChecker::role_of(int id, const Position& p) {
  const TreeNode& n = cert.nodes[std::size_t(id)];
  if (n.kind == 'W') return true;
  if (n.kind == 'L' || n.kind == 'T') return false;
  if (n.kind == 'B') return cert.strategy.count(p) > 0;  // a loser's state otherwise (checked as a leaf)
  flaw("a block that is only a reference");
}

void GraphChecker::check() {
  check_strategy();
  const std::size_t nb = cert.block_pos.size();
  for (std::size_t i = 0; i < nb; ++i) {
    block_ = int(i);
    const Position& p = cert.block_pos[i];
    Line l;
    l.path = {p};
    l.on_path = {p};
    const bool win = role_of(cert.block_root[i], p);
    node(l, cert.block_root[i], p, win);
    conditions.push_back(std::move(l.cond));
    wins.push_back(win);
  }
  block_ = -1;
  std::unordered_set<Position, PosHash> seen;
  for (const GraphCertificate::Entry& e : cert.entries) {
    const std::string at = "entry " + format_position(board, e.pos) + ": ";
    if (!seen.insert(e.pos).second) flaw(at + "listed twice");
    if (!(cert.block_pos[std::size_t(e.block)] == e.pos)) flaw(at + "block " + std::to_string(e.block) + " starts elsewhere");
    if (bool(wins[std::size_t(e.block)]) != e.win) flaw(at + "block " + std::to_string(e.block) + " proves the other value");
    if (!conditions[std::size_t(e.block)].visited.empty())
      flaw(at + "its proof needs boards visited before it, but an entry's history is its own board alone");
  }
}

void GraphChecker::check_root(const Game& g, bool win) {
  const int r = cert.root;
  const Position& p = current(g);
  if (!(cert.block_pos[std::size_t(r)] == p)) flaw("the root's block " + std::to_string(r) + " does not start at the root");
  if (bool(wins[std::size_t(r)]) != win) flaw("the root's block proves the other value");
  const HistoryCondition& c = conditions[std::size_t(r)];
  const std::unordered_set<Position, PosHash> h(g.since_capture.begin(), g.since_capture.end());
  for (const Position& u : c.unvisited)
    if (h.count(u)) flaw("the root's proof needs board " + format_position(board, u) + " unvisited; the history holds it");
  for (const Position& x : c.visited)
    if (!h.count(x)) flaw("the root's proof needs board " + format_position(board, x) + " visited; the history lacks it");
  Line l;
  l.path = g.since_capture;
  ranks_at_least(l, c.threshold, "the root's ban-free leaves");
}

// Every strategy state of the line but its last board has rank >= threshold.
void GraphChecker::ranks_at_least(const Line& l, long threshold, const std::string& why) {
  if (threshold < 0) return;
  for (std::size_t i = 0; i + 1 < l.path.size(); ++i) {
    const auto it = rank.find(l.path[i]);
    if (it != rank.end() && it->second < threshold)
      flaw(why + ": the history holds strategy state " + format_position(board, l.path[i]) + " of rank " +
           std::to_string(it->second) + " < " + std::to_string(threshold));
  }
}

void GraphChecker::node(Line& l, int id, const Position& q, bool win) {
  ++replayed;
  const TreeNode& n = cert.nodes[std::size_t(id)];
  switch (n.kind) {
    case 'W': {
      if (!win) flaw("a winner's move where the side to move loses");
      if (lost_by_material(q)) flaw("a winner's move where the winner has at most one piece");
      const std::vector<Move> all = generate_moves(board, rules, q);
      Move m;
      try {
        m = parse_move(board, rules, q, n.next[0].first, all);
      } catch (const GonuError& e) {
        flaw("the winner's move " + n.next[0].first + ": " + e.what());
      }
      edge(l, q, m, n.next[0].first, n.next[0].second, false);
      return;
    }
    case 'L':
    case 'T':
      if (win) flaw("the loser's moves listed where the side to move wins");
      loser(l, n, q);
      return;
    case 'B':
      leaf(l, q, win);
      return;
    case 'R':
      reference(l, n.ref, q, win);
      return;
  }
  flaw("unknown node");
}

// Every move of the loser is answered, but those into the line (illegal on any history) and
// those the history must bar (their targets go into the condition's visited boards); never a capture.
void GraphChecker::loser(Line& l, const TreeNode& n, const Position& q) {
  if (lost_by_material(q)) {
    if (!n.next.empty()) flaw("the loser's moves answered where it has lost (at most one piece)");
    return;
  }
  const std::vector<Move> all = generate_moves(board, rules, q);
  std::vector<bool> answered(all.size(), false);
  std::vector<Move> chosen;
  for (const auto& [text, child] : n.next) {
    Move m;
    try {
      m = parse_move(board, rules, q, text, all);
    } catch (const GonuError& e) {
      flaw("the loser's move " + text + ": " + e.what());
    }
    const std::size_t i = std::size_t(std::find(all.begin(), all.end(), m) - all.begin());
    if (answered[i]) flaw("the loser's move " + text + " is answered twice");
    answered[i] = true;
    if (!m.captured && l.on_path.count(apply_move(q, m))) flaw("the loser's move " + text + " recreates a board of the line");
    chosen.push_back(m);
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (answered[i]) continue;
    if (all[i].captured) flaw("the loser's capture " + format_move(board, rules, all[i]) + " is not answered");
    const Position t = apply_move(q, all[i]);
    if (!l.on_path.count(t)) l.cond.visited.insert(t);
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) edge(l, q, chosen[i], n.next[i].first, n.next[i].second, true);
}

void GraphChecker::edge(Line& l, const Position& q, const Move& m, const std::string& text, int child, bool win_after) {
  const Position t = apply_move(q, m);
  moves_.push_back(text);
  if (m.captured) {  // a fresh history: the target alone (no earlier board can recur)
    Line fresh;
    fresh.path = {t};
    fresh.on_path = {t};
    node(fresh, child, t, win_after);
    if (!fresh.cond.visited.empty())
      flaw("after a capture the proof needs board " + format_position(board, *fresh.cond.visited.begin()) +
           " visited, but the history is the capture's board alone");
  } else {
    if (l.on_path.count(t)) flaw("the move " + text + " recreates a board of the line");
    if (!win_after) l.cond.unvisited.insert(t);  // the winner's move: legal only where t is new
    l.path.push_back(t);
    l.on_path.insert(t);
    node(l, child, t, win_after);
    l.path.pop_back();
    l.on_path.erase(t);
  }
  moves_.pop_back();
}

void GraphChecker::leaf(Line& l, const Position& q, bool win) {
  const std::string at = "ban-free leaf " + format_position(board, q);
  long r = -1;
  if (win) {
    if (!cert.strategy.count(q)) flaw(at + " is not a winner's state of the strategy");
    r = rank.at(q);
  } else {
    r = loser_rank(q);
    if (r < 0) flaw(at + ": not every move of the loser leads to the strategy");
  }
  ranks_at_least(l, r, at);
  l.cond.threshold = std::max(l.cond.threshold, r);
}

// A reuse of block j at q: its condition checked against the line, the rest passed on.
void GraphChecker::reference(Line& l, int j, const Position& q, bool win) {
  if (j < 0 || j >= block_) flaw("reference to block " + std::to_string(j) + ", not an earlier block");
  const std::size_t b = std::size_t(j);
  if (!(cert.block_pos[b] == q))
    flaw("block " + std::to_string(j) + " starts at " + format_position(board, cert.block_pos[b]) + ", not at " +
         format_position(board, q));
  if (bool(wins[b]) != win) flaw("block " + std::to_string(j) + " proves the other value");
  ++reuses;
  const HistoryCondition& c = conditions[b];
  for (const Position& u : c.unvisited) {
    if (l.on_path.count(u))
      flaw("reuse of block " + std::to_string(j) + ": its proof needs board " + format_position(board, u) +
           " unvisited, and this line visited it");
    l.cond.unvisited.insert(u);
  }
  for (const Position& x : c.visited)
    if (!l.on_path.count(x)) l.cond.visited.insert(x);
  ranks_at_least(l, c.threshold, "reuse of block " + std::to_string(j));
  l.cond.threshold = std::max(l.cond.threshold, c.threshold);
}

}  // namespace gonu::checker
