// for_each_unmove against the forward rules: on small boards every position is generated, every
// forward move recorded under its result, and each position's un-moves must be exactly that
// list; on larger boards, random positions are checked both ways.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "core/julgonu/unmoves.hpp"
#include "tests/reference/plain_rules.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;

namespace {

// (black, white, side, from, to, captured) of a predecessor and its move.
using Edge = std::tuple<Bits, Bits, int, int, int, Bits>;
using PositionKey = std::tuple<Bits, Bits, int>;

PositionKey key_of(const Position& p) { return {p.black, p.white, int(p.to_move)}; }
Edge edge_of(const Position& before, const Move& m) {
  return {before.black, before.white, int(before.to_move), m.from, m.to, m.captured};
}

std::vector<Edge> unmoves_of(const Board& b, const Rules& r, const Position& p) {
  std::vector<Edge> out;
  for_each_unmove(b, r, p, [&](const Position& before, const Move& m) { out.push_back(edge_of(before, m)); });
  std::sort(out.begin(), out.end());
  return out;
}

// Every board of the shape (each point empty, black or white), both sides to move.
std::vector<Position> every_position(const Board& b) {
  std::vector<Position> out;
  int total = 1;
  for (int i = 0; i < b.n; ++i) total *= 3;
  for (int v = 0; v < total; ++v) {
    Position p;
    for (int i = 0, x = v; i < b.n; ++i, x /= 3) {
      if (x % 3 == 1) p.black |= bit(i);
      if (x % 3 == 2) p.white |= bit(i);
    }
    for (Side s : {Side::black, Side::white}) {
      p.to_move = s;
      out.push_back(p);
    }
  }
  return out;
}

const std::vector<Rules> capture_rules(int rows, int cols) {
  return {make_rules(Capture::line, false, Repetition::none, rows, cols),
          make_rules(Capture::line, true, Repetition::none, rows, cols),
          make_rules(Capture::single, false, Repetition::none, rows, cols),
          make_rules(Capture::single, true, Repetition::none, rows, cols)};
}

}  // namespace

TEST_CASE("un-moves are exactly the reversed forward moves, on every position of small boards", "[core][unmoves]") {
  for (const auto& [rows, cols] : {std::pair{3, 3}, std::pair{2, 4}, std::pair{4, 2}, std::pair{2, 5}}) {
    for (const Rules& r : capture_rules(rows, cols)) {
      INFO(rules_id(r));
      const Board b = make_board(rows, cols);
      const std::vector<Position> all = every_position(b);
      std::map<PositionKey, std::vector<Edge>> into;
      std::size_t edges = 0, captures = 0;
      for (const Position& p : all) {
        if (lost_by_material(p)) continue;
        for (const Move& m : generate_moves(b, r, p)) {
          into[key_of(apply_move(p, m))].push_back(edge_of(p, m));
          ++edges;
          captures += m.captured != 0;
        }
      }
      CHECK(captures > 100);  // the comparison covers captures, not only plain steps
      std::size_t mismatches = 0, seen = 0;
      for (const Position& p : all) {
        std::vector<Edge> expected = into[key_of(p)];
        std::sort(expected.begin(), expected.end());
        const std::vector<Edge> got = unmoves_of(b, r, p);
        seen += got.size();
        if (got != expected && ++mismatches <= 3) {
          INFO("position " << format_position(b, p) << ": " << got.size() << " un-moves, " << expected.size()
                           << " forward moves lead here");
          CHECK(got == expected);
        }
      }
      CHECK(mismatches == 0);
      CHECK(seen == edges);
    }
  }
}

TEST_CASE("un-moves agree with the forward rules on random positions of larger boards", "[core][unmoves]") {
  std::mt19937_64 rng(11);
  for (const auto& [rows, cols] : {std::pair{4, 4}, std::pair{5, 5}, std::pair{4, 6}}) {
    for (const Rules& r : capture_rules(rows, cols)) {
      INFO(rules_id(r));
      const Board b = make_board(rows, cols);
      int checked = 0, with_capture = 0;
      for (int i = 0; i < 2000; ++i) {
        const Position p = ref::random_position(b, rng);
        // Each forward move of p is among the un-moves of its result.
        for (const Move& m : generate_moves(b, r, p)) {
          const Position q = apply_move(p, m);
          const std::vector<Edge> back = unmoves_of(b, r, q);
          CHECK(std::binary_search(back.begin(), back.end(), edge_of(p, m)));
          with_capture += m.captured != 0;
        }
        // Each un-move of p is a legal forward move that leads to p, from a position not lost.
        for_each_unmove(b, r, p, [&](const Position& before, const Move& m) {
          ++checked;
          CHECK_FALSE(lost_by_material(before));
          CHECK(apply_move(before, m) == p);
          const std::vector<Move> legal = generate_moves(b, r, before);
          CHECK(std::find(legal.begin(), legal.end(), m) != legal.end());
        });
      }
      CHECK(checked > 2000);
      CHECK(with_capture > 200);
    }
  }
}
