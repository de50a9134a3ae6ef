// Dense ranking of boards in key order, for stores that keep no keys.
//
// The dense space D(n, kb, kw) holds every board of n points (n <= 32) with at most kb black and
// kw white pieces. rank(board) is the number of boards of D with a smaller ternary value
// (state_key.hpp: sum over points i of 3^i * digit, 1 black, 2 white), so ranks follow key order:
// arrays indexed by rank are already sorted by key, and a solution is read off them in order.
//
// Computed from the top point down. With budgets rb, rw left for points 0..i, a piece on point i
// adds the boards that agree above i and have a smaller digit at i: fill(i, rb, rw) (digit 0)
// for a black piece, fill(i, rb, rw) + fill(i, rb - 1, rw) (digits 0 and 1) for a white one, where
// fill(m, rb, rw) counts the ways to fill m points within the budgets. A piece's term depends
// only on its point and the pieces above it, so the terms of a chunk of points add up to one
// entry of a table indexed by the chunk, the pieces above the chunk and the chunk's contents
// (their ternary value): a rank is one table read per chunk, and the loop runs the same number
// of times for every board (a loop over the pieces mispredicts its exit on each call).
//   - Boards of up to 16 points (4x4 and smaller, the boards solved most) take two byte chunks:
//     the high byte has nothing above it (one row of 3^8 entries) and the low byte's entries are
//     below 3^8 (16 bits), so both tables stay in a core's cache, and a rank is two reads of them
//     and four of a byte's ternary place values: measured, well under half the time of nibbles.
//   - Larger boards take chunks of four points (a byte's table of rows times 3^8 entries would
//     not stay in cache); one small table gives, per nibble pair, its ternary value and the step
//     its pieces add to the row of the chunks below, so a rank walks the chunks from the top
//     with adds and table reads only.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/julgonu/position.hpp"

namespace gonu {

class BoardRank {
 public:
  // Throws GonuError unless 1 <= n <= 32 and 0 <= kb, kw <= n.
  BoardRank(int n, int kb, int kw);
  std::uint64_t size() const { return fill(n_, kb_, kw_); }
  int points() const { return n_; }
  int max_black() const { return kb_; }
  int max_white() const { return kw_; }
  // The ways to fill m <= points() points with at most rb <= max_black() black and rw <=
  // max_white() white pieces (0 if any is negative): counts of boards with some points fixed.
  std::uint64_t fillings(int m, int rb, int rw) const { return m < 0 || rb < 0 || rw < 0 ? 0 : fill(m, rb, rw); }

  // The board must be in D (disjoint sets inside the n points, within the budgets). Inline for
  // boards of up to 16 points, as the engines rank at every edge; larger boards unroll their
  // fixed-length loop (the switch costs little, always going the same way).
  [[gnu::always_inline]] std::uint64_t rank(Bits black, Bits white) const {
    return n_ <= 16 ? rank_bytes(black, white) : rank_nibbles(black, white);
  }
  // The board of a rank < size().
  void unrank(std::uint64_t r, Bits& black, Bits& white) const;
  // visit(rank, black, white) for the ranks [lo, hi) in order (hi <= size()). Boards of up to 16
  // points: the boards sharing the high byte are a run of ranks whose low bytes are the list of
  // their row (below), so a step is a list read; larger boards step with next().
  template <class Visit>
  void for_each(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    if (lo >= hi) return;
    Bits black, white;
    unrank(lo, black, white);
    if (n_ > 16) {
      for (std::uint64_t r = lo;; ++r) {
        visit(r, std::as_const(black), std::as_const(white));
        if (r + 1 == hi) return;
        next(black, white);
      }
    }
    const unsigned high = ternary_[(black >> 8) & 255u] + 2u * ternary_[(white >> 8) & 255u];
    std::size_t h = high_index_[high];
    std::size_t k = high_list_[h].begin + low_[high_[high].low_row + ternary_[black & 255u] + 2u * ternary_[white & 255u]];
    for (std::uint64_t r = lo;; ++h) {
      const HighBoard& x = high_list_[h];
      for (; k < x.end; ++k) {
        visit(r, x.black | low_list_[k].black, x.white | low_list_[k].white);
        if (++r == hi) return;
      }
      k = high_list_[h + 1].begin;
    }
  }
  // Steps a board of rank r < size() - 1 to the board of rank r + 1: the lowest point whose digit
  // can grow within the budgets left by the points above it grows, and every point below empties.
  // A few steps on average, against a whole unrank: for reading boards off in order.
  void next(Bits& black, Bits& white) const {
    for (int i = 0; i < n_; ++i) {
      const Bits above = ~Bits{0} << i << 1;
      if (!((black | white) >> i & 1) && popcount(black & above) < kb_) {
        black = (black & above) | bit(i);
        white &= above;
        return;
      }
      if (!(white >> i & 1) && popcount(white & above) < kw_) {
        white = (white & above) | bit(i);
        black &= above;
        return;
      }
    }
  }

