// Pieces shared by the dense engines (untagged.cpp for untagged rule sets, tagged*.cpp
// for the tagged ones): the per-state cell and its update, frontier gathering, the reached
// bitmap, and the memory checks.
#pragma once
#include <tbb/enumerable_thread_specific.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/error.hpp"
#include "core/julgonu/position.hpp"
#include "util/huge_array.hpp"
#include "solver/common/value.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::dense {

// A board packed in one word (boards of up to 32 points): black low, white high.
inline std::uint64_t pack(const Position& p) { return p.black | p.white << 32; }
inline Position unpack(std::uint64_t w, Side side) { return Position{w & 0xffffffffu, w >> 32, side}; }

// The file mirror (file f <-> cols-1-f) of packed boards, points and tag codes. The rules are
// mirror-symmetric, so a state and its image have the same value, and an edge's image is an
// edge. Files f and cols-1-f swap by a shift of cols-1-2f (a shift within a rank never leaves
// it), done on the packed word, both colours at once. The mirror is taken at every edge, so
// boards of up to 8 files have their shifts and pairs as constants (measured: a loop over a
// table of pairs, shifting by a register, cost more than the shifts themselves); wider ones loop.
class FileMirror {
 public:
  explicit FileMirror(const Board& b) : cols_(b.cols) {
    for (int f = 0; f < b.cols - 1 - f; ++f) {
      std::uint64_t points = 0;  // file f, in both halves of a packed board
      for (int r = 0; r < b.rows; ++r) points |= std::uint64_t(1) << (r * b.cols + f);
      points |= points << 32;
      left_[std::size_t(f)] = points;
      middle_ &= ~(points | points << (b.cols - 1 - 2 * f));  // the middle file of an odd width stays
    }
    // pack_tag's step codes (1 + to * 4 + direction travelled): the end point mirrored, east and
    // west swapped. A table, as the mirror is asked for at every edge.
    for (int to = 0; to < b.n; ++to)
      for (int d = 0; d < 4; ++d) {
        const int image = to - to % b.cols + (b.cols - 1 - to % b.cols);
        step_[1 + to * 4 + d] = std::uint16_t(1 + image * 4 + (d & 1 ? d ^ 2 : d));
      }
  }
  // Four files (the game's board, and the widths most solved) inline; the others by a switch.
  [[gnu::always_inline]] std::uint64_t board(std::uint64_t w) const {
    return cols_ == 4 ? swap_files<4>(w) : other_width(w);
  }
  // pack_tag codes: each step mirrored; the ban bit stays.
  std::uint32_t tag(std::uint32_t code) const {
    return std::uint32_t(step_[code & 511u]) | std::uint32_t(step_[(code >> 9) & 511u]) << 9 | (code & (1u << 18));
  }

 private:
  [[gnu::noinline]] std::uint64_t other_width(std::uint64_t w) const {
    switch (cols_) {
      case 2: return swap_files<2>(w);
      case 3: return swap_files<3>(w);
      case 5: return swap_files<5>(w);
      case 6: return swap_files<6>(w);
      case 7: return swap_files<7>(w);
      case 8: return swap_files<8>(w);
      default: return swap_files<0>(w);
    }
  }
  // kCols files (0: cols_, looping).
  template <int kCols>
  std::uint64_t swap_files(std::uint64_t w) const {
    if constexpr (kCols == 0) {
      std::uint64_t image = w & middle_;
      for (int f = 0; f < cols_ - 1 - f; ++f) {
        const int by = cols_ - 1 - 2 * f;
        image |= (w & left_[std::size_t(f)]) << by | (w >> by & left_[std::size_t(f)]);
      }
      return image;
    } else {
      std::uint64_t image = kCols % 2 ? w & middle_ : 0;
      [&]<std::size_t... f>(std::index_sequence<f...>) {
        ((image |= (w & left_[f]) << (kCols - 1 - 2 * f) | (w >> (kCols - 1 - 2 * f) & left_[f])), ...);
      }(std::make_index_sequence<std::size_t(kCols / 2)>{});
      return image;
    }
  }
  int cols_;
  std::array<std::uint64_t, 16> left_{};  // by f < cols - 1 - f: file f's points
  std::uint64_t middle_ = ~std::uint64_t(0);
  std::array<std::uint16_t, 512> step_{};  // by step code; 0 (no step) stays 0
};

