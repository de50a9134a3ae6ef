// Board symmetries and the colour swap: they are bijections of the board that keep its geometry,
// they form a group (8 on square boards, 4 otherwise), and they commute with move generation and
// with the game record's legality (repetition rules included).
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <set>

#include "core/julgonu/board.hpp"
#include "core/julgonu/game.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"
#include "core/julgonu/symmetry.hpp"
#include "tests/reference/plain_rules.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;

namespace {

struct Shape {
  int rows, cols;
};

const Shape kAllShapes[] = {{2, 2}, {3, 3}, {4, 4}, {5, 5}, {8, 8}, {3, 4}, {4, 3}, {4, 6},
                            {6, 4}, {2, 5}, {5, 2}, {2, 32}, {32, 2}, {7, 9}};

std::vector<int> permutation(const Board& b, int sym) {
  std::vector<int> p(b.n);
  for (int sq = 0; sq < b.n; ++sq) p[sq] = map_square(b, sym, sq);
  return p;
}

std::set<ref::MoveKey> mapped(const Board& b, int sym, const std::vector<Move>& moves) {
  std::set<ref::MoveKey> out;
  for (const Move& m : moves) out.insert(ref::key_of(map_move(b, sym, m)));
  return out;
}

std::set<ref::MoveKey> swapped(const Board& b, const std::vector<Move>& moves) {
  std::set<ref::MoveKey> out;
  for (const Move& m : moves) out.insert(ref::key_of(swap_colours(b, m)));
  return out;
}

}  // namespace

TEST_CASE("symmetries are bijections keeping the geometry, 8 on square boards and 4 otherwise",
          "[core][symmetry]") {
  for (const Shape& s : kAllShapes) {
    const Board b = make_board(s.rows, s.cols);
    INFO(s.rows << "x" << s.cols);
    const int count = symmetry_count(b);
    REQUIRE(count == (s.rows == s.cols ? 8 : 4));
    std::set<std::vector<int>> group;
    for (int sym = 0; sym < count; ++sym) {
      INFO("symmetry " << sym);
      const std::vector<int> p = permutation(b, sym);
      // A bijection of the board's points.
      std::vector<int> sorted = p;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < b.n; ++i) REQUIRE(sorted[i] == i);
      REQUIRE(map_bits(b, sym, b.all) == b.all);
      REQUIRE(map_bits(b, sym, b.corners) == b.corners);
      // Neighbours stay neighbours.
      for (int sq = 0; sq < b.n; ++sq)
        for (int nb = 0; nb < b.n; ++nb)
          REQUIRE(((b.adjacent[sq] >> nb) & 1) == ((b.adjacent[p[sq]] >> p[nb]) & 1));
      // map_bits is map_square on each point.
      std::mt19937_64 rng(sym);
      for (int i = 0; i < 20; ++i) {
        const Bits x = rng() & b.all;
        Bits want = 0;
        for (int sq = 0; sq < b.n; ++sq)
          if ((x >> sq) & 1) want |= bit(p[sq]);
        REQUIRE(map_bits(b, sym, x) == want);
      }
      group.insert(p);
    }
    // All distinct, identity first, closed under composition (so a group).
    REQUIRE(int(group.size()) == count);
    std::vector<int> identity(b.n);
    for (int i = 0; i < b.n; ++i) identity[i] = i;
    REQUIRE(permutation(b, 0) == identity);
    for (const auto& p : group)
      for (const auto& q : group) {
        std::vector<int> pq(b.n);
        for (int i = 0; i < b.n; ++i) pq[i] = p[q[i]];
        REQUIRE(group.count(pq) == 1);
      }
    // The documented meanings of 1 (mirror files) and 2 (mirror ranks).
    for (int sq = 0; sq < b.n; ++sq) {
      const int f = file_of(b, sq), r = rank_of(b, sq);
      REQUIRE(map_square(b, 1, sq) == square_at(b, b.cols - 1 - f, r));
      REQUIRE(map_square(b, 2, sq) == square_at(b, f, b.rows - 1 - r));
      REQUIRE(map_square(b, 3, sq) == square_at(b, b.cols - 1 - f, b.rows - 1 - r));
      if (count == 8) REQUIRE(map_square(b, 4, sq) == square_at(b, r, f));
    }
  }
}

