// Capture-entry values layer by layer (solver/superko/entry_layers.hpp, SUPERKO.md F10; certificate
// format 6): a sample of the values the pass proves against the plain full-history negamax of the
// state entered fresh (memoized by the exact set of boards), or, where that runs past its budget (the
// 2-2 races of 3x3), the depth-first search without strategies; the format-6 certificate accepted by
// the checker, and refused when corrupted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "core/game.hpp"
#include "checker/certificate_check.hpp"
#include "solver/superko/banfree.hpp"
#include "solver/superko/entry_layers.hpp"
#include "solver/superko/superko.hpp"
#include "tests/test_support.hpp"

namespace gonu {
namespace {

using test::join;
using test::start_game;
using test::tokens;

CertificateCheck check_text(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in);
}

// The reference: the plain full-history negamax (every legal move under superko with core's Game
// record), memoized only by the exact state and set of boards since the last capture, on which
// the value depends (F1). No pruning, no ban-free values, no strategies.
struct Negamax {
  std::map<std::vector<std::uint64_t>, bool> memo;
  std::uint64_t budget = 0;

  static std::vector<std::uint64_t> key(const Game& g) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> earlier;  // the side to move follows from the board (F1)
    for (std::size_t i = 0; i + 1 < g.since_capture.size(); ++i)
      earlier.push_back({g.since_capture[i].black, g.since_capture[i].white});
    std::sort(earlier.begin(), earlier.end());
    const Position& p = current(g);
    std::vector<std::uint64_t> k{p.black, p.white, std::uint64_t(p.to_move == Side::white)};
    for (const auto& [b, w] : earlier) {
      k.push_back(b);
      k.push_back(w);
    }
    return k;
  }
  std::optional<bool> value(const Game& g) {
    const std::vector<std::uint64_t> k = key(g);
    if (const auto it = memo.find(k); it != memo.end()) return it->second;
    if (budget == 0) return std::nullopt;
    --budget;
    bool win = false;
    for (const Move& m : legal_moves(g)) {
      Game next = g;
      play(next, m);
      const std::optional<bool> child = value(next);
      if (!child) return std::nullopt;
      if (!*child) {
        win = true;
        break;
      }
    }
    memo.emplace(k, win);
    return win;
  }
};

// Every proven entry value against the negamax from the state with no history; returns
// (proven, compared).
std::pair<int, int> compare_entry_values(const Game& root, StrategyMethod method) {
  const BanFreeOracle o = make_banfree_oracle(root);
  EntryOptions opt;
  opt.instance_seconds = 5;
  opt.budget_seconds = 0;
  opt.method = method;
  const EntryPass pass = solve_entry_layers(o, opt);
  int proven = 0, compared = 0, tried = 0;
  for (std::size_t id = 0; id < pass.fresh.entry.size(); ++id) {
    if (pass.fresh.entry[id] == SkValue::unknown) continue;
    ++proven;
    if (++tried > 20) continue;  // the reference is exponential: a sample keeps the test short
    Position p;
    Tag t;
    decode_key(o.solution.codec, o.solution.keys[id], p, t);
    Negamax ref_search;
    ref_search.budget = 5'000;
    std::optional<bool> ref = ref_search.value(new_game(root.rules, p));
    if (!ref) {  // the races of a 2-2 layer are beyond it: the depth-first search (F1-F5, no strategies),
      SuperkoOptions so;  // itself checked against this negamax in test_superko_solver.cpp
      so.strategy = false;
      so.max_nodes = 2'000'000;
      const SuperkoResult sr = solve_superko(new_game(root.rules, p), so);
      if (sr.value != SkValue::unknown) ref = sr.value == SkValue::win;
    }
    if (!ref) continue;
    ++compared;
    INFO(format_position(root.board, p));
    REQUIRE(pass.fresh.entry[id] == (*ref ? SkValue::win : SkValue::loss));
  }
  std::uint64_t win = 0, loss = 0;
  for (const EntryLayer& l : pass.layers) {
    REQUIRE(l.win + l.loss + l.still_open == l.open);
    REQUIRE(l.open <= l.capture_entry);
    win += l.win;
    loss += l.loss;
  }
  REQUIRE(win + loss == std::uint64_t(proven));
  return {proven, compared};
}

