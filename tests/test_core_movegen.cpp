// The bitboard move generators (generate_moves, generate_moves_any_order, for_each_successor) against the plain
// reference generator of tests/reference/plain_rules.hpp, on many random positions for every capture rule.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <tuple>

#include "core/julgonu/board.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"
#include "tests/reference/plain_rules.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;

namespace {

struct Shape {
  int rows, cols;
};

// for_each_successor's positions against the reference's moves applied by the reference, as
// sorted lists (each successor once per move).
bool successors_match(const Board& b, const Rules& r, const Position& p) {
  std::vector<std::tuple<Bits, Bits, int>> fast, plain;
  const int k = for_each_successor(b, r, p, [&](const Position& q) { fast.emplace_back(q.black, q.white, int(q.to_move)); });
  const ref::Grid g = ref::from_position(b, p);
  for (const auto& m : ref::plain_moves(g, r)) {
    const Position q = ref::to_position(ref::plain_apply(g, m));
    plain.emplace_back(q.black, q.white, int(q.to_move));
  }
  std::sort(fast.begin(), fast.end());
  std::sort(plain.begin(), plain.end());
  return k == int(fast.size()) && fast == plain;
}

// Compares the two generators on `count` random positions, and checks that enough of them had a
// capture (and a capture choice under single) for the comparison to mean something.
void compare_on_random_positions(const Rules& r, int count, std::uint64_t seed) {
  const Board b = make_board(r.rows, r.cols);
  std::mt19937_64 rng(seed);
  int with_capture = 0, with_choice = 0, mismatches = 0;
  for (int i = 0; i < count; ++i) {
    const Position p = ref::random_position(b, rng);
    const std::vector<Move> fast = generate_moves(b, r, p);
    const auto plain = ref::plain_moves(ref::from_position(b, p), r);
    const auto fast_set = ref::key_set(fast);
    const auto plain_set = ref::key_set(plain);
    // No duplicates, and the same set.
    if (fast_set.size() != fast.size() || fast_set != plain_set) {
      ++mismatches;
      if (mismatches <= 3) {
        INFO("rules " << rules_id(r) << ", position " << format_position(b, p));
        INFO("fast:  " << ref::keys_text(b, fast_set));
        INFO("plain: " << ref::keys_text(b, plain_set));
        CHECK(fast.size() == fast_set.size());
        CHECK(fast_set == plain_set);
      }
    }
    // The array form agrees with the vector form.
    Move buf[kMaxMoves];
    const int n = generate_moves(b, r, p, buf);
    if (n != int(fast.size()) || !std::equal(fast.begin(), fast.end(), buf)) ++mismatches;
    // generate_moves_any_order: the same moves, each once, in any order.
    const int any = generate_moves_any_order(b, r, p, buf);
    if (any != int(fast.size()) || ref::key_set(std::vector<Move>(buf, buf + any)) != plain_set) ++mismatches;
    if (!successors_match(b, r, p)) ++mismatches;
    bool cap = false;
    for (const Move& m : fast) cap |= m.captured != 0;
    with_capture += cap;
    for (std::size_t j = 1; j < fast.size(); ++j)
      if (fast[j].from == fast[j - 1].from && fast[j].to == fast[j - 1].to) {
        ++with_choice;
        break;
      }
  }
  INFO("rules " << rules_id(r));
  REQUIRE(mismatches == 0);
  // The random positions must actually exercise captures (and capture choices under single).
  REQUIRE(with_capture > count / 20);
  // (On 3x3 only corners give a step two capture places: a run needs two points beyond the arrival.)
  if (r.capture == Capture::single && (b.n > 9 || r.corner)) REQUIRE(with_choice > 0);
}

}  // namespace

TEST_CASE("generate_moves equals the plain reference generator on random positions", "[core][movegen]") {
  const Shape shapes[] = {{3, 3}, {4, 4}, {5, 5}, {4, 6}};
  std::uint64_t seed = 20240601;
  for (const Shape& s : shapes) {
    for (Capture c : {Capture::line, Capture::single}) {
      for (bool corner : {false, true}) {
        const Rules r = make_rules(c, corner, Repetition::none, s.rows, s.cols);
        compare_on_random_positions(r, 10000, seed);
        ++seed;
      }
    }
  }
}

