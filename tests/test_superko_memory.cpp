// Superko strategies with memory (certificate format 7, SUPERKO.md F11): the values they prove
// against the plain full-history negamax; every play of a certificate replayed exhaustively with
// core's Game record and the label counted along the play (a check that does not rely on F11's
// argument); memoryless strategies as a special case (found wherever F7 finds one, and format-2
// certificates valid as format 7 under every label); the checker refusing corrupted certificates.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
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

using test::join;
using test::start_game;
using test::tokens;

// memory 0: the memoryless search (F7); else the search with memory m (format 7). No tree, no search.
SuperkoResult solve_by_strategy(const Game& g, int memory) {
  SuperkoOptions o;
  o.search = false;
  o.strategy_depth = 0;
  o.certificate = true;
  o.strategy_memory = memory;
  return solve_superko(g, o);
}

CertificateCheck check(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in);
}

// Where the parts of a format-7 certificate are, in its tokens.
struct Layout7 {
  int m = 0;
  std::size_t strategy = 0, ranked = 0;  // index of the first entry's first token
  long n_strategy = 0, n_ranked = 0;
};
Layout7 layout7(const std::vector<std::string>& t) {
  Layout7 l;
  std::size_t i = 0;
  while (t.at(i) != "memory") ++i;
  l.m = std::stoi(t.at(i + 2));
  REQUIRE(t.at(i + 3) == "strategy");
  l.n_strategy = std::stol(t.at(i + 4));
  l.strategy = i + 5;
  i = l.strategy + 4 * std::size_t(l.n_strategy);
  REQUIRE(t.at(i) == "ranked");
  l.n_ranked = std::stol(t.at(i + 1));
  l.ranked = i + 2;
  return l;
}

// The exhaustive replay: the winner plays the certificate's move for the current board and label
// (the winner's moves since the last capture mod m; it must be legal with the whole history), the
// loser every legal move. Positions with the same boards since the last capture and the same label
// are replayed once. nullopt past budget.
std::optional<bool> replay_wins(const Game& root, const std::vector<std::string>& t, std::uint64_t budget) {
  const Layout7 l = layout7(t);
  const Board& b = root.board;
  const Side winner = parse_side(t.at(std::size_t(std::find(t.begin(), t.end(), "winner") - t.begin()) + 1));
  std::map<std::tuple<Bits, Bits, int>, std::string> move;  // label -1: a ranked state, any label
  for (long i = 0; i < l.n_strategy; ++i) {
    const std::size_t at = l.strategy + 4 * std::size_t(i);
    const Position p = parse_position(b, t[at] + " " + t[at + 1]);
    move[{p.black, p.white, std::stoi(t[at + 2])}] = t[at + 3];
  }
  for (long i = 0; i < l.n_ranked; ++i) {
    const std::size_t at = l.ranked + 4 * std::size_t(i);
    const Position p = parse_position(b, t[at] + " " + t[at + 1]);
    if (t[at + 3] != "-") move[{p.black, p.white, -1}] = t[at + 3];
  }
  std::set<std::pair<std::vector<std::pair<Bits, Bits>>, int>> done;
  bool lost = false;
  std::uint64_t nodes = 0;
  std::function<void(Game&, int)> go = [&](Game& g, int label) {
    if (lost || nodes > budget) return;
    ++nodes;
    std::vector<std::pair<Bits, Bits>> key;
    for (const Position& p : g.since_capture) key.emplace_back(p.black, p.white);
    std::sort(key.begin(), key.end() - 1);  // the set of earlier boards, then the current one
    if (!done.insert({key, label}).second) return;
    const Position& c = current(g);
    const std::vector<Move> legal = legal_moves(g);
    if (c.to_move == winner) {
      auto it = move.find({c.black, c.white, -1});
      if (it == move.end()) it = move.find({c.black, c.white, label});
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
      go(next, m.captured ? 0 : (label + 1) % l.m);
    } else {
      for (const Move& m : legal) {
        Game next = g;
        play(next, m);
        go(next, m.captured ? 0 : label);
      }
    }
  };
  Game g = root;
  go(g, 0);
  if (nodes > budget) return std::nullopt;
  return !lost;
}



