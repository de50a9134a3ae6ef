// Jungi moves as people write them (core/jungi/moves.hpp format_move_san and parse_move): worked
// examples, the letters checked against the piece on the from-square, and every legal move of
// random positions under each option, and along random games from the start, written as the
// plain reference (tests/reference/jungi_san_plain.hpp) writes it and read back, in both notations.
#include <catch2/catch.hpp>

#include <random>

#include "core/error.hpp"
#include "tests/jungi_support.hpp"
#include "tests/reference/jungi_san_plain.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using table_test::contains;

namespace {

std::string san_of(const jungi::Rules& r, const std::string& position, const std::string& from_to) {
  const jungi::Position p = jungi::parse_position(r, position);
  return jungi::format_move_san(r, p, jungi::parse_move(r, p, from_to));
}

std::string parse_error(const jungi::Rules& r, const std::string& position, const std::string& text) {
  const jungi::Position p = jungi::parse_position(r, position);
  try {
    jungi::parse_move(r, p, text);
  } catch (const GonuError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("jungi notation: moves with the piece's letter and the promotion", "[jungi]") {
  const jungi::Rules r;
  CHECK(san_of(r, "4k4/9/9/Q8/9/9/9/9/4K4 s -", "a6-a7") == "Qa6-a7=+Q");
  CHECK(san_of(r, "4k4/9/9/9/9/9/+K8/9/9 s -", "a3-c5") == "+Ka3-c5");
  CHECK(san_of(r, "4k4/9/9/3p5/9/3R5/9/9/4K4 s -", "d4-d6") == "Rd4xd6");
  CHECK(san_of(r, "4k4/9/9/4p4/4+K4/9/9/9/9 s -", "e5-e6-e7") == "+Ke5xe6-e7");
  CHECK(san_of(r, "4k4/9/9/4p4/4+K4/9/9/9/9 s -", "e5-e6-e5") == "+Ke5xe6-e5");
  // North's pieces are written with the same upper-case letters; its zone is ranks 1-3.
  CHECK(san_of(r, "4k4/9/9/9/9/2c6/9/9/4K4 n -", "c4-a2") == "Cc4-a2=+C");
  // Read back in either case, with '+' or without the promotion under compulsory promotion.
  const jungi::Position q = jungi::parse_position(r, "4k4/9/9/Q8/9/9/9/9/4K4 s -");
  for (const char* text : {"Qa6-a7=+Q", "qa6xa7=+q", "Qa6-a7", "a6a7", "Qa6-a7+", "a6-a7=+Q"})
    CHECK(jungi::format_move_san(r, q, jungi::parse_move(r, q, text)) == "Qa6-a7=+Q");
}

TEST_CASE("jungi notation: a letter that is not the piece's is refused with one line", "[jungi]") {
  const jungi::Rules r;
  const std::string pos = "4k4/9/9/Q8/9/9/9/9/4K4 s -";
  CHECK(contains(parse_error(r, pos, "Ra6-a7"), "the piece on a6 is Q (Queen), not R"));
  CHECK(contains(parse_error(r, pos, "+Qa6-a7"), "the piece on a6 is Q (Queen), not +Q"));
  CHECK(contains(parse_error(r, pos, "Qa6-a7=+R"), "the Queen promotes to +Q (Empress), not +R"));
  CHECK(contains(parse_error(r, pos, "Qa6-b6=+Q"), "it does not promote (drop the '=+Q')"));
  CHECK(contains(parse_error(r, pos, "Xa6-a7"), "write from-to (e2-e3) or with the piece (Pe2-e3)"));
  CHECK(contains(parse_error(r, "4k4/9/9/9/9/9/+K8/9/9 s -", "Ka3-c5"), "the piece on a3 is +K (Emperor), not K"));
  for (const char* text : {"Ra6-a7", "Qa6-a7=+R", "Qa6-b6=+Q"}) CHECK(parse_error(r, pos, text).find('\n') == std::string::npos);
  // Under optional promotion the suffix decides: none stays a Queen, "=+Q" or '+' promotes.
  jungi::Rules optional;
  optional.optional_promotion = true;
  const jungi::Position p = jungi::parse_position(optional, pos);
  CHECK_FALSE(jungi::parse_move(optional, p, "Qa6-a7").promotes);
  CHECK(jungi::parse_move(optional, p, "Qa6-a7=+Q").promotes);
  CHECK(jungi::parse_move(optional, p, "a6-a7+").promotes);
  CHECK(jungi::format_move_san(optional, p, jungi::parse_move(optional, p, "a6-a7")) == "Qa6-a7");
}

namespace {

struct Seen {
  std::size_t moves = 0, promotions = 0, two_steps = 0, double_steps = 0;
};

// Every legal move of p, written as the reference writes it (from-to and with its letters), is
// format_move's and format_move_san's text of the move each reads back to; a wrong letter is refused.
void check_every_move(const jungi::Rules& r, const jungi::Position& p, Seen& seen) {
  const std::string before = jungi::format_position(p);
  INFO(before << "  " << jungi::describe(r));
  const auto reference = plain_jungi::successors(before, test::plain_options(r));
  REQUIRE(jungi::legal_moves(r, p).size() == reference.size());
  for (const auto& [squares, after] : reference) {
    const std::string san = plain_jungi_san::san(before, squares, after);
    INFO(squares << " " << san);
    const jungi::Move m = jungi::parse_move(r, p, squares);
    CHECK(jungi::format_move(r, p, m) == squares);
    CHECK(jungi::format_move_san(r, p, m) == san);
    CHECK(jungi::parse_move(r, p, san) == m);
    std::string wrong = san;
    const std::size_t letter = san[0] == '+' ? 1 : 0;
    wrong[letter] = san[letter] == 'R' ? 'N' : 'R';
    CHECK_THROWS_AS(jungi::parse_move(r, p, wrong), GonuError);
    ++seen.moves;
    seen.promotions += m.promotes;
    seen.two_steps += m.kind == jungi::MoveKind::two_step;
    seen.double_steps += m.kind == jungi::MoveKind::double_step;
  }
}

}  // namespace

TEST_CASE("jungi notation: every move of random positions is written as the reference writes it and read back", "[jungi]") {
  std::mt19937_64 rng(77);
  Seen seen;
  for (const jungi::Rules& r : jungi::every_reading())
    for (int i = 0; i < 60; ++i)
      check_every_move(r, test::random_position(rng, r, 2 + static_cast<int>(rng() % 11), static_cast<int>(rng() % 3)), seen);
  CHECK(seen.moves > 20000);
  CHECK(seen.promotions > 200);
  CHECK(seen.two_steps > 200);
}

TEST_CASE("jungi notation: every move along random games from the start is written as the reference writes it", "[jungi]") {
  std::mt19937_64 rng(78);
  Seen seen;
  const jungi::Rules r;
  for (int game = 0; game < 6; ++game) {
    jungi::Position p = jungi::start_position();
    for (int ply = 0; ply < 40 && jungi::outcome(r, p) == jungi::Outcome::ongoing; ++ply) {
      check_every_move(r, p, seen);
      const auto legal = jungi::legal_moves(r, p);
      p = jungi::apply_move(p, legal[rng() % legal.size()]);
    }
  }
  CHECK(seen.moves > 5000);
  CHECK(seen.double_steps > 100);  // the Pawns', Kings' and Queens' first 2-steps
}
