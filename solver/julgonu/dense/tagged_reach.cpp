// The tagged dense engine's reach (tagged_space.hpp): breadth-first from the root, level by
// level, over canonical states; then the marking of their mirror images. During it a cell's
// `dist` holds the level its state was reached at, plus one, so a listed board's states of the
// level are its reached slots with that mark. From each, every move its tag allows; the
// successor depends on the tag only through `theirs` and whether the move reverses `mine`
// (next_tag), so it is worked out once per (move, theirs, reverses) on the board.
// The compact store keeps no cells during the reach (its ranks are known only at the end): a
// level's states are listed by id instead, sorted, and each board takes its run of the list; the
// successor counts are left to a pass after the reach (compact_tagged.cpp).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu::dense {

namespace {

// The level being expanded: its side, and the marks of its states and of the next level's
// (level L's states have dist L + 1, and their boards were listed under stamp L + 1).
struct Level {
  Side side, to;
  std::uint16_t stamp, next_stamp;
};

// Where a move leads: its board and the board's mirror image (the same board when mirroring is
// off or the board is its own image), with their ids, slot bases and tag spaces, worked out once
// per move and shared by every tag of the board.
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

// Expands a chunk of a level's boards, one at a time: first the board's fresh states, its moves
// and their targets; then the fresh states' legal moves and the successor of each (move, class)
// they use, worked out once, its reached bit prefetched; then the claims, the misses of one
// board overlapping instead of coming one after another. Holds a thread's scratch and outputs.
// With the compact store, `states` is the level's states (sorted ids), from the first board's
// run on, and `next` takes the next level's.
template <class Store>
class BoardExpander {
 public:
  BoardExpander(TaggedRunOf<Store>& t, const Level& level, Boards& out, std::vector<Terminal>& ends,
                std::uint64_t& edges, std::uint64_t& found, const std::uint64_t* states = nullptr,
                const std::uint64_t* states_end = nullptr, std::vector<std::uint64_t>* next = nullptr)
      : t_(t), level_(level), out_(out), ends_(ends), edges_(edges), found_(found), states_(states),
        states_end_(states_end), next_(next) {}
  void expand(const Listed& at) {
    const Position p = unpack(at.board, level_.side);
    const std::uint64_t base = t_.space.base(at.id);
    fresh_states(at, base);
    const BoardSteps steps(t_.b, p);
    const std::uint64_t mw = t_.space.mirror_board(at.board);
    aim_moves(p);
    classes_ = 2 * (std::size_t(steps.c) + 1);
    succ_.assign(std::size_t(k_) * classes_, Successor{});
    touched_.clear();
    for (const std::uint64_t id : fresh_) expand_state(at, p, steps, mw, id, std::uint32_t(id - base));
    claim_successors();
  }

 private:
  // The board's states reached at this level.
  void fresh_states(const Listed& at, std::uint64_t base) {
    fresh_.clear();
    if constexpr (Store::kCompact) {
      const std::uint64_t end = t_.space.base(at.id + 1);
      for (; states_ != states_end_ && *states_ < end; ++states_)
        if (*states_ >= base) fresh_.push_back(*states_);
    } else {
      t_.reached.for_each(base, t_.space.base(at.id + 1), [&](std::uint64_t id) {
        if (t_.store.cell[id].dist.load(std::memory_order_relaxed) == level_.stamp) fresh_.push_back(id);
      });
    }
  }

  // The board's moves (none if lost by material), the step each reverses, and their targets,
  // the slot bases prefetched before they are read.
  void aim_moves(const Position& p) {
    k_ = lost_by_material(p) ? 0 : generate_moves_any_order(t_.b, t_.rules, p, moves_);
    for (int j = 0; j < k_; ++j) {
      back_[j] = step_code(t_.b, moves_[j].to, moves_[j].from);
      Target& tg = target_[j];
      tg.board[0] = pack(apply_move(p, moves_[j]));
      tg.board[1] = t_.space.mirror_board(tg.board[0]);
      for (int x = 0; x < 2; ++x) {
        if (x == 1 && tg.board[1] == tg.board[0]) {  // its own image, or no mirroring: no second rank
          tg.board_id[1] = tg.board_id[0];
          tg.tags[1] = tg.tags[0];
          break;
        }
        const Position q = unpack(tg.board[x], level_.to);
        tg.board_id[x] = t_.space.board_id(q);
        tg.tags[x] = tag_space(t_.b, q);
        t_.space.prefetch_base(tg.board_id[x]);
      }
    }
    for (int j = 0; j < k_; ++j)
      for (int x = 0; x < 2; ++x) target_[j].base[x] = t_.space.base(target_[j].board_id[x]);
  }

