// The distributed solve of the tagged rule sets (repetition immediate, undo): the compact tagged
// engine (solver/julgonu/dense/compact_tagged.cpp) over processes that each own a range of board ids and
// every tag slot of those boards, the slots [base(first board), base(end board)) of the tagged
// space (tagged_space.hpp), with RankedBits and CompactCells for those slots only (part.hpp).
// Every process builds the whole table of slot bases (8 bytes a board id), to turn any state
// into its id. The ranges are cut where the slots, not the boards, split evenly.
//   reach:       each process expands its frontier (its states' ids, sorted) a board at a time;
//                each successor's canonical id goes to the owner of its board, which claims it.
//                Then each process marks the mirror images on its boards that are their own
//                image (the retrograde reads those slots); other images are never marked.
//   count:       each process counts its states' legal moves (tagged_count.hpp).
//   retrograde:  each process lists its boards' states decided at distance d and their board
//                un-moves (P, m); each (P, m, decided tag) goes to the owner of P, which counts
//                down or decides the reached states of P that m leads to the decided one
//                (tagged_unmove.hpp). An un-move from a board that is not canonical is sent as
//                its mirror image, from the canonical board, whose owner holds the cells.
//   result:      each process sends the mirror images of its canonical boards' states to the
//                owners of the image boards, when another process has them; each process then
//                reads its boards' states in key order from its cells and the images received
//                (tagged_source.hpp), as the untagged engine does (table_mpi.hpp): counts summed,
//                the table written in parts, the report's states sent to process 0.
// A restart point per level, as in the untagged engine (steps.hpp): a Part's frontier holds
// state ids, its terminal lists state ids, and level[side][0] the board ids listed for the
// retrograde's next distance.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <optional>

#include "core/error.hpp"
#include "core/julgonu/unmoves.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/tagged_count.hpp"
#include "solver/julgonu/dense/tagged_read.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"
#include "solver/julgonu/dense/tagged_unmove.hpp"
#include "solver/julgonu/mpi/range_bits.hpp"
#include "solver/julgonu/mpi/solve_mpi.hpp"
#include "solver/julgonu/mpi/steps.hpp"
#include "solver/julgonu/mpi/tagged_source.hpp"

namespace gonu::mpi {

namespace {

using dense::BoardSteps;
using dense::CompactCells;
using dense::RankedBits;
using dense::TaggedSpace;

constexpr std::size_t kGrain = 1024;            // frontier states per task
constexpr std::size_t kBoardGrain = 64;         // listed boards per task of the retrograde
constexpr std::uint64_t kBoardChunk = 1 << 12;  // boards per task of the passes over a range
constexpr std::uint64_t kPair = std::uint64_t(1) << 63;  // a reach word: the state stands for two

// The compact store of one process's range: its bits seen through RangeBits, its cells the Part's.
using RangeStore = dense::CompactStoreOf<RangeBits, CompactCells&>;

using TaggedRun = dense::TaggedRunOf<RangeStore>;

// Process p owns the board ids [first[p], first[p + 1]), cut where the slots split evenly.
struct BoardRanges {
  BoardRanges(const TaggedSpace& space, int procs) : first(std::size_t(procs) + 1, space.board_ids()) {
    const std::uint64_t per = (space.size() + std::uint64_t(procs) - 1) / std::uint64_t(procs);
    first[0] = 0;
    for (int p = 1; p < procs; ++p) {
      const std::uint64_t id = std::uint64_t(p) * per;
      first[std::size_t(p)] = id >= space.size() ? space.board_ids() : space.board_of(id);
    }
  }
  std::size_t owner(std::uint64_t board_id) const {
    return std::size_t(std::upper_bound(first.begin(), first.end(), board_id) - first.begin()) - 1;
  }
  std::vector<std::uint64_t> first;
};

// What the phases share.
struct Run {
  Run(Comm& c, const MpiOptions& m, Solution& s, const SolveOptions& options, const TaggedSpace& sp,
      std::uint32_t root_code)
      : comm(c), mpi(m), space(sp), parts(sp, c.size()), board_lo(parts.first[std::size_t(c.rank())]),
        board_hi(parts.first[std::size_t(c.rank()) + 1]), store(RangeBits(pt.bits, sp.base(board_lo)), pt.cells),
        t(s, options, sp, store, root_code, 0) {
    pt.lo = sp.base(board_lo);
    pt.hi = sp.base(board_hi);
  }
  Comm& comm;
  const MpiOptions& mpi;
  std::string signature;
  std::uint64_t sent = 0;  // by every process, in all
  const TaggedSpace& space;
  BoardRanges parts;
  std::uint64_t board_lo, board_hi;  // this process's boards
  Part pt;
  RangeStore store;
  TaggedRun t;
  bool root() const { return comm.rank() == 0; }
  Steps steps() { return Steps{comm, mpi, signature, sent}; }
  std::size_t procs() const { return std::size_t(comm.size()); }
};

// body(x, y) for the boards [a, b) in chunks, in parallel.
template <class Body>
void over_boards(std::uint64_t a, std::uint64_t b, Body&& body) {
  const std::uint64_t chunks = (b - a + kBoardChunk - 1) / kBoardChunk;
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    body(a + c * kBoardChunk, std::min(b, a + (c + 1) * kBoardChunk));
  });
}

