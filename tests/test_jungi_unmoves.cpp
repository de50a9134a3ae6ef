// Jungi's un-moves checked against its moves: every predecessor generated leads to the position by
// its move, and every (position, move) that leads to a position is among its predecessors (with
// the en-passant field dropped unless the move used it, as core/jungi/unmoves.hpp says).
#include <catch2/catch.hpp>

#include <random>

#include "core/jungi/unmoves.hpp"
#include "tests/jungi_support.hpp"

using namespace gonu;

namespace {

bool contains(const std::vector<jungi::Predecessor>& list, const jungi::Position& q, const jungi::Move& m) {
  for (const auto& x : list) {
    if (x.position == q && x.move == m) return true;
  }
  return false;
}

std::vector<jungi::Rules> readings() {
  std::vector<jungi::Rules> v(3);
  v[1].hobbling = true;
  v[2].optional_promotion = true;
  return v;
}

}  // namespace

TEST_CASE("jungi: every predecessor leads to the position by its move", "[jungi]") {
  std::mt19937_64 rng(7);
  std::size_t total = 0;
  for (const jungi::Rules& r : readings()) {
    for (int i = 0; i < 300; ++i) {
      const jungi::Position p = test::random_position(rng, r, 2 + static_cast<int>(rng() % 7), static_cast<int>(rng() % 3));
      INFO("position " << jungi::format_position(p));
      for (const auto& pred : jungi::predecessors(r, p)) {
        INFO("predecessor " << jungi::format_position(pred.position) << " move " << jungi::format_move(r, pred.position, pred.move));
        REQUIRE(jungi::field_is_possible(r, pred.position));
        REQUIRE(jungi::apply_move(pred.position, pred.move) == p);
        const auto legal = jungi::legal_moves(r, pred.position);
        REQUIRE(std::find(legal.begin(), legal.end(), pred.move) != legal.end());
        ++total;
      }
    }
  }
  REQUIRE(total > 10000);
}

TEST_CASE("jungi: every move's result lists the position it came from", "[jungi]") {
  std::mt19937_64 rng(11);
  int passed_by = 0, two_steps = 0, royal_captures = 0, promotions = 0;
  for (const jungi::Rules& r : readings()) {
    for (int i = 0; i < 200; ++i) {
      const jungi::Position q = test::random_position(rng, r, 2 + static_cast<int>(rng() % 7), 1 + static_cast<int>(rng() % 2));
      if (jungi::outcome(r, q) != jungi::Outcome::ongoing) continue;
      for (const jungi::Move& m : jungi::legal_moves(r, q)) {
        const jungi::Position p = jungi::apply_move(q, m);
        jungi::Position expected = q;
        if (m.kind != jungi::MoveKind::passed_by) {
          expected.passed = 0;
          expected.passed_end = jungi::kNoSquare;
        }
        INFO("from " << jungi::format_position(q) << " by " << jungi::format_move(r, q, m) << " to " << jungi::format_position(p));
        REQUIRE(contains(jungi::predecessors(r, p), expected, m));
        passed_by += m.kind == jungi::MoveKind::passed_by;
        two_steps += m.kind == jungi::MoveKind::two_step;
        royal_captures += p.royal[jungi::index(p.to_move)] < 0;
        promotions += m.promotes;
      }
    }
  }
  // The shapes that are hard to invert all occurred.
  REQUIRE(passed_by > 5);
  REQUIRE(two_steps > 100);
  REQUIRE(royal_captures > 20);
  REQUIRE(promotions > 20);
}

TEST_CASE("jungi: a Pawn's 2-step and an Emperor's return are un-made with their fields", "[jungi]") {
  const jungi::Rules r;
  const jungi::Position p = jungi::parse_position(r, "4k4/9/9/9/3pP4/9/9/9/4K4 n e4:e5");
  const auto preds = jungi::predecessors(r, p);
  REQUIRE(preds.size() == 1);
  REQUIRE(jungi::format_position(preds[0].position) == "4k4/9/9/9/3p5/9/4P4/9/4K4 s -");
  REQUIRE(preds[0].move.kind == jungi::MoveKind::double_step);
  // The Emperor took on e6 and came back to e5: the piece it took is any of North's but the King.
  const jungi::Position back = jungi::parse_position(r, "4k4/9/9/9/4+K4/9/9/9/9 n e6:e5");
  const auto returns = jungi::predecessors(r, back);
  int from_e5 = 0;
  for (const auto& x : returns) from_e5 += x.move.from == x.move.to;
  REQUIRE(from_e5 == 20);  // 20 non-royal North piece types can stand on e6
}
