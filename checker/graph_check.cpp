// Format 8's check (see graph_check.hpp): the file read, then the table, the blocks in file order
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
  read_table(rd, board, c.table);
  read_end(rd);
}

void GraphChecker::flaw(const std::string& what) {
  std::string where = block_ >= 0 ? "block " + std::to_string(block_) : "graph";
  if (!moves_.empty()) {
    where += ", after";
    const std::size_t from = moves_.size() > 12 ? moves_.size() - 12 : 0;
    if (from > 0) where += " ... (" + std::to_string(from) + " moves)";
    for (std::size_t i = from; i < moves_.size(); ++i) where += " " + moves_[i];
  }
  throw Flaw{where + ": " + what};
}

// A table state with a move is the winner's (to move), with "-" the loser's: the winner's move
// goes to a loser's state of lower rank (or ends the loser's game), every move of the loser to a
// winner's state of lower rank.
void GraphChecker::check_table() {
  for (const auto& [p, e] : cert.table) {
    const std::string at = " at " + format_position(board, p);
    if (e.move != "-") {
      if (lost_by_material(p)) flaw("table: the winner has at most one piece" + at);
      const std::vector<Move> all = generate_moves(board, rules, p);
      Move m;
      try {
        m = parse_move(board, rules, p, e.move, all);
      } catch (const GonuError& err) {
        flaw("table: move " + e.move + at + ": " + err.what());
      }
      const Position q = apply_move(p, m);
      if (lost_by_material(q) || generate_moves(board, rules, q).empty()) continue;  // the loser is done
      const auto it = cert.table.find(q);
      if (it == cert.table.end() || it->second.move != "-" || it->second.rank >= e.rank)
        flaw("table: the move " + e.move + at + " does not lead to a loser's table state of lower rank");
    } else if (!lost_by_material(p)) {
      for (const Move& m : generate_moves(board, rules, p)) {
        const auto it = cert.table.find(apply_move(p, m));
        if (it == cert.table.end() || it->second.move == "-" || it->second.rank >= e.rank)
          flaw("table: the loser's move " + format_move(board, rules, m) + at + " leaves the ranked strategy");
      }
    }
  }
}

// Whether the side to move wins at a block's root node.
bool GraphChecker::role_of(int id, const Position& p) {
  const TreeNode& n = cert.nodes[std::size_t(id)];
  if (n.kind == 'W') return true;
  if (n.kind == 'L' || n.kind == 'T') return false;
  if (n.kind == 'B') {
    const auto it = cert.table.find(p);
    if (it == cert.table.end()) flaw("ban-free leaf " + format_position(board, p) + " is not in the table");
    return it->second.move != "-";
  }
  flaw("a block that is only a reference");
}

void GraphChecker::check() {
  check_table();
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

// Every table state of the line but its last board has rank >= threshold.
void GraphChecker::ranks_at_least(const Line& l, long threshold, const std::string& why) {
  if (threshold < 0) return;
  for (std::size_t i = 0; i + 1 < l.path.size(); ++i) {
    const auto it = cert.table.find(l.path[i]);
    if (it != cert.table.end() && it->second.rank < threshold)
      flaw(why + ": the history holds table state " + format_position(board, l.path[i]) + " of rank " +
           std::to_string(it->second.rank) + " < " + std::to_string(threshold));
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
  const auto it = cert.table.find(q);
  if (it == cert.table.end()) flaw("ban-free leaf " + format_position(board, q) + " is not in the table");
  if ((it->second.move != "-") != win) flaw("ban-free leaf " + format_position(board, q) + ": the table gives it to the other side");
  ranks_at_least(l, it->second.rank, "ban-free leaf " + format_position(board, q));
  l.cond.threshold = std::max(l.cond.threshold, it->second.rank);
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
