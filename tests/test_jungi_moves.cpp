// Jungi's rules engine by hand-worked examples: the notation (strict parsing, one-line errors,
// round trips), the moves READING.md singles out (capturing what passed by, the Emperor's
// two-steps, promotion, first-move 2-steps), the end of the game, each option, and the commands
// (gonu show / moves / rules / perft --game jungi).
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/error.hpp"
#include "core/jungi/moves.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using table_test::contains;
using table_test::require_one_line_error;
using table_test::run_gonu;

namespace {

std::vector<std::string> move_texts(const jungi::Rules& r, const std::string& position) {
  const jungi::Position p = jungi::parse_position(r, position);
  std::vector<std::string> out;
  for (const auto& m : jungi::legal_moves(r, p)) out.push_back(jungi::format_move(r, p, m));
  std::sort(out.begin(), out.end());
  return out;
}

bool has_move(const std::vector<std::string>& moves, const std::string& m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

std::string after(const jungi::Rules& r, const std::string& position, const std::string& move) {
  const jungi::Position p = jungi::parse_position(r, position);
  return jungi::format_position(jungi::apply_move(p, jungi::parse_move(r, p, move)));
}

void require_parse_error(const std::string& text, const std::string& fragment, const jungi::Rules& r = {}) {
  INFO(text);
  try {
    jungi::parse_position(r, text);
    FAIL("accepted");
  } catch (const GonuError& e) {
    INFO(e.what());
    REQUIRE(contains(e.what(), fragment));
    REQUIRE(std::string(e.what()).find('\n') == std::string::npos);
  }
}

}  // namespace

TEST_CASE("jungi notation: positions round-trip and bad ones are refused with the problem named", "[jungi]") {
  const jungi::Rules r;
  for (const char* text : {"4k4/9/9/9/9/9/9/9/4K3R s -", "4k4/9/9/9/3pP4/9/9/9/4K4 n e4:e5",
                           "rnemkmenr/scloqolcs/ppppppppp/9/9/9/PPPPPPPPP/SCLOQOLCS/RNEMKMENR s - e1e2e8e9"}) {
    REQUIRE(jungi::format_position(jungi::parse_position(r, text)) == text);
  }
  REQUIRE(jungi::format_position(jungi::parse_position(r, "  4k4/9/9/9/9/9/9/9/4K3R \t s   - ")) == "4k4/9/9/9/9/9/9/9/4K3R s -");
  // The passed squares are written in the order passed, whatever order they were given in.
  REQUIRE(jungi::format_position(jungi::parse_position(r, "4k4/9/9/9/9/9/9/9/4KR3 n h1g1:f1")) == "4k4/9/9/9/9/9/9/9/4KR3 n h1g1:f1");
  REQUIRE(jungi::format_position(jungi::parse_position(r, "4k4/9/9/9/9/9/9/9/4KR3 n g1h1:f1")) == "4k4/9/9/9/9/9/9/9/4KR3 n h1g1:f1");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K3X s -", "'X' is not a piece letter");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K5 s -", "rank 1 has more than 9 squares");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K3 s -", "rank 1 has 8 squares, not 9");
  require_parse_error("4k4/9/9/9/9/9/9/4K4 s -", "8 ranks, not 9");
  require_parse_error("4k4/P8/9/9/9/9/9/9/4K4 s -", "South's Pawn cannot stand on a8");
  require_parse_error("4k4/9/9/9/9/9/9/P8/4K4 s -", "a Pawn never stands on its side's first two ranks");
  require_parse_error("4k4/9/9/9/9/9/2n6/9/4K4 s -", "North's Horseman cannot stand on c3");
  require_parse_error("9/9/9/9/9/9/9/9/4K4 s -", "North has no royal");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K2+K1 s -", "South has two royals (e1 and h1)");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K4 w -", "side to move must be 's' or 'n'");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K4 s", "needs 3 fields");
  require_parse_error("4k4/9/9/9/3pP4/9/9/9/4K4 n e3:e5", "no last move of South could have left it");
  require_parse_error("4k4/9/9/9/3pP4/9/9/9/4K4 s e4:e5", "no last move of North could have left it");
  require_parse_error("4k4/9/9/9/9/9/9/9/4KR3 n b1:f1", "no last move of South could have left it");  // a gap
  require_parse_error("4k4/9/9/9/9/9/9/9/4KR3 n e4e5", "write '-' or the passed squares");
  require_parse_error("4k4/9/9/9/9/9/9/9/4K3R s - i1", "no unpromoted King or Queen stands there");
}

