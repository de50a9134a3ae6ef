// Parsing: positions, board sizes, rule names and moves. Every malformed input is rejected with a
// GonuError whose message names the problem; printing and parsing round-trip.
#include <catch2/catch.hpp>
#include <random>

#include "core/julgonu/board.hpp"
#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"
#include "tests/reference/plain_rules.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;
using Catch::Contains;

namespace {

// parse_move against the moves of the ban-free game.
Move parse(const Rules& r, const std::string& position, const std::string& move) {
  const Board b = make_board(r.rows, r.cols);
  const Position p = parse_position(b, position);
  return parse_move(b, r, p, move, generate_moves(b, r, p));
}

const std::string kStart = "xxxx/4/4/wwww x";

}  // namespace

TEST_CASE("parse_position_text reads the Games of Soldiers diagrams", "[core][parser]") {
  const ParsedPosition s = parse_position_text(kStart);
  REQUIRE(s.rows == 4);
  REQUIRE(s.cols == 4);
  const Board b = make_board(4, 4);
  REQUIRE(s.position == start_position(b, Side::black));
  REQUIRE(s.position.black == 0xF000);
  REQUIRE(s.position.white == 0x000F);
  // Dots and digits mean the same.
  REQUIRE(parse_position_text(".w../w.xw/xx../..w. w").position == parse_position_text("1w2/w1xw/xx2/2w1 w").position);
  REQUIRE(parse_position_text("x.2/4/1..1/3w x").position == parse_position_text("x3/4/4/3w x").position);
  const ParsedPosition e = parse_position_text(".w../w.xw/xx../..w. w");
  REQUIRE(e.position.to_move == Side::white);
  REQUIRE(e.position.white == (bit(13) | bit(8) | bit(11) | bit(2)));  // b4 a3 d3 c1
  REQUIRE(e.position.black == (bit(10) | bit(4) | bit(5)));             // c3 a2 b2
  // Multi-digit runs and non-square boards.
  const ParsedPosition wide = parse_position_text("x10w/12 w");
  REQUIRE(wide.rows == 2);
  REQUIRE(wide.cols == 12);
  REQUIRE(wide.position.black == bit(12));
  REQUIRE(wide.position.white == bit(23));
  const ParsedPosition tall = parse_position_text("x./../../.w w");
  REQUIRE((tall.rows == 4 && tall.cols == 2));
  REQUIRE(tall.position.black == bit(6));  // a4
  REQUIRE(tall.position.white == bit(1));  // b1
}

