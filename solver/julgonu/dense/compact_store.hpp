// The compact engines' per-state storage: memory per *reachable* state, not per id of the dense
// space (most ids of a tagged space are never reached; 5x5's result would not fit at 4 bytes an id).
//
// RankedBits: the reached set as a bitmap over the dense ids, in 64-byte lines of 448 bits and
// the count of set bits in all lines before (1.14 bits an id). A state's number among the reached
// ones, rank(id), is that count plus the popcount of the line's words below the bit: the same
// cache line as the bit's test, so a lookup costs one miss. Set bits are claimed atomically
// during the breadth-first search; finish() then fills the counts (no claims after it).
//
// CompactCells: per reached state, by rank, one byte (value in bits 0-1, successors not yet known
// to be wins in bits 2-7: at most 63 moves, which kMaxCompactMoves guards) and a 16-bit distance:
// 3 bytes a reachable state.
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <cstdint>

#include "solver/common/value.hpp"
#include "util/huge_array.hpp"

namespace gonu::dense {

class RankedBits {
 public:
  static constexpr std::uint64_t kLineBits = 448;
  explicit RankedBits(std::uint64_t n) : n_(n), lines_(std::size_t(n / kLineBits + 1)) {}
  static std::size_t bytes_for(std::uint64_t n) { return std::size_t(n / kLineBits + 1) * sizeof(Line); }
  std::uint64_t ids() const { return n_; }
  std::size_t bytes() const { return lines_.bytes(); }
  // The lines as bytes (bytes() of them), for saving a run and restoring it (solver/julgonu/mpi/); a
  // restored bitmap is finished again, as the total is not among them.
  void* raw() { return lines_.data(); }
  const void* raw() const { return lines_.data(); }

  // True for the one caller that sets the bit (a plain load first: most states are known).
  bool claim(std::uint64_t id) {
    std::atomic<std::uint64_t>& w = word(id);
    const std::uint64_t m = mask(id);
    return !(w.load(std::memory_order_relaxed) & m) && !(w.fetch_or(m, std::memory_order_relaxed) & m);
  }
  bool test(std::uint64_t id) const { return word(id).load(std::memory_order_relaxed) & mask(id); }
  // Sets the bits of the aligned 64-id word w (ids w * 64 ...): 448 is a multiple of 64.
  void set_word(std::uint64_t w, std::uint64_t bits) { word(w * 64).fetch_or(bits, std::memory_order_relaxed); }
  void prefetch(std::uint64_t id) const { __builtin_prefetch(&lines_[std::size_t(id / kLineBits)]); }

  // Fills every line's count of the set bits before it; returns the total. Serial over the
  // lines' counts after a parallel popcount (a few hundred million lines at most).
  std::uint64_t finish() {
    const std::size_t n = lines_.size();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 14), [&](const auto& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) lines_[i].before = line_count(lines_[i]);
    });
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < n; ++i) total += std::exchange(lines_[i].before, total);
    total_ = total;
    return total;
  }
  std::uint64_t total() const { return total_; }
  // The number of set ids below `id` (id's state number when id is set). After finish().
  std::uint64_t rank(std::uint64_t id) const {
    const Line& l = lines_[std::size_t(id / kLineBits)];
    const unsigned bit = unsigned(id % kLineBits), w = bit / 64;
    std::uint64_t r = l.before;
    for (unsigned i = 0; i < w; ++i) r += std::uint64_t(std::popcount(l.word[i].load(std::memory_order_relaxed)));
    return r + std::uint64_t(std::popcount(l.word[w].load(std::memory_order_relaxed) & (mask(id) - 1)));
  }
  // Whether any id in [lo, hi) is set: the words alone (a rank's popcounts cost more).
  bool any(std::uint64_t lo, std::uint64_t hi) const {
    for (std::uint64_t id = lo; id < hi; id = (id | 63) + 1) {
      std::uint64_t bits = word(id).load(std::memory_order_relaxed) & (~std::uint64_t(0) << (id % 64));
      if (hi - (id & ~std::uint64_t(63)) < 64) bits &= (std::uint64_t(1) << (hi % 64)) - 1;
      if (bits) return true;
    }
    return false;
  }
  // The set ids in [lo, hi). After finish().
  std::uint64_t count(std::uint64_t lo, std::uint64_t hi) const { return lo < hi ? rank(hi) - rank(lo) : 0; }
  // The id of the set bit of rank r < total() (a binary search over the lines, then a scan).
  std::uint64_t select(std::uint64_t r) const {
    std::size_t lo = 0, hi = lines_.size();  // the last line with before <= r
    while (hi - lo > 1) {
      const std::size_t mid = (lo + hi) / 2;
      (lines_[mid].before <= r ? lo : hi) = mid;
    }
    std::uint64_t left = r - lines_[lo].before;
    for (unsigned w = 0;; ++w) {
      std::uint64_t bits = lines_[lo].word[w].load(std::memory_order_relaxed);
      const std::uint64_t c = std::uint64_t(std::popcount(bits));
      if (left >= c) {
        left -= c;
        continue;
      }
      for (; left; --left) bits &= bits - 1;
      return std::uint64_t(lo) * kLineBits + w * 64 + std::uint64_t(std::countr_zero(bits));
    }
  }
  // visit(id) for each set id in [lo, hi), in order.
  template <class Visit>
  void for_each(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    // 448 is a multiple of 64, so the words of the lines are the aligned 64-id words.
    for (std::uint64_t id = lo; id < hi; id = (id | 63) + 1) {
      std::uint64_t bits = word(id).load(std::memory_order_relaxed) & (~std::uint64_t(0) << (id % 64));
      for (; bits; bits &= bits - 1) {
        const std::uint64_t x = (id & ~std::uint64_t(63)) + std::uint64_t(std::countr_zero(bits));
        if (x >= hi) return;
        visit(x);
      }
    }
  }

 private:
  struct alignas(64) Line {
    std::uint64_t before;
    std::atomic<std::uint64_t> word[7];
  };
  static_assert(sizeof(Line) == 64);
  static std::uint64_t line_count(const Line& l) {
    std::uint64_t c = 0;
    for (const auto& w : l.word) c += std::uint64_t(std::popcount(w.load(std::memory_order_relaxed)));
    return c;
  }
  static std::uint64_t mask(std::uint64_t id) { return std::uint64_t(1) << (id % kLineBits % 64); }
  std::atomic<std::uint64_t>& word(std::uint64_t id) {
    return lines_[std::size_t(id / kLineBits)].word[id % kLineBits / 64];
  }
  const std::atomic<std::uint64_t>& word(std::uint64_t id) const {
    return lines_[std::size_t(id / kLineBits)].word[id % kLineBits / 64];
  }
  std::uint64_t n_;
  HugeArray<Line> lines_;
  std::uint64_t total_ = 0;
};

