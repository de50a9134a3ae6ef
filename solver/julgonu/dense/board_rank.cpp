// Tables of the dense board ranking (see board_rank.hpp).
#include "solver/julgonu/dense/board_rank.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gonu {

BoardRank::BoardRank(int n, int kb, int kw)
    : n_(n), kb_(kb), kw_(kw), chunks_((n + 3) / 4), rows_(std::size_t(kb + 1) * std::size_t(kw + 1)) {
  if (n < 1 || n > 32 || kb < 0 || kw < 0 || kb > n || kw > n)
    throw GonuError("dense ranking needs 1 to 32 points and piece budgets within the board");
  build_fill();
  if (n <= 16) {
    const ChunkContents contents = byte_contents();
    build_byte_terms(contents);
    build_byte_lists(contents);
  } else {
    build_nibble_tables();
  }
}

// fill(m, rb, rw) = fill(m-1, rb, rw) + fill(m-1, rb-1, rw) + fill(m-1, rb, rw-1): the top point
// of the m is empty, black or white. At most 3^32 < 2^64.
void BoardRank::build_fill() {
  fill_.assign(std::size_t(n_ + 1) * std::size_t(kb_ + 1) * std::size_t(kw_ + 1), 0);
  for (int m = 0; m <= n_; ++m)
    for (int rb = 0; rb <= kb_; ++rb)
      for (int rw = 0; rw <= kw_; ++rw) {
        std::uint64_t v = 1;
        if (m > 0) {
          v = fill(m - 1, rb, rw);
          if (rb > 0) v += fill(m - 1, rb - 1, rw);
          if (rw > 0) v += fill(m - 1, rb, rw - 1);
        }
        fill_[at(m, rb, rw)] = v;
      }
}

// The terms of a chunk's pieces (bits bn, wn over its points lo, lo + 1, ...) with ab0 black and
// aw0 white pieces above it: from its top point down, a piece on point i, with budgets
// rb = kb - (pieces above i) and rw likewise left for points 0..i, adds the boards with digit 0
// there if it is black, digits 0 and 1 if it is white.
std::uint64_t BoardRank::chunk_terms(int lo, int ab0, int aw0, unsigned bn, unsigned wn) const {
  std::uint64_t sum = 0;
  for (int j = 0; (bn | wn) >> j; ++j) {
    const int i = lo + j, rb = kb_ - ab0 - popcount(bn >> j >> 1), rw = kw_ - aw0 - popcount(wn >> j >> 1);
    if (bn >> j & 1) sum += fill(i, rb, rw);
    if (wn >> j & 1) sum += fill(i, rb, rw) + (rb > 0 ? fill(i, rb - 1, rw) : 0);
  }
  return sum;
}

// A byte chunk's contents by ternary value v < 3^8 (each v's built from v / 3's, one point up);
// also the ternary place values of a byte's points.
BoardRank::ChunkContents BoardRank::byte_contents() {
  for (unsigned x = 0; x < 256; ++x) {
    unsigned v = 0;
    for (unsigned j = 0, place = 1; j < 8; ++j, place *= 3) v += (x >> j & 1) * place;
    ternary_[x] = std::uint16_t(v);
  }
  ChunkContents contents(6561, {0, 0});
  for (unsigned v = 1; v < 6561; ++v) {
    const auto& up = contents[v / 3];
    contents[v] = {std::uint8_t(up[0] << 1 | (v % 3 == 1)), std::uint8_t(up[1] << 1 | (v % 3 == 2))};
  }
  return contents;
}

// Boards of up to 16 points, for rank: the high byte's terms and low row, and the low byte's
// terms per row. Entries of boards outside D stay 0 and are never read.
void BoardRank::build_byte_terms(const ChunkContents& contents) {
  const int high_points = std::max(0, n_ - 8), low_points = std::min(n_, 8);
  high_.assign(6561, High{0, 0});
  low_.assign(rows_ * 6561, 0);
  for (unsigned v = 0; v < 6561; ++v) {
    const unsigned bn = contents[v][0], wn = contents[v][1];
    const int pb = popcount(bn), pw = popcount(wn);
    if (pb <= kb_ && pw <= kw_ && (bn | wn) >> high_points == 0)
      high_[v] = High{std::uint32_t(chunk_terms(8, 0, 0, bn, wn)), std::uint32_t((std::size_t(pb) * std::size_t(kw_ + 1) + std::size_t(pw)) * 6561)};
    if ((bn | wn) >> low_points) continue;
    for (int ab0 = 0; ab0 + pb <= kb_; ++ab0)
      for (int aw0 = 0; aw0 + pw <= kw_; ++aw0)
        low_[(std::size_t(ab0) * std::size_t(kw_ + 1) + std::size_t(aw0)) * 6561 + v] =
            std::uint16_t(chunk_terms(0, ab0, aw0, bn, wn));
  }
}

