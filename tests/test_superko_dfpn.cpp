// Df-pn over the full superko history (solver/superko/dfpn.hpp, SUPERKO.md F12): every value it
// proves on random tiny positions agrees with the plain full-history negamax
// (tests/reference/superko_negamax.hpp), with the conditional table on, off, capped to tiny proofs,
// and bounded so that it is collected; on the 3x3 `corner` 2-2 layer, every capture-entry value it
// proves agrees with the SAT strategies' (entry_layers.hpp) wherever both decide; the node and time
// budgets leave values unknown (the same search then finishes them); its proofs, written as format 1,
// pass the checker (random tiny positions, 5x2, and 3x4 from the start, where the memoryless strategy
// agrees); the command line.
#include <catch2/catch.hpp>

#include <optional>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "core/julgonu/game.hpp"
#include "checker/certificate_check.hpp"
#include "solver/superko/banfree.hpp"
#include "solver/superko/dfpn.hpp"
#include "solver/superko/entry_layers.hpp"
#include "solver/superko/layers.hpp"
#include "solver/superko/superko.hpp"
#include "tests/reference/superko_negamax.hpp"
#include "tests/table_test_util.hpp"
#include "tests/test_support.hpp"

namespace gonu {
namespace {

using test::negamax;
using test::random_tiny_game;

// The plain negamax's value for the side to move, or unknown past its budget.
SkValue reference_value(const Game& g, std::uint64_t budget) {
  Game copy = g;
  const std::optional<bool> win = negamax(copy, budget);
  return !win ? SkValue::unknown : *win ? SkValue::win : SkValue::loss;
}

TEST_CASE("dfpn: proven values agree with the full-history negamax on random tiny positions", "[superko][dfpn]") {
  std::mt19937_64 rng(11);
  DfpnOptions variants[4];
  variants[1].relevance = false;           // proofs kept for their exact visited set only
  variants[2].max_relevant_boards = 3;     // most proofs too large to share
  variants[3].max_table_entries = 8;       // the table collected again and again
  int compared = 0, proven = 0;
  std::uint64_t collections = 0, hits = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    const SkValue ref = reference_value(g, 4'000);
    if (ref == SkValue::unknown) continue;
    ++compared;
    const BanFreeOracle o = make_banfree_oracle(g);
    const FreshValues fresh = solve_fresh_values(o);
    INFO(format_position(g.board, current(g)) << " after " << g.moves.size() << " moves");
    for (int v = 0; v < 4; ++v) {
      DfpnSearch s(o, v == 0 ? &fresh : nullptr, variants[v]);
      const DfpnOutcome r = s.solve(g);
      REQUIRE(r.value == ref);  // tiny: every search finishes
      collections += s.stats().collections;
      hits += s.stats().hits;
    }
    ++proven;
  }
  REQUIRE(compared >= 40);
  REQUIRE(proven == compared);
  REQUIRE(collections > 0);
  REQUIRE(hits > 0);
}

TEST_CASE("dfpn: without ban-free leaves, the values of random tiny positions still agree", "[superko][dfpn]") {
  std::mt19937_64 rng(23);
  int compared = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    const SkValue ref = reference_value(g, 3'000);
    if (ref == SkValue::unknown) continue;
    const BanFreeOracle o = make_banfree_oracle(g);
    DfpnOptions opt;
    opt.banfree_leaves = false;
    opt.max_nodes = 100'000;
    DfpnSearch s(o, nullptr, opt);
    const DfpnOutcome r = s.solve(g);
    if (r.value == SkValue::unknown) continue;
    ++compared;
    INFO(format_position(g.board, current(g)));
    REQUIRE(r.value == ref);
  }
  REQUIRE(compared >= 30);
}

TEST_CASE("dfpn: the 3x3 corner 2-2 layer agrees with the SAT strategies wherever both decide", "[superko][dfpn]") {
  const Game root = test::start_game("corner", 3, 3);
  const BanFreeOracle o = make_banfree_oracle(root);
  EntryOptions eo;
  eo.instance_seconds = 5;
  eo.budget_seconds = 0;
  const EntryPass pass = solve_entry_layers(o, eo);
  const FreshValues plain = solve_fresh_values(o);  // no entry values: df-pn proves them itself
  DfpnSearch s(o, &plain, DfpnOptions{});
  int both = 0;
  for (std::size_t id = 0; id < pass.fresh.entry.size(); ++id) {
    Position p;
    Tag t;
    decode_key(o.solution.codec, o.solution.keys[id], p, t);
    if (popcount(p.black) != 2 || popcount(p.white) != 2 || plain.method[id] != FreshMethod::none) continue;
    const DfpnOutcome r = s.solve_entry(p);
    if (r.value == SkValue::unknown) continue;
    if (pass.fresh.entry[id] == SkValue::unknown) continue;  // df-pn decides more than the strategies
    ++both;
    INFO(format_position(root.board, p));
    REQUIRE(r.value == pass.fresh.entry[id]);
  }
  REQUIRE(both >= 100);
  // The layer pass of the same search: its counts add up.
  const DfpnLayerReport rep = dfpn_entry_layer(o, plain, 2, 2, DfpnOptions{});
  REQUIRE(rep.open > 0);
  REQUIRE(rep.win + rep.loss <= rep.classes);
  REQUIRE(rep.states_win + rep.states_loss <= rep.open);
  REQUIRE(rep.classes <= rep.open);
}

TEST_CASE("dfpn: a node budget leaves the value unknown, and the same search then finishes it", "[superko][dfpn]") {
  const Game g = test::start_game("soldiers", 5, 2);
  const BanFreeOracle o = make_banfree_oracle(g);
  const FreshValues fresh = solve_fresh_values(o);
  DfpnOptions opt;
  opt.max_nodes = 50;
  DfpnSearch s(o, &fresh, opt);
  const DfpnOutcome first = s.solve(g);
  REQUIRE(first.value == SkValue::unknown);
  REQUIRE(first.nodes == 51);
  s.set_max_nodes(0);
  const DfpnOutcome second = s.solve(g);
  REQUIRE(second.value == SkValue::loss);  // White wins 5x2 (SUPERKO.md), Black to move
  REQUIRE(first.stop == "node budget");
}

TEST_CASE("dfpn: a time budget stops the search and says so", "[superko][dfpn]") {
  const Game g = test::start_game("soldiers", 4, 3);  // not proven within thousands of expansions
  const BanFreeOracle o = make_banfree_oracle(g);
  DfpnOptions opt;
  opt.max_seconds = 0.2;
  DfpnSearch s(o, nullptr, opt);
  const auto t0 = std::chrono::steady_clock::now();
  const DfpnOutcome r = s.solve(g);
  REQUIRE(r.value == SkValue::unknown);
  REQUIRE(r.stop == "time budget");
  REQUIRE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 2.0);
}

// df-pn in certificate mode (no fresh values, no symmetry): its proof written as format 1.
std::string dfpn_certificate(const Game& g, SkValue& value) {
  const BanFreeOracle o = make_banfree_oracle(g);
  DfpnOptions opt;
  opt.symmetry = false;
  DfpnSearch s(o, nullptr, opt);
  value = s.solve(g).value;
  const CertificateText c = s.write_certificate(g, value, 1'000'000);
  REQUIRE(c.error.empty());
  return c.text;
}

CertificateCheck check_text(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in);
}

