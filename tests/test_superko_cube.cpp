// Cube and conquer (solver/julgonu/superko/cube.hpp): the strategy tree level by level with its searches
// in parallel. The proof must not depend on the thread count; a run stopped after k searches and
// resumed from its file must end with the proof of an uninterrupted run; the resume file refuses
// another instance and ignores a last line cut off by a kill; values agree with the plain
// full-history negamax and every certificate is accepted by the independent checker.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "checker/certificate_check.hpp"
#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/cube_resume.hpp"
#include "solver/julgonu/superko/superko.hpp"
#include "tests/reference/superko_negamax.hpp"
#include "tests/table_test_util.hpp"
#include "tests/test_support.hpp"

namespace gonu {
using gonu::test::negamax;
using gonu::test::random_tiny_game;
using gonu::test::start_game;

namespace {

namespace fs = std::filesystem;
using table_test::contains;
using table_test::Result;
using table_test::run_gonu;
using table_test::slurp;
using table_test::TempDir;

// 4x3 `soldiers` after a4-a3: White to move has no strategy, Black has one after each reply (the
// known two-ply case, one ply in): 8 searches, a few seconds.
Game after_a4a3() {
  Game g = start_game("soldiers", 4, 3);
  play_history(g, "a4-a3");
  return g;
}

SuperkoOptions cube_options(int depth, const std::string& resume = "", std::uint64_t max_searches = 0) {
  SuperkoOptions o;
  o.search = false;
  o.certificate = true;
  o.cube = true;
  o.strategy_depth = depth;
  o.resume = resume;
  o.max_searches = max_searches;
  return o;
}

SuperkoResult solve_with_threads(const Game& g, const SuperkoOptions& o, int threads) {
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  return solve_superko(g, o);
}

bool checker_accepts(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in).ok;
}

// A fresh file name under the test's temporary folder (removed first).
std::string temp_file(const char* name) {
  const fs::path p = fs::temp_directory_path() / (std::string("gonu_cube_") + name);
  fs::remove(p);
  return p.string();
}


// The uninterrupted run every other test compares with (1 thread).
const SuperkoResult& reference() {
  static const SuperkoResult r = solve_with_threads(after_a4a3(), cube_options(1), 1);
  return r;
}

}  // namespace

TEST_CASE("cube: 4x3 after a4-a3 is a Black win, the same proof with 1 and 2 threads, tampering found", "[superko][cube][certificate]") {
  const SuperkoResult& one = reference();
  REQUIRE(one.value == SkValue::loss);  // for White, to move
  REQUIRE(one.method == "strategy tree");
  REQUIRE(one.certificate_version == 3);
  REQUIRE(one.cube.nodes_per_depth == std::vector<std::uint64_t>{1, 3});
  REQUIRE(one.cube.run == 8);  // both sides at the root and at each of White's three replies
  REQUIRE(one.cube.found == 3);
  REQUIRE(one.strategies.size() == 2);
  REQUIRE(one.strategies[0].winner == "white");  // the side to move first
  REQUIRE(checker_accepts(one.certificate));
  const SuperkoResult two = solve_with_threads(after_a4a3(), cube_options(1), 2);
  REQUIRE(two.value == one.value);
  REQUIRE(two.certificate == one.certificate);
  REQUIRE(two.cube.run == one.cube.run);
  REQUIRE(two.cube.found == one.cube.found);
  // The plain tree (depth first) finds the same proof here: each of White's replies needs a strategy.
  SuperkoOptions plain = cube_options(1);
  plain.cube = false;
  REQUIRE(solve_superko(after_a4a3(), plain).certificate == one.certificate);
  // Tampered: two replies' strategies exchanged is a FLAW.
  std::vector<std::string> t = test::tokens(one.certificate);
  const std::size_t tree = std::size_t(std::find(t.begin(), t.end(), "tree") - t.begin());
  REQUIRE(t.at(tree + 1) == "L");
  REQUIRE(t.at(tree + 2) == "3");
  std::swap(t.at(tree + 3), t.at(tree + 6));
  REQUIRE_FALSE(checker_accepts(test::join(t)));
}

