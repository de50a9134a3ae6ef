// The dense engine (no keys, no stored edges, predecessors by un-moves) against the state-graph
// engine (hash store, stored edges): the same states, values, distances and counts, from the
// start and from other roots, for every capture rule and repetition rule with a finite graph;
// and the same output for 1 and 2 threads. Also the tagged space's size, counted before anything
// is allocated, against its slot table.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <array>
#include <random>

#include "core/julgonu/game.hpp"
#include "core/julgonu/repetition.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"
#include "solver/julgonu/solve.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;
using gonu::test::named_on;

namespace {

Solution solve_with(const Game& g, Engine e) {
  SolveOptions o;
  o.engine = e;
  return solve(g, o);
}

void check_same(const Solution& dense, const Solution& graph) {
  CHECK(dense.root_key == graph.root_key);
  CHECK(dense.keys.size() == graph.keys.size());
  CHECK(dense.edges == graph.edges);
  CHECK(dense.levels == graph.levels);
  CHECK(dense.wins == graph.wins);
  CHECK(dense.losses == graph.losses);
  CHECK(dense.draws == graph.draws);
  CHECK(dense.max_dist == graph.max_dist);
  CHECK(dense.keys == graph.keys);
  CHECK(dense.value == graph.value);
  CHECK(dense.dist == graph.dist);
}

}  // namespace

TEST_CASE("the dense engine agrees with the state-graph engine from the start", "[solver][dense]") {
  std::vector<Rules> sets = {named_on("free", 3, 3), named_on("free", 3, 4), named_on("free", 4, 3),
                             named_on("free", 5, 2)};
  for (const auto& [rows, cols] : {std::pair{3, 4}, std::pair{4, 3}, std::pair{3, 3}}) {
    sets.push_back(make_rules(Capture::line, true, Repetition::none, rows, cols));
    sets.push_back(make_rules(Capture::single, false, Repetition::none, rows, cols));
    sets.push_back(make_rules(Capture::single, true, Repetition::none, rows, cols));
  }
  Rules white_first = named_on("free", 3, 4);
  white_first.first = Side::white;
  sets.push_back(white_first);
  for (const Rules& r : sets) {
    INFO(describe(r));
    const Game g = new_game(r, start_position(make_board(r.rows, r.cols), r.first));
    const Solution dense = solve_with(g, Engine::dense), graph = solve_with(g, Engine::graph);
    REQUIRE(dense.keys.size() > 100);
    check_same(dense, graph);
  }
}

TEST_CASE("the dense engine agrees with the state-graph engine from other roots", "[solver][dense]") {
  const Rules r = named_on("free", 4, 4);
  const Board b = make_board(4, 4);
  // Uneven material, an asymmetric root, and a root that is already lost.
  for (const char* text : {"x2x/1w2/x1w1/w3 w", ".xxx/x3/4/www. x", "4/1x2/4/wwww x", "x3/4/4/.w.w w"}) {
    INFO(text);
    const Game g = new_game(r, parse_position(b, text));
    check_same(solve_with(g, Engine::dense), solve_with(g, Engine::graph));
  }
  Rules single = make_rules(Capture::single, true, Repetition::none, 4, 4);
  const Game g = new_game(single, parse_position(b, "x2x/1w2/x1w1/w3 w"));
  check_same(solve_with(g, Engine::dense), solve_with(g, Engine::graph));
}

TEST_CASE("the dense engine gives the same solution for 1 and 2 threads", "[solver][dense]") {
  for (const Rules& r : {make_rules(Capture::single, true, Repetition::none, 4, 4), named_on("encyclopedia", 4, 3)}) {
    INFO(describe(r));
    const Game g = new_game(r, start_position(make_board(r.rows, r.cols), r.first));
    Solution one, two;
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
      one = solve_with(g, Engine::dense);
    }
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
      two = solve_with(g, Engine::dense);
    }
    check_same(one, two);
  }
}

