// Memoryless superko strategies (certificate format 2): the values they prove against the plain
// full-history negamax; every play of a certificate replayed exhaustively with core's Game record
// (a check that does not rely on the checker's argument); the checker rejecting tampered strategies,
// and never accepting one that the exhaustive replay refutes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "checker/certificate_check.hpp"
#include "solver/julgonu/superko/superko.hpp"
#include "tests/reference/superko_negamax.hpp"
#include "tests/test_support.hpp"

namespace gonu {
using gonu::test::negamax;
using gonu::test::random_tiny_game;

namespace {

SuperkoResult solve_by_strategy(const Game& g) {
  SuperkoOptions o;
  o.search = false;
  o.certificate = true;
  return solve_superko(g, o);
}

using test::join;
using test::start_game;
using test::tokens;

bool checker_accepts(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in).ok;
}

// Where the lines of a format-2 certificate are, in its tokens.
struct Layout {
  std::size_t strategy = 0, ranked = 0;  // index of the first entry's first token
  long n_strategy = 0, n_ranked = 0;
};
Layout layout(const std::vector<std::string>& t) {
  Layout l;
  std::size_t i = 0;
  while (t.at(i) != "strategy") ++i;
  l.n_strategy = std::stol(t.at(i + 1));
  l.strategy = i + 2;
  i = l.strategy + 3 * l.n_strategy;
  REQUIRE(t.at(i) == "ranked");
  l.n_ranked = std::stol(t.at(i + 1));
  l.ranked = i + 2;
  return l;
}

// The exhaustive replay: the winner plays the certificate's move (it must be legal with the whole
// history), the loser every legal move. Positions with the same set of boards since the last
// capture are replayed once (the rest of the game depends on nothing else). nullopt past budget.
std::optional<bool> replay_wins(const Game& root, const std::vector<std::string>& t, std::uint64_t budget) {
  const Layout l = layout(t);
  const Board& b = root.board;
  Side winner = parse_side(t.at(std::size_t(std::find(t.begin(), t.end(), "winner") - t.begin()) + 1));
  std::map<std::pair<Bits, Bits>, std::string> move;
  for (long i = 0; i < l.n_strategy; ++i) {
    const Position p = parse_position(b, t[l.strategy + 3 * i] + " " + t[l.strategy + 3 * i + 1]);
    move[{p.black, p.white}] = t[l.strategy + 3 * i + 2];
  }
  for (long i = 0; i < l.n_ranked; ++i) {
    const Position p = parse_position(b, t[l.ranked + 4 * i] + " " + t[l.ranked + 4 * i + 1]);
    if (t[l.ranked + 4 * i + 3] != "-") move[{p.black, p.white}] = t[l.ranked + 4 * i + 3];
  }
  std::set<std::vector<std::pair<Bits, Bits>>> done;
  bool lost = false;
  std::uint64_t nodes = 0;
  std::function<void(Game&)> go = [&](Game& g) {
    if (lost || nodes > budget) return;
    ++nodes;
    std::vector<std::pair<Bits, Bits>> key;
    for (const Position& p : g.since_capture) key.emplace_back(p.black, p.white);
    std::sort(key.begin(), key.end() - 1);  // the set of earlier boards, then the current one
    if (!done.insert(key).second) return;
    const Position& c = current(g);
    const std::vector<Move> legal = legal_moves(g);
    if (c.to_move == winner) {
      const auto it = move.find({c.black, c.white});
      if (legal.empty() || it == move.end()) {
        lost = true;
        return;
      }
      Move m;
      try {
        m = parse_move(b, g.rules, c, it->second, legal);
      } catch (const GonuError&) {
        lost = true;  // the strategy's move is illegal here (it recreates a board)
        return;
      }
      Game next = g;
      play(next, m);
      go(next);
    } else {
      for (const Move& m : legal) {
        Game next = g;
        play(next, m);
        go(next);
      }
    }
  };
  Game g = root;
  go(g);
  if (nodes > budget) return std::nullopt;
  return !lost;
}


}  // namespace