  // One fresh state (cell id, slot on its board): its legal moves counted and stored, each
  // (move, class) it uses worked out if no state before it did.
  void expand_state(const Listed& at, const Position& p, const BoardSteps& steps, std::uint64_t mw, std::uint64_t id,
                    std::uint32_t slot) {
    const std::uint32_t code = steps.code(slot), mine = code & 511u;
    const std::uint32_t ti = steps.theirs_index(slot);
    const bool ban = code >> 18;
    const int k = k_;
    const std::size_t classes = classes_;  // locals: the cell stores below may alias members
    int legal = 0;
    for (int j = 0; j < k; ++j) {
      const Move& m = moves_[j];
      const bool rev = mine && back_[j] == mine;
      if (tag_forbids(t_.undo, rev, ban, m)) continue;
      ++legal;
      // A capture under immediate empties the tag: one class for all.
      const std::size_t at_class = std::size_t(j) * classes + (t_.immediate && m.captured ? 0 : 2 * ti + rev);
      Successor& u = succ_[at_class];
      if (u.orbit) continue;
      // The canonical state is (board[0], code) or the image (board[1], mirrored code).
      const Target& tg = target_[j];
      const std::uint32_t qc = next_tag_code(t_.b, t_.rules, p, m, ti ? steps.theirs[ti - 1] : 0u, rev);
      const auto c = t_.space.canonical(tg.board[0], tg.board[1], qc);
      const int x = c.kept ? 0 : 1;
      u.index = x;
      u.orbit = c.orbit;
      u.id = tg.base[x] + tag_slot(t_.b, unpack(tg.board[x], level_.to), tg.tags[x], c.code);
      t_.reached.prefetch(u.id);
      touched_.push_back(std::uint32_t(at_class));
    }
    if constexpr (Store::kCompact) {
      if (legal > kMaxCompactMoves)
        throw GonuError("a position with more than " + std::to_string(kMaxCompactMoves) +
                        " moves: too many for the compact engine's 6-bit successor counts");
    } else {
      if (legal > 255) throw GonuError("a position with more than 255 moves: too many for the dense engine");
      t_.store.cell[id].pending.store(std::uint8_t(legal), std::memory_order_relaxed);
    }
    if (legal == 0) ends_.push_back(Terminal{at.board, id});
    edges_ += std::uint64_t(legal) * std::uint64_t(t_.space.canonical(at.board, mw, code).orbit);
  }

  // The successors worked out: the new ones claimed, their cells marked with the next level (or
  // with the compact store, listed for it) and their boards listed for it.
  void claim_successors() {
    claimed_.clear();
    for (const std::uint32_t at_class : touched_) {
      const Successor& u = succ_[at_class];
      if (!t_.reached.claim(u.id)) continue;
      if constexpr (!Store::kCompact) __builtin_prefetch(&t_.store.cell[u.id], 1);
      claimed_.push_back(at_class);
    }
    for (const std::uint32_t at_class : claimed_) {
      const Successor& u = succ_[at_class];
      const Target& tg = target_[at_class / classes_];
      if constexpr (Store::kCompact)
        next_->push_back(u.id);
      else
        t_.store.cell[u.id].dist.store(level_.next_stamp, std::memory_order_relaxed);
      if (t_.listing.first(tg.board_id[u.index], level_.next_stamp))
        out_.push_back(Listed{tg.board[u.index], tg.board_id[u.index]});
      found_ += std::uint64_t(u.orbit);
    }
  }

