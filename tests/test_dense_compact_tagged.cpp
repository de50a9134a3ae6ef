// The compact tagged engine (solver/julgonu/dense/compact_tagged.cpp: memory per reachable state) against
// the dense tagged engine and the state-graph engine: the same states, values, distances and
// counts for every tagged rule set, from the start and from other roots; its compact form
// (Solution::source) read over every range and searched for every key equals its arrays; the
// same results for 1 and 2 threads; and its memory checks refuse with one clear line.
// A hidden [.bench] case times one 4x4 solve (tests/CMakeLists.txt runs none of them).
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/estimate.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"
#include "solver/julgonu/solve.hpp"
#include "tests/engine_compare.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;
using gonu::test::named_on;
using gonu::test::check_same;
using gonu::test::solve_with;

namespace {

// The compact form against the arrays: the counts, every state read in one range, in ranges of
// random lengths, and found by its key, a sample read one at a time; keys of no state not found.
void check_source(const Solution& src, const Solution& arrays) {
  REQUIRE(src.source);
  CHECK(src.keys.empty());
  const std::uint64_t n = arrays.keys.size();
  REQUIRE(src.states == n);
  CHECK(src.root_key == arrays.root_key);
  CHECK(src.edges == arrays.edges);
  CHECK(src.levels == arrays.levels);
  CHECK(src.wins == arrays.wins);
  CHECK(src.losses == arrays.losses);
  CHECK(src.draws == arrays.draws);
  CHECK(src.max_dist == arrays.max_dist);
  std::vector<Key> keys(n);
  std::vector<Value> value(n);
  std::vector<std::uint16_t> dist(n);
  read_states(src, 0, n, keys.data(), value.data(), dist.data());
  CHECK((keys == std::vector<Key>(arrays.keys.begin(), arrays.keys.end())));
  CHECK((value == std::vector<Value>(arrays.value.begin(), arrays.value.end())));
  CHECK((dist == std::vector<std::uint16_t>(arrays.dist.begin(), arrays.dist.end())));
  std::mt19937_64 rng(11);
  std::uint64_t bad = 0;
  for (std::uint64_t lo = 0; lo < n;) {
    const std::uint64_t hi = std::min(n, lo + 1 + rng() % 700);
    std::fill(keys.begin(), keys.begin() + std::ptrdiff_t(hi - lo), 0);
    src.source->read(lo, hi, keys.data(), value.data(), dist.data());
    for (std::uint64_t i = lo; i < hi; ++i)
      bad += keys[i - lo] != arrays.keys[i] || value[i - lo] != arrays.value[i] || dist[i - lo] != arrays.dist[i];
    lo = hi;
  }
  CHECK(bad == 0);
  std::uint64_t lost = 0, wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto at = find_state(src, arrays.keys[i]);
    lost += !at;
    wrong += at && *at != i;
    if (i % 17) continue;  // one at a time (a board's set-up per state): a sample
    const StateValue v = state_value(src, i);
    wrong += v.value != arrays.value[i] || v.dist != arrays.dist[i];
  }
  CHECK(lost == 0);
  CHECK(wrong == 0);
  // Keys of no state: between two keys, past the last, another tag, garbage.
  std::uint64_t found = 0;
  for (std::uint64_t i = 0; i + 1 < n; i += 97)
    if (arrays.keys[i] + 1 < arrays.keys[i + 1]) found += bool(find_state(src, arrays.keys[i] + 1));
  found += bool(find_state(src, arrays.keys[n - 1] + 1));
  found += bool(find_state(src, ~Key(0) >> 1));
  CHECK(found == 0);
}

// The tagged rule sets: encyclopedia (immediate, capture line), undo, and encyclopedia with
// single capture, with and without the corner rule.
std::vector<Rules> tagged_sets(int rows, int cols) {
  return {named_on("encyclopedia", rows, cols), named_on("undo", rows, cols),
          make_rules(Capture::single, false, Repetition::immediate, rows, cols),
          make_rules(Capture::single, true, Repetition::immediate, rows, cols)};
}

