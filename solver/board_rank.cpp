// Tables of the dense board ranking (see board_rank.hpp).
#include "solver/board_rank.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gonu {

BoardRank::BoardRank(int n, int kb, int kw) : n_(n), kb_(kb), kw_(kw) {
  if (n < 1 || n > 32 || kb < 0 || kw < 0 || kb > n || kw > n)
    throw GonuError("dense ranking needs 1 to 32 points and piece budgets within the board");
  const std::size_t cells = std::size_t(n + 1) * (kb + 1) * (kw + 1);
  fill_.assign(cells, 0);
  by_black_above_.assign(std::size_t(32) << 10, 0);
  by_white_above_.assign(std::size_t(32) << 10, 0);
  // fill(m, rb, rw) = fill(m-1, rb, rw) + fill(m-1, rb-1, rw) + fill(m-1, rb, rw-1): the top point
  // of the m is empty, black or white. At most 3^32 < 2^64.
  for (int m = 0; m <= n; ++m)
    for (int rb = 0; rb <= kb; ++rb)
      for (int rw = 0; rw <= kw; ++rw) {
        std::uint64_t v = 1;
        if (m > 0) {
          v = fill(m - 1, rb, rw);
          if (rb > 0) v += fill(m - 1, rb - 1, rw);
          if (rw > 0) v += fill(m - 1, rb, rw - 1);
        }
        fill_[at(m, rb, rw)] = v;
      }
  for (int i = 0; i < n; ++i)
    for (int ab = 0; ab <= std::min(kb, 31); ++ab)  // at most 31 pieces lie above a piece
      for (int aw = 0; aw <= std::min(kw, 31); ++aw) {
        const int rb = kb - ab, rw = kw - aw;  // budgets left for points 0..i
        if (rb > 0) by_black_above_[std::size_t(i) << 10 | ab << 5 | aw] = fill(i, rb, rw);
        if (rw > 0) by_white_above_[std::size_t(i) << 10 | ab << 5 | aw] = fill(i, rb, rw) + (rb > 0 ? fill(i, rb - 1, rw) : 0);
      }
}

void BoardRank::unrank(std::uint64_t r, Bits& black, Bits& white) const {
  black = white = 0;
  int rb = kb_, rw = kw_;
  for (int i = n_ - 1; i >= 0; --i) {
    const std::uint64_t empty_here = fill(i, rb, rw);
    if (r < empty_here) continue;
    r -= empty_here;
    const std::uint64_t black_here = rb > 0 ? fill(i, rb - 1, rw) : 0;
    if (r < black_here) {
      black |= bit(i);
      --rb;
    } else {
      r -= black_here;
      white |= bit(i);
      --rw;
    }
  }
}

}  // namespace gonu