TEST_CASE("malformed positions are rejected with the problem named", "[core][parser]") {
  // Wrong rank length.
  REQUIRE_THROWS_AS(parse_position_text("xxxx/3/4/wwww x"), GonuError);
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/3/4/wwww x"), Contains("rank 3 has 3 points, but rank 4 has 4"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwwww x"), Contains("rank 1 has 5 points"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/5/wwww x"), Contains("rank 2 has 5 points"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx//4/wwww x"), Contains("rank 3 is empty"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww/ x"), Contains("rank 1 is empty"));
  // Unknown character, with its column.
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwwq x"), Contains("unknown character 'q'") && Contains("column 13"));
  REQUIRE_THROWS_WITH(parse_position_text("xXxx/4/4/wwww x"), Contains("unknown character 'X'") && Contains("column 2"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/0/4/wwww x"), Contains("unknown character '0'"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx,4,4,wwww x"), Contains("unknown character ','"));
  // The message quotes the text.
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwwq x"), Contains("position 'xxxx/4/4/wwwq x'"));
  // Missing side.
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww"), Contains("missing the side to move"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww "), Contains("missing the side to move"));
  REQUIRE_THROWS_WITH(parse_position_text(""), Contains("missing the side to move"));
  // Bad side.
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww b"), Contains("side to move must be 'x' (Black) or 'w' (White), not 'b'"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww black"), Contains("not 'black'"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww x w"), Contains("side to move must be"));
  // A lone word is a diagram without its side.
  REQUIRE_THROWS_WITH(parse_position_text(" x"), Contains("missing the side to move"));
  REQUIRE_THROWS_WITH(parse_position_text("\t \n"), Contains("missing the side to move"));
  // Too large a board: 9 ranks of 8 points.
  REQUIRE_THROWS_WITH(parse_position_text("8/8/8/8/8/8/8/8/8 x"), Contains("72 points") && Contains("at most 64"));
  REQUIRE_THROWS_WITH(parse_position_text("65/65 x"), Contains("too long"));
  REQUIRE_THROWS_WITH(parse_position_text("33/33 x"), Contains("66 points"));
  REQUIRE_NOTHROW(parse_position_text("32/32 x"));
  REQUIRE_NOTHROW(parse_position_text("8/8/8/8/8/8/8/8 x"));
  // Smaller than 2 on a side.
  REQUIRE_THROWS_WITH(parse_position_text("xw x"), Contains("1x2") && Contains("at least 2"));
  REQUIRE_THROWS_WITH(parse_position_text("x/w x"), Contains("2x1") && Contains("at least 2"));
  REQUIRE_THROWS_WITH(parse_position_text("x x"), Contains("at least 2"));
  // Size mismatch with the rules' board.
  REQUIRE_THROWS_WITH(parse_position(make_board(4, 4), "xxx/3/www x"), Contains("3x3 board, but the rules are for 4x4"));
  REQUIRE_THROWS_WITH(parse_position(make_board(3, 4), "xxx/3/3/www x"), Contains("4x3 board, but the rules are for 3x4"));
  REQUIRE_NOTHROW(parse_position(make_board(3, 4), "xxxx/4/wwww x"));
}

TEST_CASE("board sizes, rule names and rule parts", "[core][parser]") {
  int rows = 0, cols = 0;
  parse_board_size("4x4", rows, cols);
  REQUIRE((rows == 4 && cols == 4));
  parse_board_size("3x5", rows, cols);
  REQUIRE((rows == 3 && cols == 5));
  parse_board_size("2x32", rows, cols);
  REQUIRE((rows == 2 && cols == 32));
  for (const char* bad : {"4", "4x", "x4", "4*4", "axb", "", "4x4x4", "-4x4", "4 x4", "1000x1", "4X4"}) {
    INFO("size '" << bad << "'");
    rows = cols = 7;
    REQUIRE_THROWS_WITH(parse_board_size(bad, rows, cols), Contains("is not of the form RxC"));
    REQUIRE((rows == 7 && cols == 7));  // unchanged
  }
  REQUIRE_THROWS_WITH(parse_board_size("9x8", rows, cols), Contains("72 points") && Contains("at most 64"));
  REQUIRE_THROWS_WITH(parse_board_size("1x4", rows, cols), Contains("at least 2"));
  REQUIRE_THROWS_WITH(parse_board_size("4x1", rows, cols), Contains("at least 2"));
  REQUIRE_THROWS_WITH(parse_board_size("0x0", rows, cols), Contains("at least 2"));
  REQUIRE((rows == 7 && cols == 7));
  REQUIRE_THROWS_AS(make_board(9, 8), GonuError);
  REQUIRE_THROWS_AS(make_board(1, 2), GonuError);

  // The named rule sets and their parts.
  struct Named {
    const char* name;
    Capture capture;
    bool corner;
    Repetition repetition;
  };
  const Named named[] = {{"free", Capture::line, false, Repetition::none},
                         {"encyclopedia", Capture::line, false, Repetition::immediate},
                         {"undo", Capture::line, false, Repetition::undo},
                         {"soldiers", Capture::line, false, Repetition::superko},
                         {"corner", Capture::single, true, Repetition::superko}};
  REQUIRE(named_rule_sets().size() == 5);
  for (const Named& n : named) {
    const Rules r = rules_by_name(n.name);
    INFO(n.name);
    REQUIRE(r.name == n.name);
    REQUIRE(r.capture == n.capture);
    REQUIRE(r.corner == n.corner);
    REQUIRE(r.repetition == n.repetition);
    REQUIRE((r.rows == 4 && r.cols == 4));
    REQUIRE(r.first == Side::black);
  }
  REQUIRE_THROWS_WITH(rules_by_name("bogus"),
                      Contains("unknown rule set 'bogus'") && Contains("free") && Contains("encyclopedia") &&
                          Contains("undo") && Contains("soldiers") && Contains("corner"));
  REQUIRE_THROWS_AS(rules_by_name(""), GonuError);
  REQUIRE_THROWS_AS(rules_by_name("Free"), GonuError);

  REQUIRE(parse_side("x") == Side::black);
  REQUIRE(parse_side("white") == Side::white);
  REQUIRE_THROWS_WITH(parse_side("red"), Contains("unknown side 'red'"));
  REQUIRE(parse_capture("single") == Capture::single);
  REQUIRE_THROWS_WITH(parse_capture("double"), Contains("unknown capture rule 'double'"));
  for (Repetition r : {Repetition::none, Repetition::immediate, Repetition::undo, Repetition::superko})
    REQUIRE(parse_repetition(to_string(r)) == r);
  REQUIRE_THROWS_WITH(parse_repetition("ko"), Contains("unknown repetition rule 'ko'"));

  // rules_id and == compare the parts, not the name.
  Rules a = rules_by_name("soldiers"), b = rules_by_name("free");
  b.repetition = Repetition::superko;
  b.name = "custom";
  REQUIRE(a == b);
  b.rows = 3;
  REQUIRE(!(a == b));
  REQUIRE(rules_id(rules_by_name("free")) == "4x4/line/nocorner/none/black");
  REQUIRE(describe(rules_by_name("corner")) ==
          "corner: board 4x4, capture single, corner on, repetition superko, black first");
}

