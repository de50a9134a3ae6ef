// Df-pn over the full superko history (solver/julgonu/superko/dfpn.hpp, SUPERKO.md F12): every value it
// proves on random tiny positions agrees with the plain full-history negamax
// (tests/reference/superko_negamax.hpp), with the conditional table on, off, capped to tiny proofs,
// and bounded so that it is collected; on the 3x3 `corner` 2-2 layer, every capture-entry value it
// proves agrees with the SAT strategies' (entry_layers.hpp) wherever both decide; the node and time
// budgets leave values unknown (the same search then finishes them); its proofs, written as format 1,
// pass the checker (random tiny positions, 5x2, and 3x4 from the start, where the memoryless strategy
// agrees); written as a proof graph (format 8, dfpn_certificate.hpp), they pass the checker with the
// reference negamax's values, a layer's certificate holds every decided class checked from its own
// board, and forged graphs are refused; the proofs file (dfpn_table.hpp): a run resumed from it gets
// further and proves the same value, what rests on its facts is marked so and no checkpoint writes
// it, a forged one (a third of its values turned round) gives no wrong value and costs a few runs
// without it at most, and a damaged, mismatched or unwritable one is refused; the
// command line; on threads (solve_rounds, the layer's rounds): values with 1, 2 and 4 threads agree
// with the negamax and with each other, and the tables, counts, printed reports, certificates
// (format 8 from the root and from a layer) and saved files are the same; node and time budgets
// bound the rounds (the layer's too, a round's jobs that start late within what is left).
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <optional>
#include <chrono>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/julgonu/game.hpp"
#include "checker/certificate_check.hpp"
#include "checker/graph_check.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/dfpn.hpp"
#include "solver/julgonu/superko/dfpn_certificate.hpp"
#include "solver/julgonu/superko/dfpn_table.hpp"
#include "solver/julgonu/superko/entry_layers.hpp"
#include "solver/julgonu/superko/key_set.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/superko.hpp"
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
  DfpnOptions variants[8];
  variants[1].relevance = false;           // proofs kept for their exact visited set only
  variants[2].max_relevant_boards = 3;     // most proofs too large to share
  variants[3].max_table_entries = 8;       // the table collected again and again
  variants[4].symmetric_proofs = false;    // proofs kept as found, not as their canonical image
  variants[5].subset_boards = 58;          // the exact subset search wherever the region fits
  variants[6].subset_boards = 6;           // ... only where it is small: mixed with proof numbers
  variants[6].max_relevant_boards = 4;     // its proofs kept for one visited set when they rely on more
  variants[7].subset_boards = 58;          // ... and with no F3 leaf to end a region
  variants[7].banfree_leaves = false;
  int compared = 0, proven = 0;
  std::uint64_t collections = 0, hits = 0, image_hits = 0, subset_big = 0, subset_small = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    const SkValue ref = reference_value(g, 4'000);
    if (ref == SkValue::unknown) continue;
    ++compared;
    const BanFreeOracle o = make_banfree_oracle(g);
    const FreshValues fresh = solve_fresh_values(o);
    INFO(format_position(g.board, current(g)) << " after " << g.moves.size() << " moves");
    for (int v = 0; v < 8; ++v) {
      DfpnSearch s(o, v == 0 || v >= 5 ? &fresh : nullptr, variants[v]);
      const DfpnOutcome r = s.solve(g);
      REQUIRE(r.value == ref);  // tiny: every search finishes
      collections += s.stats().collections;
      hits += s.stats().hits;
      image_hits += s.stats().image_hits;
      if (v == 4) REQUIRE(s.stats().image_hits == 0);
      if (v < 5) REQUIRE(s.stats().subset_solved == 0);
      (v == 6 ? subset_small : subset_big) += v >= 5 ? s.stats().subset_solved : 0;
    }
    ++proven;
  }
  REQUIRE(compared >= 40);
  REQUIRE(proven == compared);
  REQUIRE(collections > 0);
  REQUIRE(hits > 0);
  REQUIRE(image_hits > 0);  // proofs read through a symmetry or the colour swap, and the values still agree
  REQUIRE(subset_big > 0);   // nodes decided by the subset search, and the values still agree
  REQUIRE(subset_small > 0);
}

