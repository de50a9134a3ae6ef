// The dense engine for the tagged rule sets (repetition immediate, undo): see dense_solve.hpp.
// A state is (side, board, tag); its id is slot_base[board id] + tag_slot (tag_slots.hpp), where
// board ids are BoardRank ranks as in the untagged engine and slot_base sums every board's tag
// slots. Ids follow key order (board-major keys, state_key.hpp).
//   1. reach: breadth-first from the root over (board, tag) frontiers, as the untagged engine,
//      with the tag's bans and transitions from core/repetition.hpp.
//   2. retrograde: the predecessors of (S, tS) are the board un-moves (P, m) of S, each with the
//      tags tP of P under which m is legal and leads to tS. tP.theirs becomes tS.mine (when tS
//      keeps one), so only mine and ban are searched; each candidate that was reached is checked
//      with the forward rules (tag_bans, next_tag), so every edge is counted exactly once.
//   3. read off: boards in order, and within each its reached slots.
// As in the untagged engine, when the root state is its own file-mirror image only one state of
// each mirror pair is worked on; the mirror acts on the tag's steps too (dense_parts.hpp).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/unmoves.hpp"
#include "solver/board_rank.hpp"
#include "solver/dense_parts.hpp"
#include "solver/dense_retrograde.hpp"
#include "solver/dense_solve.hpp"
#include "solver/tag_slots.hpp"

namespace gonu {

namespace {

using namespace dense;

constexpr std::size_t kGrain = 2048;

// A state in a frontier or a retrograde level. It carries its id, known when it was claimed, so
// that it is not ranked again; 45 bits hold any id whose cells fit in memory (checked).
struct Entry {
  std::uint64_t board;    // pack()
  std::uint64_t id : 45;  // TaggedSpace::id; 0 in a state not yet located
  std::uint64_t tag : 19; // pack_tag code
};
static_assert(sizeof(Entry) == 16);
constexpr std::uint64_t kMaxIds = std::uint64_t(1) << 45;
using Frontier = std::vector<Entry>;

// The steps of M(p) or T(p) by rank (their pack_tag codes, ascending).
int list_steps(const Board& b, Bits side_pieces, Bits empty, std::uint32_t* out) {
  int n = 0;
  for (Bits x = side_pieces; x; x &= x - 1) {
    const int to = lowest(x);
    for (int d = 0; d < 4; ++d)
      if ((shift(b, empty, d) >> to) & 1) out[n++] = 1u + std::uint32_t(to) * 4u + std::uint32_t(d);
  }
  return n;
}

// pack_tag's code of the step from -> to, and back.
std::uint32_t step_code(const Board& b, int from, int to) {
  const int diff = to - from;
  return 1u + std::uint32_t(to) * 4u + (diff == b.cols ? 0u : diff == 1 ? 1u : diff == -b.cols ? 2u : 3u);
}
Step unpack_step(const Board& b, std::uint32_t code) {
  const int to = int((code - 1) / 4), d = int((code - 1) % 4);
  return Step{b.step[to][reverse_dir(d)], std::int8_t(to)};
}

class TaggedSpace {
 public:
  TaggedSpace(const Board& b, const Position& root, std::uint32_t root_code)
      : b_(b), ids_(b.n, popcount(root.black), popcount(root.white)), boards_(ids_.boards()), base_(2 * boards_ + 1),
        mirror_(b) {
    mirror_on_ = mirror_.board(pack(root)) == pack(root) && mirror_.tag(root_code) == root_code;
    // slot_base: every board's slot count, summed in board-id order (blocks walked with next()).
    constexpr std::uint64_t kBlock = 1 << 16;
    const std::uint64_t n = 2 * boards_, blocks = (n + kBlock - 1) / kBlock;
    tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
      const std::uint64_t lo = blk * kBlock, hi = std::min(n, lo + kBlock);
      Position p = board(lo);
      for (std::uint64_t id = lo; id < hi; ++id) {
        if (id == boards_) p = board(id);
        base_[id + 1] = tag_space(b_, p).size();
        if (id + 1 < hi && id + 1 != boards_) ids_.next(p);
      }
    });
    for (std::uint64_t id = 0; id < n; ++id) base_[id + 1] += base_[id];
  }
  std::uint64_t board_id(const Position& p) const { return ids_.id(p); }
  Position board(std::uint64_t id) const { return ids_.position(id); }
  void next_board(Position& p) const { ids_.next(p); }
  std::uint64_t base(std::uint64_t board_id) const { return base_[board_id]; }
  std::uint64_t id(const Position& p, std::uint32_t code) const { return base_[board_id(p)] + slot(p, code); }
  std::uint32_t slot(const Position& p, std::uint32_t code) const { return tag_slot(b_, p, tag_space(b_, p), code); }
  void prefetch_base(std::uint64_t board_id) const { __builtin_prefetch(&base_[board_id]); }
  std::uint64_t size() const { return base_[2 * boards_]; }
  std::uint64_t boards() const { return boards_; }  // per side
  bool inside(const Position& p) const { return ids_.inside(p); }
  std::size_t bytes() const { return base_.bytes(); }

