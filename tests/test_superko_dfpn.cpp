// Df-pn over the full superko history (solver/superko/dfpn.hpp, SUPERKO.md F12): every value it
// proves on random tiny positions agrees with the plain full-history negamax
// (tests/reference/superko_negamax.hpp), with the conditional table on, off, capped to tiny proofs,
// and bounded so that it is collected; on the 3x3 `corner` 2-2 layer, every capture-entry value it
// proves agrees with the SAT strategies' (entry_layers.hpp) wherever both decide; the node and time
// budgets leave values unknown (the same search then finishes them); its proofs, written as format 1,
// pass the checker (random tiny positions, 5x2, and 3x4 from the start, where the memoryless strategy
// agrees); the proofs file (dfpn_table.hpp): a run resumed from it gets further and proves the same
// value, and a damaged, mismatched or unwritable one is refused; the command line; on threads
// (solve_rounds, the layer's rounds): values with 1, 2 and 4 threads agree with the negamax and
// with each other, and the tables, counts, printed reports, certificates and saved files are the
// same; node and time budgets bound the rounds.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <optional>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/julgonu/game.hpp"
#include "checker/certificate_check.hpp"
#include "solver/superko/banfree.hpp"
#include "solver/superko/dfpn.hpp"
#include "solver/superko/dfpn_table.hpp"
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
  for (int trial = 0; trial < 120; ++trial) {
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
  const Game g = test::start_game("soldiers", 5, 2);
  const BanFreeOracle o = make_banfree_oracle(g);
  const FreshValues fresh = solve_fresh_values(o);
  DfpnSearch whole(o, &fresh, DfpnOptions{});
  const DfpnOutcome single = whole.solve(g);
  REQUIRE(single.value == SkValue::loss);  // White wins 5x2
  REQUIRE(single.nodes > 5'000);           // so that 5,000 nodes do not decide it at once
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn");
  std::size_t first = 0, second = 0, third = 0;
  REQUIRE(run_with_table(o, fresh, path, 1'000, first).value == SkValue::unknown);
  REQUIRE(first > 0);
  REQUIRE(run_with_table(o, fresh, path, 1'000, second).value == SkValue::unknown);
  REQUIRE(second > first);  // the second run starts with the first one's proofs
  const std::string p2 = d.file("u.dfpn");
  REQUIRE(run_with_table(o, fresh, p2, 5'000, first).value == SkValue::unknown);
  REQUIRE(run_with_table(o, fresh, p2, 5'000, second).value == single.value);  // decided, the same value
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

TEST_CASE("dfpn table: the layer pass, then a certificate run resumed from its proofs, the proof checked",
          "[superko][dfpn][dfpn-table][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::string path = d.file("t.dfpn"), cert = d.file("t.cert");
  const std::string args = "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --dfpn-table " + path;
  // With the attractors' values and the symmetries: stopped, its proofs saved.
  REQUIRE(run_gonu(args + " --dfpn-layer 2-2 --max-nodes 3000").code == 3);
  const std::size_t first = table_test::slurp(path).size();
  // Without them (certificate mode), from the saved proofs: stopped again at 6,000 expansions, then
  // decided by the next run, and the proof, walked through loaded entries, is accepted.
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

TEST_CASE("dfpn threads: gonu solve prints and saves the same with --threads 1 and 2 (the layer, the root, its certificate)",
          "[superko][dfpn][dfpn-threads][cli]") {
  using table_test::run_gonu;
  table_test::TempDir d;
  const std::vector<std::string> runs = {
      // 28 classes: two rounds of 16, 14 classes left open within 50 expansions each
      "solve --rules corner --board 3x3 --no-strategy --no-search --dfpn-layer 2-2 --max-nodes 50 --quiet",
      // a complete root search whose rounds have jobs (5x2 takes more than one round of 4,096)
      "solve --rules soldiers --board 5x2 --no-strategy --search dfpn --quiet --certificate " + d.file("c")};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string t1 = d.file("t1-" + std::to_string(i)), t2 = d.file("t2-" + std::to_string(i));
    const auto one = run_gonu(runs[i] + " --threads 1 --dfpn-table " + t1);
    const std::string cert = i == 1 ? table_test::slurp(d.file("c")) : "";
    const auto two = run_gonu(runs[i] + " --threads 2 --dfpn-table " + t2);
    if (i == 1) REQUIRE(table_test::slurp(d.file("c")) == cert);
    INFO(runs[i] << "\n" << one.out << one.err);
    REQUIRE(one.code == (i == 0 ? 3 : 0));
    REQUIRE(two.code == one.code);
    REQUIRE(two.out == one.out);
    REQUIRE(table_test::slurp(t2) == table_test::slurp(t1));
    REQUIRE(table_test::contains(one.out, i == 0 ? "14 classes open" : "LOSS for black"));
  }
}

}  // namespace
}  // namespace gonu
