// The compact engine (memory per reachable state, solver/julgonu/dense/compact_untagged.cpp) against the
// dense engine (a cell per id) and the state-graph engine: the same states, values, distances and
// counts on every untagged rule set on 3x3, 3x4, 4x3 and on 4x4 `free`, from the start and from
// other roots; its streamed form (a StateSource, no arrays) read in ranges and looked up by key
// equals its arrays; the same output for 1 and 2 threads. Also RankedBits (rank, select, walk)
// against a plain bit vector.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <random>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/solve.hpp"
#include "tests/engine_compare.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;
using gonu::test::named_on;
using gonu::test::check_same;
using gonu::test::solve_with;

namespace {

std::vector<Rules> untagged_sets(int rows, int cols) {
  return {make_rules(Capture::line, false, Repetition::none, rows, cols),
          make_rules(Capture::line, true, Repetition::none, rows, cols),
          make_rules(Capture::single, false, Repetition::none, rows, cols),
          make_rules(Capture::single, true, Repetition::none, rows, cols)};
}

}  // namespace

TEST_CASE("RankedBits ranks, selects and walks as a plain bit vector does", "[solver][compact]") {
  std::mt19937_64 rng(11);
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(447), std::uint64_t(448), std::uint64_t(5000)}) {
    for (const double density : {0.01, 0.5, 0.97}) {
      dense::RankedBits bits(n);
      std::vector<bool> plain(n);
      std::bernoulli_distribution coin(density);
      for (std::uint64_t i = 0; i < n; ++i)
        if (coin(rng)) {
          plain[i] = true;
          CHECK(bits.claim(i));
          CHECK_FALSE(bits.claim(i));
        }
      const std::uint64_t total = bits.finish();
      std::vector<std::uint64_t> set;
      for (std::uint64_t i = 0; i < n; ++i) {
        CHECK(bits.test(i) == plain[i]);
        if (plain[i]) {
          CHECK(bits.rank(i) == set.size());
          set.push_back(i);
        }
      }
      REQUIRE(total == set.size());
      for (std::uint64_t r = 0; r < total; ++r) CHECK(bits.select(r) == set[r]);
      const std::uint64_t lo = n / 3, hi = n - n / 5;
      std::vector<std::uint64_t> walked, want;
      bits.for_each(lo, hi, [&](std::uint64_t id) { walked.push_back(id); });
      for (const std::uint64_t id : set)
        if (id >= lo && id < hi) want.push_back(id);
      CHECK(walked == want);
    }
  }
}

TEST_CASE("the compact engine agrees with the dense and state-graph engines from the start", "[solver][compact]") {
  std::vector<Rules> sets;
  for (const auto& [rows, cols] : {std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 3}})
    for (const Rules& r : untagged_sets(rows, cols)) sets.push_back(r);
  Rules white_first = named_on("free", 3, 4);
  white_first.first = Side::white;
  sets.push_back(white_first);
  sets.push_back(named_on("free", 5, 2));
  for (const Rules& r : sets) {
    INFO(describe(r));
    const Game g = new_game(r, start_position(make_board(r.rows, r.cols), r.first));
    const Solution compact = solve_with(g, Engine::compact);
    REQUIRE(compact.keys.size() > 100);
    check_same(compact, solve_with(g, Engine::dense));
    check_same(compact, solve_with(g, Engine::graph));
  }
}

TEST_CASE("the compact engine agrees with the dense engine on 4x4 free", "[solver][compact]") {
  const Rules r = named_on("free", 4, 4);
  const Game g = new_game(r, start_position(make_board(4, 4), r.first));
  const Solution compact = solve_with(g, Engine::compact);
  CHECK(compact.keys.size() == 3412738);
  check_same(compact, solve_with(g, Engine::dense));
}