// A format-2 certificate as format 7 with memory m: every paired entry under every label.
std::string as_format7(const std::vector<std::string>& t, int m) {
  std::vector<std::string> out;
  std::size_t i = 0;
  for (; t.at(i) != "strategy"; ++i) out.push_back(i == 1 ? "7" : t[i]);
  const long k = std::stol(t.at(i + 1));
  out.insert(out.end(), {"memory", "winner-moves", std::to_string(m), "strategy", std::to_string(k * m)});
  for (long e = 0; e < k; ++e)
    for (int c = 0; c < m; ++c) {
      const std::size_t at = i + 2 + 3 * std::size_t(e);
      out.insert(out.end(), {t[at], t[at + 1], std::to_string(c), t[at + 2]});
    }
  out.insert(out.end(), t.begin() + long(i + 2 + 3 * std::size_t(k)), t.end());
  return join(out);
}

}  // namespace

TEST_CASE("strategy with memory: 5x2 and 3x4 are White wins, with checked format-7 certificates and every play won",
          "[superko][strategy][memory]") {
  for (int m : {2, 3}) {
    for (const char* name : {"soldiers", "corner"}) {
      const Game g = start_game(name, 5, 2);
      const SuperkoResult r = solve_by_strategy(g, m);
      INFO(name << " memory " << m);
      REQUIRE(r.value == SkValue::loss);  // for Black, to move: White wins
      REQUIRE(r.certificate_version == 7);
      REQUIRE(r.strategies.back().memory == m);
      REQUIRE(r.strategies.back().product_reach >= r.strategies.back().reach);
      const CertificateCheck c = check(r.certificate);
      INFO(c.message);
      REQUIRE(c.ok);
      // The 5x2 strategies' cycles give too many histories for the replay to finish: no refutation.
      REQUIRE(replay_wins(g, tokens(r.certificate), 200'000) != std::optional<bool>(false));
    }
  }
  // 3x4 with m = 2 (m = 3 takes CaDiCaL about 20 s of CPU).
  const Game g = start_game("soldiers", 3, 4);
  const SuperkoResult r = solve_by_strategy(g, 2);
  REQUIRE(r.value == SkValue::loss);
  REQUIRE(check(r.certificate).ok);
  // Every game Black can play against it, with the full history: White always has its move, and wins.
  REQUIRE(replay_wins(g, tokens(r.certificate), 400'000) == std::optional<bool>(true));
}

TEST_CASE("strategy with memory: 4x3 has none for either side at the root (m = 2)", "[superko][strategy][memory]") {
  const SuperkoResult r = solve_by_strategy(start_game("soldiers", 4, 3), 2);
  REQUIRE(r.value == SkValue::unknown);
  REQUIRE(r.strategies.size() == 2);
  for (const SuperkoStrategyReport& s : r.strategies) REQUIRE(s.status == "none exists");
}

TEST_CASE("strategy with memory: proven values agree with the full-history negamax, and every play is won",
          "[superko][strategy][memory]") {
  std::mt19937_64 rng(11);
  int proven = 0, compared = 0, memoryless = 0;
  for (int trial = 0; trial < 90; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    std::uint64_t budget = 40'000;
    Game copy = g;
    const std::optional<bool> ref = negamax(copy, budget);
    if (!ref) continue;
    ++compared;
    const SuperkoResult plain = solve_by_strategy(g, 0);
    for (int m : {1, 2, 3}) {
      const SuperkoResult res = solve_by_strategy(g, m);
      INFO(format_position(g.board, current(g)) << " after " << g.moves.size() << " moves, memory " << m);
      // A memoryless strategy is one with memory that ignores its label: found wherever F7 finds one
      // (and with m = 1, exactly there: the same search without the mirror pairing).
      if (plain.value != SkValue::unknown) REQUIRE(res.value == plain.value);
      if (m == 1) REQUIRE(res.value == plain.value);
      if (res.value == SkValue::unknown) continue;
      ++proven;
      REQUIRE(res.value == (*ref ? SkValue::win : SkValue::loss));
      const CertificateCheck c = check(res.certificate);
      INFO(c.message);
      REQUIRE(c.ok);
      REQUIRE(replay_wins(g, tokens(res.certificate), 200'000) != std::optional<bool>(false));
    }
    if (plain.value != SkValue::unknown && tokens(plain.certificate).at(1) == "2") {
      ++memoryless;
      REQUIRE(check(as_format7(tokens(plain.certificate), 2)).ok);
    }
  }
  INFO(compared << " compared, " << proven << " proven by a strategy with memory, " << memoryless << " memoryless");
  REQUIRE(compared >= 30);
  REQUIRE(proven >= 45);
  REQUIRE(memoryless >= 15);
}

TEST_CASE("strategy with memory: format-2 certificates are valid as format 7 under every label",
          "[superko][strategy][memory][certificate]") {
  for (const auto& [name, rows, cols] : {std::tuple{"soldiers", 5, 2}, {"corner", 5, 2}, {"soldiers", 3, 4}}) {
    const SuperkoResult r = solve_by_strategy(start_game(name, rows, cols), 0);
    REQUIRE(r.certificate_version == 2);
    for (int m : {2, 3}) {
      const CertificateCheck c = check(as_format7(tokens(r.certificate), m));
      INFO(name << " " << rows << "x" << cols << " memory " << m << ": " << c.message);
      REQUIRE(c.ok);
    }
  }
}

TEST_CASE("strategy with memory: corrupted format-7 certificates are refused", "[superko][strategy][memory][certificate]") {
  static const Game g = start_game("corner", 5, 2);
  static const SuperkoResult r = solve_by_strategy(g, 2);
  REQUIRE(r.certificate_version == 7);
  const std::vector<std::string> t = tokens(r.certificate);
  const Layout7 l = layout7(t);
  REQUIRE(l.n_strategy > 1);
  const Board& b = g.board;

  SECTION("a reachable (state, label) without its move") {
    for (long i = 0; i < l.n_strategy; i += 7) {
      std::vector<std::string> bad(t.begin(), t.begin() + long(l.strategy) - 1);
      bad.push_back(std::to_string(l.n_strategy - 1));
      for (long j = 0; j < l.n_strategy; ++j)
        if (j != i) bad.insert(bad.end(), t.begin() + long(l.strategy + 4 * j), t.begin() + long(l.strategy + 4 * j + 4));
      bad.insert(bad.end(), t.begin() + long(l.strategy + 4 * l.n_strategy), t.end());
      const CertificateCheck c = check(join(bad));
      REQUIRE_FALSE(c.ok);
      REQUIRE(c.message.find("no move for the winner at ") != std::string::npos);
      REQUIRE(c.message.find("(label ") != std::string::npos);
    }
  }
  SECTION("two boards aiming at one target") {
    // A paired board's move redirected to the target of another board's: refused (by the shared
    // target, or by a flaw further on, as the new move changes what is reached).
    std::map<std::pair<Bits, Bits>, std::size_t> target_of;  // target -> the entry aiming there
    for (long i = 0; i < l.n_strategy; ++i) {
      const std::size_t at = l.strategy + 4 * std::size_t(i);
      const Position p = parse_position(b, t[at] + " " + t[at + 1]);
      const Move m = parse_move(b, g.rules, p, t[at + 3], generate_moves(b, g.rules, p));
      if (!m.captured) target_of[{apply_move(p, m).black, apply_move(p, m).white}] = at;
    }
    int shared = 0;
    for (long i = 0; i < l.n_strategy; ++i) {
      const std::size_t at = l.strategy + 4 * std::size_t(i);
      const Position p = parse_position(b, t[at] + " " + t[at + 1]);
      for (const Move& m : generate_moves(b, g.rules, p)) {
        const Position y = apply_move(p, m);
        const auto it = target_of.find({y.black, y.white});
        if (m.captured || it == target_of.end() || t[it->second] == t[at]) continue;
        std::vector<std::string> bad = t;
        bad[at + 3] = format_move(b, g.rules, m);
        const CertificateCheck c = check(join(bad));
        REQUIRE_FALSE(c.ok);
        shared += c.message.find("two boards of the strategy move to ") != std::string::npos;
      }
    }
    REQUIRE(shared > 0);
  }
  SECTION("a label out of range, an unknown label kind, a state both ranked and paired") {
    std::vector<std::string> bad = t;
    bad[l.strategy + 2] = std::to_string(l.m);
    REQUIRE(check(join(bad)).message.find("is not below") != std::string::npos);
    bad = t;
    bad[l.strategy - 4] = "last-move";
    REQUIRE(check(join(bad)).message.find("unknown label kind") != std::string::npos);
    bad = t;
    bad[l.ranked - 1] = std::to_string(l.n_ranked + 1);
    bad.insert(bad.begin() + long(l.ranked), {t[l.strategy], t[l.strategy + 1], "1", t[l.strategy + 3]});
    REQUIRE(check(join(bad)).message.find("listed both ranked and paired") != std::string::npos);
    bad = t;
    bad.at(1) = std::string(1, '2');  // read as format 2, the labels are out of place
    REQUIRE_FALSE(check(join(bad)).ok);
  }
}

}  // namespace gonu
