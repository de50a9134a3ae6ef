// Un-moves: the predecessors of a position in the ban-free game, so that a retrograde analysis
// can walk edges backwards without storing them.
//
// In p (side s to move) the previous mover o = other(s) stepped a piece from f to t: t holds an
// o piece in p and f, a neighbour of t, is empty in p. The step took a set C of s pieces, now
// empty points. C is built from groups, each checked against the forward rule:
//   - per direction from t (not the one back to f): the run of empty points that ends next to an
//     o piece (under `single`, only a run of one point): that run may have been captured;
//   - under corner capture, an empty corner next to t (not f) whose neighbours are all o's.
// Every union of groups (one group at most under `single`) is a candidate; it is kept only if
// capture_choices for the step in the candidate predecessor yields exactly that set. So the visit
// is exact: visit(P, m) is called once for each pair with m in generate_moves(P),
// apply_move(P, m) == p and P not lost by material. Piece counts of P are not bounded here
// (restored runs can exceed the start's count): callers filter.
#pragma once
#include "core/moves.hpp"

namespace gonu {

template <class Visit>
void for_each_unmove(const Board& b, const Rules& r, const Position& p, Visit&& visit) {
  const Side s = p.to_move, o = other(s);
  const Bits theirs_now = pieces(p, o), mine_now = pieces(p, s);
  const Bits empty = b.all & ~(theirs_now | mine_now);
  if (popcount(theirs_now) < 2) return;  // P's mover would have been lost by material
  const bool single = r.capture == Capture::single;
  for (Bits ts = theirs_now; ts; ts &= ts - 1) {
    const int t = lowest(ts);
    for (int back = 0; back < 4; ++back) {
      const int f = b.step[t][back];
      if (f < 0 || !(empty & bit(f))) continue;
      Bits groups[6];
      int ngroups = 0;
      for (int d = 0; d < 4; ++d) {
        if (d == back) continue;
        Bits run = 0;
        int x = b.step[t][d];
        while (x >= 0 && (empty & bit(x))) {
          run |= bit(x);
          x = b.step[x][d];
        }
        if (run && x >= 0 && (theirs_now & bit(x)) && (!single || popcount(run) == 1)) groups[ngroups++] = run;
      }
      if (r.corner)
        for (Bits c = b.adjacent[t] & b.corners & empty & ~bit(f); c; c &= c - 1) {
          const int sq = lowest(c);
          if ((b.adjacent[sq] & theirs_now) == b.adjacent[sq]) groups[ngroups++] = bit(sq);
        }
      Position before;
      before.to_move = o;
      const Bits theirs_before = theirs_now ^ bit(t) ^ bit(f);
      const int subsets = 1 << ngroups;
      for (int mask = 0; mask < subsets; ++mask) {
        if (single && (mask & (mask - 1))) continue;
        Bits taken = 0;
        for (int g = 0; g < ngroups; ++g)
          if (mask >> g & 1) taken |= groups[g];
        const Bits mine_before = mine_now | taken;
        before.black = s == Side::black ? mine_before : theirs_before;
        before.white = s == Side::black ? theirs_before : mine_before;
        Bits choices[8];
        const int k = capture_choices(b, r, before, f, t, choices);
        bool legal = false;
        for (int i = 0; i < k; ++i) legal |= choices[i] == taken;
        if (legal) visit(before, Move{std::int8_t(f), std::int8_t(t), taken});
      }
    }
  }
}

}  // namespace gonu