TEST_CASE("the colour swap is an involution that keeps each side's home", "[core][symmetry]") {
  for (const Shape& s : kAllShapes) {
    const Board b = make_board(s.rows, s.cols);
    INFO(s.rows << "x" << s.cols);
    REQUIRE(swap_colours(b, start_position(b, Side::black)) == start_position(b, Side::white));
    REQUIRE(swap_colours(b, start_position(b, Side::white)) == start_position(b, Side::black));
    std::mt19937_64 rng(s.rows * 100 + s.cols);
    for (int i = 0; i < 200; ++i) {
      const Position p = ref::random_position(b, rng, b.n < 6 ? 1 : 2);
      const Position q = swap_colours(b, p);
      REQUIRE(q.to_move == other(p.to_move));
      REQUIRE(popcount(q.black) == popcount(p.white));
      REQUIRE(popcount(q.white) == popcount(p.black));
      REQUIRE(swap_colours(b, q) == p);
      for (int sym = 0; sym < symmetry_count(b); ++sym) {
        const Position m = map_position(b, sym, p);
        REQUIRE(m.to_move == p.to_move);
        REQUIRE(popcount(m.black) == popcount(p.black));
        REQUIRE(popcount(m.white) == popcount(p.white));
        // Some symmetry maps it back.
        bool back = false;
        for (int inv = 0; inv < symmetry_count(b); ++inv) back |= map_position(b, inv, m) == p;
        REQUIRE(back);
      }
    }
  }
}

TEST_CASE("moves of a mapped position are the mapped moves, for every symmetry and the colour swap",
          "[core][symmetry]") {
  const Shape shapes[] = {{3, 3}, {4, 4}, {5, 5}, {3, 4}, {4, 6}, {6, 4}, {2, 5}, {8, 8}};
  std::uint64_t seed = 1000;
  for (const Shape& s : shapes) {
    const Board b = make_board(s.rows, s.cols);
    for (Capture c : {Capture::line, Capture::single}) {
      for (bool corner : {false, true}) {
        const Rules r = make_rules(c, corner, Repetition::none, s.rows, s.cols);
        std::mt19937_64 rng(seed++);
        int with_capture = 0;
        for (int i = 0; i < 400; ++i) {
          const Position p = ref::random_position(b, rng);
          const std::vector<Move> moves = generate_moves(b, r, p);
          for (const Move& m : moves) with_capture += m.captured != 0;
          INFO("rules " << rules_id(r) << ", position " << format_position(b, p));
          for (int sym = 0; sym < symmetry_count(b); ++sym) {
            INFO("symmetry " << sym);
            const Position q = map_position(b, sym, p);
            REQUIRE(ref::key_set(generate_moves(b, r, q)) == mapped(b, sym, moves));
            // apply_move commutes too.
            for (const Move& m : moves) REQUIRE(apply_move(q, map_move(b, sym, m)) == map_position(b, sym, apply_move(p, m)));
          }
          const Position q = swap_colours(b, p);
          REQUIRE(ref::key_set(generate_moves(b, r, q)) == swapped(b, moves));
          for (const Move& m : moves) REQUIRE(apply_move(q, swap_colours(b, m)) == swap_colours(b, apply_move(p, m)));
        }
        REQUIRE(with_capture > 0);
      }
    }
  }
}

TEST_CASE("game legality, repetition included, commutes with the symmetries and the colour swap",
          "[core][symmetry]") {
  const Shape shapes[] = {{3, 3}, {4, 4}, {3, 4}};
  std::uint64_t seed = 31;
  for (const Shape& s : shapes) {
    const Board b = make_board(s.rows, s.cols);
    for (Repetition rep : {Repetition::none, Repetition::immediate, Repetition::undo, Repetition::superko}) {
      const Rules r = make_rules(Capture::line, true, rep, s.rows, s.cols);
      std::mt19937_64 rng(seed++);
      for (int gi = 0; gi < 15; ++gi) {
        const Position start = gi % 3 ? ref::random_position(b, rng) : start_position(b, Side::black);
        const int n = symmetry_count(b);
        // images[sym]: the game mapped by symmetry sym; images[n]: the colour-swapped game.
        Game g = new_game(r, start);
        std::vector<Game> images;
        for (int sym = 0; sym < n; ++sym) images.push_back(new_game(r, map_position(b, sym, start)));
        images.push_back(new_game(r, swap_colours(b, start)));
        for (int ply = 0; ply < 40; ++ply) {
          const std::vector<Move> legal = legal_moves(g);
          for (int sym = 0; sym < n; ++sym) {
            INFO("repetition " << to_string(rep) << ", symmetry " << sym << ", ply " << ply);
            REQUIRE(ref::key_set(legal_moves(images[sym])) == mapped(b, sym, legal));
            REQUIRE(game_over_reason(images[sym]).empty() == game_over_reason(g).empty());
          }
          REQUIRE(ref::key_set(legal_moves(images[n])) == swapped(b, legal));
          if (legal.empty()) break;
          // Prefer stepping back, to meet the repetition rules.
          Move m = legal[rng() % legal.size()];
          if (g.moves.size() >= 2 && rng() % 2) {
            const Move& prev = g.moves[g.moves.size() - 2];
            for (const Move& x : legal)
              if (x.from == prev.to && x.to == prev.from) m = x;
          }
          play(g, m);
          for (int sym = 0; sym < n; ++sym) play(images[sym], map_move(b, sym, m));
          play(images[n], swap_colours(b, m));
        }
      }
    }
  }
}