TEST_CASE("jungi moves: what passed by is captured where it stands", "[jungi]") {
  const jungi::Rules r;
  // The Chariot slid a4-i4 past the North King on e5: the King takes it by stepping onto d4, e4 or f4.
  const std::string slid = after(r, "9/9/9/9/4k4/R8/9/9/4K4 s -", "a4-i4");
  REQUIRE(slid == "9/9/9/9/4k4/8R/9/9/4K4 n b4c4d4e4f4g4h4:i4");
  const auto moves = move_texts(r, slid);
  REQUIRE(has_move(moves, "e5xd4"));
  REQUIRE(has_move(moves, "e5xe4"));
  REQUIRE(has_move(moves, "e5xf4"));
  REQUIRE(after(r, slid, "e5xe4") == "9/9/9/9/9/4k4/9/9/4K4 s -");
  // A Pawn's 2-step leaves its middle square as the field.
  REQUIRE(after(r, "4k4/9/9/9/9/9/4P4/9/4K4 s -", "e3-e5") == "4k4/9/9/9/4P4/9/9/9/4K4 n e4:e5");
  // A Pawn's straight step onto a passed square captures nothing (fine point 4); its diagonal one does.
  const std::string past = after(r, "4k4/9/9/4p4/R8/9/9/9/4K4 s -", "a5-i5");
  REQUIRE(past == "4k4/9/9/4p4/8R/9/9/9/4K4 n b5c5d5e5f5g5h5:i5");
  REQUIRE(after(r, past, "e6-e5") == "4k4/9/9/9/4p3R/9/9/9/4K4 s -");
  REQUIRE(after(r, past, "e6xd5") == "4k4/9/9/9/3p5/9/9/9/4K4 s -");
}

TEST_CASE("jungi moves: the Emperor's two-steps, leaps and capture without moving", "[jungi]") {
  const jungi::Rules r;
  // Alone in the middle: 8 steps, 16 leaps, 8 x 7 two-steps.
  REQUIRE(move_texts(r, "k8/9/9/9/4+K4/9/9/9/9 s -").size() == 80);
  const std::string p = "k8/9/4n4/3pr4/4+K4/9/9/9/9 s -";
  const auto moves = move_texts(r, p);
  REQUIRE(has_move(moves, "e5xe6xe7"));   // two captures
  REQUIRE(has_move(moves, "e5xe6-e5"));   // capture without moving
  REQUIRE(!has_move(moves, "e5-f5-e5"));  // no pass
  REQUIRE(after(r, p, "e5xe6xe7") == "k8/9/4+K4/3p5/9/9/9/9/9 n e6:e7");
  REQUIRE(after(r, p, "e5xe6-e5") == "k8/9/4n4/3p5/4+K4/9/9/9/9 n e6:e5");
  // Capturing without moving still passes e6: a North Pawn covering e6 takes the Emperor, and wins.
  const std::string covered = after(r, "k8/9/3p5/4n4/4+K4/9/9/9/9 s -", "e5xe6-e5");
  REQUIRE(covered == "k8/9/3p5/9/4+K4/9/9/9/9 n e6:e5");
  const jungi::Position c = jungi::parse_position(r, covered);
  const jungi::Position won = jungi::apply_move(c, jungi::parse_move(r, c, "d7xe6"));
  REQUIRE(jungi::format_position(won) == "k8/9/9/4p4/9/9/9/9/9 s -");
  REQUIRE(jungi::outcome(r, won) == jungi::Outcome::loss);
}