// Every engine's result on one root: compact (arrays and source), dense and graph.
void check_engines(const Game& g) {
  const Solution compact = solve_with(g, Engine::compact), dense = solve_with(g, Engine::dense);
  REQUIRE(compact.keys.size() > 100);
  check_same(compact, dense);
  check_same(compact, solve_with(g, Engine::graph));
  check_source(solve_with(g, Engine::compact, true), dense);
}

}  // namespace

TEST_CASE("the compact tagged engine agrees with the dense and graph engines from the start", "[solver][compact]") {
  // Every rule set on 3x3, and on one of 3x4 and 4x3 (each board two of them): the 3x4 and 4x3
  // solves of all three engines are most of the suite's time, and what they add over 3x3 (rows
  // and columns unequal, each way) is had from half of them.
  for (const auto& [rows, cols] : {std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 3}}) {
    const std::vector<Rules> sets = tagged_sets(rows, cols);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      if (rows != cols && k % 2 != std::size_t(rows == 4)) continue;
      INFO(describe(sets[k]));
      check_engines(new_game(sets[k], start_position(make_board(rows, cols), sets[k].first)));
    }
  }
}

TEST_CASE("the compact tagged engine agrees with the dense and graph engines from other roots", "[solver][compact]") {
  // Asymmetric roots (the mirror off), uneven material, and roots with a history tag.
  // Each root under two of the four rule sets, each rule set from at least one of the roots.
  const Board b = make_board(4, 3);
  const std::vector<Rules> sets = tagged_sets(4, 3);
  const char* const roots[] = {"x1x/1w1/x1w/ww1 w", ".xx/x2/w2/ww. x", "x2/1x1/3/www x"};
  for (std::size_t j = 0; j < 3; ++j)
    for (const std::size_t k : {j, (j + 2) % 4}) {
      INFO(describe(sets[k]) << " from " << roots[j]);
      check_engines(new_game(sets[k], parse_position(b, roots[j])));
    }
  for (const char* name : {"encyclopedia", "undo"}) {
    const Rules r = named_on(name, 4, 3);
    Game g = new_game(r, start_position(b, r.first));
    for (const char* text : {"a4-a3", "a1-a2", "b4-b3"}) play(g, parse_move(b, r, current(g), text, legal_moves(g)));
    INFO(name << " after a4-a3 a1-a2 b4-b3");
    REQUIRE_FALSE(g.tag.empty());
    check_engines(g);
  }
}

TEST_CASE("the compact tagged engine gives the same solution for 1 and 2 threads", "[solver][compact]") {
  for (const Rules& r : {named_on("encyclopedia", 4, 3), named_on("undo", 3, 4)}) {
    INFO(describe(r));
    const Game g = new_game(r, start_position(make_board(r.rows, r.cols), r.first));
    Solution one, two;
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
      one = solve_with(g, Engine::compact);
    }
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
      two = solve_with(g, Engine::compact);
    }
    check_same(one, two);
  }
}

TEST_CASE("the compact tagged engine refuses what does not fit its limit", "[solver][compact]") {
  const Rules r = named_on("encyclopedia", 4, 3);
  const Board board = make_board(4, 3);
  const Game g = new_game(r, start_position(board, r.first));
  SolveOptions o;
  o.engine = Engine::compact;
  o.max_memory = 1 << 10;  // not even the bitmap
  // The engine's own checks (solve() refuses sooner, by its estimate: test_dense_compact.cpp).
  CHECK_THROWS_WITH(solve_compact_tagged(g, o), Catch::Contains("tag slots") && Catch::Contains("more than the limit"));
  // The bitmap and board tables fit, the reached states' cells do not: refused during the reach
  // (end_level's check, as the states' cells add up) or right after it.
  const Position root = current(g);
  const dense::TaggedSpace space(board, root, pack_tag(board, g.tag));
  o.max_memory = dense::RankedBits::bytes_for(space.size()) + space.bytes() + space.board_ids() * 4 + 1;
  const std::uint64_t states = solve_with(g, Engine::dense).states;
  REQUIRE(states > 1000);
  CHECK_THROWS_WITH(solve_compact_tagged(g, o), Catch::Contains("states") && Catch::Contains("limit"));
  const Game untagged = new_game(named_on("free", 3, 3), start_position(make_board(3, 3), Side::black));
  CHECK_THROWS_WITH(solve_compact_tagged(untagged), Catch::Contains("only repetition immediate or undo"));
}

