// Un-moves: the predecessors of a position in the ban-free game, so that a retrograde analysis
// can walk edges backwards without storing them.
//
// In p (side s to move) the previous mover o = other(s) stepped a piece from f to t: t holds an
// o piece in p and f, a neighbour of t, is empty in p. The step took a set C of s pieces, now
// empty points. Which C are possible follows from the capture rules (captures.hpp), applied to p
// from o's side at t ("arrival captures", the same for every f: see captures.hpp):
//   - groups: per direction from t other than back to f, the run of empty points that ends next
//     to an o piece (under `single`, a run of one point); under corner capture, each empty corner
//     next to t, not f, whose neighbours are all o's. Restoring a group recreates a capture.
//     Groups never overlap, and restoring one changes no other group's capture.
//   - line: the step captures everything it can, so if p still has something capturable at t,
//     no o piece arrived at t; otherwise every union of groups is a C.
//   - single: exactly one choice is taken when there is any, so C is one group, or nothing when
//     p has nothing capturable at t.
// So the visit is exact: visit(P, m) is called once for each pair with m in generate_moves(P),
// apply_move(P, m) == p and P not lost by material (tests/test_core_unmoves.cpp compares it with
// the forward moves of every position of small boards). Piece counts of P are not bounded here
// (restored runs can exceed the start's count): callers filter.
#pragma once
#include <type_traits>

#include "core/julgonu/captures.hpp"
#include "core/julgonu/moves.hpp"

namespace gonu {

template <class Visit>
void for_each_unmove(const Board& b, const Rules& r, const Position& p, Visit&& visit) {
  const Side s = p.to_move, o = other(s);
  const Bits theirs = pieces(p, o), mine = pieces(p, s);
  const Bits empty = b.all & ~(theirs | mine);
  if (popcount(theirs) < 2) return;  // P's mover would have been lost by material
  const bool single = r.capture == Capture::single;
  // Arrival points with an empty neighbour to have come from.
  const Bits arrivals = theirs & (shift(b, empty, 0) | shift(b, empty, 1) | shift(b, empty, 2) | shift(b, empty, 3));
  const Bits capture_points = arrival_capture_points(b, theirs, mine, single);
  // The arrival points with a group in some direction, all at once: a group is a capture with
  // the empty points as the opponent's, so the same bulk test finds them (runs as long as
  // line_run finds: a run and its closing piece fit between t and the edge).
  const Bits group_points = arrival_capture_points(b, theirs, empty, single);
  // Those plain arrivals (no group, nothing capturable, no corner capture: a step from each empty
  // neighbour that took nothing) a direction at a time, as bit pairs: the piece stepped in
  // direction d from f, empty now, to t.
  const Bits plain = single || r.corner ? 0 : arrivals & ~capture_points & ~group_points;
  if (plain)
    for_each_direction([&]<int kDir>(std::integral_constant<int, kDir>) {
      for_each_step<kDir>(b, shift(b, plain & shift(b, empty, kDir), kDir ^ 2), [&](Bits step, Bits to) {
        const Bits theirs_before = theirs ^ step;
        visit(Position{s == Side::black ? mine : theirs_before, s == Side::black ? theirs_before : mine, o},
              Move{std::int8_t(lowest(step ^ to)), std::int8_t(lowest(to)), 0});
      });
    });
  auto step_back = [&](int t, int f, Bits taken) {
    const Bits theirs_before = theirs ^ bit(t) ^ bit(f), mine_before = mine | taken;
    const Position before{s == Side::black ? mine_before : theirs_before, s == Side::black ? theirs_before : mine_before,
                          o};
    visit(before, Move{std::int8_t(f), std::int8_t(t), taken});
  };
  for (Bits ts = arrivals & ~plain; ts; ts &= ts - 1) {
    const int t = lowest(ts);
    Bits capturable = capture_points & bit(t);
    if (r.corner) capturable |= corner_arrival(b, t, theirs, mine);
    if (capturable && !single) continue;
    // Corners that a step to t could have taken, then: with no group at all (group_points, found
    // in bulk above), each empty neighbour gives one step that took nothing.
    Bits corners = 0;
    if (r.corner)
      for (Bits c = b.adjacent[t] & b.corners & empty; c; c &= c - 1) {
        const int sq = lowest(c);
        if ((b.adjacent[sq] & theirs) == b.adjacent[sq]) corners |= bit(sq);
      }
    if (!(group_points & bit(t)) && !corners) {
      if (!capturable)
        for (Bits fs = b.adjacent[t] & empty; fs; fs &= fs - 1) step_back(t, lowest(fs), 0);
      continue;
    }
    // Groups by direction (the one back to f is dropped per f below), then corners. A group is
    // what a capture would take if the empty points were the opponent's: the same run functions.
    const Bits run_of[4] = {
        single ? single_run<0>(b, t, theirs, empty) : line_run<0>(b, t, theirs, empty),
        single ? single_run<1>(b, t, theirs, empty) : line_run<1>(b, t, theirs, empty),
        single ? single_run<2>(b, t, theirs, empty) : line_run<2>(b, t, theirs, empty),
        single ? single_run<3>(b, t, theirs, empty) : line_run<3>(b, t, theirs, empty)};
    auto emit = [&](int f, Bits taken) { step_back(t, f, taken); };
    for (int back = 0; back < 4; ++back) {
      const int f = b.step[t][back];
      if (f < 0 || !(empty & bit(f))) continue;
      Bits groups[6];
      int ngroups = 0;
      for (int d = 0; d < 4; ++d)
        if (d != back && run_of[d]) groups[ngroups++] = run_of[d];
      for (Bits c = corners & ~bit(f); c; c &= c - 1) groups[ngroups++] = bit(lowest(c));
      if (single) {
        if (!capturable) emit(f, 0);
        for (int g = 0; g < ngroups; ++g) emit(f, groups[g]);
      } else {
        for (int mask = 0; mask < (1 << ngroups); ++mask) {
          Bits taken = 0;
          for (int g = 0; g < ngroups; ++g)
            if (mask >> g & 1) taken |= groups[g];
          emit(f, taken);
        }
      }
    }
  }
}

}  // namespace gonu
