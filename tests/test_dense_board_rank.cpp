// BoardRank against the plain definition: sort every board of the dense space by ternary value
// and number them; rank must give those numbers, unrank must invert it, and next must step
// through them in order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "solver/julgonu/dense/board_rank.hpp"

using namespace gonu;

namespace {

struct Plain {
  std::uint64_t ternary;
  Bits black, white;
};

std::vector<Plain> plain_space(int n, int kb, int kw) {
  std::vector<Plain> out;
  std::uint64_t total = 1;
  for (int i = 0; i < n; ++i) total *= 3;
  for (std::uint64_t v = 0; v < total; ++v) {
    Plain p{v, 0, 0};
    std::uint64_t x = v;
    for (int i = 0; i < n; ++i, x /= 3) {
      if (x % 3 == 1) p.black |= bit(i);
      if (x % 3 == 2) p.white |= bit(i);
    }
    if (popcount(p.black) <= kb && popcount(p.white) <= kw) out.push_back(p);
  }
  return out;  // ascending ternary value already
}

}  // namespace

TEST_CASE("board ranks number the dense space in ternary order", "[solver][rank]") {
  for (const auto& [n, kb, kw] : {std::tuple{9, 3, 3}, std::tuple{9, 2, 4}, std::tuple{10, 4, 1}, std::tuple{8, 8, 8},
                                 std::tuple{1, 1, 0}, std::tuple{11, 0, 3}, std::tuple{12, 4, 4}, std::tuple{13, 2, 5}}) {
    INFO("n " << n << " kb " << kb << " kw " << kw);
    const BoardRank rank(n, kb, kw);
    const std::vector<Plain> plain = plain_space(n, kb, kw);
    REQUIRE(rank.size() == plain.size());
    std::size_t wrong = 0;
    Bits step_black = 0, step_white = 0;  // rank 0 is the empty board
    for (std::size_t i = 0; i < plain.size(); ++i) {
      Bits black, white;
      rank.unrank(i, black, white);
      wrong += rank.rank(plain[i].black, plain[i].white) != i || black != plain[i].black || white != plain[i].white;
      wrong += step_black != plain[i].black || step_white != plain[i].white;
      if (i + 1 < plain.size()) rank.next(step_black, step_white);
    }
    // for_each over the whole space, and from and to a few places inside it.
    const std::uint64_t size = rank.size();
    for (const auto& [lo, hi] : {std::pair{std::uint64_t(0), size}, std::pair{size / 3, size / 3 + 1},
                                 std::pair{size / 7, size - size / 5}, std::pair{size - 1, size}}) {
      std::uint64_t expect = lo;
      rank.for_each(lo, hi, [&](std::uint64_t r, Bits black, Bits white) {
        wrong += r != expect || black != plain[r].black || white != plain[r].white;
        ++expect;
      });
      wrong += expect != hi;
    }
    CHECK(wrong == 0);
  }
}

// 4x4, the engines' largest whole solve (3^16 boards are too many to list plainly): unrank walks
// the points with the fill counts, not the byte tables rank reads, so every rank is checked
// against it, and the boards it gives must rise in ternary value.
TEST_CASE("board ranks on 16 points invert unrank over the whole space", "[solver][rank]") {
  const BoardRank rank(16, 4, 4);
  auto ternary = [](Bits black, Bits white) {
    std::uint64_t v = 0;
    for (int i = 15; i >= 0; --i) v = v * 3 + ((black >> i) & 1) + 2 * ((white >> i) & 1);
    return v;
  };
  std::uint64_t wrong = 0, last = 0;
  for (std::uint64_t i = 0; i < rank.size(); ++i) {
    Bits black, white;
    rank.unrank(i, black, white);
    const std::uint64_t v = ternary(black, white);
    wrong += rank.rank(black, white) != i || (i > 0 && v <= last) || popcount(black) > 4 || popcount(white) > 4;
    last = v;
  }
  CHECK(wrong == 0);
  // for_each steps by its lists, not by unrank: the same boards, from any start.
  for (const std::uint64_t lo : {std::uint64_t(0), std::uint64_t(12345), rank.size() / 2 + 77}) {
    std::uint64_t expect = lo;
    rank.for_each(lo, rank.size(), [&](std::uint64_t r, Bits black, Bits white) {
      Bits b, w;
      rank.unrank(r, b, w);
      wrong += r != expect || black != b || white != w;
      ++expect;
    });
    wrong += expect != rank.size();
  }
  CHECK(wrong == 0);
  CHECK(rank.size() == 2267253);  // sum over b, w <= 4 of C(16, b) C(16 - b, w)
}

TEST_CASE("board ranks on 32 points follow ternary order and invert", "[solver][rank]") {
  const int n = 32;
  const BoardRank rank(n, 6, 5);
  std::mt19937_64 rng(3);
  auto ternary = [&](Bits black, Bits white) {
    unsigned __int128 v = 0;
    for (int i = n - 1; i >= 0; --i) v = v * 3 + ((black >> i) & 1) + 2 * ((white >> i) & 1);
    return v;
  };
  auto random_board = [&](Bits& black, Bits& white) {
    black = white = 0;
    const int nb = int(rng() % 7), nw = int(rng() % 6);
    while (popcount(black) < nb) black |= bit(int(rng() % n));
    while (popcount(white) < nw) white |= bit(int(rng() % n)) & ~black;
  };
  int wrong = 0;
  for (int i = 0; i < 20000; ++i) {
    Bits b1, w1, b2, w2;
    random_board(b1, w1);
    random_board(b2, w2);
    const std::uint64_t r1 = rank.rank(b1, w1), r2 = rank.rank(b2, w2);
    wrong += (r1 < r2) != (ternary(b1, w1) < ternary(b2, w2)) || r1 >= rank.size();
    Bits bb, ww;
    rank.unrank(r1, bb, ww);
    wrong += bb != b1 || ww != w1;
  }
  CHECK(wrong == 0);
  // for_each past 16 points steps with next().
  const std::uint64_t lo = rank.size() / 3;
  std::uint64_t expect = lo;
  rank.for_each(lo, lo + 5000, [&](std::uint64_t r, Bits b, Bits w) {
    Bits bb, ww;
    rank.unrank(r, bb, ww);
    wrong += r != expect++ || b != bb || w != ww;
  });
  CHECK((wrong == 0 && expect == lo + 5000));
  Bits black, white;
  rank.unrank(rank.size() - 1, black, white);  // the largest: White on the top five points, Black below
  CHECK(white == (bit(31) | bit(30) | bit(29) | bit(28) | bit(27)));
  CHECK(black == (bit(26) | bit(25) | bit(24) | bit(23) | bit(22) | bit(21)));
  CHECK_THROWS(BoardRank(33, 4, 4));
}
