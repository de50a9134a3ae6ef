// Jungi's fast move generator (core/jungi/) against the plain reference written apart from it
// (tests/reference/jungi_plain.hpp): every move and every resulting position, as text, on every
// piece type on every square, on random positions, and perft from positions chosen to exercise
// captures of what passed by, promotion and the Emperor's two-steps.
#include <catch2/catch.hpp>

#include <random>

#include "tests/jungi_support.hpp"

using namespace gonu;
using gonu::test::fast_successors;
using gonu::test::plain_options;

namespace {

std::vector<jungi::Rules> readings() {
  std::vector<jungi::Rules> v(4);
  v[1].hobbling = true;
  v[2].optional_promotion = true;
  v[3].lancer_queen = true;
  return v;
}

void require_same_successors(const jungi::Rules& r, const jungi::Position& p) {
  const std::string text = jungi::format_position(p);
  INFO("position " << text << "  rules " << jungi::describe(r));
  REQUIRE(fast_successors(r, p) == plain_jungi::successors(text, plain_options(r)));
}

}  // namespace

TEST_CASE("jungi: every piece on every square moves as the reference says", "[jungi]") {
  for (const jungi::Rules& r : readings()) {
    for (jungi::Side side : {jungi::Side::south, jungi::Side::north}) {
      for (int type = 0; type < jungi::kTypes; ++type) {
        const jungi::Piece piece = jungi::make_piece(side, type);
        for (int sq = 0; sq < jungi::kSquares; ++sq) {
          if (!jungi::can_stand(r, piece, sq)) continue;
          jungi::Position p;
          p.cell[static_cast<std::size_t>(sq)] = piece;
          // The royals out of the way, on corners the piece does not use.
          const int own = sq == 0 ? 8 : 0, theirs = sq == 80 ? 72 : 80;
          const int south_royal = side == jungi::Side::south ? own : theirs, north_royal = side == jungi::Side::south ? theirs : own;
          if (!jungi::is_royal(piece)) {
            p.cell[static_cast<std::size_t>(south_royal)] = jungi::make_piece(jungi::Side::south, jungi::Kind::king, south_royal >= 54);
            p.cell[static_cast<std::size_t>(north_royal)] = jungi::make_piece(jungi::Side::north, jungi::Kind::king, north_royal < 27);
          } else {
            const int other_sq = side == jungi::Side::south ? theirs : own;
            p.cell[static_cast<std::size_t>(other_sq)] = jungi::make_piece(jungi::other(side), jungi::Kind::king, true);
          }
          p.to_move = side;
          jungi::find_royals(p);
          require_same_successors(r, p);
        }
      }
    }
  }
}

TEST_CASE("jungi: random positions of 2 to 12 pieces, with and without en-passant fields", "[jungi]") {
  std::mt19937_64 rng(2026);
  int with_field = 0;
  for (const jungi::Rules& r : readings()) {
    for (int i = 0; i < 600; ++i) {
      const jungi::Position p = test::random_position(rng, r, 2 + static_cast<int>(rng() % 11), static_cast<int>(rng() % 3));
      with_field += p.passed != 0;
      require_same_successors(r, p);
    }
  }
  REQUIRE(with_field > 100);  // the en-passant captures are exercised
}

