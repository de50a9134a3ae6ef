// The tagged dense engine's retrograde analysis (tagged_space.hpp): level-synchronous; a listed
// board's states decided at distance d are its decided cells with that distance (written before
// the value: parts.hpp, Cell). The predecessors of (S, tS) are the board un-moves (P, m) of S,
// each with the tags tP of P under which m is legal and leads to tS. tP.theirs becomes tS.mine
// (when tS keeps one), so only mine and ban are searched; each candidate that was reached is
// checked with the forward rules (tag_bans, next_tag), so every edge is counted exactly once.
// Mirror images are counted as in the untagged engine: an un-move from a non-canonical P is
// skipped when S is its own image, and one from a P that is its own image (S not) stands for
// two edges. The cells are the store's (tagged_space.hpp): by id, or by rank.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/julgonu/unmoves.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"
#include "solver/julgonu/dense/tagged_unmove.hpp"

namespace gonu::dense {

namespace {

// A state of the board decided at the level's distance.
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

// Analyses a chunk of a level's boards (one side's, at distance d), one at a time: the board's
// decided states, grouped by theirs; its un-moves; for each, the reached predecessor states whose
// move leads to a decided one; then their cells updated. Holds a thread's scratch and outputs.
template <class Store>
class BoardAnalyser {
 public:
  BoardAnalyser(TaggedRunOf<Store>& t, std::uint32_t d, Side side, Boards& out, std::uint64_t& count)
      : t_(t), d_(d), side_(side), out_(out), count_(count) {}
  void analyse(const Listed& at) {
    const Position sp = unpack(at.board, side_);
    const BoardSteps steps(t_.b, sp);
    decided_states(at, steps);
    group_by_theirs(steps);
    list_unmoves(sp, steps);
    updates_.clear();
    for (const Unmove& um : unmoves_) predecessor_updates(um);
    for (const Update& u : updates_)
      if (t_.store.decide(u.id, u.lost, d_, u.edges) != Value::draw && t_.listing.first(u.board_id, d_ + 2))
        out_.push_back(Listed{u.board, u.board_id});
  }

 private:
  // The board's states decided at distance d, counted (mirror images too) in count_.
  void decided_states(const Listed& at, const BoardSteps& steps) {
    const std::uint64_t base = t_.space.base(at.id), mw = t_.space.mirror_board(at.board);
    found_.clear();
    t_.store.for_each_state(base, t_.space.base(at.id + 1), [&](std::uint64_t id, std::uint64_t cell) {
      const Value v = t_.store.value(cell);
      if (v == Value::draw || t_.store.dist(cell) != d_) return;
      const std::uint32_t slot = std::uint32_t(id - base), code = steps.code(slot);
      const int orbit = t_.space.canonical(at.board, mw, code).orbit;
      found_.push_back(Decided{code, steps.theirs_index(slot), v == Value::loss, orbit == 1});
      count_ += std::uint64_t(orbit);
    });
  }

  // The decided states grouped by theirs: an un-move leads only to those whose theirs is its step
  // (or, for a capture under immediate, to the empty tag). by_theirs_[bucket_[ti], bucket_[ti +
  // 1]) hold theirs index ti.
  void group_by_theirs(const BoardSteps& steps) {
    bucket_.assign(steps.c + 2, 0);
    for (const Decided& x : found_) ++bucket_[x.theirs_index + 1];
    for (std::uint32_t ti = 0; ti <= steps.c; ++ti) bucket_[ti + 1] += bucket_[ti];
    by_theirs_.resize(found_.size());
    for (const Decided& x : found_) by_theirs_[bucket_[x.theirs_index]++] = x;
    for (std::uint32_t ti = steps.c + 1; ti > 0; --ti) bucket_[ti] = bucket_[ti - 1];
    bucket_[0] = 0;
  }