TEST_CASE("generate_moves equals the reference on other board shapes", "[core][movegen]") {
  // Narrow, tall, and largest boards: corners and edges in every arrangement.
  const Shape shapes[] = {{2, 2}, {2, 3}, {3, 2}, {2, 8}, {6, 4}, {3, 5}, {8, 8}, {2, 32}, {16, 4}};
  std::uint64_t seed = 77;
  for (const Shape& s : shapes) {
    for (Capture c : {Capture::line, Capture::single}) {
      for (bool corner : {false, true}) {
        const Rules r = make_rules(c, corner, Repetition::none, s.rows, s.cols);
        const Board b = make_board(r.rows, r.cols);
        std::mt19937_64 rng(seed++);
        int mismatches = 0;
        for (int i = 0; i < 1500; ++i) {
          const Position p = ref::random_position(b, rng, b.n < 6 ? 1 : 2);
          const auto fast = ref::key_set(generate_moves(b, r, p));
          const auto plain = ref::key_set(ref::plain_moves(ref::from_position(b, p), r));
          Move buf[kMaxMoves];
          const int any = generate_moves_any_order(b, r, p, buf);
          if (any != int(fast.size()) || ref::key_set(std::vector<Move>(buf, buf + any)) != plain) ++mismatches;
          if (!successors_match(b, r, p)) ++mismatches;
          if (fast != plain && ++mismatches <= 3) {
            INFO("rules " << rules_id(r) << ", position " << format_position(b, p));
            INFO("fast:  " << ref::keys_text(b, fast));
            INFO("plain: " << ref::keys_text(b, plain));
            CHECK(fast == plain);
          }
        }
        INFO("rules " << rules_id(r));
        REQUIRE(mismatches == 0);
      }
    }
  }
}

TEST_CASE("generate_moves follows its documented order and apply_move applies moves", "[core][movegen]") {
  std::mt19937_64 rng(99);
  for (Capture c : {Capture::line, Capture::single}) {
    for (bool corner : {false, true}) {
      const Rules r = make_rules(c, corner, Repetition::none, 4, 5);
      const Board b = make_board(4, 5);
      for (int i = 0; i < 2000; ++i) {
        const Position p = ref::random_position(b, rng);
        const std::vector<Move> moves = generate_moves(b, r, p);
        // Pieces by square, then directions N E S W, then captures by lowest square.
        auto rank = [&](const Move& m) {
          const int d = direction_between(b, m.from, m.to);
          const int low = m.captured ? lowest(m.captured) : -1;
          return std::tuple<int, int, int>(m.from, d, low);
        };
        for (std::size_t j = 1; j < moves.size(); ++j) REQUIRE(rank(moves[j - 1]) < rank(moves[j]));
        // apply_move gives the reference's position after the move.
        const ref::Grid g = ref::from_position(b, p);
        for (const Move& m : moves) {
          const Position q = apply_move(p, m);
          REQUIRE(ref::from_position(b, q) == ref::plain_apply(g, ref::key_of(m)));
        }
      }
    }
  }
}

TEST_CASE("capture_choices agrees with the moves of each step", "[core][movegen]") {
  std::mt19937_64 rng(5);
  for (Capture c : {Capture::line, Capture::single}) {
    for (bool corner : {false, true}) {
      const Rules r = make_rules(c, corner, Repetition::none, 4, 4);
      const Board b = make_board(4, 4);
      for (int i = 0; i < 2000; ++i) {
        const Position p = ref::random_position(b, rng);
        const std::vector<Move> moves = generate_moves(b, r, p);
        for (const Move& m : moves) {
          Bits caps[8];
          const int k = capture_choices(b, r, p, m.from, m.to, caps);
          int same = 0;
          for (const Move& o : moves) same += o.from == m.from && o.to == m.to;
          REQUIRE(k == same);
          bool found = false;
          for (int j = 0; j < k; ++j) found |= caps[j] == m.captured;
          REQUIRE(found);
          if (c == Capture::line) REQUIRE(k == 1);
          if (c == Capture::single) REQUIRE(popcount(m.captured) <= 1);
        }
      }
    }
  }
}