// Boards of up to 16 points, for for_each: each row's list of low bytes and the list of high
// bytes, both in ternary order (v ascending).
void BoardRank::build_byte_lists(const ChunkContents& contents) {
  const int high_points = std::max(0, n_ - 8), low_points = std::min(n_, 8);
  std::vector<std::uint32_t> row_begin(rows_ + 1, 0);
  for (int ab0 = 0; ab0 <= kb_; ++ab0)
    for (int aw0 = 0; aw0 <= kw_; ++aw0) {
      const std::size_t row = std::size_t(ab0) * std::size_t(kw_ + 1) + std::size_t(aw0);
      row_begin[row] = std::uint32_t(low_list_.size());
      for (unsigned v = 0; v < 6561; ++v) {
        const unsigned bn = contents[v][0], wn = contents[v][1];
        if ((bn | wn) >> low_points == 0 && ab0 + popcount(bn) <= kb_ && aw0 + popcount(wn) <= kw_)
          low_list_.push_back(LowBoard{std::uint8_t(bn), std::uint8_t(wn)});
      }
    }
  high_index_.assign(6561, 0);
  for (unsigned v = 0; v < 6561; ++v) {
    const unsigned bn = contents[v][0], wn = contents[v][1];
    const int pb = popcount(bn), pw = popcount(wn);
    if (pb > kb_ || pw > kw_ || (bn | wn) >> high_points) continue;
    const std::size_t row = std::size_t(pb) * std::size_t(kw_ + 1) + std::size_t(pw);
    high_index_[v] = std::uint16_t(high_list_.size());
    high_list_.push_back(HighBoard{Bits(bn) << 8, Bits(wn) << 8, row_begin[row],
                                   std::uint32_t(row_begin[row] + fill(low_points, kb_ - pb, kw_ - pw))});
  }
}

// Larger boards: a nibble pair's ternary value, top point first (Horner), and row step
// (overlapping nibbles stay 0); then each chunk's terms.
void BoardRank::build_nibble_tables() {
  for (unsigned bn = 0; bn < 16; ++bn)
    for (unsigned wn = 0; wn < 16; ++wn) {
      if (bn & wn) continue;
      std::uint32_t v = 0;
      for (int j = 3; j >= 0; --j) v = 3 * v + (bn >> j & 1) + 2 * (wn >> j & 1);
      contents_[bn << 4 | wn] = v | std::uint32_t(popcount(bn) * (kw_ + 1) + popcount(wn)) * 81 << 8;
    }
  by_chunk_.assign(std::size_t(chunks_) * rows_ * 81, 0);
  for (int k = 0; k < chunks_; ++k) {
    const unsigned inside = n_ - 4 * k >= 4 ? 15u : (1u << (n_ - 4 * k)) - 1;  // the chunk's points on the board
    for (int ab0 = 0; ab0 <= kb_; ++ab0)
      for (int aw0 = 0; aw0 <= kw_; ++aw0)
        for (unsigned bn = 0; bn < 16; ++bn)
          for (unsigned wn = 0; wn < 16; ++wn) {
            if (bn & wn || (bn | wn) & ~inside) continue;
            if (ab0 + popcount(bn) > kb_ || aw0 + popcount(wn) > kw_) continue;
            by_chunk_[(std::size_t(k) * rows_ + std::size_t(ab0) * std::size_t(kw_ + 1) + std::size_t(aw0)) * 81 +
                      (contents_[bn << 4 | wn] & 0xff)] = chunk_terms(4 * k, ab0, aw0, bn, wn);
          }
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