TEST_CASE("cube: a run stopped after k searches and resumed ends with the uninterrupted run's proof",
          "[superko][cube][certificate]") {
  for (std::uint64_t k : {1, 3}) {
    INFO("stopped after " << k);
    const std::string file = temp_file("stop.resume");
    const SuperkoResult first = solve_with_threads(after_a4a3(), cube_options(1, file, k), 2);
    REQUIRE(first.value == SkValue::unknown);
    REQUIRE(first.cube.stopped);
    REQUIRE(first.cube.run == k);
    REQUIRE(first.stop_reason == "strategy search limit");
    const SuperkoResult second = solve_with_threads(after_a4a3(), cube_options(1, file), 2);
    REQUIRE(second.cube.resumed == k);
    REQUIRE(second.cube.run + k == reference().cube.run);
    REQUIRE(second.value == reference().value);
    REQUIRE(second.certificate == reference().certificate);
    // A third run finds every search in the file and runs none.
    const SuperkoResult third = solve_with_threads(after_a4a3(), cube_options(1, file), 1);
    REQUIRE(third.cube.run == 0);
    REQUIRE(third.certificate == reference().certificate);
    fs::remove(file);
  }
}

TEST_CASE("cube: a last line cut off by a kill is ignored, and the search it held is run again",
          "[superko][cube]") {
  const std::string file = temp_file("cut.resume");
  const SuperkoResult whole = solve_with_threads(after_a4a3(), cube_options(1, file), 2);
  std::string text = slurp(file);
  // Cut the last record in the middle, as a kill during its write would.
  const std::size_t last = text.rfind('\n', text.size() - 2) + 1;
  text.resize(last + (text.size() - last) / 2);
  { std::ofstream(file, std::ios::binary | std::ios::trunc) << text; }
  const SuperkoResult again = solve_with_threads(after_a4a3(), cube_options(1, file), 2);
  REQUIRE(again.cube.run == 1);
  REQUIRE(again.cube.resumed == whole.cube.run - 1);
  REQUIRE(again.certificate == whole.certificate);
  // The fragment was cut off before the new record: every line is whole and reads back.
  const std::string fixed = slurp(file);
  REQUIRE(fixed.back() == '\n');
  REQUIRE(fixed.find(text.substr(last)) == std::string::npos);
  REQUIRE(solve_with_threads(after_a4a3(), cube_options(1, file), 1).cube.run == 0);
  fs::remove(file);
}

TEST_CASE("cube: a resume file of another instance or a garbled one is refused", "[superko][cube]") {
  const std::string file = temp_file("other.resume");
  Game corner = start_game("corner", 4, 3);
  play_history(corner, "a4-a3");
  {  // the header alone: no search needed to write it
    std::ofstream(file) << resume_header(corner, StrategyMethod::injective, -1);
  }
  const auto refused = [&](const Game& g, const SuperkoOptions& o, const std::string& what) {
    try {
      solve_superko(g, o);
    } catch (const GonuError& e) {
      INFO(e.what());
      REQUIRE(std::string(e.what()).find(what) != std::string::npos);
      REQUIRE(std::string(e.what()).find('\n') == std::string::npos);
      return true;
    }
    return false;
  };
  REQUIRE(refused(after_a4a3(), cube_options(1, file), "another instance"));
  SuperkoOptions lazy = cube_options(1, file);
  lazy.strategy_method = StrategyMethod::lazy;
  REQUIRE(refused(corner, lazy, "another instance"));  // same game, another method
  { std::ofstream(file) << resume_header(after_a4a3(), StrategyMethod::injective, -1) << "search a4-a3 black\n"; }
  REQUIRE(refused(after_a4a3(), cube_options(1, file), "line 7: not a search record"));
  { std::ofstream(file) << "something else\n"; }
  REQUIRE(refused(after_a4a3(), cube_options(1, file), "not a gonu resume file"));
  fs::remove(file);
}

