// The dense engine for the tagged rule sets (repetition immediate, undo): see dense_solve.hpp.
// A state is (side, board, tag); its id is slot_base[board id] + tag_slot (tag_slots.hpp), where
// board ids are BoardRank ranks as in the untagged engine and slot_base sums every board's tag
// slots. Ids follow key order (board-major keys, state_key.hpp).
// A board holds some forty tags on 4x4, and what they share (its moves, un-moves, successor
// boards, step lists, mirror image) is worked out once per board and level, not once per state:
// both passes go a board at a time. A level's work list is a list of boards, each listed once
// (Listing); which of a board's states belong to the level is read from their cells.
//   1. reach: breadth-first from the root, level by level. During it a cell's `dist` holds the
//      level its state was reached at, plus one, so a listed board's states of the level are its
//      reached slots with that mark. From each, every move its tag allows; the successor depends
//      on the tag only through `theirs` and whether the move reverses `mine` (next_tag), so it is
//      worked out once per (move, theirs, reverses) on the board.
//   2. retrograde: level-synchronous; a listed board's states decided at distance d are its
//      decided cells with that distance (written before the value: dense_parts.hpp). The
//      predecessors of (S, tS) are the board un-moves (P, m) of S, each with the tags tP of P
//      under which m is legal and leads to tS. tP.theirs becomes tS.mine (when tS keeps one), so
//      only mine and ban are searched; each candidate that was reached is checked with the
//      forward rules (tag_bans, next_tag), so every edge is counted exactly once.
//   3. read off: boards in order, and within each its reached slots.
// As in the untagged engine, when the root state is its own file-mirror image only one state of
// each mirror pair is worked on; the mirror acts on the tag's steps too (dense_parts.hpp).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/unmoves.hpp"
#include "solver/dense/board_rank.hpp"
#include "solver/dense/parts.hpp"
#include "solver/dense/dense_solve.hpp"
#include "solver/dense/tag_slots.hpp"

namespace gonu {

namespace {

using namespace dense;

// Boards per chunk of a level's list: each holds several states, so chunks are smaller than
// the untagged engine's.
constexpr std::size_t kGrain = 256;

// A terminal state, kept for the retrograde's first level.
struct Terminal {
  std::uint64_t board;  // pack()
  std::uint64_t id;     // its cell
};

// A board on a level's work list (the list's side is the level's).
struct Listed {
  std::uint64_t board;  // pack()
  std::uint64_t id;     // board id
};
using Boards = std::vector<Listed>;

// Puts a level's list in board-id order, so that its boards' slots, cells and reached words are
// visited in memory order (the order of the list is otherwise timing's).
void sort_boards(Boards& list) {
  tbb::parallel_sort(list.begin(), list.end(), [](const Listed& x, const Listed& y) { return x.id < y.id; });
}

// Lists each board once per level: a board's mark is the stamp of the last list it went on.
class Listing {
 public:
  explicit Listing(std::uint64_t boards) : mark_(boards) {}
  // True for the one caller that lists the board under this stamp (never 0).
  bool first(std::uint64_t board_id, std::uint32_t stamp) {
    auto& m = mark_[board_id];
    return m.load(std::memory_order_relaxed) != stamp && m.exchange(stamp, std::memory_order_relaxed) != stamp;
  }
  void clear() {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, mark_.size(), 1 << 16), [&](const auto& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) mark_[i].store(0, std::memory_order_relaxed);
    });
  }

 private:
  HugeArray<std::atomic<std::uint32_t>> mark_;
};

// The steps of M(p) or T(p) by rank (their pack_tag codes, ascending).
int list_steps(const Board& b, Bits side_pieces, Bits empty, std::uint32_t* out) {
  // ends[d]: the points a step travelling d can end on (an empty point one step back).
  const Bits ends[4] = {shift(b, empty, 0), shift(b, empty, 1), shift(b, empty, 2), shift(b, empty, 3)};
  int n = 0;
  for (Bits x = side_pieces & (ends[0] | ends[1] | ends[2] | ends[3]); x; x &= x - 1) {
    const int to = lowest(x);
    for (int d = 0; d < 4; ++d)
      if ((ends[d] >> to) & 1) out[n++] = 1u + std::uint32_t(to) * 4u + std::uint32_t(d);
  }
  return n;
}