  // The un-moves that lead to some decided state, their boards' slot bases prefetched, then
  // their reached bits, so that those misses overlap instead of coming one after another.
  void list_unmoves(const Position& sp, const BoardSteps& steps) {
    unmoves_.clear();
    for_each_unmove(t_.b, t_.rules, sp, [&](const Position& before, const Move& m) {
      if (!t_.space.inside(before)) return;
      const std::uint32_t ti = t_.immediate && m.captured
                                   ? 0u
                                   : 1u + std::uint32_t(std::find(steps.theirs, steps.theirs + steps.c, step_code(t_.b, m.from, m.to)) - steps.theirs);
      if (bucket_[ti] == bucket_[ti + 1]) return;
      unmoves_.push_back(Unmove{before, m, t_.space.board_id(before), 0, ti});
      t_.space.prefetch_base(unmoves_.back().board_id);
    });
    for (Unmove& um : unmoves_) {
      um.base = t_.space.base(um.board_id);
      t_.reached.prefetch(um.base);
      t_.reached.prefetch(t_.space.base(um.board_id + 1) - 1);
    }
  }

  // The updates of one un-move: for each decided state x it may lead to, the reached states of
  // P whose move m leads to x.
  void predecessor_updates(const Unmove& um) {
    Predecessor<Store> p(t_, um.before, um.m, um.board_id, um.base);
    const BoardSteps& ps = p.ps;
    for (std::uint32_t xi = bucket_[um.theirs_index]; xi < bucket_[um.theirs_index + 1]; ++xi) {
      const Decided& x = by_theirs_[xi];
      for_each_predecessor_state(t_, p, x.code, [&](std::uint64_t pid, std::uint32_t mi, std::uint32_t ti, std::uint32_t ban) {
        Update u;
        if (!p.update(t_, pid, ps.code(mi, ti, ban), x.self_image, x.lost, u)) return;
        t_.store.prefetch_cell(u.id);
        updates_.push_back(u);
      });
    }
  }

  TaggedRunOf<Store>& t_;
  const std::uint32_t d_;
  const Side side_;
  Boards& out_;
  std::uint64_t& count_;
  std::vector<Decided> found_, by_theirs_;
  std::vector<std::uint32_t> bucket_;
  std::vector<Unmove> unmoves_;
  std::vector<Update> updates_;
};

// The terminal states are losses at distance 0 (their dist held the reach level); their boards
// make the first level, listed under stamp 1.
template <class Store>
void first_level(TaggedRunOf<Store>& t, Boards (&levels)[2]) {
  for (int sd = 0; sd < 2; ++sd)
    for (const Terminal& e : t.terminal[sd]) {
      t.store.set_terminal_loss(t.store.index(e.id));
      const std::uint64_t bid = t.space.board_id(unpack(e.board, Side(sd)));
      if (t.listing.first(bid, 1)) levels[sd].push_back(Listed{e.board, bid});
    }
  for (auto& list : t.terminal) std::vector<Terminal>().swap(list);
  for (auto& list : levels) sort_boards(list);
}

}  // namespace

// 2. retrograde; levels[side] lists the boards with states decided at distance d, under stamp
// d + 1.
template <class Store>
void retrograde(TaggedRunOf<Store>& t) {
  t.listing.clear();
  Boards levels[2];
  first_level(t, levels);
  std::uint64_t decided = 0;
  tbb::enumerable_thread_specific<Boards> next[2];  // kept across levels (gather_into)
  for (std::uint32_t d = 0; !levels[0].empty() || !levels[1].empty(); ++d) {
    if (d + 2 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
    tbb::enumerable_thread_specific<std::uint64_t> settled(0);
    for (int sd = 0; sd < 2; ++sd) {
      const Boards& cur = levels[sd];
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cur.size(), kTaggedGrain), [&](const auto& range) {
        BoardAnalyser<Store> analyser(t, d, Side(sd), next[1 - sd].local(), settled.local());
        for (std::size_t i = range.begin(); i < range.end(); ++i) analyser.analyse(cur[i]);
      }, tbb::simple_partitioner());
    }
    for (int sd = 0; sd < 2; ++sd) {
      gather_into(next[sd], levels[sd]);
      sort_boards(levels[sd]);
    }
    for (const auto c : settled) decided += c;
    if (t.options.progress) t.options.progress("retrograde", decided, t.states);
  }
}

template void retrograde(TaggedRunOf<DenseStore>&);
template void retrograde(TaggedRunOf<CompactStore>&);

}  // namespace gonu::dense
