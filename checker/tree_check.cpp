// The replay of a certificate's trees (see tree_check.hpp): check_node dispatches on the node's
// kind; follow plays a move (a capture starts a fresh game: no earlier board matters) and goes on.
#include "checker/tree_check.hpp"

#include "core/error.hpp"

namespace gonu::checker {

void TreeChecker::flaw(const std::string& what) {
  throw Flaw{flaw_place("section " + std::to_string(section), path) + ": " + what};
}

void TreeChecker::check_table() {
  for (const auto& [p, e] : table) {
    if (p.to_move == winner) {
      if (lost_by_material(p)) flaw("table: the winner has at most one piece at " + format_position(board, p));
      const std::vector<Move> all = generate_moves(board, rules, p);
      Move m;
      try {
        m = parse_move(board, rules, p, e.move, all);
      } catch (const GonuError& err) {
        flaw("table: move " + e.move + " at " + format_position(board, p) + ": " + err.what());
      }
      const Position q = apply_move(p, m);
      if (lost_by_material(q) || generate_moves(board, rules, q).empty()) continue;  // the loser is done
      const auto it = table.find(q);
      if (it == table.end() || it->second.rank >= e.rank)
        flaw("table: the move " + e.move + " at " + format_position(board, p) +
             " does not lead to a table state of lower rank");
    } else {
      if (e.move != "-")  // the field holds no move here; anything else is a malformed file
        flaw("table: the loser's state " + format_position(board, p) + " has move field '" + printable(e.move) +
             "' where '-' belongs");
      if (lost_by_material(p)) continue;
      for (const Move& m : generate_moves(board, rules, p)) {
        const Position q = apply_move(p, m);
        const auto it = table.find(q);
        if (it == table.end() || it->second.rank >= e.rank)
          flaw("table: the loser's move " + format_move(board, rules, m) + " at " + format_position(board, p) +
               " leaves the ranked strategy");
      }
    }
  }
}

void TreeChecker::check_leaf_banfree(const Game& g) {
  const Position& p = current(g);
  const auto it = table.find(p);
  if (it == table.end()) flaw("ban-free leaf " + format_position(board, p) + " is not in the table");
  for (const Position& h : g.since_capture) {
    const auto jt = table.find(h);
    if (jt != table.end() && jt->second.rank < it->second.rank)
      flaw("ban-free leaf " + format_position(board, p) + ": the history holds table state " +
           format_position(board, h) + " of lower rank");
  }
}

void TreeChecker::check_strategy_leaf(const Game& g, int ref) {
  if (ref < 0 || ref >= int(strategies.size())) flaw("reference to a missing strategy " + std::to_string(ref));
  try {
    strategies[ref].check(g);
  } catch (const Flaw& f) {
    flaw("strategy " + std::to_string(ref) + ": " + f.what);
  }
}

void TreeChecker::check_winner_move(Game& g, const TreeNode& n) {
  const std::vector<Move> legal = legal_moves(g);
  Move m;
  try {
    m = parse_move(board, rules, current(g), n.next[0].first, legal);
  } catch (const GonuError& e) {
    flaw("the winner's move " + n.next[0].first + ": " + e.what());
  }
  follow(g, m, n.next[0].first, n.next[0].second);
}

void TreeChecker::check_loser_moves(Game& g, const TreeNode& n) {
  const Position p = current(g);
  const std::vector<Move> legal = legal_moves(g);
  if (n.next.size() != legal.size())
    flaw("the loser has " + std::to_string(legal.size()) + " legal moves, the certificate answers " +
         std::to_string(n.next.size()));
  std::vector<bool> seen(legal.size(), false);
  std::vector<Move> chosen;
  for (const auto& [text, child] : n.next) {
    Move m;
    try {
      m = parse_move(board, rules, p, text, legal);
    } catch (const GonuError& e) {
      flaw("the loser's move " + text + ": " + e.what());
    }
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i] == m) {
        if (seen[i]) flaw("the loser's move " + text + " is answered twice");
        seen[i] = true;
      }
    chosen.push_back(m);
  }
  for (std::size_t i = 0; i < n.next.size(); ++i) follow(g, chosen[i], n.next[i].first, n.next[i].second);
}

void TreeChecker::check_node(Game& g, int id) {
  ++replayed;
  const TreeNode& n = nodes[id];
  const bool winner_moves = current(g).to_move == winner;
  switch (n.kind) {
    case 'T':
      if (winner_moves) flaw("a terminal leaf with the winner to move");
      if (game_over_reason(g).empty()) flaw("a terminal leaf where the loser still has a legal move");
      return;
    case 'B':
      check_leaf_banfree(g);
      return;
    case 'S':
      check_strategy_leaf(g, n.ref);
      return;
    case 'R':
      flaw("a section reference not right after a capture");
    case 'W':
      if (!winner_moves) flaw("a winner's move with the loser to move");
      check_winner_move(g, n);
      return;
    case 'L':
      if (winner_moves) flaw("the loser's moves listed with the winner to move");
      check_loser_moves(g, n);
      return;
  }
  flaw("unknown node");
}

void TreeChecker::follow(Game& g, const Move& m, const std::string& text, int child) {
  path.push_back(text);
  if (m.captured) {
    Game fresh = new_game(rules, apply_move(current(g), m));  // a capture: no earlier board matters
    const TreeNode& c = nodes[child];
    if (c.kind == 'R') {
      if (c.ref < 0 || c.ref >= int(section_pos.size())) flaw("reference to a missing section " + std::to_string(c.ref));
      if (!(section_pos[c.ref] == current(fresh)))
        flaw("section " + std::to_string(c.ref) + " starts at " + format_position(board, section_pos[c.ref]) +
             ", not at " + format_position(board, current(fresh)));
    } else {
      check_node(fresh, child);
    }
  } else {
    play(g, m);
    check_node(g, child);
    g.moves.pop_back();
    g.positions.pop_back();
    g.since_capture.pop_back();
  }
  path.pop_back();
}

}  // namespace gonu::checker
