// The distributed solve of the untagged rule sets (solve_mpi.hpp), phase by phase. The per-state
// work is the compact engine's (compact_untagged.cpp): the same space, mirror, successors,
// predecessors and cells; what differs is that every process holds only its range, so a state
// found for another range is sent to its owner instead of claimed or counted down in place.
#include "solver/julgonu/mpi/solve_mpi.hpp"

#include <sys/resource.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <iostream>

#include "core/error.hpp"
#include "core/julgonu/unmoves.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/untagged_space.hpp"
#include "solver/julgonu/mpi/checkpoint.hpp"
#include "solver/mpi/comm.hpp"
#include "solver/julgonu/mpi/range_source.hpp"
#include "solver/julgonu/mpi/steps.hpp"
#include "solver/julgonu/mpi/table_mpi.hpp"

namespace gonu::mpi {

namespace {

using namespace dense;

constexpr std::size_t kGrain = 4096;
constexpr std::uint64_t kIdChunk = std::uint64_t(1) << 16;  // ids per task of a pass over a range
// Set in a predecessor's word when the one edge it comes from stands for two (the mirror's case
// in compact_untagged.cpp: analyse); ids stay far below it.
constexpr std::uint64_t kTwoEdges = std::uint64_t(1) << 63;

// Process p owns the ids [lo(p), hi(p)): equal ranges of whole 64-id words, the last one shorter.
struct Partition {
  Partition(std::uint64_t ids, int procs)
      : n(ids), per(((ids + std::uint64_t(procs) - 1) / std::uint64_t(procs) + 63) / 64 * 64) {}
  std::uint64_t n, per;
  std::size_t owner(std::uint64_t id) const { return std::size_t(id / per); }
  std::uint64_t lo(int p) const { return std::min(n, std::uint64_t(p) * per); }
  std::uint64_t hi(int p) const { return std::min(n, std::uint64_t(p + 1) * per); }
};

// What the phases share.
struct Run {
  Comm& comm;
  const Partition& parts;
  const KeyCodec& codec;
  const Space& space;
  const SolveOptions& options;
  const MpiOptions& mpi;
  std::string signature;
  Part pt;
  std::uint64_t sent = 0;  // by every process, in all
  bool root() const { return comm.rank() == 0; }
  std::uint64_t local(std::uint64_t id) const { return id - pt.lo; }
  std::uint64_t cell(std::uint64_t w, Side side) const { return pt.bits.rank(local(space.id(unpack(w, side)))); }
};

// The steps of a run (steps.hpp).
Steps steps(Run& r) { return Steps{r.comm, r.mpi, r.signature, r.sent}; }

void end_step(Run& r, const char* phase, std::uint32_t level) {
  Steps st = steps(r);
  mpi::end_step(st, r.pt, phase, level);
}

// 1. reach, one level: this process's frontier expanded, the successors' canonical boards sent
// to their owners, and the ones this process receives claimed; the new ones are its next frontier.
void reach_level(Run& r) {
  Part& pt = r.pt;
  const Space& space = r.space;
  const Side side = pt.side, to = other(side);
  const std::size_t procs = std::size_t(r.comm.size());
  tbb::enumerable_thread_specific<Boards> ends, next;
  tbb::enumerable_thread_specific<std::uint64_t> edges(0), found(0);
  in_batches(r.comm, pt.frontier.size(), r.mpi.batch, [&](std::size_t a, std::size_t b) {
    tbb::enumerable_thread_specific<Buckets> out([&] { return Buckets(procs); });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(a, b, kGrain), [&](const auto& range) {
      Buckets& o = out.local();
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        const Position p = unpack(pt.frontier[i], side);
        const int k = lost_by_material(p) ? 0 : for_each_successor(r.codec.board, r.codec.rules, p, [&](const Position& x) {
          const std::uint64_t c = space.pair(pack(x)).canonical;
          o[r.parts.owner(space.id(unpack(c, to)))].push_back(c);
        });
        if (k > kMaxCompactMoves)
          throw GonuError("a position with more than " + std::to_string(kMaxCompactMoves) +
                          " moves: too many for the compact engine");
        if (k == 0) ends.local().push_back(pt.frontier[i]);
        edges.local() += std::uint64_t(k) * std::uint64_t(space.pair(pt.frontier[i]).orbit);
      }
    });
    Buckets send = join(out, procs, true);
    const Boards in = r.comm.exchange(send);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size(), kGrain), [&](const auto& range) {
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        if (!pt.bits.claim(r.local(space.id(unpack(in[i], to))))) continue;
        next.local().push_back(in[i]);
        found.local() += std::uint64_t(space.pair(in[i]).orbit);
      }
    });
  });
  for (const auto e : edges) pt.edges += e;
  const Boards lost = gather(ends);
  pt.terminal[int(side)].insert(pt.terminal[int(side)].end(), lost.begin(), lost.end());
  pt.frontier = gather(next);
  std::uint64_t f = 0;
  for (const auto x : found) f += x;
  pt.states += r.comm.sum(f);
  pt.side = to;
  ++pt.levels;
  if (r.options.max_states && pt.states > r.options.max_states)
    throw GonuError("more than " + std::to_string(r.options.max_states) + " states after " +
                    std::to_string(pt.levels) + " levels: over the --max-states limit");
  if (r.options.progress) r.options.progress("enumerate", pt.states, pt.states);
}