 private:
  [[gnu::noinline]] std::uint64_t rank_nibbles(Bits black, Bits white) const {
    switch (chunks_) {
      case 5: return rank_chunks<5>(black, white);
      case 6: return rank_chunks<6>(black, white);
      case 7: return rank_chunks<7>(black, white);
      default: return rank_chunks<8>(black, white);
    }
  }
  std::uint64_t rank_bytes(Bits black, Bits white) const {
    const High& h = high_[ternary_[(black >> 8) & 255u] + 2u * ternary_[(white >> 8) & 255u]];
    return h.terms + low_[h.low_row + ternary_[black & 255u] + 2u * ternary_[white & 255u]];
  }
  template <int kChunks>
  std::uint64_t rank_chunks(Bits black, Bits white) const {
    std::uint64_t r = 0;
    std::size_t above = 0;  // the row of the pieces above chunk k, times 81
    for (int k = kChunks - 1; k >= 0; --k) {
      const std::uint32_t c = contents_[(black >> 4 * k & 15) << 4 | (white >> 4 * k & 15)];
      r += by_chunk_[std::size_t(k) * rows_ * 81 + above + (c & 0xff)];
      above += c >> 8;
    }
    return r;
  }
  // The constructor's phases: fill_, then the tables of rank and for_each for boards of up to
  // 16 points (byte chunks) or for larger ones (nibble chunks).
  using ChunkContents = std::vector<std::array<std::uint8_t, 2>>;  // by ternary value: black, white bits
  void build_fill();
  std::uint64_t chunk_terms(int lo, int ab0, int aw0, unsigned bn, unsigned wn) const;
  ChunkContents byte_contents();
  void build_byte_terms(const ChunkContents& contents);
  void build_byte_lists(const ChunkContents& contents);
  void build_nibble_tables();
  std::size_t at(int m, int rb, int rw) const { return (std::size_t(m) * (kb_ + 1) + rb) * (kw_ + 1) + rw; }
  std::uint64_t fill(int m, int rb, int rw) const { return fill_[at(m, rb, rw)]; }
  int n_, kb_, kw_;
  int chunks_;        // chunks of four points: points 4k..4k+3 (those past n are never occupied)
  std::size_t rows_;  // (kb + 1) * (kw + 1): the counts of pieces above a chunk
  std::vector<std::uint64_t> fill_;
  // The terms of chunk k's pieces, with ab black and aw white pieces above the chunk and nibbles
  // bn, wn, at [(k * rows + ab * (kw + 1) + aw) * 81 + ternary value of bn, wn].
  std::vector<std::uint64_t> by_chunk_;
  // [bn << 4 | wn] for disjoint nibbles: the ternary value (low 8 bits) and, above them, the row
  // step popcount(bn) * (kw + 1) + popcount(wn), times 81.
  std::array<std::uint32_t, 256> contents_{};
  // Boards of up to 16 points: the ternary place values of a byte's points (a byte of black
  // pieces is worth that, of white twice that); by the ternary value of points 8..15, their terms
  // (nothing is above them) and where the row of the low byte's terms starts, its pieces being
  // those above the low byte; the terms of points 0..7 at [(ab * (kw + 1) + aw) * 6561 + ternary
  // value] (below 3^8).
  struct High {
    std::uint32_t terms, low_row;
  };
  std::array<std::uint16_t, 256> ternary_{};
  std::vector<High> high_;
  std::vector<std::uint16_t> low_;
  // For for_each: the boards of points 8..15 in ternary order, each with its pieces and the span
  // of its row's list in low_list_ (every row's boards of points 0..7 within the budgets left,
  // in ternary order, so that entry low_[row + v] of a board is its place in the list); and the
  // place in high_list_ of a high byte by its ternary value.
  struct HighBoard {
    Bits black, white;
    std::uint32_t begin, end;
  };
  struct LowBoard {
    std::uint8_t black, white;
  };
  std::vector<HighBoard> high_list_;
  std::vector<LowBoard> low_list_;
  std::vector<std::uint16_t> high_index_;
};

// Both sides' boards in one id range, as the dense engines number them: Black to move at
// [0, boards), White to move at [boards, 2 boards), each side in key order (BoardRank).
class SideBoardIds {
 public:
  SideBoardIds(int n, int kb, int kw) : rank_(n, kb, kw), boards_(rank_.size()) {}
  std::uint64_t boards() const { return boards_; }  // per side
  const BoardRank& rank() const { return rank_; }
  std::uint64_t id(const Position& p) const {
    return (p.to_move == Side::white ? boards_ : 0) + rank_.rank(p.black, p.white);
  }
  Position position(std::uint64_t id) const {
    Position p;
    p.to_move = id >= boards_ ? Side::white : Side::black;
    rank_.unrank(id - (p.to_move == Side::white ? boards_ : 0), p.black, p.white);
    return p;
  }
  // visit(id, position) for the ids [lo, hi) in order (BoardRank::for_each on each side's part).
  template <class Visit>
  void walk(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    if (lo < boards_)
      rank_.for_each(lo, std::min(hi, boards_), [&](std::uint64_t r, Bits black, Bits white) {
        visit(r, Position{black, white, Side::black});
      });
    if (hi > boards_)
      rank_.for_each(std::max(lo, boards_) - boards_, hi - boards_, [&](std::uint64_t r, Bits black, Bits white) {
        visit(boards_ + r, Position{black, white, Side::white});
      });
  }
  bool inside(const Position& p) const {
    return popcount(p.black) <= rank_.max_black() && popcount(p.white) <= rank_.max_white();
  }

 private:
  BoardRank rank_;
  std::uint64_t boards_;
};

}  // namespace gonu