TEST_CASE("malformed and illegal moves are rejected with the problem named", "[core][parser]") {
  const Rules line = make_rules(Capture::line, false);
  // Bad squares and syntax.
  REQUIRE_THROWS_WITH(parse(line, kStart, "e4-e3"), Contains("does not start with a point of the board"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a5-a4"), Contains("does not start with a point of the board"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a0-a1"), Contains("does not start with a point of the board"));
  REQUIRE_THROWS_WITH(parse(line, kStart, ""), Contains("does not start with a point of the board"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "-a3"), Contains("does not start with a point of the board"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4a3"), Contains("expected '-'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4"), Contains("expected '-'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-"), Contains("expected a point of the board after '-'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a9"), Contains("expected a point of the board after '-'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-e4"), Contains("expected a point of the board after '-'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a3y"), Contains("unexpected 'y'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a3 "), Contains("unexpected ' '"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a3x"), Contains("expected a captured point after 'x'"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a3xz9"), Contains("expected a captured point after 'x'"));
  REQUIRE_NOTHROW(parse(line, kStart, "a4-a3"));
  // The message quotes the move.
  REQUIRE_THROWS_WITH(parse(line, kStart, "e4-e3"), Contains("move 'e4-e3'"));
  // Not adjacent.
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a2"), Contains("a2 is not next to a4"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-b3"), Contains("b3 is not next to a4"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a4"), Contains("not next to"));
  // Occupied target.
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-b4"), Contains("b4 is occupied"));
  // No own piece on the start point.
  REQUIRE_THROWS_WITH(parse(line, kStart, "a1-a2"), Contains("no Black piece on a1"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a3-a2"), Contains("no Black piece on a3"));
  REQUIRE_THROWS_WITH(parse(line, "xxxx/4/4/wwww w", "a4-a3"), Contains("no White piece on a4"));
  // Named captures: wrong, twice, or where nothing is captured.
  const std::string soldiers = ".w../w.xw/xx../..w. w";
  REQUIRE(parse(line, soldiers, "b4-b3xc3").captured == bit(10));  // line accepts the full list
  REQUIRE_THROWS_WITH(parse(line, soldiers, "b4-b3xd3"), Contains("captures c3, not d3"));
  REQUIRE_THROWS_WITH(parse(line, soldiers, "b4-b3xc3xc3"), Contains("names c3 twice"));
  REQUIRE_THROWS_WITH(parse(line, kStart, "a4-a3xa2"), Contains("captures nothing, not a2"));
  const std::string two = "xw.x/.x../.x../w.xw w";  // a1-b1 takes b2 b3 c1 under line
  REQUIRE(parse(line, two, "a1-b1").captured == (bit(5) | bit(9) | bit(2)));
  REQUIRE(parse(line, two, "a1-b1xc1xb3xb2").captured == (bit(5) | bit(9) | bit(2)));  // any order
  REQUIRE_THROWS_WITH(parse(line, two, "a1-b1xc1xb3"), Contains("captures c1 b2 b3, not c1 b3"));
  // Single capture: two choices must be named; a wrong name lists the choices (by lowest square).
  const Rules single = make_rules(Capture::single, false);
  const std::string dbl = "xw.x/.x../..xw/.w.. w";
  REQUIRE_THROWS_WITH(parse(single, dbl, "b1-b2"), Contains("name the capture: b1-b2xc2 or b1-b2xb3"));
  REQUIRE_THROWS_WITH(parse(single, dbl, "b1-b2xa4"), Contains("captures c2, b3, not a4"));
  REQUIRE_THROWS_WITH(parse(single, dbl, "b1-b2xb3xc2"), Contains("not c2 b3"));
  REQUIRE(parse(single, dbl, "b1-b2xb3").captured == bit(9));
  REQUIRE(parse(single, dbl, "b1-b2xc2").captured == bit(6));
  // A move the candidates lack (here: banned by the repetition rule).
  Game g = new_game(rules_by_name("encyclopedia"), parse_position(make_board(4, 4), kStart));
  play_history(g, "a4-a3 a1-a2 a3-a4");
  REQUIRE_THROWS_WITH(parse_move(g.board, g.rules, current(g), "a2-a1", legal_moves(g)),
                      Contains("is not a legal move here"));
  // parse_square.
  const Board b = make_board(4, 4);
  REQUIRE(parse_square(b, "a1") == 0);
  REQUIRE(parse_square(b, "d4") == 15);
  for (const char* bad : {"e1", "a5", "a0", "a", "1", "a1 ", "a01", "A1", ""})
    REQUIRE_THROWS_WITH(parse_square(b, bad), Contains("is not a point of the 4x4 board"));
}

TEST_CASE("blanks around and between the diagram and the side to move do not matter", "[core][parser]") {
  const ParsedPosition plain = parse_position_text("xxxx/4/4/wwww x");
  for (const char* text : {"   xxxx/4/4/wwww    x ", "xxxx/4/4/wwww x ", "xxxx/4/4/wwww  x", "xxxx/4/4/wwww\tx",
                           "\txxxx/4/4/wwww \t x\t", "xxxx/4/4/wwww x\n", "\r\nxxxx/4/4/wwww x\r\n"}) {
    INFO(text);
    const ParsedPosition p = parse_position_text(text);
    REQUIRE(p.rows == plain.rows);
    REQUIRE(p.cols == plain.cols);
    REQUIRE(p.position == plain.position);
  }
  REQUIRE(parse_position_text(" .w../w.xw/xx../..w.\tw ").position.to_move == Side::white);
  REQUIRE(parse_position(make_board(3, 4), "  xxxx/4/wwww   w  ").to_move == Side::white);
  // Messages quote the text with its blanks made single spaces; a blank inside the diagram splits it.
  REQUIRE_THROWS_WITH(parse_position_text("  xxxx/4/4/wwwq\t x "), Contains("position 'xxxx/4/4/wwwq x'") && Contains("column 13"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4 /4/wwww x"), Contains("side to move must be") && Contains("not '/4/wwww x'"));
  REQUIRE_THROWS_WITH(parse_position_text("xxxx/4/4/wwww x \t w"), Contains("not 'x w'"));
}

TEST_CASE("format_position and parse_position_text round-trip", "[core][parser]") {
  struct Shape {
    int rows, cols;
  };
  const Shape shapes[] = {{2, 2}, {3, 3}, {4, 4}, {5, 5}, {8, 8}, {4, 6}, {3, 21}, {21, 3}, {2, 32}, {32, 2}, {5, 12}};
  std::mt19937_64 rng(8);
  for (const Shape& s : shapes) {
    const Board b = make_board(s.rows, s.cols);
    for (int i = 0; i < 300; ++i) {
      // Any placement, sparse ones included (long empty runs).
      const int nb = int(rng() % (b.n / 2 + 1)), nw = int(rng() % (b.n - nb + 1));
      const Position p = ref::random_placement(b, nb, nw, (rng() & 1) ? Side::white : Side::black, rng);
      const std::string text = format_position(b, p);
      INFO(text);
      const ParsedPosition q = parse_position_text(text);
      REQUIRE(q.rows == s.rows);
      REQUIRE(q.cols == s.cols);
      REQUIRE(q.position == p);
      REQUIRE(parse_position(b, text) == p);
      // The all-dots form parses to the same position.
      std::string dots;
      for (int r = s.rows - 1; r >= 0; --r) {
        for (int f = 0; f < s.cols; ++f) {
          const Bits m = bit(square_at(b, f, r));
          dots += (p.black & m) ? 'x' : (p.white & m) ? 'w' : '.';
        }
        if (r) dots += '/';
      }
      dots += p.to_move == Side::black ? " x" : " w";
      REQUIRE(parse_position_text(dots).position == p);
    }
    for (int sq = 0; sq < b.n; ++sq) REQUIRE(parse_square(b, square_name(b, sq)) == sq);
  }
  REQUIRE(square_name(make_board(2, 32), 31) == "F1");
  REQUIRE(square_name(make_board(2, 32), 26) == "A1");
  REQUIRE(square_name(make_board(32, 2), 63) == "b32");
}

TEST_CASE("format_move and parse_move round-trip", "[core][parser]") {
  struct Shape {
    int rows, cols;
  };
  const Shape shapes[] = {{3, 3}, {4, 4}, {5, 5}, {4, 6}, {2, 32}, {32, 2}, {12, 5}};
  std::mt19937_64 rng(12);
  for (const Shape& s : shapes) {
    const Board b = make_board(s.rows, s.cols);
    for (Capture c : {Capture::line, Capture::single}) {
      for (bool corner : {false, true}) {
        const Rules r = make_rules(c, corner, Repetition::none, s.rows, s.cols);
        for (int i = 0; i < 300; ++i) {
          const Position p = ref::random_position(b, rng);
          const std::vector<Move> moves = generate_moves(b, r, p);
          for (const Move& m : moves) {
            const std::string text = format_move(b, r, m);
            INFO(rules_id(r) << " " << format_position(b, p) << " " << text);
            REQUIRE(parse_move(b, r, p, text, moves) == m);
            // Naming the capture explicitly is accepted under both rules.
            std::string named = square_name(b, m.from) + "-" + square_name(b, m.to);
            for (Bits x = m.captured; x; x &= x - 1) {
              named += 'x';
              named += square_name(b, lowest(x));
            }
            REQUIRE(parse_move(b, r, p, named, moves) == m);
            // Under single the name carries the capture; under line it does not.
            if (c == Capture::single) REQUIRE(text == named);
            if (c == Capture::line) REQUIRE(text == square_name(b, m.from) + "-" + square_name(b, m.to));
          }
        }
      }
    }
  }
}