SuperkoResult solve_with_entries(const Game& g, StrategyMethod method = StrategyMethod::injective) {
  SuperkoOptions o;
  o.search = false;
  o.strategy_depth = 0;
  o.certificate = true;
  o.entry_layers = true;
  o.entry_seconds = 5;
  o.entry_budget = 0;
  o.strategy_method = method;
  return solve_superko(g, o);
}

// The index of the token after the first "entry" line whose block takes `word` at its position.
std::size_t find_token(const std::vector<std::string>& t, const std::string& word, std::size_t from = 0) {
  for (std::size_t i = from; i < t.size(); ++i)
    if (t[i] == word) return i;
  return t.size();
}

}  // namespace

TEST_CASE("entry layers: proven capture-entry values agree with the full-history negamax or search",
          "[superko][entry]") {
  int proven = 0, compared = 0;
  for (StrategyMethod m : {StrategyMethod::injective, StrategyMethod::lazy}) {
    const auto [p, c] = compare_entry_values(start_game("corner", 3, 3), m);
    proven += p;
    compared += c;
  }
  INFO(proven << " proven, " << compared << " compared");
  REQUIRE(proven >= 100);
  REQUIRE(compared >= 20);
}

TEST_CASE("entry layers: the format-6 certificate is checked, a corrupted one is a FLAW", "[superko][entry][certificate]") {
  const Game g = start_game("corner", 3, 3);
  for (StrategyMethod m : {StrategyMethod::injective, StrategyMethod::lazy}) {
    const SuperkoResult r = solve_with_entries(g, m);
    REQUIRE(r.value == SkValue::win);
    REQUIRE(r.certificate_version == 6);
    const CertificateCheck ok = check_text(r.certificate);
    INFO(ok.message);
    REQUIRE(ok.ok);
    REQUIRE(ok.sections > (m == StrategyMethod::injective ? 100u : 0u));  // the proven entry values
    std::vector<std::string> t = tokens(r.certificate);
    REQUIRE(t.at(1) == "6");
    const std::size_t e = find_token(t, "entry");
    REQUIRE(e < t.size());
    // An entry's value flipped (the winner kept): refused.
    std::vector<std::string> bad = t;
    bad.at(e + 3) = bad.at(e + 3) == "WIN" ? "LOSS" : "WIN";
    REQUIRE(!check_text(join(bad)).ok);
    // An entry's winner and value both flipped: its strategy is then the loser's.
    bad = t;
    bad.at(e + 3) = bad.at(e + 3) == "WIN" ? "LOSS" : "WIN";
    bad.at(e + 4) = bad.at(e + 4) == "black" ? "white" : "black";
    REQUIRE(!check_text(join(bad)).ok);
    // The first paired move of an entry's block replaced by another of its moves: refused (or, if
    // the other move also wins, still a valid proof — never a crash). Here: a move that is no move.
    bad = t;
    const std::size_t s = find_token(t, "strategy", e);
    REQUIRE(s < t.size());
    if (std::stol(t.at(s + 1)) > 0) {
      bad.at(s + 4) = "z9-z8";
      const CertificateCheck c = check_text(join(bad));
      REQUIRE(!c.ok);
      REQUIRE(c.message.find("entry ") == 0);
    }
    // Truncated, and an entry repeated.
    REQUIRE(!check_text(r.certificate.substr(0, r.certificate.size() / 2)).ok);
    REQUIRE(!check_text(join(t) + " extra").ok);
  }
}

TEST_CASE("entry layers: the table alone (root not proven) is a format-6 certificate", "[superko][entry][certificate]") {
  Game g = start_game("corner", 3, 3);
  SuperkoOptions o;
  o.search = false;
  o.strategy = false;
  o.certificate = true;
  o.entry_layers = true;
  o.entry_seconds = 5;
  o.entry_budget = 0;
  const SuperkoResult r = solve_superko(g, o);
  REQUIRE(r.value == SkValue::unknown);
  REQUIRE(r.certificate_version == 6);
  const CertificateCheck c = check_text(r.certificate);
  INFO(c.message);
  REQUIRE(c.ok);
  REQUIRE(c.value == "UNKNOWN");
  // Claiming a value for the root without its strategy is malformed.
  std::vector<std::string> t = tokens(r.certificate);
  const std::size_t v = find_token(t, "value");
  t.at(v + 1) = "WIN";
  t.at(v + 3) = "black";
  REQUIRE(!check_text(join(t)).ok);
}

}  // namespace gonu