TEST_CASE("strategy: 5x2 and 3x4 under superko are White wins, with checked certificates", "[superko][strategy]") {
  for (const char* name : {"soldiers", "corner"}) {
    const SuperkoResult r = solve_by_strategy(start_game(name, 5, 2));
    INFO(name);
    REQUIRE(r.value == SkValue::loss);  // for Black, to move: White wins
    REQUIRE(r.method == "strategy");
    REQUIRE(checker_accepts(r.certificate));
  }
  const Game g = start_game("soldiers", 3, 4);
  const SuperkoResult r = solve_by_strategy(g);
  REQUIRE(r.value == SkValue::loss);
  REQUIRE(checker_accepts(r.certificate));
  // Confined to the start's own material layer, a (larger) strategy still exists; Black has none.
  SuperkoOptions top;
  top.search = false;
  top.certificate = true;
  top.strategy_layers = 0;
  top.strategy_depth = 0;
  const SuperkoResult confined = solve_superko(g, top);
  REQUIRE(confined.value == SkValue::loss);
  REQUIRE(confined.strategies.at(0).note == "none within 0 layers");
  REQUIRE(checker_accepts(confined.certificate));
  // Every game Black can play against it, with the full history: White always has its move, and wins.
  REQUIRE(replay_wins(g, tokens(r.certificate), 200'000) == std::optional<bool>(true));
}

TEST_CASE("strategy: proven values agree with the full-history negamax", "[superko][strategy]") {
  std::mt19937_64 rng(5);
  int proven = 0, compared = 0;
  for (int trial = 0; trial < 90; ++trial) {
    Game g = random_tiny_game(rng, trial);
    const Board& b = g.board;
    std::uint64_t budget = 40'000;
    Game copy = g;
    const std::optional<bool> ref = negamax(copy, budget);
    if (!ref) continue;
    ++compared;
    const SuperkoResult res = solve_by_strategy(g);
    if (res.value == SkValue::unknown) continue;
    ++proven;
    INFO(format_position(b, current(g)) << " after " << g.moves.size() << " moves");
    REQUIRE(res.value == (*ref ? SkValue::win : SkValue::loss));
    REQUIRE(checker_accepts(res.certificate));
    const std::vector<std::string> t = tokens(res.certificate);
    if (t.at(1) == "2") REQUIRE(replay_wins(g, t, 200'000) != std::optional<bool>(false));  // a tree (3): checker only
  }
  INFO(compared << " compared, " << proven << " proven by a strategy");
  REQUIRE(compared >= 30);
  REQUIRE(proven >= 15);
}

TEST_CASE("strategy: tampered certificates are rejected, and the checker accepts no losing strategy",
          "[superko][strategy][certificate]") {
  // Solved once for all sections (Catch2 runs the case's body once per section).
  static const Game g = start_game("soldiers", 3, 4);
  static const SuperkoResult r = solve_by_strategy(g);
  REQUIRE(r.value == SkValue::loss);
  const std::vector<std::string> t = tokens(r.certificate);
  const Layout l = layout(t);
  REQUIRE(l.n_strategy > 0);
  REQUIRE(l.n_ranked > 0);
  const Board& b = g.board;

  SECTION("a reachable state without its move") {
    // Every listed state is reachable: dropping any one leaves the winner without a move.
    for (long i = 0; i < l.n_strategy; ++i) {
      std::vector<std::string> bad(t.begin(), t.begin() + long(l.strategy) - 1);
      bad.push_back(std::to_string(l.n_strategy - 1));
      for (long j = 0; j < l.n_strategy; ++j)
        if (j != i) bad.insert(bad.end(), t.begin() + long(l.strategy + 3 * j), t.begin() + long(l.strategy + 3 * j + 3));
      bad.insert(bad.end(), t.begin() + long(l.strategy + 3 * l.n_strategy), t.end());
      REQUIRE_FALSE(checker_accepts(join(bad)));
    }
  }
  SECTION("a ranked loser state whose rank no longer falls") {
    int tried = 0;
    for (long i = 0; i < l.n_ranked && tried < 20; ++i) {
      const std::size_t at = l.ranked + 4 * std::size_t(i);
      const Position p = parse_position(b, t[at] + " " + t[at + 1]);
      if (t[at + 3] != "-" || lost_by_material(p) || generate_moves(b, g.rules, p).empty()) continue;
      std::vector<std::string> bad = t;
      bad[at + 2] = "0";
      REQUIRE_FALSE(checker_accepts(join(bad)));
      ++tried;
    }
    REQUIRE(tried > 0);
  }
  SECTION("every other move at a paired state: accepted only if every play is still won") {
    int rejected = 0, accepted = 0;
    for (long i = 0; i < l.n_strategy; ++i) {
      const std::size_t at = l.strategy + 3 * std::size_t(i);
      const Position p = parse_position(b, t[at] + " " + t[at + 1]);
      for (const Move& m : generate_moves(b, g.rules, p)) {
        const std::string name = format_move(b, g.rules, m);
        if (name == t[at + 2]) continue;
        std::vector<std::string> bad = t;
        bad[at + 2] = name;
        if (checker_accepts(join(bad))) {
          ++accepted;
          REQUIRE(replay_wins(g, bad, 200'000) != std::optional<bool>(false));
        } else {
          ++rejected;
        }
      }
    }
    INFO(accepted << " other moves accepted");
    REQUIRE(rejected > 0);
  }
  SECTION("the value, the winner and the format") {
    std::vector<std::string> bad = t;
    const auto w = std::find(bad.begin(), bad.end(), "winner");
    *(w + 1) = "black";
    REQUIRE_FALSE(checker_accepts(join(bad)));
    std::vector<std::string> cut(t.begin(), t.end() - 3);
    REQUIRE_FALSE(checker_accepts(join(cut)));
    bad = t;
    bad[1] = "3";
    REQUIRE_FALSE(checker_accepts(join(bad)));
  }
}

}  // namespace gonu

namespace gonu {

TEST_CASE("strategy tree: 4x3 under superko is a Black win, with a checked format-3 certificate",
          "[superko][strategy][certificate]") {
  // No single memoryless strategy wins from the start for either side; one does after each of
  // White's replies to a4-a3.
  static const Game g = start_game("soldiers", 4, 3);
  SuperkoOptions o;
  o.search = false;
  o.certificate = true;
  static const SuperkoResult r = solve_superko(g, o);
  REQUIRE(r.strategies.size() == 2);
  REQUIRE(r.strategies[0].status == "none exists");
  REQUIRE(r.strategies[1].status == "none exists");
  REQUIRE(r.value == SkValue::win);
  REQUIRE(r.method == "strategy tree");
  REQUIRE(checker_accepts(r.certificate));
  const std::vector<std::string> t = tokens(r.certificate);
  const std::size_t tree = std::size_t(std::find(t.begin(), t.end(), "tree") - t.begin());
  REQUIRE(t.at(tree + 1) == "W");

  SECTION("every leaf, replayed exhaustively as a strategy of its own after the tree's moves") {
    // The tree is W a4-a3, L 3 (reply, S i) x 3: each leaf's block, as a format-2 certificate from
    // the position after the two moves, must win every play.
    const std::size_t blocks = std::size_t(std::find(t.begin(), t.end(), "strategies") - t.begin());
    for (std::size_t k = 0; k < 3; ++k) {
      const std::string reply = t.at(tree + 5 + 3 * k);
      REQUIRE(t.at(tree + 6 + 3 * k) == "S");
      const std::string index = t.at(tree + 7 + 3 * k);
      Game after = g;
      play(after, t.at(tree + 2));
      play(after, reply);
      std::vector<std::string> v2 = {"gonu-superko-certificate", "2", "rules", t[3], "start", t[5], t[6], "history",
                                     "2", t.at(tree + 2), reply, "value", "WIN", "winner", "black"};
      std::size_t at = blocks + 2;
      while (!(t.at(at) == "block" && t.at(at + 1) == index)) ++at;
      for (std::size_t i = at + 2; i < t.size() && t[i] != "block" && t[i] != "end-certificate"; ++i) v2.push_back(t[i]);
      v2.push_back("end-certificate");
      REQUIRE(checker_accepts(join(v2)));
      REQUIRE(replay_wins(after, v2, 100'000) != std::optional<bool>(false));  // no refutation within budget
    }
  }
  SECTION("a changed tree move, a dropped reply and a missing strategy are found") {
    std::vector<std::string> bad = t;
    bad[tree + 2] = "b4-b3";  // after b4-b3 White wins: the strategies below do not fit
    REQUIRE_FALSE(checker_accepts(join(bad)));
    bad = t;
    bad[tree + 4] = "2";
    bad.erase(bad.begin() + long(tree) + 5, bad.begin() + long(tree) + 8);
    REQUIRE_FALSE(checker_accepts(join(bad)));
    bad = t;
    bad[tree + 7] = "7";
    REQUIRE_FALSE(checker_accepts(join(bad)));
  }
}

}  // namespace gonu

namespace gonu {

namespace {

SuperkoResult solve_lazily(const Game& g, StrategyMethod method, double seconds) {
  SuperkoOptions o;
  o.search = false;
  o.certificate = true;
  o.strategy_method = method;
  o.strategy_seconds = seconds;
  return solve_superko(g, o);
}

std::string check_message(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in).message;
}

}  // namespace

TEST_CASE("strategy, lazy: a strategy valid only under S3 is accepted, and every play against it is won",
          "[superko][strategy][lazy][certificate]") {
  static const Game g = start_game("soldiers", 5, 2);
  static const SuperkoResult r = solve_lazily(g, StrategyMethod::lazy_local, 30);
  REQUIRE(r.value == SkValue::loss);
  const std::vector<std::string> t = tokens(r.certificate);
  REQUIRE(t.at(1) == "4");
  REQUIRE(checker_accepts(r.certificate));
  // Not injective: as format 2 the same strategy is refused for a shared target.
  std::vector<std::string> v2 = t;
  v2[1] = std::string(1, '2');
  REQUIRE(check_message(join(v2)).find("two states of the strategy move to") != std::string::npos);
  // The independent replay with the full history (too many histories to finish: the strategy has cycles).
  const std::optional<bool> replay = replay_wins(g, t, 200'000);
  REQUIRE(replay != std::optional<bool>(false));  // no refutation within the budget

  SECTION("every other move at a paired state: accepted only if every play is still won") {
    const Layout l = layout(t);
    int shared = 0, accepted = 0;
    for (long i = 0; i < l.n_strategy; ++i) {
      const std::size_t at = l.strategy + 3 * std::size_t(i);
      const Position p = parse_position(g.board, t[at] + " " + t[at + 1]);
      for (const Move& m : generate_moves(g.board, g.rules, p)) {
        const std::string name = format_move(g.board, g.rules, m);
        if (name == t[at + 2]) continue;
        std::vector<std::string> bad = t;
        bad[at + 2] = name;
        const std::string msg = check_message(join(bad));
        if (msg.rfind("OK", 0) == 0) {
          ++accepted;
          REQUIRE(replay_wins(g, bad, 200'000) != std::optional<bool>(false));
        }
        if (msg.find("inside a strongly connected part, goes to a state with another predecessor") != std::string::npos)
          ++shared;
      }
    }
    INFO(accepted << " other moves accepted");
    REQUIRE(shared > 0);  // a shared target inside one strongly connected part is refused
  }
}

TEST_CASE("strategy, lazy: format-2 strategies stay valid under S3 (format 4)", "[superko][strategy][lazy][certificate]") {
  for (const auto& [name, rows, cols] : {std::tuple{"soldiers", 5, 2}, std::tuple{"corner", 5, 2},
                                         std::tuple{"soldiers", 3, 4}}) {
    const SuperkoResult r = solve_by_strategy(start_game(name, rows, cols));
    std::vector<std::string> t = tokens(r.certificate);
    REQUIRE(t.at(1) == "2");
    t[1] = std::string(1, '4');
    INFO(name << " " << rows << "x" << cols);
    REQUIRE(checker_accepts(join(t)));
  }
}

namespace {

// The graph of a strategy's reach, walked here apart from the checker: the winner plays `move`
// (by board and side), the loser every ban-free move. Edges (from, to, captures); a winner state
// without a move, or whose move is not legal ban-free, throws (S1 is then broken).
struct Edge {
  Position from, to;
  bool captures;
};
std::vector<Edge> strategy_edges(const Game& g, Side winner, const std::map<std::string, std::string>& move) {
  std::vector<Edge> edges;
  std::set<std::tuple<Bits, Bits, Side>> seen;
  std::vector<Position> todo{current(g)};
  while (!todo.empty()) {
    const Position x = todo.back();
    todo.pop_back();
    if (!seen.insert({x.black, x.white, x.to_move}).second) continue;
    const std::vector<Move> moves = lost_by_material(x) ? std::vector<Move>{} : generate_moves(g.board, g.rules, x);
    const std::size_t before = edges.size();
    for (const Move& m : moves) {
      if (x.to_move == winner && format_move(g.board, g.rules, m) != move.at(format_position(g.board, x))) continue;
      edges.push_back({x, apply_move(x, m), m.captured != 0});
      todo.push_back(edges.back().to);
    }
    if (x.to_move == winner && edges.size() != before + 1)
      throw std::runtime_error("S1 broken at " + format_position(g.board, x));
  }
  return edges;
}

// The winner states moving into p, with whether the move captures.
std::vector<std::pair<std::string, bool>> predecessors(const Game& g, const std::vector<Edge>& edges, const Position& p) {
  std::vector<std::pair<std::string, bool>> out;
  for (const Edge& e : edges)
    if (e.to == p) out.push_back({format_position(g.board, e.from), e.captures});
  return out;
}

}  // namespace

// S3's first-state clauses, each broken alone by a hand-made format-4 certificate on 2x4 `soldiers`
// (every winner state covered, empty history): the checker names the clause, and the replay with
// the full history finds the play where the winner's move recreates a board.
TEST_CASE("strategy, lazy: a move back to the start or to a capture's target inside a strongly connected part is refused",
          "[superko][strategy][lazy][certificate]") {
  Rules r = rules_by_name("soldiers");
  r.rows = 2;
  r.cols = 4;
  const Board b = make_board(2, 4);
  const auto certificate = [&](const std::string& start, const char* value, const char* winner,
                               const std::map<std::string, std::string>& move) {
    std::string text = "gonu-superko-certificate 4\nrules " + rules_id(r) + "\nstart " + start +
                       "\nhistory 0\nvalue " + value + "\nwinner " + winner + "\nstrategy " +
                       std::to_string(move.size()) + "\n";
    for (const auto& [state, m] : move) text += state + " " + m + "\n";
    return text + "ranked 0\nend-certificate\n";
  };

  SECTION("t is the start r: White's b1-b2 closes the cycle a2-a1 b2-b1 a1-a2 back to it") {
    const Game g = new_game(r, parse_position(b, "xwwx/3w x"));
    const std::map<std::string, std::string> move = {{"1wwx/x2w w", "b2-b1"}, {"x1wx/1w1w w", "b1-b2"}};
    const std::vector<Edge> edges = strategy_edges(g, Side::white, move);
    // The rest of S1-S3 holds: no capture at all, so no capture's target; every winner move's
    // target has one predecessor (the start's is the move that breaks the clause).
    REQUIRE(edges.size() == 4);
    for (const Edge& e : edges) {
      REQUIRE_FALSE(e.captures);
      if (e.from.to_move == Side::white) REQUIRE(predecessors(g, edges, e.to).size() == 1);
    }
    REQUIRE(predecessors(g, edges, current(g)) == std::vector<std::pair<std::string, bool>>{{"x1wx/1w1w w", false}});
    const std::string text = certificate("xwwx/3w x", "LOSS", "white", move);
    REQUIRE(check_message(text) ==
            "the move at x1wx/1w1w w to xwwx/3w x, inside a strongly connected part, goes back to the state the "
            "strategy starts from, the first state of its segment");
    REQUIRE(replay_wins(g, tokens(text), 1000) == std::optional<bool>(false));
  }
  SECTION("t is a capture's target: b1-b2 takes c2, and after a2-a1 b2-b1 a1-a2 Black's b1-b2 returns to it") {
    const Game g = new_game(r, parse_position(b, "w1wx/1xxw x"));
    const std::map<std::string, std::string> move = {
        {"w1wx/1xxw x", "b1-b2"}, {"1x1x/w1xw x", "b2-b1"}, {"w2x/1xxw x", "b1-b2"}};
    const std::vector<Edge> edges = strategy_edges(g, Side::black, move);
    // The start is no target (so the start's clause holds). The capture's target has a second
    // predecessor, the capturing state: this clause cannot break alone (t, the loser's to move, is
    // entered by the winner's moves only, so a capture into it is another predecessor); every
    // other target has one predecessor.
    REQUIRE(edges.size() == 5);
    REQUIRE(predecessors(g, edges, current(g)).empty());
    const Position t = parse_position(b, "wx1x/2xw w");
    REQUIRE(predecessors(g, edges, t) ==
            std::vector<std::pair<std::string, bool>>{{"w1wx/1xxw x", true}, {"w2x/1xxw x", false}});
    for (const Edge& e : edges)
      if (e.from.to_move == Side::black && !(e.to == t)) REQUIRE(predecessors(g, edges, e.to).size() == 1);
    const std::string text = certificate("w1wx/1xxw x", "WIN", "black", move);
    REQUIRE(check_message(text) ==
            "the move at w2x/1xxw x to wx1x/2xw w, inside a strongly connected part, goes to the target of a "
            "capture, the first state of a segment");
    REQUIRE(replay_wins(g, tokens(text), 1000) == std::optional<bool>(false));
  }
}

TEST_CASE("strategy, lazy: proven values agree with the full-history negamax", "[superko][strategy][lazy]") {
  std::mt19937_64 rng(11);
  int proven = 0, compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    const Board& b = g.board;
    std::uint64_t budget = 40'000;
    Game copy = g;
    const std::optional<bool> ref = negamax(copy, budget);
    if (!ref) continue;
    ++compared;
    for (StrategyMethod method : {StrategyMethod::lazy, StrategyMethod::lazy_local}) {
      const SuperkoResult res = solve_lazily(g, method, 5);
      if (res.value == SkValue::unknown) continue;
      ++proven;
      INFO(format_position(b, current(g)) << " after " << g.moves.size() << " moves");
      REQUIRE(res.value == (*ref ? SkValue::win : SkValue::loss));
      REQUIRE(checker_accepts(res.certificate));
      const std::vector<std::string> t = tokens(res.certificate);
      REQUIRE((t.at(1) == "4" || t.at(1) == "5"));
      if (t.at(1) == "4") REQUIRE(replay_wins(g, t, 200'000) != std::optional<bool>(false));
    }
  }
  INFO(compared << " compared, " << proven << " proven by a lazy strategy");
  REQUIRE(compared >= 20);
  REQUIRE(proven >= 10);
}

}  // namespace gonu

// The ILP back end (CBC, --strategy-solver ilp): the same instance as the SAT one, so the same
// answer, and its strategies written, checked and replayed the same way.
namespace gonu {

namespace {

SuperkoResult solve_root_strategy(const Game& g, StrategyMethod method, StrategySolverKind solver) {
  SuperkoOptions o;
  o.search = false;
  o.certificate = true;
  o.strategy_depth = 0;
  o.strategy_method = method;
  o.strategy_solver = solver;
  o.strategy_seconds = 300;
  return solve_superko(g, o);
}

}  // namespace

TEST_CASE("strategy, ILP: CBC finds a strategy exactly where CaDiCaL does, its certificates check and replay",
          "[superko][strategy][ilp]") {
  // The lazy method where CaDiCaL answers both sides at once (on 5x2 and 3x4 it proves nothing for
  // Black within minutes; lazy-local's restricted "none" is reported as budget by both).
  const std::tuple<int, int, StrategyMethod> cases[] = {
      {5, 2, StrategyMethod::injective}, {3, 4, StrategyMethod::injective}, {3, 3, StrategyMethod::injective},
      {2, 4, StrategyMethod::injective}, {3, 3, StrategyMethod::lazy},      {2, 4, StrategyMethod::lazy},
      {5, 2, StrategyMethod::lazy_local}};
  int found = 0, none = 0;
  for (const auto& [rows, cols, method] : cases) {
      const Game g = start_game("soldiers", rows, cols);
      const SuperkoResult sat = solve_root_strategy(g, method, StrategySolverKind::sat);
      const SuperkoResult ilp = solve_root_strategy(g, method, StrategySolverKind::ilp);
      INFO(rows << "x" << cols << " method " << int(method));
      REQUIRE(ilp.strategies.size() == sat.strategies.size());
      for (std::size_t i = 0; i < sat.strategies.size(); ++i) {
        REQUIRE(sat.strategies[i].solver == "SAT");
        REQUIRE(ilp.strategies[i].solver == "ILP (CBC)");
        REQUIRE(ilp.strategies[i].winner == sat.strategies[i].winner);
        REQUIRE(ilp.strategies[i].status == sat.strategies[i].status);
        if (method != StrategyMethod::lazy_local) REQUIRE(ilp.strategies[i].status != "budget");
        none += ilp.strategies[i].status == "none exists";
      }
      REQUIRE(ilp.value == sat.value);
      if (ilp.value == SkValue::unknown) continue;
      ++found;
      REQUIRE(checker_accepts(ilp.certificate));
      const std::vector<std::string> t = tokens(ilp.certificate);
      REQUIRE(t.at(1) == (method == StrategyMethod::injective ? "2" : "4"));
      // Every play against it with the full history; on 5x2 the histories outgrow any budget.
      const std::optional<bool> replay = replay_wins(g, t, 2'000'000);
      REQUIRE(replay != std::optional<bool>(false));
      if (rows != 5) REQUIRE(replay == std::optional<bool>(true));
    }
  REQUIRE(found >= 6);
  REQUIRE(none >= 4);
}

TEST_CASE("strategy, SAT: the instance through the solver interface is the one encoded before it (5x2 sizes)",
          "[superko][strategy][ilp]") {
  const SuperkoResult sat =
      solve_root_strategy(start_game("soldiers", 5, 2), StrategyMethod::injective, StrategySolverKind::sat);
  REQUIRE(sat.strategies.size() == 2);
  CHECK(sat.strategies[0].variables == 2758);  // counter variables of the at-most-one groups included
  CHECK(sat.strategies[0].clauses == 6597);
  CHECK(sat.strategies[1].variables == 1321);
  CHECK(sat.strategies[1].clauses == 2699);
}

TEST_CASE("strategy, ILP: without an objective (feasibility) the same answers", "[superko][strategy][ilp]") {
  const Game g = start_game("soldiers", 5, 2);
  const SuperkoResult sat = solve_root_strategy(g, StrategyMethod::injective, StrategySolverKind::sat);
  const SuperkoResult ilp = solve_root_strategy(g, StrategyMethod::injective, StrategySolverKind::ilp_feasible);
  REQUIRE(ilp.strategies.size() == sat.strategies.size());
  for (std::size_t i = 0; i < sat.strategies.size(); ++i)
    REQUIRE(ilp.strategies[i].status == sat.strategies[i].status);
  REQUIRE(ilp.value == SkValue::loss);
  REQUIRE(checker_accepts(ilp.certificate));
  REQUIRE(replay_wins(g, tokens(ilp.certificate), 2'000'000) != std::optional<bool>(false));
}

}  // namespace gonu