// body(x, y) for this process's boards in chunks, in parallel.
template <class Body>
void over_boards(const Run& r, Body&& body) {
  over_boards(r.board_lo, r.board_hi, body);
}

// Where a move leads: its board and the board's mirror image, with their ids, slot bases and tag
// spaces, shared by every state of the board.
struct Aim {
  Aim(const TaggedSpace& space, const Board& b, std::uint64_t w, Side to) {
    board[0] = w;
    board[1] = space.mirror_board(w);
    for (int x = 0; x < 2; ++x) {
      const Position q = dense::unpack(board[x], to);
      board_id[x] = space.board_id(q);
      base[x] = space.base(board_id[x]);
      tags[x] = tag_space(b, q);
    }
  }
  std::uint64_t board[2], board_id[2], base[2];
  TagSpace tags[2];
};

// The successors of one board's frontier states ids[0, n): each one's canonical id, with kPair
// when it stands for two, in the bucket of its board's owner; the states with no legal move in
// `ends`, the moves counted in `edges` (mirror images counted).
void expand_board(const Run& r, std::uint64_t bid, const std::uint64_t* ids, std::size_t n, Buckets& out,
                  Boards& ends, std::uint64_t& edges) {
  const TaggedRun& t = r.t;
  const TaggedSpace& space = r.space;
  const Position p = space.board(bid);
  const Side to = other(p.to_move);
  const std::uint64_t w = dense::pack(p), mw = space.mirror_board(w), base = space.base(bid);
  const BoardSteps steps(t.b, p);
  Move moves[kMaxMoves];
  std::uint32_t back[kMaxMoves];  // the step code each move reverses
  std::vector<Aim> aims;
  const int k = lost_by_material(p) ? 0 : generate_moves_any_order(t.b, t.rules, p, moves);
  for (int j = 0; j < k; ++j) {
    back[j] = step_code(t.b, moves[j].to, moves[j].from);
    aims.emplace_back(space, t.b, dense::pack(apply_move(p, moves[j])), to);
  }
  // The successor depends on the tag only through theirs and whether the move reverses mine (as
  // in tagged_reach.cpp): each (move, class) is sent once per board.
  const std::size_t classes = 2 * (std::size_t(steps.c) + 1);
  std::vector<bool> sent(std::size_t(k) * classes);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t slot = std::uint32_t(ids[i] - base), code = steps.code(slot), mine = code & 511u;
    const std::uint32_t ti = steps.theirs_index(slot);
    int legal = 0;
    for (int j = 0; j < k; ++j) {
      const bool rev = mine && back[j] == mine;
      if (dense::tag_forbids(t.undo, rev, code >> 18, moves[j])) continue;
      ++legal;
      const std::size_t at_class = std::size_t(j) * classes + (t.immediate && moves[j].captured ? 0 : 2 * ti + rev);
      if (sent[at_class]) continue;
      sent[at_class] = true;
      const Aim& a = aims[std::size_t(j)];
      const std::uint32_t qc = next_tag_code(t.b, t.rules, p, moves[j], ti ? steps.theirs[ti - 1] : 0u, rev);
      const auto c = space.canonical(a.board[0], a.board[1], qc);
      const int x = c.kept ? 0 : 1;
      const std::uint64_t sid = a.base[x] + tag_slot(t.b, dense::unpack(a.board[x], to), a.tags[x], c.code);
      out[r.parts.owner(a.board_id[x])].push_back(sid | (c.orbit == 2 ? kPair : 0));
    }
    if (legal > dense::kMaxCompactMoves)
      throw GonuError("a position with more than " + std::to_string(dense::kMaxCompactMoves) +
                      " moves: too many for the compact engine's 6-bit successor counts");
    if (legal == 0) ends.push_back(ids[i]);
    edges += std::uint64_t(legal) * std::uint64_t(space.canonical(w, mw, code).orbit);
  }
}