TEST_CASE("jungi: perft to depth 3 equals the reference's", "[jungi]") {
  struct Case {
    const char* what;
    const char* position;
    bool hobbling = false, optional = false;
  };
  const std::vector<Case> cases = {
      {"a Pawn's 2-step, then the Pawn beside it captures what passed by", "4k4/9/9/9/3p5/9/4P4/9/4K4 s -"},
      {"a slide past the King, which takes the slider on the square passed", "9/9/9/9/4k4/R8/9/9/4K4 s -"},
      {"an Emperor's two-step past a Pawn's capture square", "4k4/9/9/3p5/4+K4/9/9/9/9 s -"},
      {"promotion by step (Pawn, Officer, King)", "4k4/9/9/4PO3/9/9/9/9/4K4 s -"},
      {"promotion by leap (Horseman, Magister, Elephant)", "4k4/9/9/9/2N1M1E2/9/9/9/4K4 s -"},
      {"promotion by slide (Chariot, Pikeman, Cannon)", "k8/9/9/9/9/9/9/9/R2SK1C2 s -"},
      {"promotion by capturing what passed by", "k8/9/r8/3P5/9/9/9/9/4K4 n -"},
      {"the Emperor's double capture, capture without moving and royal capture", "k8/9/4n4/3pr4/4+K4/9/9/9/9 s -"},
      {"first-move 2-steps of Queen and King", "4k4/4q4/9/9/9/9/9/4Q4/4K4 s - e1e2e8e9"},
      {"a crowded middle game", "r3k3r/1l1n1o1c1/2+c3e2/p2Pp4/4+Q4/1N3s3/PPP2P1P1/4+O4/R3K3R s -"},
      {"the provisional start", "rnemkmenr/scloqolcs/ppppppppp/9/9/9/PPPPPPPPP/SCLOQOLCS/RNEMKMENR s - e1e2e8e9"},
      {"Emperors and Empresses face to face", "9/9/3+q1+k3/9/9/9/3+K1+Q3/9/9 n -"},
      {"hobbled leapers", "4k4/9/2n1m4/3P5/2NE5/2P6/9/9/2E1K4 s -", true},
      {"optional promotion", "4k4/4P4/9/3P5/2N6/9/9/9/R3K4 s -", false, true},
  };
  for (const Case& c : cases) {
    jungi::Rules r;
    r.hobbling = c.hobbling;
    r.optional_promotion = c.optional;
    INFO(c.what << ": " << c.position);
    const jungi::Position p = jungi::parse_position(r, c.position);
    for (int depth = 1; depth <= 3; ++depth) {
      REQUIRE(jungi::perft(r, p, depth) == plain_jungi::perft(c.position, depth, plain_options(r)));
    }
  }
}

namespace {

// Whether some move's result, as the plain reference plays it, lacks the enemy royal.
bool reference_takes_royal(const jungi::Rules& r, const jungi::Position& p) {
  const char royal = p.to_move == jungi::Side::south ? 'k' : 'K';
  for (const auto& [move, after] : plain_jungi::successors(jungi::format_position(p), plain_options(r)))
    if (after.substr(0, after.find(' ')).find(royal) == std::string::npos) return true;
  return false;
}

// The same from the fast generator's moves.
bool generator_takes_royal(const jungi::Rules& r, const jungi::Position& p) {
  const int royal = p.royal[std::size_t(jungi::index(jungi::other(p.to_move)))];
  for (const jungi::Move& m : jungi::legal_moves(r, p)) {
    const std::vector<int> taken = jungi::captured_squares(p, m);
    if (std::find(taken.begin(), taken.end(), royal) != taken.end()) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("jungi: takes_royal says whether a move takes the enemy royal, as the moves do", "[jungi]") {
  std::mt19937_64 rng(81);
  int taken = 0;
  // Random positions, some with fields, against the plain reference.
  for (const jungi::Rules& r : readings()) {
    for (int i = 0; i < 400; ++i) {
      const jungi::Position p = test::random_position(rng, r, 2 + static_cast<int>(rng() % 11), static_cast<int>(rng() % 3));
      INFO(jungi::format_position(p) << "  " << jungi::describe(r));
      REQUIRE(jungi::takes_royal(r, p) == reference_takes_royal(r, p));
    }
  }
  // Every piece of the side to move on every square against the royal on every other square,
  // with a random third piece that may block a slide or a leap (hobbling) or an Emperor's
  // two-step, against the generator's moves.
  for (const jungi::Rules& r : readings()) {
    for (int type = 0; type < jungi::kTypes; ++type) {
      const jungi::Piece piece = jungi::make_piece(jungi::Side::south, type);
      for (int sq = 0; sq < jungi::kSquares; ++sq) {
        if (!jungi::can_stand(r, piece, sq)) continue;
        for (int target = 0; target < jungi::kSquares; ++target) {
          if (target == sq) continue;
          jungi::Position p;
          p.cell[std::size_t(sq)] = piece;
          p.cell[std::size_t(target)] = jungi::make_piece(jungi::Side::north, jungi::Kind::king, true);
          const auto place = [&](jungi::Piece x) {
            const auto at = std::size_t(rng() % jungi::kSquares);
            if (p.cell[at] == jungi::kEmpty) p.cell[at] = x;
          };
          place(jungi::make_piece(rng() % 2 ? jungi::Side::south : jungi::Side::north, jungi::Kind::chariot, true));
          if (!jungi::is_royal(piece)) place(jungi::make_piece(jungi::Side::south, jungi::Kind::king, true));
          jungi::find_royals(p);
          if (p.royal[0] < 0) continue;
          const bool want = generator_takes_royal(r, p);
          INFO(jungi::format_position(p) << "  " << jungi::describe(r));
          REQUIRE(jungi::takes_royal(r, p) == want);
          taken += want;
        }
      }
    }
  }
  CHECK(taken > 10000);
}