TEST_CASE("jungi moves: promotion by step, leap, slide and capture of what passed by", "[jungi]") {
  const jungi::Rules r;
  REQUIRE(after(r, "4k4/9/9/4PO3/9/9/9/9/4K4 s -", "e6-e7") == "4k4/9/4+P4/5O3/9/9/9/9/4K4 n -");
  REQUIRE(after(r, "4k4/9/9/9/2N6/9/9/9/4K4 s -", "c5-d7") == "4k4/9/3+N5/9/9/9/9/9/4K4 n -");
  REQUIRE(after(r, "k8/9/9/9/9/9/9/9/R3K4 s -", "a1-a8") == "k8/+R8/9/9/9/9/9/9/4K4 n a2a3a4a5a6a7:a8");
  // North's Chariot slides along rank 7 past d6's capture square e7: the Pawn takes it and promotes.
  const std::string slid = after(r, "k8/9/r8/3P5/9/9/9/9/4K4 n -", "a7-i7");
  REQUIRE(after(r, slid, "d6xe7") == "k8/9/4+P4/9/9/9/9/9/4K4 n -");
  // The King promotes too.
  REQUIRE(after(r, "k8/9/9/4K4/9/9/9/9/9 s -", "e6-e7") == "k8/9/4+K4/9/9/9/9/9/9 n -");
  // Under optional promotion both moves are listed, the promoting one marked '+'.
  jungi::Rules opt;
  opt.optional_promotion = true;
  const auto both = move_texts(opt, "4k4/9/9/4P4/9/9/9/9/4K4 s -");
  REQUIRE(has_move(both, "e6-e7"));
  REQUIRE(has_move(both, "e6-e7+"));
  REQUIRE(after(opt, "4k4/9/9/4P4/9/9/9/9/4K4 s -", "e6-e7") == "4k4/9/4P4/9/9/9/9/9/4K4 n -");
}

TEST_CASE("jungi moves: first-move 2-steps and the Elephant's 3-leap", "[jungi]") {
  const jungi::Rules r;
  const auto start = jungi::start_position();
  REQUIRE(jungi::format_position(start) == "rnemkmenr/scloqolcs/ppppppppp/9/9/9/PPPPPPPPP/SCLOQOLCS/RNEMKMENR s - e1e2e8e9");
  REQUIRE(jungi::perft(r, start, 1) == 20);  // 9 Pawns x 2 and the Elephants' 3-leaps
  const std::string rights = "4k4/4q4/9/9/9/9/9/4Q4/4K4 s - e1e2e8e9";
  REQUIRE(has_move(move_texts(r, rights), "e2-e4"));
  REQUIRE(after(r, rights, "e2-e4") == "4k4/4q4/9/9/9/4Q4/9/9/4K4 n e3:e4 e1e8e9");
  // Without the right (the notation's default), no 2-step.
  REQUIRE(!has_move(move_texts(r, "4k4/4q4/9/9/9/9/9/4Q4/4K4 s -"), "e2-e4"));
  REQUIRE(has_move(move_texts(r, "4k4/9/9/9/9/9/9/9/2E1K4 s -"), "c1-c4"));
  REQUIRE(!has_move(move_texts(r, "4k4/9/9/9/9/9/9/2E6/4K4 s -"), "c2-c5"));
}

TEST_CASE("jungi moves: options hobbling and lancer", "[jungi]") {
  jungi::Rules hobble;
  hobble.hobbling = true;
  const std::string p = "4k4/9/9/9/9/9/2P6/2N6/4K4 s -";
  REQUIRE(has_move(move_texts(jungi::Rules{}, p), "c2-b4"));
  REQUIRE(!has_move(move_texts(hobble, p), "c2-b4"));  // c3 blocks the long side
  REQUIRE(has_move(move_texts(hobble, p), "c2-a3"));   // b2 is free
  jungi::Rules queen;
  queen.lancer_queen = true;
  const std::string l = "4k4/9/9/9/4+S4/9/9/9/K8 s -";
  REQUIRE(!has_move(move_texts(jungi::Rules{}, l), "e5-f6"));
  REQUIRE(has_move(move_texts(queen, l), "e5-f6"));
}