TEST_CASE("dfpn: the visited-set KeySet answers as std::set under random and last-in-first-out use", "[superko][dfpn]") {
  std::mt19937_64 rng(5);
  for (const bool lifo : {false, true}) {
    KeySet fast;
    std::set<Key> plain;
    std::vector<Key> stack;
    for (int step = 0; step < 200'000; ++step) {
      // Few distinct keys, some sharing their home slot's low bits, so that runs collide and shift.
      const Key k = (rng() % 3'000) << (rng() % 2 ? 0 : 40);
      const bool grow = stack.size() < 600 && rng() % 3 != 0;
      if (grow && !plain.count(k)) {
        fast.insert(k);
        plain.insert(k);
        stack.push_back(k);
      } else if (!stack.empty()) {
        const std::size_t at = lifo ? stack.size() - 1 : std::size_t(rng() % stack.size());
        fast.erase(stack[at]);
        plain.erase(stack[at]);
        stack.erase(stack.begin() + std::ptrdiff_t(at));
      }
      REQUIRE(fast.count(k) == (plain.count(k) > 0));
      REQUIRE(fast.size() == plain.size());
    }
    for (Key k = 0; k < 3'000; ++k) REQUIRE(fast.count(k) == (plain.count(k) > 0));
  }
}

TEST_CASE("dfpn: without ban-free leaves, the values of random tiny positions still agree", "[superko][dfpn]") {
  std::mt19937_64 rng(23);
  int compared = 0;
  for (int trial = 0; trial < 120; ++trial) {
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

// The capture-entry values of 3x3 `corner` proven by the SAT strategies, layer by layer (F10).
EntryPass sat_entry_values(const BanFreeOracle& o) {
  EntryOptions eo;
  eo.instance_seconds = 5;
  eo.budget_seconds = 0;
  return solve_entry_layers(o, eo);
}

TEST_CASE("dfpn: the 3x3 corner 2-2 layer agrees with the SAT strategies wherever both decide", "[superko][dfpn]") {
  const Game root = test::start_game("corner", 3, 3);
  const BanFreeOracle o = make_banfree_oracle(root);
  const EntryPass pass = sat_entry_values(o);
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

// df-pn in certificate mode (no fresh values, no symmetry) on g: its value, and its proof as
// write(oracle, search) writes it.
template <class Write>
std::string certified(const Game& g, SkValue& value, Write write) {
  const BanFreeOracle o = make_banfree_oracle(g);
  DfpnOptions opt;
  opt.symmetry = false;
  DfpnSearch s(o, nullptr, opt);
  value = s.solve(g).value;
  return write(o, s);
}

// Its proof written as format 1.
std::string dfpn_certificate(const Game& g, SkValue& value) {
  return certified(g, value, [&](const BanFreeOracle&, DfpnSearch& s) {
    const CertificateText c = s.write_certificate(g, value, 1'000'000);
    REQUIRE(c.error.empty());
    return c.text;
  });
}

// Its proof written as a proof graph (format 8).
std::string dfpn_graph(const Game& g, SkValue& value) {
  return certified(g, value, [&](const BanFreeOracle& o, DfpnSearch& s) {
    DfpnProofGraph graph(o);
    REQUIRE(graph.add_root(s, g, value, 1'000'000).empty());
    return graph.text(g);
  });
}

CertificateCheck check_text(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in);
}

TEST_CASE("dfpn: its proofs, written as format 1 and as a proof graph (format 8), are accepted with the "
          "reference negamax's values, and a dropped reply is refused", "[superko][dfpn][certificate]") {
  std::mt19937_64 rng(31);
  int compared = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    SkValue v, v8;
    const std::string text = dfpn_certificate(g, v), graph = dfpn_graph(g, v8);
    INFO(format_position(g.board, current(g)) << "\n" << text << "\n" << graph);
    REQUIRE(v8 == v);
    for (const std::string& t : {text, graph}) {
      const CertificateCheck c = check_text(t);
      REQUIRE(c.ok);
      REQUIRE(c.value == to_string(v));
    }
    const SkValue ref = reference_value(g, 4'000);
    if (ref == SkValue::unknown) continue;
    REQUIRE(v == ref);
    ++compared;
  }
  REQUIRE(compared >= 15);
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

TEST_CASE("dfpn: proof graphs (format 8) from the start of 3x3 and 3x4 soldiers are accepted",
          "[superko][dfpn][certificate]") {
  // From the start: 3x3 soldiers (Black wins) and 3x4 (White wins, as the memoryless strategy shows).
  SkValue v;
  REQUIRE(check_text(dfpn_graph(test::start_game("soldiers", 3, 3), v)).ok);
  REQUIRE(v == SkValue::win);
  const CertificateCheck c = check_text(dfpn_graph(test::start_game("soldiers", 3, 4), v));
  INFO(c.message);
  REQUIRE(c.ok);
  REQUIRE(v == SkValue::loss);
}

TEST_CASE("dfpn: 3x5 soldiers, Black wins, the proof graph accepted by the checker, and its size beside format 1's",
          "[.dfpn3x5]") {
  SkValue v1, v8;
  const std::string f1 = dfpn_certificate(test::start_game("soldiers", 3, 5), v1);
  const std::string f8 = dfpn_graph(test::start_game("soldiers", 3, 5), v8);
  REQUIRE(v8 == SkValue::win);
  REQUIRE(check_text(f1).ok);
  REQUIRE(check_text(f8).ok);
  WARN("3x5 soldiers: format 1 " << f1.size() << " bytes, format 8 " << f8.size() << " bytes");
}

// The 3x3 `corner` 2-2 layer's certificate (format 8, its decided classes alone), by the solver.
SuperkoResult corner_layer_certificate() {
  SuperkoOptions o;
  o.strategy = false;
  o.search = false;
  o.dfpn_layer_black = o.dfpn_layer_white = 2;
  o.certificate = o.dfpn_layer_certificate = true;
  return solve_superko(test::start_game("corner", 3, 3), o);
}

TEST_CASE("dfpn layer certificate: every decided class of 3x3 corner's 2-2 layer, checked from its own board",
          "[superko][dfpn][certificate]") {
  const SuperkoResult r = corner_layer_certificate();
  REQUIRE(r.certificate_version == 8);
  const DfpnLayerReport& l = r.dfpn_layer;
  REQUIRE(l.classes > 0);
  REQUIRE(l.certified == l.win + l.loss);  // every class decided, and proven again for the certificate
  const CertificateCheck c = check_text(r.certificate);
  INFO(c.message);
  REQUIRE(c.ok);
  REQUIRE(c.entries == l.certified);
  REQUIRE(table_test::contains(c.message, "(" + std::to_string(l.win) + " won, " + std::to_string(l.loss) + " lost)"));
  // Each entry's value is the SAT strategies' (entry_layers.hpp) wherever they decide it.
  const Game root = test::start_game("corner", 3, 3);
  const BanFreeOracle o = make_banfree_oracle(root);
  const EntryPass pass = sat_entry_values(o);
  std::istringstream in(r.certificate);
  std::string w;
  int compared = 0;
  while (in >> w)
    if (w == "entry") {
      std::string a, side, value;
      in >> a >> side >> value;
      const Position p = parse_position(root.board, a + " " + side);
      const auto id = find_state(o.solution, o.key(p));
      REQUIRE(id);
      if (pass.fresh.entry[*id] == SkValue::unknown) continue;
      INFO(a << " " << side);
      REQUIRE(to_string(pass.fresh.entry[*id]) == value);
      ++compared;
    }
  REQUIRE(compared >= 10);  // of 15 classes (under the symmetries and the colour swap)
  // gonu check-certificate: the summary, then a line per entry.
  table_test::TempDir d;
  const std::string path = d.file("layer.cert");
  {
    std::ofstream f(path);
    f << r.certificate;
  }
  const auto cli = table_test::run_gonu("check-certificate " + path);
  REQUIRE(cli.code == 0);
  REQUIRE(cli.out.rfind("OK: no root claimed", 0) == 0);
  std::size_t lines = 0;
  for (std::size_t at = cli.out.find("\nentry "); at != std::string::npos; at = cli.out.find("\nentry ", at + 1)) ++lines;
  REQUIRE(lines == l.certified);
}

// Every node of every block's tree standing at the position of an earlier block of the same role,
// replaced by a reference to it: how many of these forgeries the checker refuses as a reuse whose
// condition fails (the others are proofs too: their condition holds there).
int forged_reuses(const checker::GraphCertificate& gc, const Rules& rules) {
  const Board b = make_board(rules.rows, rules.cols);
  checker::GraphChecker good(rules, b, gc);
  good.check();
  int refused = 0;
  std::function<void(int, int, const Position&, bool)> walk = [&](int block, int id, const Position& q, bool win) {
    const checker::TreeNode& n = gc.nodes[std::size_t(id)];
    if (n.kind == 'R') return;
    for (int j = 0; j < block; ++j) {
      if (!(gc.block_pos[std::size_t(j)] == q) || bool(good.wins[std::size_t(j)]) != win || id == gc.block_root[std::size_t(block)]) continue;
      checker::GraphCertificate forged = gc;
      forged.nodes[std::size_t(id)] = checker::TreeNode{'R', j, {}};
      checker::GraphChecker c(rules, b, std::move(forged));
      try {
        c.check();
      } catch (const checker::Flaw& f) {
        if (table_test::contains(f.what, "reuse of block")) ++refused;
      }
    }
    for (const auto& [text, child] : n.next) {
      const Move m = parse_move(b, rules, q, text, generate_moves(b, rules, q));
      walk(block, child, apply_move(q, m), !win);
    }
  };
  for (std::size_t i = 0; i < gc.block_pos.size(); ++i) walk(int(i), gc.block_root[i], gc.block_pos[i], good.wins[i]);
  return refused;
}

TEST_CASE("dfpn layer certificate: forged proof graphs are refused, gonu check-certificate says so in one line",
          "[superko][dfpn][certificate][cli]") {
  const std::string good = corner_layer_certificate().certificate;
  REQUIRE(check_text(good).ok);
  const auto refused = [&](const std::string& text, const std::string& why) {
    const CertificateCheck c = check_text(text);
    INFO(c.message);
    REQUIRE_FALSE(c.ok);
    REQUIRE(table_test::contains(c.message, why));
  };
  // A truncated file.
  refused(good.substr(0, good.size() / 2), "truncated certificate");
  // A winner's move changed: the first "W m" of a block made the next block's first move.
  SkValue v;
  const std::string root = dfpn_graph(test::start_game("soldiers", 3, 3), v);
  const std::size_t wm = root.find("\nW ");
  REQUIRE(wm != std::string::npos);
  std::string wrong = root;
  wrong.replace(wm + 3, 5, "b3-b2");
  REQUIRE(wrong != root);
  refused(wrong, "block 0");
  // A state of the ban-free strategy dropped: a leaf or a reply leaves it.
  const std::size_t st = good.find("\nstrategy ");
  REQUIRE(st != std::string::npos);
  const std::size_t st_end = good.find('\n', st + 1);
  const long states = std::stol(good.substr(st + 10, st_end - st - 10));
  std::string dropped = good;
  const std::size_t last = dropped.rfind('\n', dropped.rfind("\nend-certificate") - 1);
  dropped.erase(last, dropped.rfind("\nend-certificate") - last);
  dropped.replace(st, st_end - st, "\nstrategy " + std::to_string(states - 1));
  refused(dropped, "strategy");
  // A reference to a block not yet checked (no cycles).
  const std::size_t ref = good.find("\nR ");
  REQUIRE(ref != std::string::npos);
  std::string later = good;
  later.replace(ref, 3, "\nR 7");  // "R j" becomes "R 7j", past every block
  refused(later, "not an earlier block");
  // A use whose condition fails: a block whose proof needs boards visited, listed as an entry
  // (whose history is its own board alone).
  checker::GraphCertificate gc;
  {
    std::istringstream in(good);
    checker::Reader rd(in);
    for (std::string w; w != "none";) w = rd.word("the header");  // up to "winner none"
    checker::read_graph_certificate(rd, make_board(3, 3), false, gc);
  }
  const Rules rules = test::start_game("corner", 3, 3).rules;
  checker::GraphChecker gch(rules, make_board(3, 3), gc);
  gch.check();
  std::size_t needy = gch.conditions.size();
  for (std::size_t i = 0; i < gch.conditions.size() && needy == gch.conditions.size(); ++i)
    if (!gch.conditions[i].visited.empty()) needy = i;
  REQUIRE(needy < gch.conditions.size());
  std::string forged = good;
  const std::size_t entries = forged.find("\nentries ");
  const std::size_t count_end = forged.find('\n', entries + 1);
  const long n = std::stol(forged.substr(entries + 9, count_end - entries - 9));
  forged.replace(entries, count_end - entries, "\nentries " + std::to_string(n + 1) + "\nentry " +
                 format_position(make_board(3, 3), gc.block_pos[needy]) + (gch.wins[needy] ? " WIN " : " LOSS ") +
                 std::to_string(needy));
  refused(forged, "needs boards visited before it");
  // A reuse whose condition fails on its line: somewhere a node made again for a block's state
  // (its condition did not hold there) replaced by a reference to that block.
  REQUIRE(forged_reuses(gc, rules) > 0);
  // The command line: one line, exit 1.
  table_test::TempDir d;
  const std::string path = d.file("forged.cert");
  {
    std::ofstream f(path);
    f << forged;
  }
  const auto r = table_test::run_gonu("check-certificate " + path);
  REQUIRE(r.code == 1);
  REQUIRE(r.out.rfind("FLAW: ", 0) == 0);
  REQUIRE(std::count(r.out.begin(), r.out.end(), '\n') == 1);
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
  REQUIRE(l.at("classes_run") == l.at("classes"));
  REQUIRE(l.at("stopped_by") == "none");
  REQUIRE(l.at("states_win").get<int>() + l.at("states_loss").get<int>() == l.at("open").get<int>());
  for (const char* bad : {"--search dfs", "--dfpn-layer 2", "--dfpn-layer 2-x", "--dfpn-layer -1-2", "--dfpn-layer 2-2-2"}) {
    const auto e = run_gonu(std::string("solve --rules soldiers --board 3x3 --quiet ") + bad);
    INFO(bad << ": " << e.err);
    REQUIRE(e.code == 2);
    REQUIRE(e.out.empty());
  }
}

// 5x2 `soldiers` from the start, with its ban-free solution and the attractors' values.
struct Soldiers5x2 {
  const Game g = test::start_game("soldiers", 5, 2);
  const BanFreeOracle o = make_banfree_oracle(g);
  const FreshValues fresh = solve_fresh_values(o);
};

// One df-pn run of 5x2's start within `nodes`, resumed from and saved to `path`.
DfpnOutcome run_with_table(const BanFreeOracle& o, const FreshValues& fresh, const std::string& path,
                           std::uint64_t nodes, std::size_t& decided) {
  const DfpnTableFile table(path, o.rules);
  DfpnOptions opt;
  opt.max_nodes = nodes;
  DfpnSearch s(o, &fresh, opt);
  table.attach(s);
  const DfpnOutcome r = s.solve(test::start_game("soldiers", 5, 2));
  table.save(s);
  const DfpnSearch::Proofs p = s.proofs();
  decided = p.entries.size() + p.conditional.size() + p.exact.size();
  return r;
}

TEST_CASE("dfpn table: a run resumed from its file gets further and proves what one long run proves",
          "[superko][dfpn][dfpn-table]") {
  const Soldiers5x2 five;
  const auto& [g, o, fresh] = five;
  DfpnSearch whole(o, &fresh, DfpnOptions{});
  const DfpnOutcome single = whole.solve(g);
  REQUIRE(single.value == SkValue::loss);  // White wins 5x2
  REQUIRE(single.source == DfpnSource::proven);  // from the rules alone
  REQUIRE(single.nodes > 4'000);           // so that 4,000 nodes do not decide it at once
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn");
  std::size_t first = 0, second = 0, third = 0;
  REQUIRE(run_with_table(o, fresh, path, 1'000, first).value == SkValue::unknown);
  REQUIRE(first > 0);
  REQUIRE(run_with_table(o, fresh, path, 1'000, second).value == SkValue::unknown);
  REQUIRE(second > first);  // the second run starts with the first one's proofs
  const std::string p2 = d.file("u.dfpn");
  REQUIRE(run_with_table(o, fresh, p2, 4'000, first).value == SkValue::unknown);
  REQUIRE(run_with_table(o, fresh, p2, 4'000, second).value == single.value);  // decided, the same value
  REQUIRE(run_with_table(o, fresh, p2, 1, third).value == single.value);  // the root's entry, read back
  REQUIRE(third >= second);
  // Written the same by the same table: the text is a function of the proofs (sorted).
  const DfpnSearch::Proofs back = parse_dfpn_table(o.rules, table_test::slurp(p2), p2);
  REQUIRE(format_dfpn_table(o.rules, back) == table_test::slurp(p2));
  REQUIRE(d.list() == std::vector<std::string>{"t.dfpn", "u.dfpn"});  // no temporary file left
}

TEST_CASE("dfpn table: checkpoints save the table during a search", "[superko][dfpn][dfpn-table]") {
  const Game g = test::start_game("soldiers", 5, 2);
  const BanFreeOracle o = make_banfree_oracle(g);
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn");
  const DfpnTableFile table(path, o.rules);
  DfpnOptions opt;
  opt.checkpoint_seconds = 0;  // at every check (every 1,024 expansions)
  DfpnSearch s(o, nullptr, opt);
  int saves = 0;
  s.set_checkpoint([&] {
    table.save(s);
    ++saves;
    REQUIRE_NOTHROW(parse_dfpn_table(o.rules, table_test::slurp(path), path));
  });
  REQUIRE(s.solve(g).value == SkValue::loss);
  REQUIRE(saves >= 2);
}

// The record lines of a proofs file's text (the head, counts and checksum left out).
std::set<std::string> record_lines(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("e ", 0) == 0 || l.rfind("c ", 0) == 0 || l.rfind("x ", 0) == 0) out.insert(l);
  return out;
}

TEST_CASE("dfpn table: what rests on a file's facts is marked so, and checkpoints write none of it",
          "[superko][dfpn][dfpn-table]") {
  const Soldiers5x2 five;
  const auto& [g, o, fresh] = five;
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn");
  std::size_t decided = 0;
  REQUIRE(run_with_table(o, fresh, path, 1'000, decided).value == SkValue::unknown);
  const std::string made = table_test::slurp(path);
  const DfpnTableFile table(path, o.rules);
  DfpnOptions opt;
  opt.checkpoint_seconds = 0;  // at every check (every 1,024 expansions)
  DfpnSearch s(o, &fresh, opt);
  table.attach(s);
  const DfpnOutcome r = s.solve(g);
  REQUIRE(r.value == SkValue::loss);
  REQUIRE(r.source == DfpnSource::derived);  // through the file's facts
  // The last checkpoint: the file's records as read and proven ones, none resting on the file's.
  const std::string checkpointed = table_test::slurp(path);
  REQUIRE(checkpointed != made);
  DfpnSearch::Proofs derived = s.proofs(), proven = s.proofs();
  derived.erase_if_source([](DfpnSource x) { return x != DfpnSource::derived; });
  proven.erase_if_source([](DfpnSource x) { return x != DfpnSource::proven; });
  REQUIRE(!derived.conditional.empty());
  std::set<std::string> allowed = record_lines(made);
  for (const std::string& l : record_lines(format_dfpn_table(o.rules, proven))) allowed.insert(l);
  for (const std::string& l : record_lines(checkpointed)) {
    INFO(l);
    REQUIRE(allowed.count(l) == 1);
  }
  // The run's end writes all it decided (the next run reads it all as hints again).
  table.save(s);
  REQUIRE(record_lines(table_test::slurp(path)).size() > record_lines(checkpointed).size());
  // A proven entry is never traded for a hint that says otherwise; a hint for a proven one.
  const Key k = o.key(current(g));
  DfpnSearch t(o, &fresh, DfpnOptions{});
  DfpnSearch::Proofs hint, fact;
  hint.entries = {{k, SkValue::win, DfpnSource::read}};
  fact.entries = {{k, SkValue::loss, DfpnSource::proven}};
  t.add_proofs(hint);
  REQUIRE(t.solve(g).value == SkValue::win);  // a hint is used as it stands, marked
  REQUIRE(t.solve(g).source == DfpnSource::read);
  t.add_proofs(fact);
  t.add_proofs(hint);
  REQUIRE(t.solve(g).value == SkValue::loss);
  REQUIRE(t.solve(g).source == DfpnSource::proven);
}

TEST_CASE("dfpn table: a damaged, foreign or unwritable file is refused with one line", "[superko][dfpn][dfpn-table][cli]") {
  using table_test::contains;
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn");
  const std::string args = "solve --rules soldiers --no-strategy --search dfpn --quiet --max-nodes 2000 --dfpn-table ";
  const auto made = run_gonu(args + path + " --board 5x2");
  REQUIRE(made.code == 3);  // not proven within the budget
  const std::string text = table_test::slurp(path);
  REQUIRE(text.rfind("gonu-dfpn-table 1\nboard 5x2\nrules 5x2/", 0) == 0);
  REQUIRE(contains(text, "\nc "));
  table_test::require_one_line_error(run_gonu(args + path + " --board 4x3"), "written for other rules or another board");
  std::string damaged = text;
  damaged[damaged.size() / 2] ^= 1;
  table_test::spit(path, damaged);
  table_test::require_one_line_error(run_gonu(args + path + " --board 5x2"), "damaged");
  table_test::spit(path, text.substr(0, text.size() - 10));  // cut short
  table_test::require_one_line_error(run_gonu(args + path + " --board 5x2"), "damaged");
  table_test::spit(path, "something else\n");
  table_test::require_one_line_error(run_gonu(args + path + " --board 5x2"), "not a df-pn proofs file");
  table_test::require_one_line_error(run_gonu(args + d.file("missing/t.dfpn") + " --board 5x2"),
                                     "cannot write df-pn table");
  REQUIRE(d.list() == std::vector<std::string>{"t.dfpn"});
  if (geteuid() != 0) {  // root writes anywhere
    const std::string ro = d.file("ro");
    REQUIRE(mkdir(ro.c_str(), 0555) == 0);
    table_test::require_one_line_error(run_gonu(args + ro + "/t.dfpn --board 5x2"), "cannot write df-pn table");
  }
  const auto e = run_gonu("solve --rules soldiers --board 3x3 --quiet --dfpn-table " + path);
  REQUIRE(e.code == 2);  // only with df-pn
}

// The proofs read from `text` with every value turned round, written again with a right checksum:
// a file as a forger makes it, which only the search can tell from a true one.
std::string with_values_flipped(const Rules& rules, const std::string& text) {
  DfpnSearch::Proofs p = parse_dfpn_table(rules, text, "made");
  const auto flip = [](SkValue& v) { v = v == SkValue::win ? SkValue::loss : SkValue::win; };
  for (auto& e : p.entries) flip(e.value);
  for (auto& c : p.conditional) flip(c.value);
  for (auto& x : p.exact) flip(x.value);
  return format_dfpn_table(rules, p);
}

TEST_CASE("dfpn table: a forged file's false facts, contradicted by the search, are its fault, not saved again",
          "[superko][dfpn][dfpn-table][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn");
  const std::string args = "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --dfpn-table " + path;
  REQUIRE(run_gonu(args + " --max-nodes 3000").code == 3);  // stopped, its proofs saved
  const std::string forged = with_values_flipped(test::start_game("soldiers", 5, 2).rules, table_test::slurp(path));
  REQUIRE(forged != table_test::slurp(path));
  table_test::spit(path, forged);
  // Found by the root's walk, or by the layer pass's (whose proofs are then not written either).
  for (const std::string& extra : {std::string(), " --certificate " + d.file("t.cert"),
                                   " --dfpn-layer 2-2 --max-nodes 20000 --certificate " + d.file("t.cert")}) {
    INFO(extra);
    const auto r = run_gonu(args + extra);
    table_test::require_one_line_error(r, "df-pn table " + path + ": holds a false fact, which the search contradicts");
    REQUIRE_FALSE(table_test::contains(r.err, "internal error"));
    REQUIRE(table_test::slurp(path) == forged);  // never written back
  }
  // Without the file the same run proves the start.
  REQUIRE(run_gonu("solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet").code == 0);
}

// The proofs read from `text` with a third of the records' values turned round (record i, counted
// over the entries, then the conditional and the exact proofs, when splitmix64(seed << 32 | i) is
// 0 mod 3), written again with a right checksum.
std::string with_a_third_flipped(const Rules& rules, const std::string& text, std::uint64_t seed) {
  DfpnSearch::Proofs p = parse_dfpn_table(rules, text, "made");
  const auto mix = [](std::uint64_t k) {
    k += 0x9E3779B97F4A7C15ull;
    k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
    k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
    return k ^ (k >> 31);
  };
  std::uint64_t i = 0;
  const auto maybe_flip = [&](SkValue& v) {
    if (mix(seed << 32 | i++) % 3 == 0) v = v == SkValue::win ? SkValue::loss : SkValue::win;
  };
  for (auto& e : p.entries) maybe_flip(e.value);
  for (auto& c : p.conditional) maybe_flip(c.value);
  for (auto& x : p.exact) maybe_flip(x.value);
  return format_dfpn_table(rules, p);
}

// What a run over a forged file may end in: White's win with a proof the checker accepts, no value
// (a budget), or one line naming the file, which is left as it was. Returns the run's df-pn nodes
// (0 after the one line).
std::uint64_t require_right_or_none(const table_test::Result& r, const std::string& path, const std::string& forged,
                                    const std::string& cert) {
  using table_test::contains;
  INFO(r.out << r.err);
  REQUIRE_FALSE(contains(r.out, "\"WIN\""));
  if (r.code == 1) {
    table_test::require_one_line_error(r, "df-pn table " + path + ": holds a false fact");
    REQUIRE_FALSE(contains(r.err, "internal error"));
    REQUIRE(table_test::slurp(path) == forged);
    return 0;
  }
  const nlohmann::json j = nlohmann::json::parse(r.out);
  if (r.code == 3) {
    REQUIRE(j.at("value") == "UNKNOWN");
  } else {
    REQUIRE(r.code == 0);
    REQUIRE(j.at("value") == "LOSS");
    REQUIRE(check_text(table_test::slurp(cert)).ok);
  }
  return j.at("dfpn").at("nodes").get<std::uint64_t>();
}

TEST_CASE("dfpn table: a value that rests on a forged file's facts is given out only once its walk has proven it",
          "[superko][dfpn][dfpn-table][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn"), cert = d.file("t.cert");
  const std::string args =
      "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --json --certificate " + cert +
      " --dfpn-table " + path;
  const auto clean = run_gonu("solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --json");
  REQUIRE(clean.code == 0);
  const auto clean_nodes = nlohmann::json::parse(clean.out).at("dfpn").at("nodes").get<std::uint64_t>();
  REQUIRE(run_gonu(args + " --max-nodes 3000").code == 3);  // stopped, its proofs saved
  const std::string made = table_test::slurp(path);
  // With these two forgeries the search decided "Black wins" on the file's facts and, its walk
  // stopped by the node budget before it met a contradiction, that value was given out.
  for (const std::uint64_t seed : {31, 46}) {
    const std::string forged = with_a_third_flipped(test::start_game("soldiers", 5, 2).rules, made, seed);
    for (const std::string budget : {" --max-nodes 50000", ""}) {
      INFO("seed " << seed << budget);
      table_test::spit(path, forged);
      std::remove(cert.c_str());
      const std::uint64_t nodes = require_right_or_none(run_gonu(args + budget), path, forged, cert);
      // A forged file costs a few times a run without it (a search of the run's own takes turns),
      // not what proving the game its false facts make would.
      REQUIRE(nodes <= 8 * clean_nodes);
    }
  }
}

TEST_CASE("dfpn table and certificate readers: a huge file is refused from its first bytes", "[superko][dfpn][dfpn-table][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::string args = "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --dfpn-table ";
  const auto sparse = [&](const std::string& name, const std::string& head) {
    const std::string path = d.file(name);
    table_test::spit(path, head);
    REQUIRE(truncate(path.c_str(), off_t(512) << 20) == 0);  // 512 MiB, read as zeros
    return path;
  };
  const auto t0 = std::chrono::steady_clock::now();
  table_test::require_one_line_error(run_gonu(args + sparse("zeros.dfpn", "")), "not a df-pn proofs file");
  const std::string head = "gonu-dfpn-table 1\nboard 5x2\nrules 5x2/line/nocorner/superko/black\ncounts 0 0 0\n";
  table_test::require_one_line_error(run_gonu(args + sparse("head.dfpn", head)), "damaged");
  table_test::require_one_line_error(run_gonu(args + sparse("other.dfpn", "gonu-dfpn-table 1\nboard 4x4\n")),
                                     "written for other rules");
  const auto cert = run_gonu("check-certificate '" + sparse("zeros.cert", "") + "'");
  INFO(cert.out << cert.err);
  REQUIRE(cert.code == 1);
  REQUIRE(table_test::contains(cert.out + cert.err, "a word of over 4096 bytes"));
  // Each read a few bytes, not 512 MiB (which took seconds and a gigabyte).
  REQUIRE(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
}

TEST_CASE("dfpn table: the layer pass, then a certificate run resumed from its proofs, the proof checked",
          "[superko][dfpn][dfpn-table][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn"), cert = d.file("t.cert");
  const std::string args = "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --dfpn-table " + path;
  // With the attractors' values and the symmetries: stopped, its proofs saved.
  REQUIRE(run_gonu(args + " --dfpn-layer 2-2 --max-nodes 3000").code == 3);
  const std::size_t first = table_test::slurp(path).size();
  // Without them (certificate mode), from the saved proofs: stopped again twice at 6,000 expansions
  // (a third of each run goes to a search of its own beside the one over the file's facts), then
  // decided by the next run, and the proof, walked through loaded entries, is accepted.
  REQUIRE(run_gonu(args + " --max-nodes 6000 --certificate " + cert).code == 3);
  REQUIRE(run_gonu(args + " --max-nodes 6000 --certificate " + cert).code == 3);
  const auto r = run_gonu(args + " --max-nodes 6000 --certificate " + cert);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(table_test::contains(r.out, "LOSS for black"));
  REQUIRE(table_test::slurp(path).size() > first);
  REQUIRE(check_text(table_test::slurp(cert)).ok);
}

// One solve_rounds of g on `threads` threads: its outcome and its table's text.
struct RoundsRun {
  DfpnOutcome outcome;
  DfpnStats stats;
  std::string table;
};

RoundsRun solve_on_threads(const BanFreeOracle& o, const FreshValues* fresh, const Game& g, const DfpnOptions& opt,
                           int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  DfpnSearch s(o, fresh, opt);
  RoundsRun r;
  r.outcome = s.solve_rounds(g);
  r.stats = s.stats();
  r.table = format_dfpn_table(o.rules, s.proofs());
  return r;
}

TEST_CASE("dfpn threads: values with 1, 2 and 4 threads agree with the negamax, tables and counts the same",
          "[superko][dfpn][dfpn-threads]") {
  std::mt19937_64 rng(41);
  int compared = 0, with_jobs = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Game g = random_tiny_game(rng, trial);
    const SkValue ref = reference_value(g, 4'000);
    if (ref == SkValue::unknown) continue;
    const BanFreeOracle o = make_banfree_oracle(g);
    const FreshValues fresh = solve_fresh_values(o);
    DfpnOptions opt;
    opt.round_nodes = 1;  // rounds of jobs from the first expansions on
    opt.round_jobs = 3;
    opt.symmetry = trial % 2 == 0;  // odd trials as for a certificate: no symmetry, no fresh values
    opt.banfree_leaves = false;     // so that most searches take more than a round
    opt.max_nodes = 5'000;
    const FreshValues* f = opt.symmetry ? &fresh : nullptr;
    INFO(format_position(g.board, current(g)) << " after " << g.moves.size() << " moves");
    const RoundsRun one = solve_on_threads(o, f, g, opt, 1);
    if (one.outcome.value != SkValue::unknown) REQUIRE(one.outcome.value == ref);
    for (int threads : {2, 4}) {
      const RoundsRun more = solve_on_threads(o, f, g, opt, threads);
      REQUIRE(more.outcome.value == one.outcome.value);
      REQUIRE(more.outcome.nodes == one.outcome.nodes);
      REQUIRE(more.stats.nodes == one.stats.nodes);
      REQUIRE(more.stats.hits == one.stats.hits);
      REQUIRE(more.stats.exact == one.stats.exact);
      REQUIRE(more.table == one.table);
    }
    compared += one.outcome.value != SkValue::unknown;
    if (one.outcome.nodes > opt.round_nodes + 1) ++with_jobs;  // past the first round: jobs ran
  }
  REQUIRE(compared >= 40);
  REQUIRE(with_jobs >= 5);
}

TEST_CASE("dfpn threads: a node budget bounds the rounds, and the search then finishes the value",
          "[superko][dfpn][dfpn-threads]") {
  const Game g = test::start_game("soldiers", 5, 2);
  const BanFreeOracle o = make_banfree_oracle(g);
  DfpnOptions opt;
  opt.round_nodes = 64;
  opt.max_nodes = 1'000;
  DfpnSearch s(o, nullptr, opt);
  const DfpnOutcome first = s.solve_rounds(g);
  REQUIRE(first.value == SkValue::unknown);
  REQUIRE(first.stop == "node budget");
  REQUIRE(first.nodes >= 1'000);
  REQUIRE(first.nodes <= 1'000 + 16);  // each call may pass its budget by one expansion
  s.set_max_nodes(0);
  REQUIRE(s.solve_rounds(g).value == SkValue::loss);  // White wins 5x2
}

TEST_CASE("dfpn threads: a time budget stops the rounds and says so", "[superko][dfpn][dfpn-threads]") {
  const Game g = test::start_game("soldiers", 4, 3);  // not proven within thousands of expansions
  const BanFreeOracle o = make_banfree_oracle(g);
  DfpnOptions opt;
  opt.max_seconds = 0.2;
  opt.round_nodes = 256;  // many rounds, jobs among them, within the budget
  DfpnSearch s(o, nullptr, opt);
  const auto t0 = std::chrono::steady_clock::now();
  const DfpnOutcome r = s.solve_rounds(g);
  REQUIRE(r.value == SkValue::unknown);
  REQUIRE(r.stop == "time budget");
  REQUIRE(r.nodes > 256);
  REQUIRE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 2.0);
}

TEST_CASE("dfpn layer: a time budget stops its rounds, a round's late jobs included, and says so",
          "[superko][dfpn][dfpn-threads]") {
  // One thread: the round's 16 jobs run one after another, and each must get what is left of the
  // budget, not the whole of it (16 times 2 s would pass the bound below). The budget counts from
  // the pass's start, its decoding of the layer included, which under ASan on a busy 2-core
  // machine once took all of a 0.3 s budget: 2 s leave the first round room to start.
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const BanFreeOracle o = make_banfree_oracle(test::start_game("soldiers", 3, 4));
  const FreshValues fresh = solve_fresh_values(o);
  DfpnOptions opt;
  opt.max_nodes = 0;  // no node budget: a class that is not proven runs until the time is spent
  opt.max_seconds = 2.0;
  const auto t0 = std::chrono::steady_clock::now();
  const DfpnLayerReport rep = dfpn_entry_layer(o, fresh, 2, 2, opt);
  REQUIRE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 10.0);
  REQUIRE(rep.stop == "time budget");
  REQUIRE(rep.classes_run == 16);  // the first round; no round starts after the budget ran out
  REQUIRE(rep.classes == 99);  // 198 under the board symmetries alone, halved by the colour swap
  REQUIRE(rep.win + rep.loss < rep.classes_run);
}

TEST_CASE("dfpn threads: gonu solve prints and saves the same with --threads 1 and 2 (the layer, the root, their certificates)",
          "[superko][dfpn][dfpn-threads][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::vector<std::string> runs = {
      // 103 classes: seven rounds of 16, 91 classes left open within 20 expansions each; the decided
      // ones proven again (one thread) for the layer's certificate (format 8)
      "solve --rules corner --board 4x3 --no-strategy --no-search --dfpn-layer 2-2 --max-nodes 20 --quiet",
      // a complete root search whose rounds have jobs (5x2 takes more than one round of 4,096)
      "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet"};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string t1 = d.file("t1-" + std::to_string(i)), t2 = d.file("t2-" + std::to_string(i));
    const std::string c = d.file("c-" + std::to_string(i));  // one path: the printed note names it
    const auto one = run_gonu(runs[i] + " --threads 1 --dfpn-table " + t1 + " --certificate " + c);
    const std::string cert = table_test::slurp(c);
    const auto two = run_gonu(runs[i] + " --threads 2 --dfpn-table " + t2 + " --certificate " + c);
    INFO(runs[i] << "\n" << one.out << one.err);
    REQUIRE(one.code == (i == 0 ? 3 : 0));
    REQUIRE(two.code == one.code);
    REQUIRE(two.out == one.out);
    REQUIRE(table_test::slurp(t2) == table_test::slurp(t1));
    REQUIRE(table_test::contains(one.out, i == 0 ? "91 classes open" : "LOSS for black"));
    REQUIRE(cert.rfind("gonu-superko-certificate 8\n", 0) == 0);
    REQUIRE(table_test::slurp(c) == cert);
    REQUIRE(check_text(cert).ok);
  }
}

}  // namespace
}  // namespace gonu