// 1. reach, one level: this process's frontier expanded a board at a time, the successors sent to
// their owners, and the ones this process receives claimed; the new ones are its next frontier.
void reach_level(Run& r) {
  Part& pt = r.pt;
  const TaggedSpace& space = r.space;
  tbb::enumerable_thread_specific<Boards> ends, next;
  tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
  // A board's states cut by a batch's end are expanded in both batches: its successors may be
  // sent twice, and the claims keep one.
  in_batches(r.comm, pt.frontier.size(), r.mpi.batch, [&](std::size_t a, std::size_t b) {
    tbb::enumerable_thread_specific<Buckets> out([&] { return Buckets(r.procs()); });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(a, b, kGrain), [&](const auto& range) {
      for (std::size_t i = range.begin(), j = i; i < range.end(); i = j) {
        const std::uint64_t bid = space.board_of(pt.frontier[i]), end = space.base(bid + 1);
        while (j < range.end() && pt.frontier[j] < end) ++j;
        expand_board(r, bid, pt.frontier.data() + i, j - i, out.local(), ends.local(), edges.local());
      }
    });
    Buckets send = join(out, r.procs(), true);
    const Boards in = r.comm.exchange(send);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size(), kGrain), [&](const auto& range) {
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        const std::uint64_t id = in[i] & ~kPair;
        if (!r.store.reached.claim(id)) continue;
        next.local().push_back(id);
        found.local() += in[i] & kPair ? 2 : 1;
      }
    });
  });
  for (const auto e : edges) pt.edges += e;
  const Boards lost = dense::gather(ends);
  pt.terminal[int(pt.side)].insert(pt.terminal[int(pt.side)].end(), lost.begin(), lost.end());
  pt.frontier = dense::gather(next);
  tbb::parallel_sort(pt.frontier.begin(), pt.frontier.end());
  std::uint64_t f = 0;
  for (const auto x : found) f += x;
  pt.states += r.comm.sum(f);
  pt.side = other(pt.side);
  ++pt.levels;
  if (r.t.options.max_states && pt.states > r.t.options.max_states)
    throw GonuError("more than " + std::to_string(r.t.options.max_states) + " states after " +
                    std::to_string(pt.levels) + " levels: over the --max-states limit");
  if (r.t.options.progress) r.t.options.progress("enumerate", pt.states, pt.states);
}

// The mirror images of the reached states on this process's boards that are their own image
// (their other slots of a pair), marked reached: the retrograde looks for predecessors among them.
void mark_self_images(Run& r) {
  if (!r.space.mirroring()) return;
  over_boards(r, [&](std::uint64_t a, std::uint64_t b) {
    std::vector<std::uint64_t> images;
    r.space.walk(a, b, [&](std::uint64_t bid, const Position& p) {
      const std::uint64_t w = dense::pack(p), base = r.space.base(bid);
      if (r.space.mirror_board(w) != w || !r.store.any_reached(base, r.space.base(bid + 1))) return;
      const BoardSteps steps(r.t.b, p);
      const dense::SlotMirror to_p(r.t.b, r.space, steps, p);
      images.clear();
      r.store.reached.for_each(base, r.space.base(bid + 1), [&](std::uint64_t id) {
        std::uint32_t mi, ti, ban;
        steps.split(std::uint32_t(id - base), mi, ti, ban);
        images.push_back(base + to_p(mi, ti, ban));
      });
      for (const std::uint64_t id : images) r.store.reached.claim(id);
    });
  });
}