  // The mirror, as in the untagged engine but on (board, tag): canonical is the smaller packed
  // board, then the smaller tag code when the board is its own image. A state's canonical form,
  // its orbit and whether it was canonical all come from one mirror image (the mirror is a good
  // part of the work per edge).
  struct Pair {
    Entry canonical, image;  // the state's canonical form and the other one (the same if orbit 1)
    bool kept;               // the state was canonical
    int orbit;
  };
  Pair pair(const Entry& e) const {
    if (!mirror_on_) return Pair{e, e, true, 1};
    const Entry m = mirror(e);
    const bool kept = e.board != m.board ? e.board < m.board : e.tag <= m.tag;
    return Pair{kept ? e : m, kept ? m : e, kept, m.board != e.board || m.tag != e.tag ? 2 : 1};
  }
  Entry mirror(const Entry& e) const { return Entry{mirror_.board(e.board), 0, mirror_.tag(std::uint32_t(e.tag))}; }
  Entry canonical_form(const Entry& e) const { return pair(e).canonical; }
  int orbit(const Entry& e) const { return pair(e).orbit; }

 private:
  const Board& b_;
  SideBoardIds ids_;
  std::uint64_t boards_;  // ids_.boards(), kept at hand for the hot loops
  HugeArray<std::uint64_t> base_;
  FileMirror mirror_;
  bool mirror_on_ = false;
};

}  // namespace