// A board's steps M and T (tag_slots.hpp), to turn its slots into tag codes:
// slot = (ban * (c + 1) + ti) * (a + 1) + mi. A slot is split by multiplying with rounded-up
// reciprocals, exact for slots and divisors below 2^16 (a slot is under 2 * 129^2): a code is
// asked for at every state of every pass, and a hardware division costs several times more.
struct BoardSteps {
  std::uint32_t mine[4 * 32], theirs[4 * 32];
  std::uint32_t a, c;
  BoardSteps(const Board& b, const Position& p) {
    const Bits empty = b.all & ~occupied(p);
    a = std::uint32_t(list_steps(b, mover(p), empty, mine));
    c = std::uint32_t(list_steps(b, waiter(p), empty, theirs));
    by_row_ = (std::uint64_t(1) << 32) / (a + 1) + 1;
    by_theirs_ = (std::uint64_t(1) << 32) / (c + 1) + 1;
  }
  std::uint32_t row(std::uint32_t slot) const { return std::uint32_t((slot * by_row_) >> 32); }  // slot / (a + 1)
  // A slot's parts: mine index, theirs index, ban.
  void split(std::uint32_t slot, std::uint32_t& mi, std::uint32_t& ti, std::uint32_t& ban) const {
    const std::uint32_t r = row(slot);
    mi = slot - r * (a + 1);
    ban = std::uint32_t((r * by_theirs_) >> 32);
    ti = r - ban * (c + 1);
  }
  std::uint32_t theirs_index(std::uint32_t slot) const {
    const std::uint32_t r = row(slot);
    return r - std::uint32_t((r * by_theirs_) >> 32) * (c + 1);
  }
  std::uint32_t code(std::uint32_t slot) const {
    std::uint32_t mi, ti, ban;
    split(slot, mi, ti, ban);
    return code(mi, ti, ban);
  }
  // The tag code of the slot with these parts.
  std::uint32_t code(std::uint32_t mi, std::uint32_t ti, std::uint32_t ban) const {
    return (mi ? mine[mi - 1] : 0u) | (ti ? theirs[ti - 1] : 0u) << 9 | ban << 18;
  }

 private:
  std::uint64_t by_row_, by_theirs_;
};

class TaggedSpace {
 public:
  TaggedSpace(const Board& b, const Position& root, std::uint32_t root_code)
      : b_(b), ids_(b.n, popcount(root.black), popcount(root.white)), boards_(ids_.boards()), base_(2 * boards_ + 1),
        mirror_(b) {
    mirror_on_ = mirror_.board(pack(root)) == pack(root) && mirror_.tag(root_code) == root_code;
    // slot_base: every board's slot count, summed in board-id order (blocks walked in order).
    constexpr std::uint64_t kBlock = 1 << 16;
    const std::uint64_t n = 2 * boards_, blocks = (n + kBlock - 1) / kBlock;
    tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
      walk(blk * kBlock, std::min(n, (blk + 1) * kBlock),
           [&](std::uint64_t id, const Position& p) { base_[id + 1] = tag_space(b_, p).size(); });
    });
    for (std::uint64_t id = 0; id < n; ++id) base_[id + 1] += base_[id];
  }
  std::uint64_t board_id(const Position& p) const { return ids_.id(p); }
  Position board(std::uint64_t id) const { return ids_.position(id); }
  // visit(board id, board) for the board ids [lo, hi) in order (SideBoardIds::walk).
  template <class Visit>
  void walk(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    ids_.walk(lo, hi, visit);
  }
  std::uint64_t base(std::uint64_t board_id) const { return base_[board_id]; }
  std::uint32_t slot(const Position& p, std::uint32_t code) const { return tag_slot(b_, p, tag_space(b_, p), code); }
  std::uint64_t size() const { return base_[2 * boards_]; }
  std::uint64_t boards() const { return boards_; }  // per side
  std::uint64_t board_ids() const { return 2 * boards_; }
  bool inside(const Position& p) const { return ids_.inside(p); }
  std::size_t bytes() const { return base_.bytes(); }

  // The mirror, as in the untagged engine but on (board, tag): canonical is the smaller packed
  // board, then the smaller tag code when the board is its own image. The board's image is
  // asked for once and shared by its states (the mirror is a good part of the work per edge).
  std::uint64_t mirror_board(std::uint64_t w) const { return mirror_on_ ? mirror_.board(w) : w; }
  struct Canonical {
    std::uint64_t board;  // the canonical form's board and tag
    std::uint32_t code;
    bool kept;            // the state was canonical
    int orbit;            // states it stands for
  };
  // The state (w, code), the image of w being mw = mirror_board(w).
  Canonical canonical(std::uint64_t w, std::uint64_t mw, std::uint32_t code) const {
    if (!mirror_on_) return Canonical{w, code, true, 1};
    if (w < mw) return Canonical{w, code, true, 2};
    const std::uint32_t mc = mirror_.tag(code);
    if (w > mw) return Canonical{mw, mc, false, 2};
    return code <= mc ? Canonical{w, code, true, mc != code ? 2 : 1} : Canonical{w, mc, false, 2};
  }
  std::uint32_t mirror_tag(std::uint32_t code) const { return mirror_.tag(code); }
  void prefetch_base(std::uint64_t board_id) const { __builtin_prefetch(&base_[board_id]); }
  bool mirroring() const { return mirror_on_; }

 private:
  const Board& b_;
  SideBoardIds ids_;
  std::uint64_t boards_;  // ids_.boards(), kept at hand for the hot loops
  HugeArray<std::uint64_t> base_;
  FileMirror mirror_;
  bool mirror_on_ = false;
};