// More moves than the counter's 6 bits hold make a state unfit for CompactCells.
constexpr int kMaxCompactMoves = 63;

class CompactCells {
 public:
  explicit CompactCells(std::uint64_t n) : state_(std::size_t(n)), dist_(std::size_t(n)) {}
  static std::size_t bytes_for(std::uint64_t n) { return std::size_t(n) * 3; }
  std::size_t bytes() const { return state_.bytes() + dist_.bytes(); }
  std::uint64_t size() const { return state_.size(); }
  // The two arrays as bytes, for saving a run and restoring it (solver/julgonu/mpi/).
  void* raw_state() { return state_.data(); }
  const void* raw_state() const { return state_.data(); }
  void* raw_dist() { return dist_.data(); }
  const void* raw_dist() const { return dist_.data(); }

  void set_pending(std::uint64_t i, int moves) {
    state_[i].store(std::uint8_t(moves << 2), std::memory_order_relaxed);
  }
  void set_terminal_loss(std::uint64_t i) { state_[i].store(std::uint8_t(Value::loss), std::memory_order_relaxed); }
  Value value(std::uint64_t i) const { return Value(state_[i].load(std::memory_order_acquire) & 3u); }
  std::uint16_t dist(std::uint64_t i) const { return dist_[i].load(std::memory_order_relaxed); }
  void prefetch(std::uint64_t i) const { __builtin_prefetch(&state_[i], 1); }

  // The same update as the dense Cell's (parts.hpp: reach_predecessor): a lost successor makes
  // the predecessor a win at d + 1; a won one counts its pending successors down by `edges`, and
  // the last makes it a loss at d + 1. Returns the value decided now, or draw. The distance is
  // written before the value is published (release), as every writer in a level writes d + 1.
  Value reach_predecessor(std::uint64_t i, bool successor_lost, std::uint32_t d, std::uint8_t edges) {
    std::atomic<std::uint8_t>& s = state_[i];
    std::uint8_t old = s.load(std::memory_order_relaxed);
    if (old & 3u) return Value::draw;
    if (successor_lost) {
      dist_[i].store(std::uint16_t(d + 1), std::memory_order_relaxed);
      do {
        if (old & 3u) return Value::draw;
      } while (!s.compare_exchange_weak(old, std::uint8_t(old | std::uint8_t(Value::win)), std::memory_order_release,
                                        std::memory_order_relaxed));
      return Value::win;
    }
    old = s.fetch_sub(std::uint8_t(edges << 2), std::memory_order_relaxed);
    if ((old & 3u) || (old >> 2) != edges) return Value::draw;
    // Every successor is won, so no other writer can decide this state now.
    dist_[i].store(std::uint16_t(d + 1), std::memory_order_relaxed);
    s.fetch_or(std::uint8_t(Value::loss), std::memory_order_release);
    return Value::loss;
  }

 private:
  HugeArray<std::atomic<std::uint8_t>> state_;
  HugeArray<std::atomic<std::uint16_t>> dist_;
};

}  // namespace gonu::dense