TEST_CASE("the dense engine agrees with the state-graph engine under immediate and undo", "[solver][dense]") {
  std::vector<Rules> sets;
  for (const auto& [rows, cols] : {std::pair{3, 3}, std::pair{4, 3}}) {
    sets.push_back(named_on("encyclopedia", rows, cols));
    sets.push_back(named_on("undo", rows, cols));
  }
  sets.push_back(make_rules(Capture::single, false, Repetition::immediate, 4, 3));
  sets.push_back(make_rules(Capture::single, true, Repetition::undo, 4, 3));
  for (const Repetition rep : {Repetition::immediate, Repetition::undo}) {
    sets.push_back(make_rules(Capture::single, true, rep, 3, 3));
    sets.push_back(make_rules(Capture::line, true, rep, 3, 3));
  }
  for (const Rules& r : sets) {
    INFO(describe(r));
    const Game g = new_game(r, start_position(make_board(r.rows, r.cols), r.first));
    const Solution dense = solve_with(g, Engine::dense), graph = solve_with(g, Engine::graph);
    REQUIRE(dense.keys.size() > 1000);
    check_same(dense, graph);
  }
}

TEST_CASE("the dense engine agrees with the state-graph engine from a root with a history tag", "[solver][dense]") {
  for (const char* name : {"encyclopedia", "undo"}) {
    const Rules r = named_on(name, 4, 3);
    const Board b = make_board(4, 3);
    Game g = new_game(r, start_position(b, r.first));
    for (const char* text : {"a4-a3", "a1-a2", "b4-b3"}) play(g, parse_move(b, r, current(g), text, legal_moves(g)));
    INFO(name << " after a4-a3 a1-a2 b4-b3");
    REQUIRE_FALSE(g.tag.empty());
    check_same(solve_with(g, Engine::dense), solve_with(g, Engine::graph));
  }
}

TEST_CASE("the dense engine refuses what it does not handle", "[solver][dense]") {
  const Rules r = named_on("soldiers", 3, 3);
  const Game g = new_game(r, start_position(make_board(3, 3), r.first));
  CHECK_FALSE(dense_engine_applies(r));
  CHECK_THROWS_WITH(solve_with(g, Engine::dense), Catch::Contains("the dense engine solves"));
}

TEST_CASE("the dense engines' file mirror equals mirroring point by point", "[solver][dense]") {
  std::mt19937_64 rng(7);
  for (int rows = 2; rows <= 6; ++rows)
    for (int cols = 2; rows * cols <= 32; ++cols) {  // up to 8 files unrolled, more looped
      const Board b = make_board(rows, cols);
      const dense::FileMirror mirror(b);
      auto image_point = [&](int sq) { return sq - sq % cols + (cols - 1 - sq % cols); };
      for (int trial = 0; trial < 200; ++trial) {
        Position p{0, 0, Side::black};
        for (int sq = 0; sq < b.n; ++sq) {
          const auto roll = rng() % 3;
          if (roll == 1) p.black |= bit(sq);
          if (roll == 2) p.white |= bit(sq);
        }
        Position image{0, 0, Side::black};
        for (int sq = 0; sq < b.n; ++sq) {
          if ((p.black >> sq) & 1) image.black |= bit(image_point(sq));
          if ((p.white >> sq) & 1) image.white |= bit(image_point(sq));
        }
        REQUIRE(mirror.board(dense::pack(p)) == dense::pack(image));
      }
      // Tag codes: both steps mirrored point by point, the ban kept.
      for (int from = 0; from < b.n; ++from)
        for (int d = 0; d < 4; ++d) {
          const int to = b.step[from][d];
          if (to < 0) continue;
          const Tag t{Step{std::int8_t(from), std::int8_t(to)}, Step{std::int8_t(to), std::int8_t(from)}, true};
          const Tag image{Step{std::int8_t(image_point(from)), std::int8_t(image_point(to))},
                          Step{std::int8_t(image_point(to)), std::int8_t(image_point(from))}, true};
          REQUIRE(mirror.tag(pack_tag(b, t)) == pack_tag(b, image));
        }
    }
}