// The mirror on one board's slots: for a board X (its steps x) and its image board Y, the slot on
// Y of the image of each of X's states. The mirror keeps a board's step counts and maps its steps
// one to one, so this is two small permutations of step indices, worked out once per board
// instead of ranking each state's mirrored steps.
class SlotMirror {
 public:
  SlotMirror(const Board& b, const TaggedSpace& space, const BoardSteps& x, const Position& y) : a_(x.a), c_(x.c) {
    const Bits empty = b.all & ~occupied(y);
    mine_[0] = theirs_[0] = 0;
    for (std::uint32_t i = 0; i < x.a; ++i)
      mine_[i + 1] = 1 + std::uint32_t(step_rank(b, mover(y), empty, space.mirror_tag(x.mine[i])));
    for (std::uint32_t i = 0; i < x.c; ++i)
      theirs_[i + 1] = 1 + std::uint32_t(step_rank(b, waiter(y), empty, space.mirror_tag(x.theirs[i])));
  }
  // The image's slot on Y of the state with these parts (BoardSteps::split) on X.
  std::uint32_t operator()(std::uint32_t mi, std::uint32_t ti, std::uint32_t ban) const {
    return (ban * (c_ + 1) + theirs_[ti]) * (a_ + 1) + mine_[mi];
  }

 private:
  std::uint32_t a_, c_;
  std::uint32_t mine_[4 * 32 + 1], theirs_[4 * 32 + 1];  // [index on X]: index on Y (0: none)
};