TEST_CASE("cube: resume records read back as written, a budget record is retried only under a larger budget",
          "[superko][cube]") {
  CubeRecord r;
  r.path = "a4-a3,b1-b2";
  r.side = Side::white;
  r.status = StrategyStatus::found;
  r.seconds = 1.25;
  r.budget = 30;
  r.variables = 10;
  r.clauses = 20;
  r.reach = 5;
  r.paired = 2;
  r.ranked = 1;
  r.version = 4;
  r.note = "a note with spaces";
  r.block = "strategy 1\nxx/2/ww w a1-a2\nranked 0\n";
  const std::string line = format_record(r);
  REQUIRE(line.back() == '\n');
  REQUIRE(std::count(line.begin(), line.end(), '\n') == 1);
  const std::optional<CubeRecord> back = parse_record(line.substr(0, line.size() - 1));
  REQUIRE(back);
  REQUIRE(format_record(*back) == line);
  REQUIRE(back->block == r.block);
  REQUIRE(back->note == r.note);
  REQUIRE_FALSE(parse_record(line.substr(0, line.size() / 2)));  // a cut record does not parse by chance here
  CubeRecord b = r;
  b.status = StrategyStatus::budget;
  b.block.clear();
  REQUIRE(record_answers(b, 30));
  REQUIRE(record_answers(b, 10));
  REQUIRE_FALSE(record_answers(b, 60));
  REQUIRE_FALSE(record_answers(b, 0));  // no budget now: search again
  REQUIRE(record_answers(r, 0));        // a final answer stands under any budget
  // End to end: a tiny budget leaves the root's searches at "budget"; without a budget they run again.
  const std::string file = temp_file("budget.resume");
  SuperkoOptions tight = cube_options(0, file);
  tight.strategy_seconds = 0.001;
  const SuperkoResult first = solve_superko(after_a4a3(), tight);
  REQUIRE(first.cube.run == 2);
  const SuperkoResult second = solve_superko(after_a4a3(), cube_options(0, file));
  REQUIRE(second.cube.resumed == first.cube.run - first.cube.budget);
  REQUIRE(second.cube.budget == 0);
  REQUIRE(second.cube.none == 2);
  fs::remove(file);
}

TEST_CASE("cube: proven values agree with the full-history negamax, with checked certificates",
          "[superko][cube][certificate]") {
  std::mt19937_64 rng(11);
  int proven = 0, compared = 0, trees = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Game g = random_tiny_game(rng, trial);
    const Board& b = g.board;
    std::uint64_t budget = 40'000;
    Game copy = g;
    const std::optional<bool> ref = negamax(copy, budget);
    if (!ref) continue;
    ++compared;
    SuperkoOptions o = cube_options(2);
    o.strategy_layers = 0;  // confined: fewer root strategies, so more trees
    const SuperkoResult one = solve_with_threads(g, o, 1);
    const SuperkoResult two = solve_with_threads(g, o, 2);
    INFO(format_position(b, current(g)) << " after " << g.moves.size() << " moves");
    REQUIRE(two.value == one.value);
    REQUIRE(two.certificate == one.certificate);
    if (one.value == SkValue::unknown) continue;
    ++proven;
    trees += one.method == "strategy tree";
    REQUIRE(one.value == (*ref ? SkValue::win : SkValue::loss));
    REQUIRE(checker_accepts(one.certificate));
  }
  INFO(compared << " compared, " << proven << " proven, " << trees << " by a tree");
  REQUIRE(compared >= 20);
  REQUIRE(proven >= 10);
  REQUIRE(trees >= 1);
}

TEST_CASE("gonu solve --cube --resume: the report, the search limit, and another instance's file refused",
          "[superko][cube][cli]") {
  TempDir d;
  const std::string f = "'" + d.file("3x3.resume") + "'";
  const Result stopped = run_gonu("solve -r soldiers -b 3x3 -q --cube --max-searches 1 --resume " + f);
  INFO(stopped.out << stopped.err);
  REQUIRE(stopped.code == 3);
  REQUIRE(contains(stopped.out, "NOT PROVEN (stopped by the strategy search limit)"));
  REQUIRE(contains(stopped.out, "searches 1 run, 0 resumed"));
  const Result done = run_gonu("solve -r soldiers -b 3x3 -q --cube --json --resume " + f);
  REQUIRE(done.code == 0);
  const nlohmann::json j = nlohmann::json::parse(done.out);
  REQUIRE(j["method"] == "strategy");
  REQUIRE(j["cube"]["searches"]["run"] == 1);
  REQUIRE(j["cube"]["searches"]["resumed"] == 1);
  REQUIRE(j["cube"]["nodes_per_depth"] == nlohmann::json::array({1}));
  const Result other = run_gonu("solve -r corner -b 3x3 -q --cube --resume " + f);
  REQUIRE(other.code == 1);
  REQUIRE(other.err.rfind("gonu: error: resume file ", 0) == 0);
  REQUIRE(std::count(other.err.begin(), other.err.end(), '\n') == 1);
  REQUIRE(run_gonu("solve -r soldiers -b 3x3 -q --resume " + f).code == 2);  // --resume goes with --cube
}

}  // namespace gonu