void reach(Run& r) {
  while (r.comm.sum(r.pt.frontier.size()) > 0) {
    reach_level(r);
    end_step(r, "reach", r.pt.levels);
  }
}

// visit(id, position, cell) for this process's canonical states among the ids [a, b), in order.
template <class Visit>
void for_each_canonical(const Run& r, std::uint64_t a, std::uint64_t b, Visit&& visit) {
  std::uint64_t cell = r.pt.bits.rank(r.local(a));
  r.space.walk(a, b, [&](std::uint64_t id, const Position& p) {
    if (r.pt.bits.test(r.local(id))) visit(id, p, cell++);
  });
}

// body(x, y) for the ids [a, b) in chunks, in parallel.
template <class Body>
void over_ids(std::uint64_t a, std::uint64_t b, Body&& body) {
  const std::uint64_t chunks = (b - a + kIdChunk - 1) / kIdChunk;
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    body(a + c * kIdChunk, std::min(b, a + (c + 1) * kIdChunk));
  });
}

// body(x, y) for this process's ids in chunks, in parallel.
template <class Body>
void over_range(const Run& r, Body&& body) {
  over_ids(r.pt.lo, r.pt.hi, body);
}

// 2. count: this process's cells, each canonical state's moves counted into its cell; then the
// terminal states are the retrograde's first level (losses at distance 0).
void count_successors(Run& r) {
  Part& pt = r.pt;
  pt.cells = CompactCells(pt.bits.finish());
  over_range(r, [&](std::uint64_t a, std::uint64_t b) {
    for_each_canonical(r, a, b, [&](std::uint64_t, const Position& p, std::uint64_t cell) {
      const int k = lost_by_material(p) ? 0 : for_each_successor(r.codec.board, r.codec.rules, p, [](const Position&) {});
      pt.cells.set_pending(cell, k);
    });
  });
  for (int sd = 0; sd < 2; ++sd) {
    for (const std::uint64_t w : pt.terminal[sd]) pt.cells.set_terminal_loss(r.cell(w, Side(sd)));
    pt.level[sd][1] = std::move(pt.terminal[sd]);
    pt.level[sd][0].clear();
    pt.terminal[sd].clear();
  }
  pt.frontier.clear();
  pt.stage = Stage::retrograde;
  end_step(r, "count", 0);
}

// The predecessors' words of this process's states cur[a, b) (side sd to move), by owner: each
// canonical predecessor's id, with kTwoEdges where the edge stands for two.
Buckets predecessors(const Run& r, const Boards& cur, std::size_t a, std::size_t b, Side sd) {
  const Space& space = r.space;
  const std::size_t procs = std::size_t(r.comm.size());
  tbb::enumerable_thread_specific<Buckets> out([&] { return Buckets(procs); });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(a, b, kGrain), [&](const auto& range) {
    Buckets& o = out.local();
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      const Position p = unpack(cur[i], sd);
      const bool self_image = space.orbit(p) == 1;
      for_each_unmove(r.codec.board, r.codec.rules, p, [&](const Position& before, const Move&) {
        if (!space.inside(before)) return;
        const Space::Pair pred = space.pair(pack(before));
        if (self_image && !pred.kept) return;
        const std::uint64_t pid = space.id(unpack(pred.canonical, before.to_move));
        o[r.parts.owner(pid)].push_back(pid | (!self_image && pred.orbit == 1 ? kTwoEdges : 0));
      });
    }
  });
  return join(out, procs, false);
}

// 3. retrograde, one distance: the predecessors of every state decided at d go to their owners,
// which count them down or decide them at d + 1. False when no process had a state left.
bool retrograde_level(Run& r) {
  Part& pt = r.pt;
  std::uint64_t size = 0;
  for (const auto& by_side : pt.level)
    for (const Boards& l : by_side) size += l.size();
  if (r.comm.sum(size) == 0) return false;
  if (pt.d + 1 > 0xffff) throw GonuError("a distance exceeds 65535 plies: too long for this solver's tables");
  tbb::enumerable_thread_specific<Boards> next[2][2];
  for (int sd = 0; sd < 2; ++sd)
    for (int lost = 0; lost < 2; ++lost)
      in_batches(r.comm, pt.level[sd][lost].size(), r.mpi.batch, [&](std::size_t a, std::size_t b) {
        Buckets send = predecessors(r, pt.level[sd][lost], a, b, Side(sd));
        const Boards in = r.comm.exchange(send);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size(), kGrain), [&](const auto& range) {
          for (std::size_t i = range.begin(); i < range.end(); ++i) {
            const std::uint64_t pid = in[i] & ~kTwoEdges, at = r.local(pid);
            if (!pt.bits.test(at)) continue;  // never reached
            const Value v = pt.cells.reach_predecessor(pt.bits.rank(at), lost, pt.d, in[i] & kTwoEdges ? 2 : 1);
            if (v != Value::draw) next[1 - sd][v == Value::loss].local().push_back(pack(r.space.position(pid)));
          }
        });
      });
  for (int sd = 0; sd < 2; ++sd)
    for (int lost = 0; lost < 2; ++lost) pt.level[sd][lost] = gather(next[sd][lost]);
  ++pt.d;
  return true;
}

