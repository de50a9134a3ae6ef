// The tagged dense engine's pieces (dense_solve.hpp), shared by its phases: the space of
// tagged states (TaggedSpace: ids, slot bases, mirror), a board's steps and slots (BoardSteps,
// SlotMirror), the per-level board lists (Listing), and TaggedRun, what the phases share.
// tagged.cpp drives the phases, each in a file of its own:
//   tagged.cpp            the driver; the sizes and the memory check, before anything large
//                         is allocated
//   tagged_reach.cpp      1. reach, and the marking of mirror images
//   tagged_retrograde.cpp 2. retrograde
//   tagged_readoff.cpp    3. read off
// The phases are templates over the per-state storage (DenseStore: a bit and a 4-byte Cell per
// id; CompactStore: RankedBits and CompactCells by rank, compact_tagged.cpp drives it), each
// instantiated for both in its own file.
//
// A state is (side, board, tag); its id is slot_base[board id] + tag_slot (tag_slots.hpp), where
// board ids are BoardRank ranks as in the untagged engine and slot_base sums every board's tag
// slots. Ids follow key order (board-major keys, state_key.hpp).
// A board holds some forty tags on 4x4, and what they share (its moves, un-moves, successor
// boards, step lists, mirror image) is worked out once per board and level, not once per state:
// both passes go a board at a time. A level's work list is a list of boards, each listed once
// (Listing); which of a board's states belong to the level is read from their cells.
// As in the untagged engine, when the root state is its own file-mirror image only one state of
// each mirror pair is worked on; the mirror acts on the tag's steps too (parts.hpp: FileMirror).
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/dense/board_rank.hpp"
#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/tag_slots.hpp"
#include "util/huge_array.hpp"

