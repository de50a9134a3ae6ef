// Every rule example of the sources (docs/sources.md) as a concrete position, played
// through the Game API: captures (line, single, corner), safe steps between enemies, the end of
// the game, and the worked example of the Games of Soldiers page.
#include <catch2/catch.hpp>
#include <algorithm>
#include <sstream>

#include "core/julgonu/board.hpp"
#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;

namespace {

Game game_at(const Rules& r, const std::string& text) {
  const Board b = make_board(r.rows, r.cols);
  return new_game(r, parse_position(b, text));
}

// "b3 c2" -> the set of those points.
Bits points(const Board& b, const std::string& names) {
  std::istringstream in(names);
  std::string w;
  Bits out = 0;
  while (in >> w) out |= bit(parse_square(b, w));
  return out;
}

// The legal moves in notation, sorted.
std::vector<std::string> names(const Game& g) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(g)) out.push_back(format_move(g.board, g.rules, m));
  std::sort(out.begin(), out.end());
  return out;
}

// The legal moves from `from` to `to`.
std::vector<Move> steps(const Game& g, const std::string& from, const std::string& to) {
  const int f = parse_square(g.board, from), t = parse_square(g.board, to);
  std::vector<Move> out;
  for (const Move& m : legal_moves(g))
    if (m.from == f && m.to == t) out.push_back(m);
  return out;
}