// Marks the mirror images of the reached canonical states reached too: the read-off lists them,
// and the retrograde looks for predecessors among any board's reached slots. Each board marks
// its own slots (those of its image board's reached states, or its own reached states' images
// when it is its own image), in board-id order: no cache line is visited at random, as marking
// each image when its state was reached would. A board's bits are gathered first and written a
// word at a time.
void mark_images(const Board& b, const TaggedSpace& space, Reached& reached) {
  constexpr std::uint64_t kBlock = 1 << 14;
  const std::uint64_t boards = space.board_ids(), blocks = (boards + kBlock - 1) / kBlock;
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    std::vector<std::uint64_t> words;
    space.walk(blk * kBlock, std::min(boards, (blk + 1) * kBlock), [&](std::uint64_t bid, const Position& p) {
      const std::uint64_t w = pack(p), mw = space.mirror_board(w);
      if (w >= mw) {
        const Position image = unpack(mw, p.to_move);
        const std::uint64_t from = w == mw ? bid : space.board_id(image), first = space.base(from);
        const BoardSteps steps(b, image);
        const SlotMirror to_p(b, space, steps, p);
        const std::uint64_t base = space.base(bid), word0 = base >> 6;
        words.assign(((space.base(bid + 1) + 63) >> 6) - word0, 0);
        reached.for_each(first, space.base(from + 1), [&](std::uint64_t id) {
          std::uint32_t mi, ti, ban;
          steps.split(std::uint32_t(id - first), mi, ti, ban);
          const std::uint64_t at = base + to_p(mi, ti, ban);
          words[(at >> 6) - word0] |= std::uint64_t(1) << (at & 63);
        });
        for (std::size_t i = 0; i < words.size(); ++i)
          if (words[i]) reached.set_word(word0 + i, words[i]);
      }
    });
  });
}

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
  const bool immediate = rules.repetition == Repetition::immediate, undo = rules.repetition == Repetition::undo;
  const std::uint32_t root_code = pack_tag(b, s.root_tag);
  const TaggedSpace space(b, s.root, root_code);
  const std::uint64_t n = space.size();
  const std::size_t need = std::size_t(n) * sizeof(Cell) + n / 8 + space.bytes() + space.board_ids() * 4;
  if (const std::size_t have = physical_memory(); have && need > have)
    throw GonuError("the dense space of this root has " + std::to_string(n) + " tagged states and needs " +
                    std::to_string(need >> 20) + " MiB, more than this machine's " + std::to_string(have >> 20) +
                    " MiB");
  Reached reached(n);
  HugeArray<Cell> cell(n);
  Listing listing(space.board_ids());

  // 1. reach (canonical states; their mirror images are marked reached after it).
  // Level L's states have dist L + 1, and their boards were listed under stamp L + 1.
  Side side = s.root.to_move;
  std::uint64_t states = 0;
  Boards frontier;
  std::vector<Terminal> terminal[2];
  {
    const std::uint64_t w = pack(s.root);
    const auto c = space.canonical(w, space.mirror_board(w), root_code);
    const Position cp = unpack(c.board, side);
    const std::uint64_t bid = space.board_id(cp), id = space.base(bid) + space.slot(cp, c.code);
    reached.claim(id);
    cell[id].dist.store(1, std::memory_order_relaxed);
    listing.first(bid, 1);
    frontier.push_back(Listed{c.board, bid});
    states = std::uint64_t(c.orbit);
  }
  tbb::enumerable_thread_specific<Boards> next_level;  // kept across levels (gather_into)
  while (!frontier.empty()) {
    if (s.levels + 2 > 0xffff) throw GonuError("more than 65533 breadth-first levels: too deep for this solver");
    const std::uint16_t stamp = std::uint16_t(s.levels + 1), next_stamp = std::uint16_t(s.levels + 2);
    const Side to = other(side);
    tbb::enumerable_thread_specific<std::vector<Terminal>> ends;
    tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      Boards& out = next_level.local();
      std::uint64_t& e = edges.local();
      std::uint64_t& f = found.local();
      // Where a move leads: its board and the board's mirror image (the same board when
      // mirroring is off or the board is its own image), with their ids, slot bases and tag
      // spaces, worked out once per move and shared by every tag of the board.
      struct Target {
        std::uint64_t board[2], board_id[2], base[2];
        TagSpace tags[2];
      };
      // Where a move leads from one class of tags (theirs index, reverses mine or not).
      struct Successor {
        std::uint64_t id;
        int index;  // of the canonical board in the move's Target
        int orbit;  // 0: not worked out yet
      };
      std::vector<Successor> succ;
      std::vector<std::uint64_t> fresh;
      std::vector<std::uint32_t> touched, claimed;  // indices into succ
      Move moves[kMaxMoves];
      Target target[kMaxMoves];
      std::uint32_t back[kMaxMoves];  // the step code each move reverses
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        const Listed& at = frontier[i];
        const Position p = unpack(at.board, side);
        const std::uint64_t base = space.base(at.id);
        fresh.clear();
        reached.for_each(base, space.base(at.id + 1), [&](std::uint64_t id) {
          if (cell[id].dist.load(std::memory_order_relaxed) == stamp) fresh.push_back(id);
        });
        const BoardSteps steps(b, p);
        const std::uint64_t mw = space.mirror_board(at.board);
        const int k = lost_by_material(p) ? 0 : generate_moves_any_order(b, rules, p, moves);
        for (int j = 0; j < k; ++j) {
          back[j] = step_code(b, moves[j].to, moves[j].from);
          Target& t = target[j];
          t.board[0] = pack(apply_move(p, moves[j]));
          t.board[1] = space.mirror_board(t.board[0]);
          for (int x = 0; x < 2; ++x) {
            if (x == 1 && t.board[1] == t.board[0]) {  // its own image, or no mirroring: no second rank
              t.board_id[1] = t.board_id[0];
              t.tags[1] = t.tags[0];
              break;
            }
            const Position q = unpack(t.board[x], to);
            t.board_id[x] = space.board_id(q);
            t.tags[x] = tag_space(b, q);
            space.prefetch_base(t.board_id[x]);
          }
        }
        for (int j = 0; j < k; ++j)
          for (int x = 0; x < 2; ++x) target[j].base[x] = space.base(target[j].board_id[x]);
        const std::size_t classes = 2 * (std::size_t(steps.c) + 1);
        succ.assign(std::size_t(k) * classes, Successor{});
        // First the board's fresh states: their legal moves and the successor of each (move,
        // class) they use, worked out once, its reached bit prefetched; then the claims, the
        // misses of one board overlapping instead of coming one after another.
        touched.clear();
        for (const std::uint64_t id : fresh) {
          const std::uint32_t slot = std::uint32_t(id - base), code = steps.code(slot), mine = code & 511u;
          const std::uint32_t ti = steps.theirs_index(slot);
          const bool ban = code >> 18;
          int legal = 0;
          for (int j = 0; j < k; ++j) {
            const Move& m = moves[j];
            const bool rev = mine && back[j] == mine;
            if (rev && (undo || (ban && !m.captured))) continue;  // tag_bans
            ++legal;
            // A capture under immediate empties the tag: one class for all.
            const std::size_t at_class = std::size_t(j) * classes + (immediate && m.captured ? 0 : 2 * ti + rev);
            Successor& u = succ[at_class];
            if (u.orbit) continue;
            // The canonical state is (board[0], code) or the image (board[1], mirrored code).
            const Target& t = target[j];
            const std::uint32_t qc = next_tag_code(b, rules, p, m, ti ? steps.theirs[ti - 1] : 0u, rev);
            const auto c = space.canonical(t.board[0], t.board[1], qc);
            const int x = c.kept ? 0 : 1;
            u.index = x;
            u.orbit = c.orbit;
            u.id = t.base[x] + tag_slot(b, unpack(t.board[x], to), t.tags[x], c.code);
            reached.prefetch(u.id);
            touched.push_back(std::uint32_t(at_class));
          }
          if (legal > 255) throw GonuError("a position with more than 255 moves: too many for the dense engine");
          cell[id].pending.store(std::uint8_t(legal), std::memory_order_relaxed);
          if (legal == 0) ends.local().push_back(Terminal{at.board, id});
          e += std::uint64_t(legal) * std::uint64_t(space.canonical(at.board, mw, code).orbit);
        }
        claimed.clear();
        for (const std::uint32_t at_class : touched) {
          const Successor& u = succ[at_class];
          if (!reached.claim(u.id)) continue;
          __builtin_prefetch(&cell[u.id], 1);
          claimed.push_back(at_class);
        }
        for (const std::uint32_t at_class : claimed) {
          const Successor& u = succ[at_class];
          const Target& t = target[at_class / classes];
          cell[u.id].dist.store(next_stamp, std::memory_order_relaxed);
          if (listing.first(t.board_id[u.index], next_stamp)) out.push_back(Listed{t.board[u.index], t.board_id[u.index]});
          f += std::uint64_t(u.orbit);
        }
      }
    }, tbb::simple_partitioner());
    end_level(s, states, side, frontier, terminal, next_level, ends, edges, found, options);
    sort_boards(frontier);
  }
  Boards().swap(frontier);
  if (space.mirroring()) mark_images(b, space, reached);

  // 2. retrograde; levels[side] lists the boards with states decided at distance d, under stamp
  // d + 1. Mirror images are counted as in the untagged engine: an un-move from a non-canonical P
  // is skipped when S is its own image, and one from a P that is its own image (S not) stands
  // for two edges.
  listing.clear();
  Boards levels[2];
  for (int sd = 0; sd < 2; ++sd)
    for (const Terminal& e : terminal[sd]) {
      cell[e.id].dist.store(0, std::memory_order_relaxed);  // it held the reach level
      cell[e.id].value.store(std::uint8_t(Value::loss), std::memory_order_relaxed);
      const std::uint64_t bid = space.board_id(unpack(e.board, Side(sd)));
      if (listing.first(bid, 1)) levels[sd].push_back(Listed{e.board, bid});
    }
  for (auto& t : terminal) std::vector<Terminal>().swap(t);
  for (auto& list : levels) sort_boards(list);
  std::uint64_t decided = 0;
  tbb::enumerable_thread_specific<Boards> next[2];  // kept across levels (gather_into)
  for (std::uint32_t d = 0; !levels[0].empty() || !levels[1].empty(); ++d) {
    if (d + 2 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
    tbb::enumerable_thread_specific<std::uint64_t> settled(0);
    for (int sd = 0; sd < 2; ++sd) {
      const Boards& cur = levels[sd];
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cur.size(), kGrain), [&](const auto& range) {
        Boards& out = next[1 - sd].local();
        std::uint64_t& count = settled.local();
        struct Decided {
          std::uint32_t code, theirs_index;
          bool lost, self_image;
        };
        // An un-move (P, m) of the board that leads to some of its decided states.
        struct Unmove {
          Position before;
          Move m;
          std::uint64_t board_id, base;  // of P
          std::uint32_t theirs_index;    // of m's step on the board (0 for a capture under immediate)
        };
        struct Update {
          std::uint64_t id, board, board_id;
          std::uint8_t edges;
          bool lost;
        };
        std::vector<Decided> found, by_theirs;
        std::vector<std::uint32_t> bucket;  // by_theirs[bucket[ti], bucket[ti + 1]): theirs index ti
        std::vector<Unmove> unmoves;
        std::vector<Update> updates;
        for (std::size_t i = range.begin(); i < range.end(); ++i) {
          const Listed& at = cur[i];
          const Position sp = unpack(at.board, Side(sd));
          const std::uint64_t base = space.base(at.id), mw = space.mirror_board(at.board);
          const BoardSteps steps(b, sp);
          found.clear();
          reached.for_each(base, space.base(at.id + 1), [&](std::uint64_t id) {
            const Cell& c = cell[id];
            const std::uint8_t v = c.value.load(std::memory_order_acquire);
            if (v == std::uint8_t(Value::draw) || c.dist.load(std::memory_order_relaxed) != d) return;
            const std::uint32_t slot = std::uint32_t(id - base), code = steps.code(slot);
            const int orbit = space.canonical(at.board, mw, code).orbit;
            found.push_back(Decided{code, steps.theirs_index(slot), v == std::uint8_t(Value::loss), orbit == 1});
            count += std::uint64_t(orbit);
          });
          // The decided states grouped by theirs: an un-move leads only to those whose theirs
          // is its step (or, for a capture under immediate, to the empty tag).
          bucket.assign(steps.c + 2, 0);
          for (const Decided& x : found) ++bucket[x.theirs_index + 1];
          for (std::uint32_t ti = 0; ti <= steps.c; ++ti) bucket[ti + 1] += bucket[ti];
          by_theirs.resize(found.size());
          for (const Decided& x : found) by_theirs[bucket[x.theirs_index]++] = x;
          for (std::uint32_t ti = steps.c + 1; ti > 0; --ti) bucket[ti] = bucket[ti - 1];
          bucket[0] = 0;
          // The un-moves first, their boards' slot bases prefetched, then their reached bits, so
          // that those misses overlap instead of coming one after another.
          unmoves.clear();
          for_each_unmove(b, rules, sp, [&](const Position& before, const Move& m) {
            if (!space.inside(before)) return;
            const std::uint32_t ti = immediate && m.captured
                                         ? 0u
                                         : 1u + std::uint32_t(std::find(steps.theirs, steps.theirs + steps.c, step_code(b, m.from, m.to)) - steps.theirs);
            if (bucket[ti] == bucket[ti + 1]) return;
            unmoves.push_back(Unmove{before, m, space.board_id(before), 0, ti});
            space.prefetch_base(unmoves.back().board_id);
          });
          for (Unmove& um : unmoves) {
            um.base = space.base(um.board_id);
            reached.prefetch(um.base);
            reached.prefetch(space.base(um.board_id + 1) - 1);
          }
          updates.clear();
          for (const Unmove& um : unmoves) {
            const Position& before = um.before;
            const Move& m = um.m;
            const bool clears = immediate && m.captured;  // such a move empties the tag
            const BoardSteps ps(b, before);
            const std::uint64_t pw = pack(before), pmw = space.mirror_board(pw);
            const std::uint64_t pbid = um.board_id, pbase = um.base;
            // Where P's states that are not canonical keep their cells: on the image board, or on
            // P itself when it is its own image (asked for when first needed).
            bool image_ready = false;
            Position image_pos;
            std::uint64_t image_bid = pbid, image_base = pbase;
            TagSpace image_tags{};
            // tP.mine matters to next_tag only through "m reverses it" (the index back), and
            // tP.ban not at all; so next_tag is asked at most once per (theirs, reverses or not),
            // and only when a reached candidate needs it (most candidates were never reached).
            const std::uint32_t back_code = step_code(b, m.to, m.from);
            const std::uint32_t* back_at = std::find(ps.mine, ps.mine + ps.a, back_code);
            const std::uint32_t back = back_at == ps.mine + ps.a ? 0u : std::uint32_t(back_at - ps.mine) + 1;
            std::int64_t leads[4 * 32 + 1][2];  // -1: not asked yet
            for (std::uint32_t ti = 0; ti <= ps.c; ++ti) leads[ti][0] = leads[ti][1] = -1;
            auto lead = [&](std::uint32_t ti, bool rev) {
              if (leads[ti][rev] < 0) leads[ti][rev] = next_tag_code(b, rules, before, m, ti ? ps.theirs[ti - 1] : 0u, rev);
              return std::uint32_t(leads[ti][rev]);
            };
            for (std::uint32_t xi = bucket[um.theirs_index]; xi < bucket[um.theirs_index + 1]; ++xi) {
              const Decided& x = by_theirs[xi];
              if (clears && x.code != 0) continue;
              // tP.theirs becomes S's mine: fixed when S keeps one (it must be a step of P).
              const std::uint32_t mine_s = x.code & 511u;
              std::uint32_t ti_lo = 0, ti_hi = ps.c;
              if (mine_s) {
                const std::uint32_t* t = std::find(ps.theirs, ps.theirs + ps.c, mine_s);
                if (t == ps.theirs + ps.c) continue;
                ti_lo = ti_hi = std::uint32_t(t - ps.theirs) + 1;
              }
              // A reached predecessor state (P, tP) whose move m leads to x.
              auto take = [&](std::uint64_t pid, std::uint32_t mi, std::uint32_t ti, std::uint32_t ban) {
                const std::uint32_t code_p = ps.code(mi, ti, ban);
                const auto c = space.canonical(pw, pmw, code_p);
                if (x.self_image && !c.kept) return;
                Update u{pid, c.board, pbid, std::uint8_t(!x.self_image && c.orbit == 1 ? 2 : 1), x.lost};
                if (!c.kept) {
                  if (!image_ready) {
                    image_pos = unpack(c.board, before.to_move);
                    if (c.board != pw) {
                      image_bid = space.board_id(image_pos);
                      image_base = space.base(image_bid);
                    }
                    image_tags = tag_space(b, image_pos);
                    image_ready = true;
                  }
                  u.board_id = image_bid;
                  u.id = image_base + tag_slot(b, image_pos, image_tags, c.code);
                }
                __builtin_prefetch(&cell[u.id], 1);
                updates.push_back(u);
              };
              // The candidates of one (ban, theirs) are a run of slots, mine from 0 (1 with a
              // ban: a ban needs a mine) to a. All but the one whose mine m reverses (index back)
              // lead to one tag, so the run is walked only when that tag is x's; the other is
              // checked alone (tag_bans: undo bans reversing mine, immediate only with the ban
              // and no capture).
              for (std::uint32_t ban = 0; ban < 2; ++ban)
                for (std::uint32_t ti = ti_lo; ti <= ti_hi; ++ti) {
                  const std::uint64_t row = pbase + (std::uint64_t(ban) * (ps.c + 1) + ti) * (ps.a + 1);
                  const std::uint64_t lo = row + ban, hi = row + ps.a + 1;
                  if (!reached.count(lo, hi)) continue;
                  const bool back_ok = back && !undo && !(ban && !m.captured) && reached.test(row + back) &&
                                       (clears || lead(ti, true) == x.code);
                  if (clears || lead(ti, false) == x.code) {
                    reached.for_each(lo, hi, [&](std::uint64_t pid) {
                      const std::uint32_t mi = std::uint32_t(pid - row);
                      if (mi != back || back_ok) take(pid, mi, ti, ban);
                    });
                  } else if (back_ok) {
                    take(row + back, back, ti, ban);
                  }
                }
            }
          }
          for (const Update& u : updates)
            if (reach_predecessor(cell[u.id], u.lost, d, u.edges) != Value::draw && listing.first(u.board_id, d + 2))
              out.push_back(Listed{u.board, u.board_id});
        }
      }, tbb::simple_partitioner());
    }
    for (int sd = 0; sd < 2; ++sd) {
      gather_into(next[sd], levels[sd]);
      sort_boards(levels[sd]);
    }
    for (const auto c : settled) decided += c;
    if (options.progress) options.progress("retrograde", decided, states);
  }

  // 3. read off: blocks of boards; per block, count reached slots, then list them in order.
  constexpr std::uint64_t kBlock = 1 << 14;
  const std::uint64_t nboards = space.board_ids(), blocks = (nboards + kBlock - 1) / kBlock;
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
    space.walk(blk * kBlock, std::min(nboards, (blk + 1) * kBlock), [&](std::uint64_t bid, const Position& p) {
      const std::uint64_t first = space.base(bid), last = space.base(bid + 1);
      if (reached.count(first, last)) {
        const BoardSteps steps(b, p);
        const std::uint64_t w = pack(p), mw = space.mirror_board(w);
        const Key board_key = encode_board_side(s.codec, p) << s.codec.tag_bits;
        auto put = [&](std::uint32_t code, const Cell& cl) {
          const Value v = Value(cl.value.load(std::memory_order_relaxed));
          s.keys[at] = board_key | code;
          s.value[at] = v;
          s.dist[at] = v == Value::draw ? 0 : cl.dist.load(std::memory_order_relaxed);  // a draw's held the reach level
          ++at;
        };
        if (w < mw || !space.mirroring()) {  // every state canonical
          reached.for_each(first, last, [&](std::uint64_t id) { put(steps.code(std::uint32_t(id - first)), cell[id]); });
        } else {
          // A state that is not canonical takes its image's cell, on the image board; on a board
          // that is its own image, the canonical one of a pair is the smaller code, so slot.
          const Position image = unpack(mw, p.to_move);
          const std::uint64_t image_base = mw < w ? space.base(space.board_id(image)) : first;
          const SlotMirror to_image(b, space, steps, image);
          reached.for_each(first, last, [&](std::uint64_t id) {
            const std::uint32_t slot = std::uint32_t(id - first);
            std::uint32_t mi, ti, ban;
            steps.split(slot, mi, ti, ban);
            const std::uint32_t mirrored = to_image(mi, ti, ban);
            const std::uint32_t code = steps.code(mi, ti, ban);
            put(code, cell[image_base + (mw < w ? mirrored : std::min(slot, mirrored))]);
          });
        }
      }
    });
  });
  count_values(s);
  s.peak_bytes = need + total * (sizeof(Key) + sizeof(Value) + sizeof(std::uint16_t));
  return s;
}

}  // namespace gonu