TEST_CASE("the compact engine agrees with the state-graph engine from other roots", "[solver][compact]") {
  const Board b = make_board(4, 4);
  for (const Rules& r : {named_on("free", 4, 4), make_rules(Capture::single, true, Repetition::none, 4, 4)})
    for (const char* text : {"x2x/1w2/x1w1/w3 w", ".xxx/x3/4/www. x", "4/1x2/4/wwww x", "x3/4/4/.w.w w"}) {
      INFO(describe(r) << " from " << text);
      const Game g = new_game(r, parse_position(b, text));
      check_same(solve_with(g, Engine::compact), solve_with(g, Engine::graph));
    }
}

TEST_CASE("the compact engine's streamed result equals its arrays", "[solver][compact]") {
  for (const Rules& r : {named_on("free", 3, 4), make_rules(Capture::single, true, Repetition::none, 4, 3)}) {
    INFO(describe(r));
    const Game g = new_game(r, start_position(make_board(r.rows, r.cols), r.first));
    const Solution arrays = solve_with(g, Engine::compact), streamed = solve_with(g, Engine::compact, true);
    REQUIRE(streamed.source);
    CHECK(streamed.keys.empty());
    const std::uint64_t n = arrays.keys.size();
    REQUIRE(state_count(streamed) == n);
    CHECK(streamed.wins == arrays.wins);
    CHECK(streamed.losses == arrays.losses);
    CHECK(streamed.draws == arrays.draws);
    CHECK(streamed.max_dist == arrays.max_dist);
    CHECK(streamed.edges == arrays.edges);
    // Ranges of every size, and each key looked up.
    std::vector<Key> keys(n);
    std::vector<Value> value(n);
    std::vector<std::uint16_t> dist(n);
    for (std::uint64_t lo = 0, step = 1; lo < n; lo += step, step = step * 3 + 1)
      read_states(streamed, lo, std::min(n, lo + step), &keys[lo], &value[lo], &dist[lo]);
    CHECK(std::equal(keys.begin(), keys.end(), arrays.keys.begin()));
    CHECK(std::equal(value.begin(), value.end(), arrays.value.begin()));
    CHECK(std::equal(dist.begin(), dist.end(), arrays.dist.begin()));
    std::uint64_t found = 0;
    for (std::uint64_t i = 0; i < n; ++i) found += find_state(streamed, arrays.keys[i]) == std::optional<std::size_t>(i);
    CHECK(found == n);
    CHECK_FALSE(find_state(streamed, arrays.keys[n - 1] + 1).has_value());
  }
}

TEST_CASE("the compact engine gives the same solution for 1 and 2 threads", "[solver][compact]") {
  const Rules r = make_rules(Capture::single, true, Repetition::none, 4, 4);
  const Game g = new_game(r, start_position(make_board(4, 4), r.first));
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

TEST_CASE("a solve whose estimate passes the memory limit is refused at once, with the estimate", "[solver][compact]") {
  const Rules r = named_on("free", 4, 4);
  const Game g = new_game(r, start_position(make_board(4, 4), r.first));
  SolveOptions o;
  o.max_memory = 1 << 20;  // 1 MiB: less than any solve's base
  const MemoryEstimate e = estimate_memory(g, o);
  REQUIRE(e.bytes > o.max_memory);
  CHECK_THROWS_WITH(solve(g, o), Catch::Contains("needs an estimated " + std::to_string(e.bytes >> 20) + " MiB") &&
                                     Catch::Contains("the memory limit of 1 MiB"));
  // 5x5 free: the dense engine's arrays and result do not fit 24 GB, so the compact one is picked.
  const Rules big = named_on("free", 5, 5);
  SolveOptions limit;
  limit.max_memory = std::uint64_t(24) << 30;
  const MemoryEstimate five = estimate_memory(new_game(big, start_position(make_board(5, 5), big.first)), limit);
  CHECK(five.engine == Engine::compact);
  CHECK(five.ids == 3204289362);
  CHECK(five.bytes > limit.max_memory);  // with the solution's arrays
  limit.compact_result = true;           // streamed (gonu solve --out)
  CHECK(estimate_memory(new_game(big, start_position(make_board(5, 5), big.first)), limit).bytes < limit.max_memory);
}
