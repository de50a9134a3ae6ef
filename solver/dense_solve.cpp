// The dense engine (see dense_solve.hpp).
#include "solver/dense_solve.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "core/error.hpp"
#include "core/unmoves.hpp"
#include "solver/board_rank.hpp"
#include "solver/huge_array.hpp"

namespace gonu {

namespace {

constexpr std::size_t kGrain = 1024;

// A board packed in one word: black in the low 32 bits, white in the high ones.
std::uint64_t pack(const Position& p) { return p.black | p.white << 32; }
Position unpack(std::uint64_t w, Side side) { return Position{w & 0xffffffffu, w >> 32, side}; }

struct Space {
  explicit Space(const BoardRank& r) : rank(r), boards(r.size()) {}
  BoardRank rank;
  std::uint64_t boards;  // |D|: ids of White to move start here
  std::uint64_t id(const Position& p) const {
    return (p.to_move == Side::white ? boards : 0) + rank.rank(p.black, p.white);
  }
  bool inside(const Position& p) const {
    return popcount(p.black) <= rank.max_black() && popcount(p.white) <= rank.max_white();
  }
};

using Frontier = std::vector<std::uint64_t>;

// Concatenates per-thread lists (their order depends on timing; callers never depend on it).
Frontier gather(tbb::enumerable_thread_specific<Frontier>& parts) {
  Frontier out;
  std::size_t total = 0;
  for (const auto& v : parts) total += v.size();
  out.reserve(total);
  for (auto& v : parts) {
    out.insert(out.end(), v.begin(), v.end());
    Frontier().swap(v);
  }
  return out;
}

std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

}  // namespace

bool dense_engine_applies(const Rules& r) { return r.repetition == Repetition::none && r.rows * r.cols <= 32; }

Solution solve_dense(const Game& from, const SolveOptions& options) {
  if (!dense_engine_applies(from.rules))
    throw GonuError("the dense engine solves only repetition none on boards of up to 32 points");
  Solution s;
  s.codec = make_key_codec(from.rules);
  s.root = current(from);
  s.root_tag = Tag{};
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const Board& b = s.codec.board;
  const Rules& rules = s.codec.rules;
  const Space space(BoardRank(b.n, popcount(s.root.black), popcount(s.root.white)));
  const std::uint64_t n = 2 * space.boards;
  const std::size_t per_id_bytes = 4;  // count, value, distance (the bitmap adds 1/8)
  const std::size_t need = std::size_t(n) * per_id_bytes + n / 8;
  if (const std::size_t have = physical_memory(); have && need > have)
    throw GonuError("the dense space of this root has " + std::to_string(n) + " states and needs " +
                    std::to_string(need >> 20) + " MiB, more than this machine's " + std::to_string(have >> 20) +
                    " MiB");

  HugeArray<std::atomic<std::uint64_t>> reached(n / 64 + 1);
  HugeArray<std::atomic<std::uint8_t>> pending(n);  // successor count, then successors not yet wins
  auto claim = [&](std::uint64_t id) {
    const std::uint64_t m = std::uint64_t(1) << (id & 63);
    return !(reached[id >> 6].fetch_or(m, std::memory_order_relaxed) & m);
  };
  auto is_reached = [&](std::uint64_t id) {
    return (reached[id >> 6].load(std::memory_order_relaxed) >> (id & 63)) & 1;
  };

  // 1. reach
  Frontier frontier{pack(s.root)}, terminal[2];
  claim(space.id(s.root));
  Side side = s.root.to_move;
  std::uint64_t states = 1;
  while (!frontier.empty()) {
    tbb::enumerable_thread_specific<Frontier> next, ends;
    tbb::enumerable_thread_specific<std::uint64_t> edges(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      Frontier& out = next.local();
      std::uint64_t& e = edges.local();
      Move moves[kMaxMoves];
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        const Position p = unpack(frontier[i], side);
        const int k = lost_by_material(p) ? 0 : generate_moves(b, rules, p, moves);
        if (k > 255) throw GonuError("a position with more than 255 moves: too many for the dense engine");
        pending[space.id(p)].store(std::uint8_t(k), std::memory_order_relaxed);
        if (k == 0) ends.local().push_back(frontier[i]);
        e += std::uint64_t(k);
        for (int j = 0; j < k; ++j) {
          const Position q = apply_move(p, moves[j]);
          if (claim(space.id(q))) out.push_back(pack(q));
        }
      }
    });
    for (const auto e : edges) s.edges += e;
    Frontier found = gather(ends);
    terminal[int(side)].insert(terminal[int(side)].end(), found.begin(), found.end());
    frontier = gather(next);
    side = other(side);
    states += frontier.size();
    ++s.levels;
    if (options.max_states && states > options.max_states)
      throw GonuError("more than " + std::to_string(options.max_states) + " states after " + std::to_string(s.levels) +
                      " levels: over the --max-states limit (the solve would not fit in memory)");
    if (options.progress) options.progress("enumerate", states, states);
  }
  Frontier().swap(frontier);

  // 2. retrograde, one distance at a time; value 0 is draw (undecided), as in Value.
  HugeArray<std::atomic<std::uint8_t>> value(n);
  HugeArray<std::uint16_t> dist(n);
  Frontier level[2] = {std::move(terminal[0]), std::move(terminal[1])};
  for (int sd = 0; sd < 2; ++sd)
    for (const std::uint64_t w : level[sd])
      value[space.id(unpack(w, Side(sd)))].store(std::uint8_t(Value::loss), std::memory_order_relaxed);
  std::uint64_t decided = 0;
  for (std::uint32_t d = 0; !level[0].empty() || !level[1].empty(); ++d) {
    if (d + 1 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
    decided += level[0].size() + level[1].size();
    tbb::enumerable_thread_specific<Frontier> next[2];
    for (int sd = 0; sd < 2; ++sd) {
      const Frontier& cur = level[sd];
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cur.size(), kGrain), [&](const auto& range) {
        Frontier& out = next[1 - sd].local();
        for (std::size_t i = range.begin(); i < range.end(); ++i) {
          const Position p = unpack(cur[i], Side(sd));
          const bool lost = value[space.id(p)].load(std::memory_order_relaxed) == std::uint8_t(Value::loss);
          for_each_unmove(b, rules, p, [&](const Position& before, const Move&) {
            if (!space.inside(before)) return;
            const std::uint64_t pid = space.id(before);
            if (!is_reached(pid)) return;
            if (lost) {
              std::uint8_t undecided = std::uint8_t(Value::draw);
              if (value[pid].compare_exchange_strong(undecided, std::uint8_t(Value::win), std::memory_order_relaxed)) {
                dist[pid] = std::uint16_t(d + 1);
                out.push_back(pack(before));
              }
            } else if (value[pid].load(std::memory_order_relaxed) == std::uint8_t(Value::draw)) {
              // Reaches zero only when every successor is a win, so no loss successor races with it.
              if (pending[pid].fetch_sub(1, std::memory_order_relaxed) == 1) {
                value[pid].store(std::uint8_t(Value::loss), std::memory_order_relaxed);
                dist[pid] = std::uint16_t(d + 1);
                out.push_back(pack(before));
              }
            }
          });
        }
      });
    }
    level[0] = gather(next[0]);
    level[1] = gather(next[1]);
    if (options.progress) options.progress("retrograde", decided, states);
  }
  pending = HugeArray<std::atomic<std::uint8_t>>();

  // 3. read off: count reached ids per block of words, then fill each block's part in order.
  constexpr std::size_t kBlockWords = 1024;
  const std::size_t words = reached.size(), blocks = (words + kBlockWords - 1) / kBlockWords;
  std::vector<std::uint64_t> start(blocks + 1, 0);
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t blk) {
    std::uint64_t c = 0;
    for (std::size_t w = blk * kBlockWords; w < std::min(words, (blk + 1) * kBlockWords); ++w)
      c += std::uint64_t(popcount(reached[w].load(std::memory_order_relaxed)));
    start[blk + 1] = c;
  });
  for (std::size_t blk = 0; blk < blocks; ++blk) start[blk + 1] += start[blk];
  const std::size_t total = start[blocks];
  s.keys.resize(total);
  s.value.resize(total);
  s.dist.resize(total);
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t blk) {
    std::size_t at = start[blk];
    for (std::size_t w = blk * kBlockWords; w < std::min(words, (blk + 1) * kBlockWords); ++w)
      for (std::uint64_t bits = reached[w].load(std::memory_order_relaxed); bits; bits &= bits - 1) {
        const std::uint64_t id = w * 64 + std::uint64_t(lowest(bits));
        Position p;
        p.to_move = id >= space.boards ? Side::white : Side::black;
        space.rank.unrank(id - (p.to_move == Side::white ? space.boards : 0), p.black, p.white);
        s.keys[at] = encode_board_side(s.codec, p);
        s.value[at] = Value(value[id].load(std::memory_order_relaxed));
        s.dist[at] = dist[id];
        ++at;
      }
  });
  for (std::size_t i = 0; i < total; ++i) {
    if (s.value[i] == Value::win) ++s.wins;
    else if (s.value[i] == Value::loss) ++s.losses;
    else ++s.draws;
    s.max_dist = std::max(s.max_dist, s.dist[i]);
  }
  s.peak_bytes = need + total * (sizeof(Key) + sizeof(Value) + sizeof(std::uint16_t));
  return s;
}

}  // namespace gonu