  TaggedRunOf<Store>& t_;
  const Level& level_;
  Boards& out_;
  std::vector<Terminal>& ends_;
  std::uint64_t &edges_, &found_;
  const std::uint64_t *states_, *states_end_;  // compact store: the level's states not yet taken
  std::vector<std::uint64_t>* next_;           // compact store: the next level's
  std::vector<Successor> succ_;  // by move and class
  std::vector<std::uint64_t> fresh_;
  std::vector<std::uint32_t> touched_, claimed_;  // indices into succ_
  int k_ = 0;               // the board's moves
  std::size_t classes_ = 0;  // classes of tags per move: theirs index, reverses mine or not
  Move moves_[kMaxMoves];
  Target target_[kMaxMoves];
  std::uint32_t back_[kMaxMoves];  // the step code each move reverses
};

// The root's canonical state, reached at level 0 (dist 1, or listed in `states`; its board
// listed under stamp 1).
template <class Store>
Boards reach_root(TaggedRunOf<Store>& t, std::vector<std::uint64_t>& states) {
  const TaggedSpace& space = t.space;
  const std::uint64_t w = pack(t.s.root);
  const auto c = space.canonical(w, space.mirror_board(w), t.root_code);
  const Position cp = unpack(c.board, t.s.root.to_move);
  const std::uint64_t bid = space.board_id(cp), id = space.base(bid) + space.slot(cp, c.code);
  t.reached.claim(id);
  if constexpr (Store::kCompact)
    states.push_back(id);
  else
    t.store.cell[id].dist.store(1, std::memory_order_relaxed);
  t.listing.first(bid, 1);
  t.states = std::uint64_t(c.orbit);
  return Boards{Listed{c.board, bid}};
}

}  // namespace

// 1. reach (canonical states; their mirror images are marked reached after it).
template <class Store>
void reach(TaggedRunOf<Store>& t) {
  Side side = t.s.root.to_move;
  std::vector<std::uint64_t> states;  // compact store: the level's states, sorted
  Boards frontier = reach_root(t, states);
  tbb::enumerable_thread_specific<Boards> next_level;  // kept across levels (gather_into)
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> next_states;
  while (!frontier.empty()) {
    if (t.s.levels + 2 > 0xffff) throw GonuError("more than 65533 breadth-first levels: too deep for this solver");
    const Level level{side, other(side), std::uint16_t(t.s.levels + 1), std::uint16_t(t.s.levels + 2)};
    tbb::enumerable_thread_specific<std::vector<Terminal>> ends;
    tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kTaggedGrain), [&](const auto& range) {
      const std::uint64_t* first = nullptr;  // the range's first board's states
      if constexpr (Store::kCompact)
        first = states.data() + (std::lower_bound(states.begin(), states.end(), t.space.base(frontier[range.begin()].id)) -
                                 states.begin());
      BoardExpander<Store> expander(t, level, next_level.local(), ends.local(), edges.local(), found.local(), first,
                                    states.data() + states.size(), &next_states.local());
      for (std::size_t i = range.begin(); i < range.end(); ++i) expander.expand(frontier[i]);
    }, tbb::simple_partitioner());
    end_level(t.s, t.states, side, frontier, t.terminal, next_level, ends, edges, found, t.options, t.need,
              t.state_bytes);
    sort_boards(frontier);
    if constexpr (Store::kCompact) {
      gather_into(next_states, states);
      tbb::parallel_sort(states.begin(), states.end());
    }
  }
}

// Marks the mirror images of the reached canonical states reached too: the read-off lists them,
// and the retrograde looks for predecessors among any board's reached slots. Each board marks
// its own slots (those of its image board's reached states, or its own reached states' images
// when it is its own image), in board-id order: no cache line is visited at random, as marking
// each image when its state was reached would. A board's bits are gathered first and written a
// word at a time.
template <class Store>
void mark_images(TaggedRunOf<Store>& t) {
  const Board& b = t.b;
  const TaggedSpace& space = t.space;
  auto& reached = t.reached;
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

template void reach(TaggedRunOf<DenseStore>&);
template void reach(TaggedRunOf<CompactStore>&);
template void mark_images(TaggedRunOf<DenseStore>&);
template void mark_images(TaggedRunOf<CompactStore>&);

}  // namespace gonu::dense
