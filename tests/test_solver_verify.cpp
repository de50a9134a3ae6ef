// The solver's results pass the independent re-derivation (verify_values), a corrupted value is
// caught, results do not depend on the thread count, and the published 4x4 numbers come out.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/verify.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::named_on;

namespace {

Solution solve_rules(Rules r) {
  const Board b = make_board(r.rows, r.cols);
  return solve(new_game(r, start_position(b, r.first)));
}

}  // namespace

TEST_CASE("every solved value is re-derived from its successors", "[solver][verify]") {
  std::vector<Rules> sets = {named_on("free", 3, 3), named_on("encyclopedia", 3, 3), named_on("undo", 3, 3), named_on("free", 3, 4),
                             named_on("undo", 4, 3), named_on("free", 5, 2)};
  Rules single = named_on("free", 3, 4);
  single.capture = Capture::single;
  single.corner = true;
  sets.push_back(single);
  Rules line_corner = named_on("encyclopedia", 3, 3);
  line_corner.corner = true;
  sets.push_back(line_corner);
  for (const Rules& r : sets) {
    INFO(describe(r));
    const Solution s = solve_rules(r);
    REQUIRE(s.keys.size() > 10);
    CHECK(s.wins + s.losses + s.draws == s.keys.size());
    const VerifyResult v = verify_values(s.codec, s.keys.data(), s.value.data(), s.dist.data(), s.keys.size());
    CHECK(v.ok);
    CHECK(v.checked == s.keys.size());
  }
}

TEST_CASE("verification catches a wrong value or distance", "[solver][verify]") {
  const Solution s = solve_rules(named_on("free", 3, 4));
  std::vector<Value> value(s.value.begin(), s.value.end());
  std::vector<std::uint16_t> dist(s.dist.begin(), s.dist.end());
  // A decided state's distance off by one.
  std::size_t i = 0;
  while (s.value[i] == Value::draw) ++i;
  dist[i] += 1;
  VerifyResult v = verify_values(s.codec, s.keys.data(), value.data(), dist.data(), s.keys.size());
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.first_error, Catch::Contains("state " + std::to_string(i)));
  dist[i] -= 1;
  // A draw turned into a win.
  std::size_t j = 0;
  while (s.value[j] != Value::draw) ++j;
  value[j] = Value::win;
  dist[j] = 3;
  v = verify_values(s.codec, s.keys.data(), value.data(), dist.data(), s.keys.size());
  CHECK_FALSE(v.ok);
}

TEST_CASE("results are identical for 1 and 2 threads", "[solver][determinism]") {
  for (const Rules& r : {named_on("free", 3, 4), named_on("encyclopedia", 3, 3), named_on("undo", 3, 3)}) {
    INFO(describe(r));
    Solution a, b;
    {
      tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
      a = solve_rules(r);
    }
    {
      tbb::global_control two(tbb::global_control::max_allowed_parallelism, 2);
      b = solve_rules(r);
    }
    CHECK(a.keys == b.keys);
    CHECK(a.value == b.value);
    CHECK(a.dist == b.dist);
    CHECK(a.edges == b.edges);
  }
}

TEST_CASE("4x4 free reproduces the published talvola/abstract_games numbers", "[solver][published]") {
  const Solution s = solve_rules(rules_by_name("free"));
  CHECK(s.keys.size() == 3412738);
  CHECK(s.edges == 21039712);
  CHECK(s.wins == 1315354);
  CHECK(s.losses == 807911);
  CHECK(s.draws == 1289473);
  CHECK(s.value[*find_state(s, s.root_key)] == Value::draw);
}