// Per state, in one word so that an update touches one cache line: value (Value; draw = 0 =
// undecided), pending (successor count, then successors not yet known to be wins), distance.
// The distance is written before the value (release), so a reader that sees a decided value
// (acquire) sees its distance: the tagged engine scans a board's cells for the states decided
// at one distance while others are being decided at the next.
struct Cell {
  std::atomic<std::uint8_t> value;
  std::atomic<std::uint8_t> pending;
  std::atomic<std::uint16_t> dist;
};
static_assert(sizeof(Cell) == 4);

inline std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

// The memory a solve may use: --max-memory, else the machine's (0: unknown, no limit).
inline std::size_t memory_limit_of(const SolveOptions& o) {
  return o.max_memory ? std::size_t(o.max_memory) : physical_memory();
}

// One edge into a state decided at distance d reaches its predecessor's cell: a lost successor
// makes it a win; a won one counts down its pending successors (`edges` of them: the mirror
// engine may stand one un-move for two edges), and the last makes it a loss. Returns the value
// the predecessor got now, or draw if none. The counter reaches zero only when every successor
// is a win, so no loss successor races with it. A win's distance is written before its value is
// claimed: every writer in one level writes the same d + 1, and a cell decided at an earlier
// level was seen decided above.
inline Value reach_predecessor(Cell& c, bool successor_lost, std::uint32_t d, std::uint8_t edges) {
  if (c.value.load(std::memory_order_relaxed) != std::uint8_t(Value::draw)) return Value::draw;
  if (successor_lost) {
    c.dist.store(std::uint16_t(d + 1), std::memory_order_relaxed);
    std::uint8_t undecided = std::uint8_t(Value::draw);
    if (!c.value.compare_exchange_strong(undecided, std::uint8_t(Value::win), std::memory_order_release,
                                         std::memory_order_relaxed))
      return Value::draw;
    return Value::win;
  }
  if (c.pending.fetch_sub(edges, std::memory_order_relaxed) != edges) return Value::draw;
  c.dist.store(std::uint16_t(d + 1), std::memory_order_relaxed);
  c.value.store(std::uint8_t(Value::loss), std::memory_order_release);
  return Value::loss;
}

// Concatenates per-thread lists (their order depends on timing; callers never depend on it).
template <class T>
std::vector<T> gather(tbb::enumerable_thread_specific<std::vector<T>>& parts) {
  std::vector<T> out;
  std::size_t total = 0;
  for (const auto& v : parts) total += v.size();
  out.reserve(total);
  for (auto& v : parts) {
    out.insert(out.end(), v.begin(), v.end());
    std::vector<T>().swap(v);
  }
  return out;
}

// The same into `out`, keeping every vector's capacity: the next level's lists reuse the memory
// instead of faulting in fresh pages (callers keep `parts` across levels).
template <class T>
void gather_into(tbb::enumerable_thread_specific<std::vector<T>>& parts, std::vector<T>& out) {
  std::size_t total = 0;
  for (const auto& v : parts) total += v.size();
  out.clear();
  out.reserve(total);
  for (auto& v : parts) {
    out.insert(out.end(), v.begin(), v.end());
    v.clear();
  }
}

// Refuses, as soon as the states reached so far show it, a solve whose result (`per_state` bytes
// a state: 11 for the solution's arrays, key, value and distance) cannot fit beside the `need`
// bytes the solver holds and the frontier, within `limit`: without it a board whose dense space
// fits but whose result does not grows until the machine swaps or kills it.
inline void check_result_fits(std::uint64_t states, int levels, std::size_t need, std::size_t frontier_bytes,
                              double per_state, std::size_t limit) {
  const auto result = std::size_t(double(states) * per_state);
  if (!limit || need + frontier_bytes + result <= limit) return;
  throw GonuError(std::to_string(states) + " states after " + std::to_string(levels) + " levels: their result alone (" +
                  std::to_string(result >> 20) + " MiB) and the solver's " +
                  std::to_string((need + frontier_bytes) >> 20) + " MiB already pass the memory limit of " +
                  std::to_string(limit >> 20) + " MiB (--max-memory raises it)");
}