// 2. count: the cells of this process's reached states, each canonical one's legal moves counted;
// then the terminal states are the retrograde's first level (losses at distance 0).
void count_moves(Run& r) {
  Part& pt = r.pt;
  mark_self_images(r);
  pt.cells = CompactCells(pt.bits.finish());
  dense::count_successors(r.t, r.board_lo, r.board_hi);
  for (int sd = 0; sd < 2; ++sd) {
    Boards& listed = pt.level[sd][0];
    listed.clear();
    for (const std::uint64_t id : pt.terminal[sd]) {
      r.store.set_terminal_loss(r.store.index(id));
      const std::uint64_t bid = r.space.board_of(id);
      if (r.t.listing.first(bid, 1)) listed.push_back(bid);
    }
    std::sort(listed.begin(), listed.end());
    pt.level[sd][1].clear();
    Boards().swap(pt.terminal[sd]);
  }
  Boards().swap(pt.frontier);
  pt.stage = Stage::retrograde;
  Steps st = r.steps();
  end_step(st, pt, "count", 0);
}

// A retrograde message: an un-move's board P (packed) and this word: m's captures (bits 0-31),
// from (32-36), to (37-41), the decided state's tag code (42-60), lost (61), its own image (62).
std::uint64_t unmove_word(const Move& m, std::uint32_t code, bool lost, bool self_image) {
  return std::uint64_t(m.captured) | std::uint64_t(m.from) << 32 | std::uint64_t(m.to) << 37 |
         std::uint64_t(code) << 42 | std::uint64_t(lost) << 61 | std::uint64_t(self_image) << 62;
}

// The mirror image of an un-move (P, m): each point to its image in the same rank.
Move mirror_move(const Board& b, const TaggedSpace& space, const Move& m) {
  const auto image = [&](int x) { return std::int8_t(x - x % b.cols + (b.cols - 1 - x % b.cols)); };
  return Move{image(m.from), image(m.to), space.mirror_board(m.captured) & 0xffffffffu};
}

// A state of a listed board decided at the level's distance.
struct Decided {
  std::uint32_t code, theirs_index;
  bool lost, self_image;
};

// The messages of one listed board (side sd): for each un-move (P, m) and each decided state it
// may lead to (m's step is that state's theirs, or m is a capture under immediate and the tag
// empty), P and the word, to P's owner; from P's canonical image when P is not canonical.
void board_messages(const Run& r, std::uint64_t bid, std::uint32_t d, std::vector<Decided>& found, Buckets& out) {
  const TaggedRun& t = r.t;
  const TaggedSpace& space = r.space;
  const Position sp = space.board(bid);
  const std::uint64_t base = space.base(bid), w = dense::pack(sp), mw = space.mirror_board(w);
  const BoardSteps steps(t.b, sp);
  found.clear();
  r.store.for_each_state(base, space.base(bid + 1), [&](std::uint64_t id, std::uint64_t cell) {
    const Value v = r.store.value(cell);
    if (v == Value::draw || r.store.dist(cell) != d) return;
    const std::uint32_t slot = std::uint32_t(id - base), code = steps.code(slot);
    found.push_back(Decided{code, steps.theirs_index(slot), v == Value::loss, space.canonical(w, mw, code).orbit == 1});
  });
  if (found.empty()) return;
  for_each_unmove(t.b, t.rules, sp, [&](const Position& before, const Move& m) {
    if (!space.inside(before)) return;
    const std::uint32_t ti = t.immediate && m.captured
                                 ? 0u
                                 : 1u + std::uint32_t(std::find(steps.theirs, steps.theirs + steps.c, step_code(t.b, m.from, m.to)) - steps.theirs);
    const std::uint64_t pw = dense::pack(before), pmw = space.mirror_board(pw);
    const bool flip = pw > pmw;
    const Move pm = flip ? mirror_move(t.b, space, m) : m;
    const std::uint64_t to_board = flip ? pmw : pw;
    const std::size_t owner = r.parts.owner(space.board_id(dense::unpack(to_board, before.to_move)));
    for (const Decided& x : found) {
      if (x.theirs_index != ti || (flip && x.self_image)) continue;  // no edge counted from an image into a self-image
      out[owner].push_back(to_board);
      out[owner].push_back(unmove_word(pm, flip ? space.mirror_tag(x.code) : x.code, x.lost, x.self_image));
    }
  });
}