TEST_CASE("the tagged dense space's counted size equals the sum of its boards' tag slots", "[solver][dense]") {
  // Boards of up to 16 points (byte ranks) and larger (nibble ranks), budgets from none to full.
  for (const auto& [rows, cols, kb, kw] : {std::array<int, 4>{2, 2, 2, 2}, {2, 3, 1, 2}, {3, 3, 3, 3}, {3, 4, 4, 4},
                                          {4, 3, 2, 0}, {4, 4, 4, 4}, {4, 4, 1, 5}, {3, 6, 2, 2}, {5, 4, 1, 1}}) {
    INFO(rows << "x" << cols << " budgets " << kb << ", " << kw);
    const Board b = make_board(rows, cols);
    const SideBoardIds ids(b.n, kb, kw);
    std::uint64_t slots = 0;  // the plain sum, board by board
    ids.walk(0, 2 * ids.boards(), [&](std::uint64_t, const Position& p) { slots += tag_space(b, p).size(); });
    CHECK(dense::count_tagged_states(b, ids.rank()) == slots);
  }
  // And the slot table the engine builds ends where the count says.
  const Rules r = named_on("encyclopedia", 3, 4);
  const Board b = make_board(3, 4);
  const Position root = start_position(b, r.first);
  dense::TaggedSpace space(b, root, 0);
  space.index_slots();
  CHECK(space.base(space.board_ids()) == space.size());
}

TEST_CASE("the tagged dense engine refuses a space too big for memory before building it", "[solver][dense]") {
  // 4x5 encyclopedia: 39,227,375,700 tagged states, about 154 GiB. Refused by the memory check,
  // which now comes before the slot table (1.9 GB) is built.
  if (dense::physical_memory() >= (std::size_t(157143) << 20)) {
    WARN("this machine could hold the 4x5 encyclopedia dense space: not tried");
    return;
  }
  const Rules r = named_on("encyclopedia", 4, 5);
  const Game g = new_game(r, start_position(make_board(4, 5), r.first));
  // The engine's own check (solve() refuses sooner, by its estimate: test_dense_compact.cpp).
  CHECK_THROWS_WITH(solve_dense(g),
                    Catch::Contains("the dense space of this root has 39227375700 tagged states and needs 157143 MiB"));
}

TEST_CASE("the dense engines refuse a result that cannot fit as soon as the reached states show it", "[solver][dense]") {
  using dense::check_result_fits;
  using dense::physical_memory;
  const std::size_t have = physical_memory();
  REQUIRE(have > 0);
  // Fits: nothing held, a result of a thousandth of the memory.
  CHECK_NOTHROW(check_result_fits(have / 11 / 1000, 3, 0, 0, 11.0, have));
  // The solver's arrays alone leave no room for the result of the states reached so far.
  try {
    check_result_fits(have / 11 / 2 + 1, 7, have / 2, 0, 11.0, have);
    FAIL("no error");
  } catch (const GonuError& e) {
    const std::string m = e.what();
    CHECK(m.find("states after 7 levels: their result alone") != std::string::npos);
    CHECK(m.find("the memory limit of " + std::to_string(have >> 20) + " MiB") != std::string::npos);
  }
  // The frontier counts too.
  CHECK_THROWS_AS(check_result_fits(1, 1, have / 2, have / 2, 11.0, have), GonuError);
  // A smaller limit (--max-memory) refuses sooner.
  CHECK_THROWS_AS(check_result_fits(1000, 1, 0, 0, 11.0, 10000), GonuError);
  CHECK_NOTHROW(check_result_fits(1000, 1, 0, 0, 11.0, 11000));
}