// The end of a breadth-first level: adds up the per-thread counts, keeps the level's terminal
// states for the analysis, makes the new states the frontier (`next` is kept, emptied), then
// counts the level, enforces --max-states and the memory the result will need (`need`: the
// solver's arrays; `per_state`: bytes a reached state will need), and reports progress.
template <class F, class T>
void end_level(Solution& s, std::uint64_t& states, Side& side, std::vector<F>& frontier, std::vector<T> (&terminal)[2],
               tbb::enumerable_thread_specific<std::vector<F>>& next, tbb::enumerable_thread_specific<std::vector<T>>& ends,
               tbb::enumerable_thread_specific<std::uint64_t>& edges, tbb::enumerable_thread_specific<std::uint64_t>& found,
               const SolveOptions& options, std::size_t need, double per_state = 11.0) {
  for (const auto e : edges) s.edges += e;
  for (const auto f : found) states += f;
  const std::vector<T> lost = gather(ends);
  terminal[int(side)].insert(terminal[int(side)].end(), lost.begin(), lost.end());
  gather_into(next, frontier);
  side = other(side);
  ++s.levels;
  if (options.max_states && states > options.max_states)
    throw GonuError("more than " + std::to_string(options.max_states) + " states after " + std::to_string(s.levels) +
                    " levels: over the --max-states limit (the solve would not fit in memory)");
  check_result_fits(states, s.levels, need, frontier.capacity() * sizeof(F), per_state, memory_limit_of(options));
  if (options.progress) options.progress("enumerate", states, states);
}

// Sizes the solution's arrays for `total` states, refusing with a clear error if they would not
// fit beside the `need` bytes the solver holds.
inline void size_solution(Solution& s, std::size_t total, std::size_t need) {
  if (const std::size_t have = physical_memory(); have && need + total * 11 > have)
    throw GonuError("the solution's " + std::to_string(total) + " states need " + std::to_string((total * 11) >> 20) +
                    " MiB on top of the solver's " + std::to_string(need >> 20) + " MiB, more than this machine's " +
                    std::to_string(have >> 20) + " MiB");
  s.keys.resize(total);
  s.value.resize(total);
  s.dist.resize(total);
}

// One bit per state id, set once by whoever reaches the state first.
class Reached {
 public:
  explicit Reached(std::uint64_t n) : words_(n / 64 + 1) {}
  // True for the one caller that sets the bit. Most states are known already: a plain load spares
  // them the locked operation.
  bool claim(std::uint64_t id) {
    const std::uint64_t m = std::uint64_t(1) << (id & 63);
    auto& word = words_[id >> 6];
    return !(word.load(std::memory_order_relaxed) & m) && !(word.fetch_or(m, std::memory_order_relaxed) & m);
  }
  void prefetch(std::uint64_t id) const { __builtin_prefetch(&words_[id >> 6]); }
  void set_word(std::size_t w, std::uint64_t bits) { words_[w].fetch_or(bits, std::memory_order_relaxed); }
  bool test(std::uint64_t id) const { return (words_[id >> 6].load(std::memory_order_relaxed) >> (id & 63)) & 1; }
  std::uint64_t word(std::size_t w) const { return words_[w].load(std::memory_order_relaxed); }
  // The set ids in [lo, hi): counted, or visited in order, a word at a time.
  std::uint64_t count(std::uint64_t lo, std::uint64_t hi) const {
    std::uint64_t c = 0;
    for_each_word(lo, hi, [&](std::uint64_t, std::uint64_t bits) { c += std::uint64_t(popcount(bits)); });
    return c;
  }
  template <class Visit>
  void for_each(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    for_each_word(lo, hi, [&](std::uint64_t first, std::uint64_t bits) {
      for (; bits; bits &= bits - 1) visit(first + std::uint64_t(lowest(bits)));
    });
  }
  std::size_t words() const { return words_.size(); }

 private:
  // visit(id of bit 0, bits) for each word meeting [lo, hi), masked to the range.
  template <class Visit>
  void for_each_word(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    if (lo >= hi) return;
    for (std::uint64_t w = lo >> 6; w <= (hi - 1) >> 6; ++w) {
      std::uint64_t bits = word(w);
      if (w == lo >> 6) bits &= ~std::uint64_t(0) << (lo & 63);
      if (w == (hi - 1) >> 6) bits &= ~std::uint64_t(0) >> (63 - ((hi - 1) & 63));
      visit(w << 6, bits);
    }
  }
  HugeArray<std::atomic<std::uint64_t>> words_;
};

}  // namespace gonu::dense
