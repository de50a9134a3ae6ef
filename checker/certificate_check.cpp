// The certificate checker (see certificate_check.hpp). Independent of the superko solver: it
// parses the file into trees, then replays them with core's Game record (superko legality from
// the full board history), and checks the ban-free table by its ranks.
#include "checker/certificate_check.hpp"


#include <exception>
#include <fstream>
#include <functional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/error.hpp"
#include "core/game.hpp"
#include "util/large_stack.hpp"

namespace gonu {

namespace {

struct Flaw {
  std::string what;
};

struct PosHash {
  std::size_t operator()(const Position& p) const {
    return std::hash<std::uint64_t>()(p.black * 0x9E3779B97F4A7C15ull ^ (p.white + 0x632BE59BD9B4E019ull) ^
                                      std::uint64_t(p.to_move == Side::white));
  }
};

struct Node {
  char kind = 0;  // W L T B R
  int ref = -1;   // R: section
  std::vector<std::pair<std::string, int>> next;  // W: one (move, node); L: every (move, node)
};

struct TableEntry {
  long rank = 0;
  std::string move;  // "-" for the loser's states
};

class Reader {
 public:
  explicit Reader(std::istream& in) : in_(in) {}
  std::string word(const char* expecting) {
    std::string w;
    if (!(in_ >> w)) throw Flaw{std::string("truncated certificate: end of file where ") + expecting + " was expected"};
    return w;
  }
  void expect(const std::string& w) {
    const std::string got = word(("'" + w + "'").c_str());
    if (got != w) throw Flaw{"malformed certificate: expected '" + w + "', found '" + got + "'"};
  }
  long number(const char* what) {
    const std::string w = word(what);
    if (w.empty() || w.size() > 12 || w.find_first_not_of("0123456789") != std::string::npos)
      throw Flaw{std::string("malformed certificate: ") + what + " '" + w + "' is not a number"};
    return std::stol(w);
  }
  bool at_end() {
    std::string w;
    return !(in_ >> w);
  }

 private:
  std::istream& in_;
};

Rules parse_rules_id(const std::string& id) {
  std::vector<std::string> parts;
  std::stringstream ss(id);
  std::string part;
  while (std::getline(ss, part, '/')) parts.push_back(part);
  if (parts.size() != 5) throw Flaw{"malformed certificate: rules '" + id + "' is not RxC/capture/corner/repetition/first"};
  Rules r;
  r.name = "certificate";
  try {
    parse_board_size(parts[0], r.rows, r.cols);
    r.capture = parse_capture(parts[1]);
    if (parts[2] != "corner" && parts[2] != "nocorner") throw GonuError("corner part '" + parts[2] + "'");
    r.corner = parts[2] == "corner";
    r.repetition = parse_repetition(parts[3]);
    r.first = parse_side(parts[4]);
  } catch (const GonuError& e) {
    throw Flaw{"malformed certificate: rules '" + id + "': " + e.what()};
  }
  if (r.repetition != Repetition::superko)
    throw Flaw{"the certificate is for repetition " + parts[3] + ", not superko: nothing to check"};
  return r;
}

// Format 2: a memoryless strategy (superko.md, F7). The checker walks every state the play can
// reach when the winner follows the listed moves and the loser plays any ban-free move (a superset
// of its superko moves), and checks the conditions under which every move of the winner is new:
// paired moves go to distinct states, none to a segment's first state (the root, or a state
// entered by a capture) or to an earlier board of the root's history; ranked states are closed and
// their ranks fall at every non-capturing move.
struct StrategyEntry {
  bool ranked = false;
  long rank = 0;
  std::string move;  // "-" for a ranked state of the loser
};

class StrategyChecker {
 public:
  Rules rules;
  Board board;
  Side winner = Side::black;
  std::unordered_map<Position, StrategyEntry, PosHash> entries;
  std::uint64_t paired = 0, ranked = 0, reached = 0;

  void read(Reader& rd, const std::function<Position(const char*)>& pos) {
    rd.expect("strategy");
    const long np = rd.number("the number of strategy entries");
    for (long i = 0; i < np; ++i) {
      const Position p = pos("a strategy position");
      if (p.to_move != winner) throw Flaw{"malformed certificate: strategy entry " + format_position(board, p) + " is not the winner's turn"};
      StrategyEntry e;
      e.move = rd.word("a strategy move");
      if (!entries.emplace(p, e).second) throw Flaw{"malformed certificate: strategy state listed twice"};
    }
    rd.expect("ranked");
    const long nr = rd.number("the number of ranked entries");
    for (long i = 0; i < nr; ++i) {
      const Position p = pos("a ranked position");
      StrategyEntry e;
      e.ranked = true;
      e.rank = rd.number("a rank");
      e.move = rd.word("a ranked move");
      if ((e.move == "-") == (p.to_move == winner))
        throw Flaw{"malformed certificate: ranked entry " + format_position(board, p) + " has the wrong move field"};
      if (!entries.emplace(p, e).second) throw Flaw{"malformed certificate: ranked state listed twice"};
    }
  }