std::string text(const Game& g) { return format_position(g.board, current(g)); }
// The position text in format_position's form (runs as digits), so tests may write dots.
std::string norm(const Game& g, const std::string& t) { return format_position(g.board, parse_position(g.board, t)); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("Games of Soldiers example: b4-b3 captures c3, then Black is stalemated", "[core][examples]") {
  // The page's diagram ".w../waxw/xx../..w." with [1] = b3 the empty target; White to move.
  const Rules soldiers = rules_by_name("soldiers");
  REQUIRE(soldiers.capture == Capture::line);
  REQUIRE(soldiers.repetition == Repetition::superko);
  Game g = game_at(soldiers, ".w../w.xw/xx../..w. w");
  REQUIRE(game_over_reason(g).empty());

  const std::vector<Move> b4b3 = steps(g, "b4", "b3");
  REQUIRE(b4b3.size() == 1);
  REQUIRE(b4b3[0].captured == points(g.board, "c3"));  // between b3 and the White d3

  const Move played = play(g, "b4-b3");
  REQUIRE(played.captured == points(g.board, "c3"));
  REQUIRE(text(g) == norm(g, "4/ww.w/xx../..w. x"));

  play(g, "b2-b1");
  play(g, "b3-b2");
  REQUIRE(text(g) == norm(g, "4/w..w/xw../.xw. x"));
  // Black has exactly two moves left, and each is answered by a stalemating reply.
  REQUIRE(names(g) == std::vector<std::string>{"a2-a1", "b1-a1"});
  for (const Move& black : legal_moves(g)) {
    Game after_black = g;
    play(after_black, black);
    INFO("Black plays " << format_move(g.board, g.rules, black));
    REQUIRE(game_over_reason(after_black).empty());
    bool stalemating_reply = false;
    for (const Move& white : legal_moves(after_black)) {
      Game after_white = after_black;
      play(after_white, white);
      if (legal_moves(after_white).empty()) {
        stalemating_reply = true;
        CHECK(contains(game_over_reason(after_white), "stalemate"));
        CHECK(contains(game_over_reason(after_white), "Black"));
        CHECK(popcount(current(after_white).black) == 2);  // not a loss by material
      }
    }
    REQUIRE(stalemating_reply);
  }
  // The replies the page has in mind: a3-a2 after a2-a1, c1-b1 (or b2-b1) after b1-a1.
  Game a = g;
  play(a, "a2-a1");
  play(a, "a3-a2");
  REQUIRE(contains(game_over_reason(a), "stalemate"));
  Game b = g;
  play(b, "b1-a1");
  play(b, "c1-b1");
  REQUIRE(contains(game_over_reason(b), "stalemate"));
}

TEST_CASE("the default start position and its four opening moves", "[core][examples]") {
  const Board b = make_board(4, 4);
  REQUIRE(format_position(b, start_position(b, Side::black)) == "xxxx/4/4/wwww x");
  REQUIRE(format_position(b, start_position(b, Side::white)) == "xxxx/4/4/wwww w");
  for (const auto& set : named_rule_sets()) {
    Game g = new_game(set.rules, start_position(b, set.rules.first));
    REQUIRE(names(g) == std::vector<std::string>{"a4-a3", "b4-b3", "c4-c3", "d4-d3"});
  }
  const Board b35 = make_board(3, 5);
  REQUIRE(format_position(b35, start_position(b35, Side::white)) == "xxxxx/5/wwwww w");
}

TEST_CASE("line capture: one, a line of two, a line of three, but not across a gap or to the edge",
          "[core][examples]") {
  const Rules line = make_rules(Capture::line, false);
  {
    Game g = game_at(line, "xx../4/w.../.xxw w");  // a2-a1: b1 c1 closed by d1
    REQUIRE(steps(g, "a2", "a1").at(0).captured == points(g.board, "b1 c1"));
    play(g, "a2-a1");
    REQUIRE(text(g) == norm(g, "xx../4/4/w..w x"));
  }
  {
    const Rules line5 = make_rules(Capture::line, false, Repetition::none, 3, 5);
    Game g = game_at(line5, "xx.../w..../.xxxw w");
    REQUIRE(steps(g, "a2", "a1").at(0).captured == points(g.board, "b1 c1 d1"));
  }
  {
    Game g = game_at(line, "xx../4/w.../.x.w w");  // gap at c1
    REQUIRE(steps(g, "a2", "a1").at(0).captured == 0);
  }
  {
    Game g = game_at(line, "xx.w/4/w.../.xxx w");  // the run reaches the edge, no friend
    REQUIRE(steps(g, "a2", "a1").at(0).captured == 0);
  }
  {
    Game g = game_at(line, "xx../4/w.../.xxw w");
    // The friend closing the run must be there after the step, and the run must touch the mover.
    REQUIRE(steps(g, "a2", "a3").at(0).captured == 0);
  }
}

TEST_CASE("row-and-column double capture of the encyclopedia", "[core][examples]") {
  const Rules line = make_rules(Capture::line, false);
  {
    // White b1-b2 sits between c2 (closed by d2) on the row and b3 (closed by b4) on the column.
    Game g = game_at(line, "xw.x/.x../..xw/.w.. w");
    const Move m = play(g, "b1-b2");
    REQUIRE(m.captured == points(g.board, "b3 c2"));
    REQUIRE(text(g) == norm(g, "xw.x/4/.w.w/4 x"));
  }
  {
    // Extended to a line of two on the column: a1-b1 takes b2 b3 (closed by b4) and c1 (by d1).
    Game g = game_at(line, "xw.x/.x../.x../w.xw w");
    const Move m = play(g, "a1-b1");
    REQUIRE(m.captured == points(g.board, "b2 b3 c1"));
    REQUIRE(text(g) == norm(g, "xw.x/4/4/.w.w x"));
  }
  {
    // Under single capture the same step is two moves, one per capture, named.
    const Rules single = make_rules(Capture::single, false);
    Game g = game_at(single, "xw.x/.x../..xw/.w.. w");
    const std::vector<Move> choices = steps(g, "b1", "b2");
    REQUIRE(choices.size() == 2);
    std::vector<std::string> named;
    for (const Move& m : choices) named.push_back(format_move(g.board, single, m));
    std::sort(named.begin(), named.end());
    REQUIRE(named == std::vector<std::string>{"b1-b2xb3", "b1-b2xc2"});
    REQUIRE_THROWS_WITH(play(g, "b1-b2"), Catch::Contains("name the capture"));
    play(g, "b1-b2xc2");
    REQUIRE(text(g) == norm(g, "xw.x/.x../.w.w/4 x"));  // b3 stays
  }
}

TEST_CASE("stepping between one enemy pair is safe, the capture must be made anew", "[core][examples]") {
  // Encyclopedia: a piece that moves in between two enemy pieces is not captured; one of them must
  // move away and come back.
  const Rules line = make_rules(Capture::line, false);
  Game g = game_at(line, "x.../w.w./.x../...w x");
  const Move m = play(g, "b2-b3");  // between a3 and c3
  REQUIRE(m.captured == 0);
  REQUIRE((current(g).black & points(g.board, "b3")) != 0);
  // No White reply captures b3.
  for (const Move& w : legal_moves(g)) REQUIRE((w.captured & points(g.board, "b3")) == 0);
  play(g, "a3-a2");
  play(g, "a4-b4");
  const Move back = play(g, "a2-a3");  // re-creates the flank: now b3 is taken
  REQUIRE(back.captured == points(g.board, "b3"));
  REQUIRE(text(g) == norm(g, ".x../w.w./4/...w x"));
  REQUIRE(contains(game_over_reason(g), "one piece"));
}

TEST_CASE("stepping next to a friend between two enemies is safe for both", "[core][examples]") {
  const Rules line = make_rules(Capture::line, false);
  Game g = game_at(line, "x.../wx.w/..x./4 x");
  const Move m = play(g, "c2-c3");  // a3 w, b3 x, c3 x, d3 w
  REQUIRE(m.captured == 0);
  REQUIRE(text(g) == norm(g, "x.../wxxw/4/4 w"));
  for (const Move& w : legal_moves(g)) REQUIRE(w.captured == 0);
  play(g, "d3-d4");
  play(g, "a4-b4");
  const Move back = play(g, "d4-d3");
  REQUIRE(back.captured == points(g.board, "b3 c3"));
  REQUIRE(text(g) == norm(g, ".x../w..w/4/4 x"));
}

TEST_CASE("corner capture with line and with single capture", "[core][examples]") {
  // Grid rules page: an enemy on a corner is taken when both its neighbours become the mover's.
  const std::string pos = "xw../4/w.xx/4 w";  // White a2-a3 closes a4 between b4 and a3
  for (Capture c : {Capture::line, Capture::single}) {
    INFO("capture " << to_string(c));
    {
      Game g = game_at(make_rules(c, false), pos);
      REQUIRE(steps(g, "a2", "a3").at(0).captured == 0);  // without the corner option: nothing
    }
    Game g = game_at(make_rules(c, true), pos);
    const std::vector<Move> s = steps(g, "a2", "a3");
    REQUIRE(s.size() == 1);
    REQUIRE(s[0].captured == points(g.board, "a4"));
    REQUIRE(format_move(g.board, g.rules, s[0]) == (c == Capture::single ? "a2-a3xa4" : "a2-a3"));
    play(g, s[0]);
    REQUIRE(text(g) == norm(g, ".w../w.../2xx/4 x"));
  }
  // Corner and line together: a3 takes a4 (corner) and b3 (closed by c3).
  const std::string both = "xw../.xw./w.../..xx w";
  {
    Game g = game_at(make_rules(Capture::line, true), both);
    REQUIRE(steps(g, "a2", "a3").size() == 1);
    REQUIRE(steps(g, "a2", "a3")[0].captured == points(g.board, "a4 b3"));
  }
  {
    Game g = game_at(make_rules(Capture::single, true), both);
    const std::vector<Move> s = steps(g, "a2", "a3");
    REQUIRE(s.size() == 2);
    REQUIRE(s[0].captured == points(g.board, "b3"));  // by lowest square: b3 (9) before a4 (12)
    REQUIRE(s[1].captured == points(g.board, "a4"));
    REQUIRE(format_move(g.board, g.rules, s[0]) == "a2-a3xb3");
    REQUIRE(format_move(g.board, g.rules, s[1]) == "a2-a3xa4");
  }
  // Every corner of several boards: Black on the corner, White on one neighbour, and a White piece
  // on the diagonal point steps into the other neighbour.
  for (auto [rows, cols] : {std::pair{3, 5}, std::pair{4, 4}, std::pair{2, 3}, std::pair{2, 2}, std::pair{5, 2}}) {
    for (Capture c : {Capture::line, Capture::single}) {
      const Rules r = make_rules(c, true, Repetition::none, rows, cols);
      const Board b = make_board(rows, cols);
      for (int cr : {0, rows - 1}) {
        for (int cf : {0, cols - 1}) {
          const int dr = cr == 0 ? 1 : -1, df = cf == 0 ? 1 : -1;
          Position p;
          p.black = bit(square_at(b, cf, cr));
          p.white = bit(square_at(b, cf + df, cr)) | bit(square_at(b, cf + df, cr + dr));
          p.to_move = Side::white;
          const Move expected{std::int8_t(square_at(b, cf + df, cr + dr)), std::int8_t(square_at(b, cf, cr + dr)),
                              bit(square_at(b, cf, cr))};
          INFO(rows << "x" << cols << " " << format_position(b, p));
          const std::vector<Move> moves = generate_moves(b, r, p);
          REQUIRE(std::find(moves.begin(), moves.end(), expected) != moves.end());
          Rules off = r;
          off.corner = false;
          for (const Move& m : generate_moves(b, off, p)) REQUIRE(m.captured == 0);
        }
      }
    }
  }
}

TEST_CASE("corner capture needs the moved piece to be one of the two neighbours", "[core][examples]") {
  for (Capture c : {Capture::line, Capture::single}) {
    const Rules r = make_rules(c, true);
    INFO("capture " << to_string(c));
    {
      // a4 already lies between b4 and a3: a step elsewhere does not take it.
      Game g = game_at(r, "xw../w.../...w/x.x. w");
      for (const Move& m : legal_moves(g)) REQUIRE((m.captured & points(g.board, "a4")) == 0);
    }
    {
      // Arriving diagonally next to the corner (b3) does not take it either.
      Game g = game_at(r, "xw../w.../.w../x.x. w");
      REQUIRE(steps(g, "b2", "b3").at(0).captured == 0);
    }
    {
      // A neighbour that steps away and back takes it.
      Game g = game_at(r, "xw../w.../4/x.x. w");
      play(g, "b4-c4");
      play(g, "a1-b1");
      const Move back = play(g, "c4-b4");
      REQUIRE(back.captured == points(g.board, "a4"));
    }
    {
      // Only corners: an edge point with two White neighbours is not taken.
      Game g = game_at(r, "wx../4/.w../x.x. w");
      REQUIRE(steps(g, "b2", "b3").at(0).captured == 0);
    }
  }
}

TEST_CASE("single capture: a run of two captures nothing, each capture place its own move",
          "[core][examples]") {
  const Rules single = make_rules(Capture::single, false);
  {
    Game g = game_at(single, "xx../4/w.../.xxw w");
    const std::vector<Move> s = steps(g, "a2", "a1");
    REQUIRE(s.size() == 1);
    REQUIRE(s[0].captured == 0);
  }
  {
    // A lone piece is taken and the move is named with it.
    Game g = game_at(single, ".w../w.xw/xx../..w. w");
    const std::vector<Move> s = steps(g, "b4", "b3");
    REQUIRE(s.size() == 1);
    REQUIRE(format_move(g.board, single, s[0]) == "b4-b3xc3");
    REQUIRE(play(g, "b4-b3") == s[0]);  // unambiguous: the name may leave the capture out
  }
  {
    const Rules single5 = make_rules(Capture::single, false, Repetition::none, 3, 5);
    // Two places on one line (west and east): two moves, at most one piece each.
    Game g = game_at(single5, "xx.../..w../wx.xw w");
    const std::vector<Move> s = steps(g, "c2", "c1");
    REQUIRE(s.size() == 2);
    REQUIRE(s[0].captured == points(g.board, "b1"));
    REQUIRE(s[1].captured == points(g.board, "d1"));
    const Rules line5 = make_rules(Capture::line, false, Repetition::none, 3, 5);
    Game l = game_at(line5, "xx.../..w../wx.xw w");
    REQUIRE(steps(l, "c2", "c1").size() == 1);
    REQUIRE(steps(l, "c2", "c1")[0].captured == points(l.board, "b1 d1"));
  }
}

TEST_CASE("capture is mandatory", "[core][examples]") {
  for (Capture c : {Capture::line, Capture::single}) {
    Game g = game_at(make_rules(c, false), ".w../w.xw/xx../..w. w");
    // The step b4-b3 exists only as the capturing move: there is no quiet b4-b3.
    for (const Move& m : generate_moves(g.board, g.rules, current(g)))
      if (m.from == parse_square(g.board, "b4") && m.to == parse_square(g.board, "b3"))
        REQUIRE(m.captured == points(g.board, "c3"));
    REQUIRE_THROWS_AS(play(g, Move{std::int8_t(parse_square(g.board, "b4")),
                                   std::int8_t(parse_square(g.board, "b3")), 0}),
                      GonuError);
    const Move m = play(g, "b4-b3");
    REQUIRE(m.captured == points(g.board, "c3"));
  }
}

TEST_CASE("the game ends at one piece and at stalemate", "[core][examples]") {
  const Rules line = make_rules(Capture::line, false);
  {
    Game g = game_at(line, "x.../4/4/ww.. x");  // Black has one piece, and a move
    REQUIRE(!generate_moves(g.board, line, current(g)).empty());
    REQUIRE(legal_moves(g).empty());
    REQUIRE(contains(game_over_reason(g), "Black has at most one piece"));
    REQUIRE_THROWS_WITH(play(g, "a4-a3"), Catch::Contains("the game is over"));
  }
  {
    Game g = game_at(line, "4/4/4/ww.. x");  // no piece at all
    REQUIRE(contains(game_over_reason(g), "at most one piece"));
  }
  {
    Game g = game_at(line, "xx../4/4/w... w");  // White's turn, one piece
    REQUIRE(contains(game_over_reason(g), "White has at most one piece"));
  }
  {
    // A capture that leaves two pieces goes on; one that leaves one ends it.
    Game g = game_at(line, ".w.x/.x../..xw/.w.. w");
    play(g, "b1-b2");
    REQUIRE(contains(game_over_reason(g), "Black has at most one piece"));
  }
  {
    // Stalemate: Black has two pieces and no step.
    Game g = game_at(line, "xxw./ww../4/4 x");
    REQUIRE(generate_moves(g.board, line, current(g)).empty());
    REQUIRE(legal_moves(g).empty());
    REQUIRE(contains(game_over_reason(g), "Black has no move (stalemate)"));
    Game w = game_at(line, "xxw./ww../4/4 w");
    REQUIRE(game_over_reason(w).empty());
  }
  {
    // Two pieces each and moves: the game goes on.
    Game g = game_at(line, "xx../4/4/ww.. x");
    REQUIRE(game_over_reason(g).empty());
    REQUIRE(legal_moves(g).size() == 3);  // a4-a3 b4-b3 b4-c4
  }
}

TEST_CASE("a game record checks its start position and draws positions", "[core][examples]") {
  const Rules r = rules_by_name("free");
  Position overlap;
  overlap.black = bit(0) | bit(1);
  overlap.white = bit(1) | bit(2);
  REQUIRE_THROWS_WITH(new_game(r, overlap), Catch::Contains("does not fit the board"));
  Position outside;
  outside.black = bit(0) | bit(1);
  outside.white = bit(2) | bit(16);  // 4x4 has points 0..15
  REQUIRE_THROWS_WITH(new_game(r, outside), Catch::Contains("does not fit the board"));

  const Board b = make_board(4, 4);
  REQUIRE(draw_position(b, start_position(b, Side::black)) ==
          " 4  x x x x\n"
          " 3  . . . .\n"
          " 2  . . . .\n"
          " 1  w w w w\n"
          "    a b c d\n"
          "Black (x) to move\n");
  Game g = new_game(r, start_position(b, Side::black));
  play_history(g, "b4-b3 c1-c2");
  REQUIRE(g.moves.size() == 2);
  REQUIRE(g.positions.size() == 3);
  REQUIRE(g.positions[0] == g.start);
  REQUIRE(text(g) == norm(g, "x.xx/.x../..w./ww.w x"));
}