TEST_CASE("the memory estimate offers the compact engine for the tagged rule sets", "[solver][compact]") {
  const Rules r = named_on("encyclopedia", 4, 4);
  CHECK(dense::compact_engine_applies(r));
  CHECK(dense::compact_engine_applies(named_on("undo", 5, 5)));
  CHECK_FALSE(dense::compact_engine_applies(named_on("undo", 4, 7)));
  const Game g = new_game(r, start_position(make_board(4, 4), r.first));
  SolveOptions o;
  o.engine = Engine::compact;
  o.compact_result = true;
  const MemoryEstimate compact = estimate_memory(g, o);
  o.engine = Engine::dense;
  const MemoryEstimate dense = estimate_memory(g, o);
  CHECK(compact.engine == Engine::compact);
  CHECK(compact.bytes < dense.bytes / 2);
}

// GONU_BENCH_RULES (encyclopedia, undo) on 4x4 with GONU_BENCH_ENGINE (dense, compact) and
// GONU_BENCH_SOURCE=1 for the compact form; run alone, under /usr/bin/time -v for the peak.
TEST_CASE("bench: one 4x4 tagged solve", "[.bench]") {
  const char* rules = std::getenv("GONU_BENCH_RULES");
  const char* engine = std::getenv("GONU_BENCH_ENGINE");
  const char* source = std::getenv("GONU_BENCH_SOURCE");
  const Rules r = named_on(rules ? rules : "encyclopedia", 4, 4);
  const Game g = new_game(r, start_position(make_board(4, 4), r.first));
  const bool compact = engine && std::string(engine) == "compact";
  const auto start = std::chrono::steady_clock::now();
  const Solution s = solve_with(g, compact ? Engine::compact : Engine::dense, source && std::string(source) == "1");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << describe(r) << ", engine " << (compact ? "compact" : "dense") << ": " << state_count(s)
            << " states, " << s.wins << " wins, " << s.losses << " losses, " << s.draws << " draws, " << secs
            << " s, peak estimate " << (s.peak_bytes >> 20) << " MiB\n";
  CHECK(state_count(s) > 0);
}

TEST_CASE("RankedBits' counts, tests and word sets agree with a plain bitmap", "[solver][compact]") {
  std::mt19937_64 rng(5);
  const std::uint64_t n = 5000;
  dense::RankedBits bits(n);
  std::vector<bool> plain(n);
  for (int i = 0; i < 600; ++i) {
    const std::uint64_t id = rng() % n;
    CHECK(bits.claim(id) == !plain[id]);
    plain[id] = true;
  }
  bits.set_word(40, 0x8000000000000001u);  // ids 2560 and 2623
  plain[2560] = plain[2623] = true;
  std::uint64_t total = 0;
  for (const bool x : plain) total += x;
  REQUIRE(bits.finish() == total);
  std::uint64_t bad = 0;
  for (int i = 0; i < 3000; ++i) {
    std::uint64_t lo = rng() % (n + 1), hi = rng() % (n + 1);
    if (i % 3 == 0) hi = std::min(n, lo + rng() % 70);  // short ranges, within one word or two
    if (lo > hi) std::swap(lo, hi);
    std::uint64_t c = 0;
    for (std::uint64_t id = lo; id < hi; ++id) c += plain[id];
    bad += bits.count(lo, hi) != c || bits.any(lo, hi) != (c > 0);
  }
  CHECK(bad == 0);
}