TEST_CASE("jungi: the game ends at the royal's capture and without a move", "[jungi]") {
  const jungi::Rules r;
  const std::string taken = after(r, "9/9/9/9/4k4/4K4/9/9/9 s -", "e4xe5");
  REQUIRE(taken == "9/9/9/9/4K4/9/9/9/9 n -");
  jungi::Position p = jungi::apply_move(jungi::parse_position(r, "9/9/9/9/4k4/4K4/9/9/9 s -"),
                                        jungi::parse_move(r, jungi::parse_position(r, "9/9/9/9/4k4/4K4/9/9/9 s -"), "e4xe5"));
  std::string why;
  REQUIRE(jungi::outcome(r, p, &why) == jungi::Outcome::loss);
  REQUIRE(contains(why, "royal has been captured"));
  REQUIRE(jungi::legal_moves(r, p).empty());
  REQUIRE(jungi::perft(r, p, 2) == 0);
  // Under optional promotion an unpromoted North Pawn on rank 1 never moves: North's King on i1,
  // walled in by such Pawns, has no legal move.
  jungi::Rules opt;
  opt.optional_promotion = true;
  jungi::Rules draw = opt;
  draw.stalemate_draw = true;
  const jungi::Position stuck = jungi::parse_position(opt, "K8/9/9/9/9/9/9/7pp/7pk n -");
  REQUIRE(jungi::legal_moves(opt, stuck).empty());
  REQUIRE(jungi::outcome(opt, stuck, &why) == jungi::Outcome::loss);
  REQUIRE(contains(why, "no legal move"));
  REQUIRE(jungi::outcome(draw, stuck) == jungi::Outcome::draw);
}

TEST_CASE("jungi moves: parse_move names what is wrong", "[jungi]") {
  const jungi::Rules r;
  const jungi::Position p = jungi::parse_position(r, "4k4/9/9/9/9/9/4P4/9/4K4 s -");
  REQUIRE(jungi::format_move(r, p, jungi::parse_move(r, p, " e3e4 ")) == "e3-e4");
  REQUIRE(jungi::format_move(r, p, jungi::parse_move(r, p, "e3xe4")) == "e3-e4");
  for (const auto& [text, fragment] : std::vector<std::pair<std::string, std::string>>{
           {"e3", "write from-to"}, {"e9-e8", "no piece of South"}, {"e3-e6", "can play e3-e4 e3-e5"}, {"e3-e4+", "does not promote"}}) {
    INFO(text);
    try {
      jungi::parse_move(r, p, text);
      FAIL("accepted");
    } catch (const GonuError& e) {
      REQUIRE(contains(e.what(), fragment));
    }
  }
}

TEST_CASE("gonu moves, perft, show and rules --game jungi", "[cli][jungi]") {
  auto r = run_gonu("moves --game jungi '4k4/9/9/9/3pP4/9/9/9/4K4 n e4:e5'");
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "7 legal moves"));
  REQUIRE(contains(r.out, "  Pd5xe4 (d5xe4)  captures Pawn on e5 (it passed e4)\n"));
  r = run_gonu("moves --game jungi 'k8/9/9/4P4/9/9/9/9/4K4 s -'");
  REQUIRE(contains(r.out, "  Pe6-e7=+P (e6-e7)  promotes to Veteran\n"));
  r = run_gonu("perft --game jungi 3");
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "perft 3: 9035"));
  REQUIRE(contains(r.out, "provisional"));
  r = run_gonu("perft --game jungi '4k4/9/9/9/3p5/9/4P4/9/4K4 s -' 2 --json --divide");
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "\"depth\":2"));
  REQUIRE(contains(r.out, "{\"move\":\"e3-e5\",\"nodes\":7}"));
  r = run_gonu("perft 'xxxx/4/4/wwww x' 3");
  REQUIRE(contains(r.out, "perft 3: "));
  r = run_gonu("show --game jungi");
  REQUIRE(contains(r.out, "provisional"));
  r = run_gonu("rules --game jungi");
  REQUIRE(contains(r.out, "Emperor"));
  REQUIRE(contains(r.out, "--lancer standard|queen"));
  require_one_line_error(run_gonu("moves --game jungi '4k4/9/9/9/9/9/9/9/4K3X s -'"), "'X' is not a piece letter");
  require_one_line_error(run_gonu("moves --game jungi '4k4/9/9/9/9/9/9/9/4K4 s -' --history 'e1-e3'"), "--history move 1");
  REQUIRE(run_gonu("moves --game jungi --rules free").code == 2);
  REQUIRE(run_gonu("moves --hobbling").code == 2);
  REQUIRE(run_gonu("perft --game jungi x").code == 2);
}
