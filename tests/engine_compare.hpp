// What the engine tests share: a solve with a named engine, and the check that two solutions
// hold the same states, values, distances and counts.
#pragma once
#include <catch2/catch.hpp>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"

namespace gonu::test {

inline Solution solve_with(const Game& g, Engine e, bool compact_result = false) {
  SolveOptions o;
  o.engine = e;
  o.compact_result = compact_result;
  return solve(g, o);
}

inline void check_same(const Solution& x, const Solution& y) {
  CHECK(x.root_key == y.root_key);
  CHECK(x.keys.size() == y.keys.size());
  CHECK(x.states == y.states);
  CHECK(x.edges == y.edges);
  CHECK(x.levels == y.levels);
  CHECK(x.wins == y.wins);
  CHECK(x.losses == y.losses);
  CHECK(x.draws == y.draws);
  CHECK(x.max_dist == y.max_dist);
  CHECK(x.keys == y.keys);
  CHECK(x.value == y.value);
  CHECK(x.dist == y.dist);
}

}  // namespace gonu::test