TEST_CASE("dfpn: its proofs, written as format 1, are accepted by the checker, and a dropped reply is refused",
          "[superko][dfpn][certificate]") {
  std::mt19937_64 rng(31);
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    SkValue v;
    const std::string text = dfpn_certificate(g, v);
    INFO(format_position(g.board, current(g)) << "\n" << text);
    const CertificateCheck c = check_text(text);
    REQUIRE(c.ok);
    REQUIRE(c.value == to_string(v));
    ++checked;
  }
  REQUIRE(checked == 40);
  // 5x2 soldiers from the start (White wins): accepted; with one of White's moves swapped for another
  // legal one, or a loser's reply dropped, refused.
  SkValue v;
  const std::string text = dfpn_certificate(test::start_game("soldiers", 5, 2), v);
  REQUIRE(v == SkValue::loss);
  REQUIRE(check_text(text).ok);
  const std::size_t l = text.find("\nL 2\n");
  REQUIRE(l != std::string::npos);
  std::string dropped = text;
  dropped.replace(l, 5, "\nL 1\n");
  REQUIRE_FALSE(check_text(dropped).ok);
}

TEST_CASE("dfpn: 3x4 soldiers from the start agrees with the memoryless strategy, and its proof checks",
          "[superko][dfpn][certificate]") {
  const Game g = test::start_game("soldiers", 3, 4);
  SuperkoOptions o;
  o.search = false;
  o.strategy_depth = 0;
  const SuperkoResult by_strategy = solve_superko(g, o);
  REQUIRE(by_strategy.method == "strategy");
  SkValue v;
  const std::string text = dfpn_certificate(g, v);
  REQUIRE(v == by_strategy.value);  // White wins (Black to move)
  REQUIRE(check_text(text).ok);
}

TEST_CASE("dfpn: 3x5 soldiers, Black wins, the proof accepted by the checker", "[.dfpn3x5]") {
  SkValue v;
  const std::string text = dfpn_certificate(test::start_game("soldiers", 3, 5), v);
  REQUIRE(v == SkValue::win);
  REQUIRE(check_text(text).ok);
}

TEST_CASE("gonu solve --search dfpn and --dfpn-layer: the value, the layer's counts, and bad values refused",
          "[superko][dfpn][cli]") {
  using table_test::contains;
  using table_test::run_gonu;
  const auto r = run_gonu("solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "superko value:    LOSS for black (side to move): white wins; by df-pn"));
  const auto layer = run_gonu("solve --rules corner --board 3x3 --no-strategy --no-search --dfpn-layer 2-2 --json --quiet");
  INFO(layer.out << layer.err);
  REQUIRE(layer.code == 3);  // the root is not proven: the search is off
  const nlohmann::json j = nlohmann::json::parse(layer.out);
  const auto& l = j.at("dfpn_layer");
  REQUIRE(l.at("open").get<int>() > 0);
  REQUIRE(l.at("classes_open").get<int>() == 0);  // every class of 3x3 corner's 2-2 layer is decided
  REQUIRE(l.at("states_win").get<int>() + l.at("states_loss").get<int>() == l.at("open").get<int>());
  for (const char* bad : {"--search dfs", "--dfpn-layer 2", "--dfpn-layer 2-x", "--dfpn-layer -1-2", "--dfpn-layer 2-2-2"}) {
    const auto e = run_gonu(std::string("solve --rules soldiers --board 3x3 --quiet ") + bad);
    INFO(bad << ": " << e.err);
    REQUIRE(e.code == 2);
    REQUIRE(e.out.empty());
  }
}

}  // namespace
}  // namespace gonu