Solution solve_dense_tagged(const Game& from, const SolveOptions& options) {
  Solution s;
  s.codec = make_key_codec(from.rules);
  if (!s.codec.tagged)  // make_key_codec refused tagged boards whose keys would not fit
    throw GonuError("the tagged dense engine solves only repetition immediate or undo");
  s.root = current(from);
  s.root_tag = from.tag;
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const Board& b = s.codec.board;
  const Rules& rules = s.codec.rules;
  const std::uint32_t root_code = pack_tag(b, s.root_tag);
  const TaggedSpace space(b, s.root, root_code);
  auto id_of = [&](const Entry& e, Side side) { return space.id(unpack(e.board, side), e.tag); };
  const std::uint64_t n = space.size();
  const std::size_t need = std::size_t(n) * sizeof(Cell) + n / 8 + space.bytes();
  if (const std::size_t have = physical_memory(); have && need > have)
    throw GonuError("the dense space of this root has " + std::to_string(n) + " tagged states and needs " +
                    std::to_string(need >> 20) + " MiB, more than this machine's " + std::to_string(have >> 20) +
                    " MiB");
  if (n >= kMaxIds) throw GonuError("the dense space of this root has " + std::to_string(n) + " tagged states, too many ids");
  Reached reached(n);
  HugeArray<Cell> cell(n);

  // 1. reach (canonical states; a new one's mirror image is marked reached too, for the read-off).
  // Each chunk goes in batches of a few states: their successors are listed first, the slot
  // bases of their boards prefetched, then their ids computed and the reached words prefetched,
  // and only then claimed, so that the cache misses of a batch overlap.
  Entry root = space.canonical_form(Entry{pack(s.root), 0, root_code});
  Side side = s.root.to_move;
  root.id = id_of(root, side);
  Frontier frontier{root}, terminal[2];
  reached.claim(root.id);
  if (space.orbit(root) == 2) reached.claim(id_of(space.mirror(root), side));
  std::uint64_t states = std::uint64_t(space.orbit(root));
  while (!frontier.empty()) {
    tbb::enumerable_thread_specific<Frontier> next, ends;
    tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      Frontier& out = next.local();
      std::uint64_t& e = edges.local();
      std::uint64_t& f = found.local();
      constexpr std::size_t kBatch = 8;
      struct Successor {
        TaggedSpace::Pair pair;  // canonical's id filled in by the second stage
        std::uint64_t board_id;
      };
      Successor succ[kBatch * kMaxMoves];
      Move moves[kMaxMoves];
      const Side to = other(side);
      for (std::size_t i0 = range.begin(); i0 < range.end(); i0 += kBatch) {
        const std::size_t i1 = std::min(range.end(), i0 + kBatch);
        for (std::size_t i = i0; i < i1; ++i) __builtin_prefetch(&cell[frontier[i].id], 1);
        int count = 0;
        for (std::size_t i = i0; i < i1; ++i) {
          const Position p = unpack(frontier[i].board, side);
          const Tag t = unpack_tag(b, frontier[i].tag);
          const int k = lost_by_material(p) ? 0 : generate_moves(b, rules, p, moves);
          int legal = 0;
          for (int j = 0; j < k; ++j) {
            if (tag_bans(rules, t, moves[j])) continue;
            ++legal;
            const Position q = apply_move(p, moves[j]);
            const TaggedSpace::Pair c = space.pair(Entry{pack(q), 0, pack_tag(b, next_tag(b, rules, p, t, moves[j]))});
            const std::uint64_t bid = space.board_id(unpack(c.canonical.board, to));
            space.prefetch_base(bid);
            succ[count++] = Successor{c, bid};
          }
          if (legal > 255) throw GonuError("a position with more than 255 moves: too many for the dense engine");
          cell[frontier[i].id].pending.store(std::uint8_t(legal), std::memory_order_relaxed);
          if (legal == 0) ends.local().push_back(frontier[i]);
          e += std::uint64_t(legal) * std::uint64_t(space.orbit(frontier[i]));
        }
        for (int j = 0; j < count; ++j) {
          Successor& u = succ[j];
          Entry& c = u.pair.canonical;
          c.id = space.base(u.board_id) + space.slot(unpack(c.board, to), c.tag);
          reached.prefetch(c.id);
        }
        for (int j = 0; j < count; ++j) {
          const TaggedSpace::Pair& c = succ[j].pair;
          if (!reached.claim(c.canonical.id)) continue;
          out.push_back(c.canonical);
          if (c.orbit == 2) reached.claim(id_of(c.image, to));
          f += std::uint64_t(c.orbit);
        }
      }
    }, tbb::simple_partitioner());
    end_level(s, states, side, frontier, terminal, next, ends, edges, found, options);
  }
  Frontier().swap(frontier);

  // 2. retrograde; level[side][lost] as in the untagged engine, and mirror images counted as
  // there: an un-move from a non-canonical P is skipped when S is its own image, and one from a
  // P that is its own image (S not) stands for two edges.
  const bool immediate = rules.repetition == Repetition::immediate, undo = rules.repetition == Repetition::undo;
  retrograde_levels(
      terminal, cell, kGrain, states, options, [](const Entry& e, Side) { return std::uint64_t(e.id); }, [&](const Entry& e) { return space.orbit(e); },
      [&](const Entry& e, Side sd, auto&& emit) {
        const Position sp = unpack(e.board, sd);
        const std::uint32_t code_s = e.tag, mine_s = code_s & 511u;
        const bool self_image = space.orbit(e) == 1;
        std::uint32_t mine_steps[4 * 32], theirs_steps[4 * 32];
        for_each_unmove(b, rules, sp, [&](const Position& before, const Move& m) {
          if (!space.inside(before)) return;
          const std::uint32_t played = step_code(b, m.from, m.to);
          const bool clears = immediate && m.captured;  // such a move empties the tag
          if (clears ? code_s != 0 : ((code_s >> 9) & 511u) != played) return;
          const Bits empty = b.all & ~occupied(before);
          const int a = list_steps(b, mover(before), empty, mine_steps);
          const int c = list_steps(b, waiter(before), empty, theirs_steps);
          // tP.theirs becomes S's mine: fixed when S keeps one (it must be a step of P).
          int ti_lo = 0, ti_hi = c;
          if (mine_s) {
            const std::uint32_t* at = std::find(theirs_steps, theirs_steps + c, mine_s);
            if (at == theirs_steps + c) return;
            ti_lo = ti_hi = int(at - theirs_steps) + 1;
          }
          // tP.mine matters to next_tag only through "m reverses it" (the index back), and
          // tP.ban not at all; so next_tag is asked at most once per (theirs, reverses or not),
          // and only when a reached candidate needs it (most candidates were never reached).
          const std::uint32_t back_code = step_code(b, m.to, m.from);
          const std::uint32_t* back_at = std::find(mine_steps, mine_steps + a, back_code);
          const int back = back_at == mine_steps + a ? -1 : int(back_at - mine_steps) + 1;
          std::int8_t leads[4 * 32 + 1][2];  // -1: not asked yet
          for (int ti = ti_lo; ti <= ti_hi; ++ti) leads[ti][0] = leads[ti][1] = -1;
          auto lead = [&](int ti, bool rev) {
            if (leads[ti][rev] < 0) {
              Tag tp;
              tp.theirs = ti ? unpack_step(b, theirs_steps[ti - 1]) : Step{};
              tp.mine = rev ? unpack_step(b, back_code) : Step{};
              leads[ti][rev] = clears || pack_tag(b, next_tag(b, rules, before, tp, m)) == code_s;
            }
            return leads[ti][rev] == 1;
          };
          // The candidates of one (ban, theirs) are a run of slots, mine from 0 (1 with a ban:
          // a ban needs a mine) to a: only the reached ones are visited, a bitmap word at a time.
          const std::uint64_t base = space.base(space.board_id(before));
          for (int ban = 0; ban < 2; ++ban)
            for (int ti = ti_lo; ti <= ti_hi; ++ti) {
              const std::uint64_t row = base + (std::uint64_t(ban) * std::uint64_t(c + 1) + std::uint64_t(ti)) * std::uint64_t(a + 1);
              reached.for_each(row + std::uint64_t(ban), row + std::uint64_t(a) + 1, [&](std::uint64_t pid) {
                const int mi = int(pid - row);
                const bool rev = mi == back;
                // tag_bans: undo bans reversing mine; immediate only with the ban and no capture.
                if ((rev && (undo || (ban && !m.captured))) || !lead(ti, rev)) return;
                const std::uint32_t code_p = (mi ? mine_steps[mi - 1] : 0u) | (ti ? theirs_steps[ti - 1] : 0u) << 9 |
                                             std::uint32_t(ban) << 18;
                TaggedSpace::Pair pr = space.pair(Entry{pack(before), pid, code_p});
                if (self_image && !pr.kept) return;
                if (!pr.kept) pr.canonical.id = id_of(pr.canonical, before.to_move);
                emit(std::uint64_t(pr.canonical.id), pr.canonical, std::uint8_t(!self_image && pr.orbit == 1 ? 2 : 1));
              });
            }
        });
      });

  // 3. read off: blocks of boards; per block, count reached slots, then list them in order.
  constexpr std::uint64_t kBlock = 1 << 14;
  const std::uint64_t nboards = 2 * space.boards(), blocks = (nboards + kBlock - 1) / kBlock;
  std::vector<std::uint64_t> start(blocks + 1, 0);
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    const std::uint64_t lo = blk * kBlock, hi = std::min(nboards, lo + kBlock);
    start[blk + 1] = reached.count(space.base(lo), space.base(hi));
  });
  for (std::uint64_t blk = 0; blk < blocks; ++blk) start[blk + 1] += start[blk];
  const std::size_t total = start[blocks];
  size_solution(s, total, need);
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    std::size_t at = start[blk];
    const std::uint64_t lo = blk * kBlock, hi = std::min(nboards, lo + kBlock);
    Position p = space.board(lo);
    for (std::uint64_t bid = lo; bid < hi; ++bid) {
      if (bid == space.boards()) p = space.board(bid);
      const std::uint64_t first = space.base(bid), last = space.base(bid + 1);
      if (reached.count(first, last)) {
        // A slot's tag from the board's steps (tag_slots.hpp): slot = (ban * (c + 1) + ti) * (a + 1) + mi.
        const Bits empty = b.all & ~occupied(p);
        std::uint32_t mine_steps[4 * 32], theirs_steps[4 * 32];
        const std::uint32_t a = std::uint32_t(list_steps(b, mover(p), empty, mine_steps));
        const std::uint32_t c = std::uint32_t(list_steps(b, waiter(p), empty, theirs_steps));
        const Key board_key = encode_board_side(s.codec, p) << s.codec.tag_bits;
        reached.for_each(first, last, [&](std::uint64_t id) {
          const std::uint32_t slot = std::uint32_t(id - first), mi = slot % (a + 1), ti = slot / (a + 1) % (c + 1);
          const std::uint32_t code = (mi ? mine_steps[mi - 1] : 0u) | (ti ? theirs_steps[ti - 1] : 0u) << 9 | slot / (a + 1) / (c + 1) << 18;
          const TaggedSpace::Pair pr = space.pair(Entry{pack(p), id, code});
          const Cell& cl = cell[pr.kept ? id : id_of(pr.canonical, p.to_move)];
          s.keys[at] = board_key | code;
          s.value[at] = Value(cl.value.load(std::memory_order_relaxed));
          s.dist[at] = cl.dist;
          ++at;
        });
      }
      if (bid + 1 < hi && bid + 1 != space.boards()) space.next_board(p);
    }
  });
  count_values(s);
  s.peak_bytes = need + total * (sizeof(Key) + sizeof(Value) + sizeof(std::uint16_t));
  return s;
}

}  // namespace gonu