namespace gonu::dense {

// Boards per chunk of a level's list: each holds several states, so chunks are smaller than
// the untagged engine's.
constexpr std::size_t kTaggedGrain = 256;

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
inline void sort_boards(Boards& list) {
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

// tag_bans on a board's moves: whether a state whose tag has a ban or not may not play move m,
// which reverses the tag's mine or not (undo bans every reversal; immediate only with the ban
// and no capture).
inline bool tag_forbids(bool undo, bool reverses, bool ban, const Move& m) {
  return reverses && (undo || (ban && !m.captured));
}

// The steps of M(p) or T(p) by rank (their pack_tag codes, ascending).
inline int list_steps(const Board& b, Bits side_pieces, Bits empty, std::uint32_t* out) {
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

// The number of tagged states of the space: the sum over its boards of their tag slots, by
// counting rather than by visiting the boards (tagged.cpp), so that the memory check comes
// before the slot-offset table is built.
std::uint64_t count_tagged_states(const Board& b, const BoardRank& rank);

class TaggedSpace {
 public:
  // Sizes only: nothing large is allocated until index_slots.
  TaggedSpace(const Board& b, const Position& root, std::uint32_t root_code)
      : b_(b), ids_(b.n, popcount(root.black), popcount(root.white)), boards_(ids_.boards()),
        size_(count_tagged_states(b, ids_.rank())), mirror_(b) {
    mirror_on_ = mirror_.board(pack(root)) == pack(root) && mirror_.tag(root_code) == root_code;
  }
  // Builds the slot-offset table (bytes() of it); the ids below need it.
  void index_slots();
  std::uint64_t board_id(const Position& p) const { return ids_.id(p); }
  Position board(std::uint64_t id) const { return ids_.position(id); }
  // visit(board id, board) for the board ids [lo, hi) in order (SideBoardIds::walk).
  template <class Visit>
  void walk(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    ids_.walk(lo, hi, visit);
  }
  std::uint64_t base(std::uint64_t board_id) const { return base_[board_id]; }
  // The board id whose slots hold id < size() (a binary search over the slot bases).
  std::uint64_t board_of(std::uint64_t id) const {
    std::uint64_t lo = 0, hi = 2 * boards_;  // base_[lo] <= id < base_[hi]
    while (hi - lo > 1) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      (base_[mid] <= id ? lo : hi) = mid;
    }
    return lo;
  }
  std::uint32_t slot(const Position& p, std::uint32_t code) const { return tag_slot(b_, p, tag_space(b_, p), code); }
  std::uint64_t size() const { return size_; }
  std::uint64_t boards() const { return boards_; }  // per side
  std::uint64_t board_ids() const { return 2 * boards_; }
  bool inside(const Position& p) const { return ids_.inside(p); }
  std::size_t bytes() const { return std::size_t(2 * boards_ + 1) * sizeof(std::uint64_t); }

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
  std::uint64_t size_;    // tagged states: base_[2 * boards_] once built
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

// The dense engine's per-state storage: a reached bit and a 4-byte Cell for every id of the
// space (mapped, committed only where touched). A state's cell index is its id.
struct DenseStore {
  static constexpr bool kCompact = false;
  explicit DenseStore(std::uint64_t ids) : reached(ids), cell(ids) {}
  std::uint64_t index(std::uint64_t id) const { return id; }
  bool any_reached(std::uint64_t lo, std::uint64_t hi) const { return reached.count(lo, hi) != 0; }
  // visit(id, cell index) for each reached id in [lo, hi), in order.
  template <class Visit>
  void for_each_state(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    reached.for_each(lo, hi, [&](std::uint64_t id) { visit(id, id); });
  }
  Value value(std::uint64_t i) const { return Value(cell[i].value.load(std::memory_order_acquire)); }
  std::uint16_t dist(std::uint64_t i) const { return cell[i].dist.load(std::memory_order_relaxed); }
  void prefetch_cell(std::uint64_t i) const { __builtin_prefetch(&cell[i], 1); }
  Value decide(std::uint64_t i, bool successor_lost, std::uint32_t d, std::uint8_t edges) {
    return reach_predecessor(cell[i], successor_lost, d, edges);
  }
  void set_terminal_loss(std::uint64_t i) {  // its dist held the reach level
    cell[i].dist.store(0, std::memory_order_relaxed);
    cell[i].value.store(std::uint8_t(Value::loss), std::memory_order_relaxed);
  }
  Reached reached;
  HugeArray<Cell> cell;
};

// The compact engine's: the reached ids in RankedBits (claimed during the reach), and once the
// reach is over and the bits finished, 3 bytes a reached state by rank (CompactCells; mirror
// images have theirs, never used, so that ranks need no second bitmap). The reach keeps no cells:
// a level's states are listed by id instead (tagged_reach.cpp).
// Bits and Cells are RankedBits and CompactCells, held (CompactStore) or, for one process's range
// of a multi-process solve, a view of its bits addressed by the whole space's ids and a reference
// to its cells (solver/julgonu/mpi).
template <class Bits, class Cells>
struct CompactStoreOf {
  static constexpr bool kCompact = true;
  CompactStoreOf(Bits bits, Cells c) : reached(std::move(bits)), cells(std::forward<Cells>(c)) {}
  std::uint64_t index(std::uint64_t id) const { return reached.rank(id); }
  bool any_reached(std::uint64_t lo, std::uint64_t hi) const { return lo < hi && reached.any(lo, hi); }
  template <class Visit>
  void for_each_state(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {
    if (lo >= hi) return;
    std::uint64_t r = reached.rank(lo);
    reached.for_each(lo, hi, [&](std::uint64_t id) { visit(id, r++); });
  }
  Value value(std::uint64_t i) const { return cells.value(i); }
  std::uint16_t dist(std::uint64_t i) const { return cells.dist(i); }
  void prefetch_cell(std::uint64_t i) const { cells.prefetch(i); }
  Value decide(std::uint64_t i, bool successor_lost, std::uint32_t d, std::uint8_t edges) {
    return cells.reach_predecessor(i, successor_lost, d, edges);
  }
  void set_terminal_loss(std::uint64_t i) { cells.set_terminal_loss(i); }
  Bits reached;
  Cells cells;
};
struct CompactStore : CompactStoreOf<RankedBits, CompactCells> {
  explicit CompactStore(std::uint64_t ids) : CompactStoreOf(RankedBits(ids), CompactCells(0)) {}
};

// What the phases share: the solution being built, the rules, the space, the per-state storage
// (owned by the driver), and the reach's results for the retrograde.
template <class Store>
struct TaggedRunOf {
  TaggedRunOf(Solution& solution, const SolveOptions& opts, const TaggedSpace& sp, Store& st, std::uint32_t root,
              std::size_t bytes)
      : s(solution), options(opts), b(solution.codec.board), rules(solution.codec.rules),
        immediate(rules.repetition == Repetition::immediate), undo(rules.repetition == Repetition::undo),
        root_code(root), space(sp), need(bytes), store(st), reached(st.reached), listing(sp.board_ids()) {}
  Solution& s;
  const SolveOptions& options;
  const Board& b;
  const Rules& rules;
  const bool immediate, undo;
  const std::uint32_t root_code;  // the root's tag, pack_tag
  const TaggedSpace& space;
  std::size_t need;  // bytes of the space and the arrays (tagged.cpp, compact_tagged.cpp)
  double state_bytes = 11;       // a reached state's result (check_result_fits)
  Store& store;
  decltype(Store::reached)& reached;
  Listing listing;
  std::uint64_t states = 0;          // reached, mirror images counted
  std::vector<Terminal> terminal[2];  // reached states with no legal move, by side to move
};
using TaggedRun = TaggedRunOf<DenseStore>;

// The phases, in order (the mirror images only when space.mirroring()), for either store.
template <class Store>
void reach(TaggedRunOf<Store>& t);
template <class Store>
void mark_images(TaggedRunOf<Store>& t);
template <class Store>
void retrograde(TaggedRunOf<Store>& t);
template <class Store>
void read_off_tagged(TaggedRunOf<Store>& t);

}  // namespace gonu::dense