  bool loser_finished(const Position& p) const {
    return lost_by_material(p) || generate_moves(board, rules, p).empty();
  }

  void check(const Game& g) {
    const Position root = current(g);
    std::unordered_set<Position, PosHash> history(g.since_capture.begin(), g.since_capture.end() - 1);
    std::unordered_set<Position, PosHash> seen{root}, firsts{root};
    std::unordered_map<Position, Position, PosHash> paired_into;  // target -> the paired state moving there
    std::vector<Position> stack{root};
    auto lower_ranked = [&](const Position& y, long rank) {
      const auto it = entries.find(y);
      return it != entries.end() && it->second.ranked && it->second.rank < rank;
    };
    while (!stack.empty()) {
      const Position x = stack.back();
      stack.pop_back();
      ++reached;
      const std::vector<Move> moves = lost_by_material(x) ? std::vector<Move>{} : generate_moves(board, rules, x);
      const auto it = entries.find(x);
      std::vector<Position> next;
      if (x.to_move == winner) {
        if (moves.empty()) throw Flaw{"the winner has lost at " + format_position(board, x) + ", reachable under the strategy"};
        if (it == entries.end()) throw Flaw{"no move for the winner at " + format_position(board, x) + ", reachable under the strategy"};
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
        if (it != entries.end()) ++ranked;
        for (const Move& m : moves) {
          const Position z = apply_move(x, m);
          if (m.captured) firsts.insert(z);
          else if (it != entries.end() && !lower_ranked(z, it->second.rank))
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
};

class Checker {
 public:
  Rules rules;
  Board board;
  Side winner = Side::black;
  std::vector<Node> nodes;
  std::vector<Position> section_pos;
  std::vector<int> section_root;
  std::unordered_map<Position, TableEntry, PosHash> table;
  std::vector<StrategyChecker> strategies;  // format 3: the blocks `S i` leaves refer to
  bool strategy_leaves = false;             // format 3
  std::uint64_t replayed = 0;
  int section = 0;
  std::vector<std::string> path;

  Position parse_pos(Reader& rd, const char* what) {
    const std::string a = rd.word(what), b = rd.word(what);
    try {
      return parse_position(board, a + " " + b);
    } catch (const GonuError& e) {
      throw Flaw{std::string("malformed certificate: ") + what + ": " + e.what()};
    }
  }

  int parse_tree(Reader& rd) {
    // Iterative (trees can be deep): a stack of (node, children still to read).
    struct Open {
      int node;
      long left;
    };
    std::vector<Open> stack;
    int root = -1;
    auto add = [&]() -> int {
      const std::string k = rd.word("a tree node (W, L, T, B, R or S)");
      Node n;
      if (k == "W" || k == "L" || k == "T" || k == "B" || k == "R" || (strategy_leaves && k == "S")) n.kind = k[0];
      else throw Flaw{"malformed certificate: '" + k + "' is not a tree node"};
      long want = 0;
      if (n.kind == 'R') {
        n.ref = int(rd.number("a section number"));
      } else if (n.kind == 'S') {
        n.ref = int(rd.number("a strategy number"));
      } else if (n.kind == 'W') {
        want = 1;
        n.next.push_back({rd.word("the winner's move"), -1});
      } else if (n.kind == 'L') {
        want = rd.number("the number of the loser's moves");
        if (want > 4096) throw Flaw{"malformed certificate: too many moves at a node"};
      }
      nodes.push_back(std::move(n));
      const int id = int(nodes.size()) - 1;
      if (want > 0) stack.push_back({id, want});
      return id;
    };
    root = add();
    while (!stack.empty()) {
      Open& top = stack.back();
      if (top.left == 0) {
        stack.pop_back();
        continue;
      }
      const int parent = top.node;
      const bool is_w = nodes[parent].kind == 'W';
      std::string mv;
      if (!is_w) mv = rd.word("the loser's move");
      --top.left;
      const int child = add();  // may push onto the stack: `top` is not used after this
      if (is_w) nodes[parent].next[0].second = child;
      else nodes[parent].next.push_back({mv, child});
    }
    return root;
  }

  [[noreturn]] void flaw(const std::string& what) {
    std::string where = "section " + std::to_string(section);
    if (!path.empty()) {
      where += ", after";
      const std::size_t from = path.size() > 12 ? path.size() - 12 : 0;
      if (from > 0) where += " ... (" + std::to_string(from) + " moves)";
      for (std::size_t i = from; i < path.size(); ++i) where += " " + path[i];
    }
    throw Flaw{where + ": " + what};
  }

  void check_table() {
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

  void check_leaf_banfree(const Game& g) {
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

  void check_node(Game& g, int id) {
    ++replayed;
    const Node& n = nodes[id];
    const Position p = current(g);
    const bool winner_moves = p.to_move == winner;
    switch (n.kind) {
      case 'T':
        if (winner_moves) flaw("a terminal leaf with the winner to move");
        if (game_over_reason(g).empty()) flaw("a terminal leaf where the loser still has a legal move");
        return;
      case 'B':
        check_leaf_banfree(g);
        return;
      case 'S':
        if (n.ref < 0 || n.ref >= int(strategies.size())) flaw("reference to a missing strategy " + std::to_string(n.ref));
        try {
          strategies[n.ref].check(g);
        } catch (const Flaw& f) {
          flaw("strategy " + std::to_string(n.ref) + ": " + f.what);
        }
        return;
      case 'R':
        flaw("a section reference not right after a capture");
      case 'W': {
        if (!winner_moves) flaw("a winner's move with the loser to move");
        const std::vector<Move> legal = legal_moves(g);
        Move m;
        try {
          m = parse_move(board, rules, p, n.next[0].first, legal);
        } catch (const GonuError& e) {
          flaw("the winner's move " + n.next[0].first + ": " + e.what());
        }
        follow(g, m, n.next[0].first, n.next[0].second);
        return;
      }
      case 'L': {
        if (winner_moves) flaw("the loser's moves listed with the winner to move");
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
        return;
      }
    }
    flaw("unknown node");
  }

  void follow(Game& g, const Move& m, const std::string& text, int child) {
    path.push_back(text);
    if (m.captured) {
      Game fresh = new_game(rules, apply_move(current(g), m));  // a capture: no earlier board matters
      const Node& c = nodes[child];
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
};


}  // namespace

CertificateCheck check_certificate(std::istream& in) {
  CertificateCheck out;
  try {
    Reader rd(in);
    Checker c;
    std::string magic;
    magic = rd.word("the header");
    if (magic != "gonu-superko-certificate") throw Flaw{"not a gonu superko certificate (no 'gonu-superko-certificate' header)"};
    const std::string version = rd.word("the format version");
    if (version != "1" && version != "2" && version != "3")
      throw Flaw{"unsupported certificate format version " + version};
    rd.expect("rules");
    out.rules_id = rd.word("the rules");
    c.rules = parse_rules_id(out.rules_id);
    c.board = make_board(c.rules.rows, c.rules.cols);
    rd.expect("start");
    const Position start = c.parse_pos(rd, "the start position");
    rd.expect("history");
    const long hn = rd.number("the history length");
    Game g = new_game(c.rules, start);
    for (long i = 0; i < hn; ++i) {
      const std::string mv = rd.word("a history move");
      try {
        play(g, mv);
      } catch (const GonuError& e) {
        throw Flaw{"history move " + std::to_string(i + 1) + ": " + e.what()};
      }
    }
    rd.expect("value");
    out.value = rd.word("the value");
    if (out.value != "WIN" && out.value != "LOSS") throw Flaw{"malformed certificate: value '" + out.value + "'"};
    rd.expect("winner");
    out.winner = rd.word("the winner");
    try {
      c.winner = parse_side(out.winner);
    } catch (const GonuError& e) {
      throw Flaw{std::string("malformed certificate: ") + e.what()};
    }
    const Side to_move = current(g).to_move;
    if ((out.value == "WIN") != (c.winner == to_move))
      throw Flaw{"the claimed value " + out.value + " for " + to_string(to_move) + " does not match winner " + out.winner};
    if (version == "2") {
      StrategyChecker sc;
      sc.rules = c.rules;
      sc.board = c.board;
      sc.winner = c.winner;
      sc.read(rd, [&](const char* what) { return c.parse_pos(rd, what); });
      rd.expect("end-certificate");
      if (!rd.at_end()) throw Flaw{"malformed certificate: text after 'end-certificate'"};
      sc.check(g);
      out.ok = true;
      out.nodes = sc.reached;
      out.table_entries = sc.entries.size();
      out.message = "OK: " + out.winner + " wins (" + out.value + " for " + to_string(to_move) + " to move at " +
                    format_position(c.board, current(g)) + "), memoryless strategy: " + std::to_string(sc.reached) +
                    " states reachable, " + std::to_string(sc.paired) + " paired and " + std::to_string(sc.ranked) +
                    " ranked checked";
      return out;
    }
    if (version == "3") {
      c.strategy_leaves = true;
      rd.expect("tree");
      const int root = c.parse_tree(rd);
      rd.expect("strategies");
      const long ns = rd.number("the number of strategies");
      for (long i = 0; i < ns; ++i) {
        rd.expect("block");
        if (rd.number("a strategy number") != i) throw Flaw{"malformed certificate: strategies out of order"};
        StrategyChecker sc;
        sc.rules = c.rules;
        sc.board = c.board;
        sc.winner = c.winner;
        sc.read(rd, [&](const char* what) { return c.parse_pos(rd, what); });
        c.strategies.push_back(std::move(sc));
      }
      rd.expect("end-certificate");
      if (!rd.at_end()) throw Flaw{"malformed certificate: text after 'end-certificate'"};
      run_with_large_stack([&] { c.check_node(g, root); });
      std::uint64_t reached = 0;
      for (const StrategyChecker& sc : c.strategies) reached += sc.reached;
      out.ok = true;
      out.nodes = c.replayed;
      out.sections = c.strategies.size();
      out.message = "OK: " + out.winner + " wins (" + out.value + " for " + to_string(to_move) + " to move at " +
                    format_position(c.board, current(g)) + "), a tree of " + std::to_string(c.replayed) +
                    " nodes with " + std::to_string(c.strategies.size()) + " strategies (" + std::to_string(reached) +
                    " states reachable under them) checked";
      return out;
    }
    rd.expect("depth");
    rd.number("the depth");
    rd.expect("sections");
    const long ns = rd.number("the number of sections");
    if (ns < 1) throw Flaw{"malformed certificate: no sections"};
    for (long i = 0; i < ns; ++i) {
      rd.expect("section");
      if (rd.number("a section number") != i) throw Flaw{"malformed certificate: sections out of order"};
      c.section_pos.push_back(c.parse_pos(rd, "a section's position"));
      c.section_root.push_back(c.parse_tree(rd));
      rd.expect("end-section");
    }
    rd.expect("table");
    const long nt = rd.number("the number of table entries");
    for (long i = 0; i < nt; ++i) {
      const Position p = c.parse_pos(rd, "a table position");
      TableEntry e;
      e.rank = rd.number("a table rank");
      e.move = rd.word("a table move");
      if (!c.table.emplace(p, e).second) throw Flaw{"malformed certificate: table state listed twice"};
    }
    rd.expect("end-certificate");
    if (!rd.at_end()) throw Flaw{"malformed certificate: text after 'end-certificate'"};
    if (!(c.section_pos[0] == current(g))) throw Flaw{"section 0 does not start at the position after the history"};

    run_with_large_stack([&] {
      c.check_table();
      c.section = 0;
      c.check_node(g, c.section_root[0]);
      for (std::size_t i = 1; i < c.section_pos.size(); ++i) {
        c.section = int(i);
        Game s = new_game(c.rules, c.section_pos[i]);
        c.check_node(s, c.section_root[i]);
      }
    });
    out.ok = true;
    out.nodes = c.replayed;
    out.sections = c.section_pos.size();
    out.table_entries = c.table.size();
    out.message = "OK: " + out.winner + " wins (" + out.value + " for " + to_string(to_move) + " to move at " +
                  format_position(c.board, current(g)) + "), " + std::to_string(out.nodes) + " nodes in " +
                  std::to_string(out.sections) + " sections and " + std::to_string(out.table_entries) +
                  " table entries checked";
  } catch (const Flaw& f) {
    out.ok = false;
    out.message = f.what;
  } catch (const GonuError& e) {
    out.ok = false;
    out.message = e.what();
  }
  return out;
}

CertificateCheck check_certificate_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    CertificateCheck c;
    c.message = "cannot open certificate '" + path + "'";
    return c;
  }
  return check_certificate(in);
}

}  // namespace gonu