// 4. result: the mirror images' values sent to the processes that hold the images, one word each
// (range_source.hpp's image_word); images in this process's own range are read from its cells
// and not sent. In rounds of round_ids ids of the sender's range, so that the words in flight stay
// small; each round's words received are sorted and kept as one run.
RemoteImages send_images(Run& r) {
  const Part& pt = r.pt;
  const std::size_t me = std::size_t(r.comm.rank());
  const std::uint64_t per = round_ids(r.mpi);
  return exchange_images(r.comm, r.comm.max((pt.hi - pt.lo + per - 1) / per), [&](std::uint64_t k, auto& out) {
    const std::uint64_t a = std::min(pt.hi, pt.lo + k * per), b = std::min(pt.hi, a + per);
    over_ids(a, b, [&](std::uint64_t x, std::uint64_t y) {
      Buckets& o = out.local();
      for_each_canonical(r, x, y, [&](std::uint64_t, const Position& p, std::uint64_t cell) {
        const Space::Pair q = r.space.pair(pack(p));
        if (q.orbit != 2) return;
        const std::uint64_t image = r.space.id(unpack(q.image, p.to_move));
        const std::size_t owner = r.parts.owner(image);
        if (owner == me) return;
        o[owner].push_back(image_word(image - r.parts.lo(int(owner)), value_word(pt.cells.value(cell), pt.cells.dist(cell))));
      });
    });
  });
}

// 5. read-off: this process's states read in key order straight from its bitmap, cells and the
// images received (range_source.hpp), then counted, written into the table and picked for the
// report (steps.hpp's read_off).
std::uint64_t read_off(Run& r, Solution& s) {
  RemoteImages remote = send_images(r);
  s.edges = r.comm.sum(r.pt.edges);
  s.levels = int(r.pt.levels);
  Steps st = steps(r);
  say_traffic(st, "result (the mirror images' values)");
  RankedBits reached = mark_reached(r.space, r.pt, remote);
  RangeStates mine;
  mine.count = reached.total();
  mine.states = range_source(r.codec, r.space, r.pt, std::move(reached), std::move(remote));
  return mpi::read_off(st, r.options.compact_result, std::move(mine), s);
}

// The root claimed by its owner: the first frontier.
void start(Run& r, const Position& root) {
  Part& pt = r.pt;
  const Space::Pair q = r.space.pair(pack(root));
  const std::uint64_t id = r.space.id(unpack(q.canonical, root.to_move));
  pt.bits = RankedBits(pt.hi - pt.lo);
  if (r.parts.owner(id) == std::size_t(r.comm.rank())) {
    pt.bits.claim(r.local(id));
    pt.frontier.push_back(q.canonical);
  }
  pt.side = root.to_move;
  pt.states = std::uint64_t(q.orbit);
}

}  // namespace

// The phases (above), from the start or from a restart point.
Solution solve_mpi(const Game& from, const SolveOptions& options, const MpiOptions& mpi, std::uint64_t* table_bytes) {
  if (uses_tag(from.rules)) return solve_mpi_tagged(from, options, mpi, table_bytes);
  if (from.rules.repetition != Repetition::none || from.board.n > 32)
    throw GonuError("gonu solve --mpi solves repetition none on boards of up to 32 points");
  Solution s;
  s.codec = make_key_codec(from.rules);
  s.root = current(from);
  s.root_tag = Tag{};
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  Comm comm;
  const Space space(s.codec.board, s.root);
  const Partition parts(space.size(), comm.size());
  Run r{comm, parts, s.codec, space, options, mpi, {}, {}, 0};
  r.signature = "untagged " + rules_id(from.rules) + " root " + std::to_string(s.root_key) + " processes " +
                std::to_string(comm.size());
  r.pt.lo = parts.lo(comm.rank());
  r.pt.hi = parts.hi(comm.rank());
  Steps st = steps(r);
  if (!resume(st, r.pt)) start(r, s.root);
  if (r.pt.stage == Stage::reach) {
    reach(r);
    count_successors(r);
  }
  while (retrograde_level(r)) end_step(r, "retrograde", r.pt.d);
  const std::uint64_t written = read_off(r, s);
  if (table_bytes) *table_bytes = written;
  finish(st, r.pt, s);
  return s;
}

}  // namespace gonu::mpi