// The messages this process receives for side sd's un-moves: each one's reached predecessor
// states counted down or decided at d + 1; the boards of those decided listed in `next`.
void apply_messages(Run& r, const Boards& in, Side sd, tbb::enumerable_thread_specific<Boards>& next) {
  const std::uint32_t d = r.pt.d;
  TaggedRun& t = r.t;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size() / 2, kGrain), [&](const auto& range) {
    // A board's messages for one un-move come one after another: they share its Predecessor.
    Position before;
    Move m{};
    std::optional<dense::Predecessor<RangeStore>> pred;
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      const std::uint64_t word = in[2 * i + 1], unmove = word & ((std::uint64_t(1) << 42) - 1);
      if (!pred || in[2 * i] != in[2 * i - 2] || unmove != (in[2 * i - 1] & ((std::uint64_t(1) << 42) - 1))) {
        before = dense::unpack(in[2 * i], other(sd));
        m = Move{std::int8_t((word >> 32) & 31u), std::int8_t((word >> 37) & 31u), word & 0xffffffffu};
        const std::uint64_t bid = r.space.board_id(before);
        pred.emplace(t, before, m, bid, r.space.base(bid));
      }
      const std::uint32_t code = std::uint32_t((word >> 42) & 0x7ffffu);
      const bool lost = (word >> 61) & 1u, self_image = (word >> 62) & 1u;
      dense::Predecessor<RangeStore>& p = *pred;
      dense::for_each_predecessor_state(t, p, code, [&](std::uint64_t pid, std::uint32_t mi, std::uint32_t ti, std::uint32_t ban) {
        dense::Update u;
        if (!p.update(t, pid, p.ps.code(mi, ti, ban), self_image, lost, u)) return;
        if (r.store.decide(u.id, u.lost, d, u.edges) != Value::draw && t.listing.first(u.board_id, d + 2))
          next.local().push_back(u.board_id);
      });
    }
  });
}

// 3. retrograde, one distance: for each side, the listed boards' messages exchanged and applied.
// False when no process had a board left.
bool retrograde_level(Run& r) {
  Part& pt = r.pt;
  if (r.comm.sum(pt.level[0][0].size() + pt.level[1][0].size()) == 0) return false;
  if (pt.d + 2 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
  tbb::enumerable_thread_specific<Boards> next[2];
  for (int sd = 0; sd < 2; ++sd) {
    const Boards& listed = pt.level[sd][0];
    tbb::enumerable_thread_specific<std::vector<Decided>> found;
    // In batches of listed boards: a batch decides states at d + 1 only, which the later batches'
    // board_messages (states at d) do not read.
    in_batches(r.comm, listed.size(), board_batch(r.mpi), [&](std::size_t a, std::size_t b) {
      tbb::enumerable_thread_specific<Buckets> out([&] { return Buckets(r.procs()); });
      tbb::parallel_for(tbb::blocked_range<std::size_t>(a, b, kBoardGrain), [&](const auto& range) {
        for (std::size_t i = range.begin(); i < range.end(); ++i)
          board_messages(r, listed[i], pt.d, found.local(), out.local());
      });
      Buckets send = join(out, r.procs(), false);
      apply_messages(r, r.comm.exchange(send), Side(sd), next[1 - sd]);
    });
  }
  for (int sd = 0; sd < 2; ++sd) {
    pt.level[sd][0] = dense::gather(next[sd]);
    tbb::parallel_sort(pt.level[sd][0].begin(), pt.level[sd][0].end());
  }
  ++pt.d;
  return true;
}

// 4. result: the mirror images of this process's canonical boards' states sent, with their
// values, to the processes that hold the image boards, one word each (range_source.hpp's
// image_word, the offset from the receiver's first slot); images on this process's own boards are
// read from its cells and not sent. In rounds of boards of about round_ids slots, so that the
// words in flight stay small; each round's words received are sorted and kept as one run.
RemoteImages send_images(Run& r, const TaggedRange& range) {
  const TaggedSpace& space = r.space;
  const std::uint64_t slots = round_ids(r.mpi), rounds = r.comm.max((r.pt.hi - r.pt.lo + slots - 1) / slots);
  const std::uint64_t per = (r.board_hi - r.board_lo + rounds - 1) / std::max<std::uint64_t>(rounds, 1);
  return exchange_images(r.comm, rounds, [&](std::uint64_t k, auto& out) {
    const std::uint64_t a = std::min(r.board_hi, r.board_lo + k * per), b = std::min(r.board_hi, a + per);
    over_boards(a, b, [&](std::uint64_t x, std::uint64_t y) {
      Buckets& o = out.local();
      space.walk(x, y, [&](std::uint64_t bid, const Position& p) {
        const std::uint64_t w = dense::pack(p), mw = space.mirror_board(w);
        if (w >= mw) return;
        const std::size_t owner = r.parts.owner(space.board_id(dense::unpack(mw, p.to_move)));
        if (owner == std::size_t(r.comm.rank())) return;
        const std::uint64_t lo = space.base(r.parts.first[owner]);
        for_each_image(range, bid, p, [&](std::uint64_t id, std::uint64_t vd) { o[owner].push_back(image_word(id - lo, vd)); });
      });
    });
  });
}

// 5. read-off: this process's states read in key order straight from its bits, cells and the
// images received (tagged_source.hpp), then counted, written into the table and picked for the
// report (steps.hpp's read_off).
std::uint64_t read_off(Run& r, Solution& s) {
  const TaggedRange range{r.t.s.codec, r.space, r.pt, r.board_lo, r.board_hi};
  RemoteImages remote = send_images(r, range);
  s.edges = r.comm.sum(r.pt.edges);
  s.levels = int(r.pt.levels);
  Steps st = r.steps();
  say_traffic(st, "result (the mirror images' values)");
  RankedBits reached = mark_tagged_reached(range, remote);
  RangeStates mine;
  mine.count = reached.total();
  mine.states = tagged_range_source(range, std::move(reached), std::move(remote));
  return mpi::read_off(st, r.t.options.compact_result, std::move(mine), s);
}

// The root's canonical state claimed by its owner: the first frontier.
void start(Run& r) {
  Part& pt = r.pt;
  const TaggedSpace& space = r.space;
  const Position& root = r.t.s.root;
  const std::uint64_t w = dense::pack(root);
  const auto c = space.canonical(w, space.mirror_board(w), r.t.root_code);
  const Position cp = dense::unpack(c.board, root.to_move);
  const std::uint64_t bid = space.board_id(cp), id = space.base(bid) + space.slot(cp, c.code);
  pt.bits = RankedBits(pt.hi - pt.lo);
  if (r.parts.owner(bid) == std::size_t(r.comm.rank())) {
    r.store.reached.claim(id);
    pt.frontier.push_back(id);
  }
  pt.side = root.to_move;
  pt.states = std::uint64_t(c.orbit);
}

}  // namespace

// The phases (above), from the start or from a restart point.
Solution solve_mpi_tagged(const Game& from, const SolveOptions& options, const MpiOptions& mpi,
                          std::uint64_t* table_bytes) {
  Solution s;
  s.codec = make_key_codec(from.rules);
  if (!s.codec.tagged || !dense_engine_applies(from.rules) || from.board.n > 32)
    throw GonuError("gonu solve --mpi solves the tagged rule sets (repetition immediate, undo) on up to 27 points");
  s.root = current(from);
  s.root_tag = from.tag;
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const std::uint32_t root_code = pack_tag(s.codec.board, s.root_tag);
  Comm comm;
  TaggedSpace space(s.codec.board, s.root, root_code);
  space.index_slots();
  Run r(comm, mpi, s, options, space, root_code);
  r.signature = "tagged " + rules_id(from.rules) + " root " + std::to_string(s.root_key) + " processes " +
                std::to_string(comm.size());
  Steps st = r.steps();
  if (!resume(st, r.pt)) start(r);
  if (r.pt.stage == Stage::reach) {
    while (comm.sum(r.pt.frontier.size()) > 0) {
      reach_level(r);
      end_step(st, r.pt, "reach", r.pt.levels);
    }
    count_moves(r);
  }
  while (retrograde_level(r)) end_step(st, r.pt, "retrograde", r.pt.d);
  const std::uint64_t written = read_off(r, s);
  if (table_bytes) *table_bytes = written;
  finish(st, r.pt, s);
  return s;
}

}  // namespace gonu::mpi
