// The captures made by a piece arriving on point t, computed on whole bit sets without a branch
// on the position (on this kind of machine a mispredicted branch costs more than the arithmetic).
// Shared by the move generator (moves.cpp) and the un-move generator (unmoves.hpp).
//
// `own` may be the mover's pieces before or after the step: the piece that left is next to t,
// behind it, so it is never the closing piece of a run or a single, and t itself is on no ray
// from t. Corner capture is different: the corner's neighbours may include the point left, so
// corner_arrival takes the pieces after the step.
#pragma once
#include "core/julgonu/board.hpp"

namespace gonu {

// The run of enemies from t in direction kDir closed by an own piece, or nothing. Along the ray
// from t, the first point that holds no enemy ends the run: the lowest such point of the ray
// going north or east, the highest going south or west. The run is the ray's points before it,
// all enemies; it is taken if that point is own (and the run is not empty).
template <int kDir>
inline Bits line_run(const Board& b, int t, Bits own, Bits enemy) {
  const Bits ray = b.ray[t][kDir], open = ray & ~enemy;
  Bits end, run;
  if constexpr (kDir < 2) {
    end = open & (Bits{0} - open);
    run = ray & (end - 1);
  } else {
    end = open & bit(63 - __builtin_clzll(open | 1));  // no point when open is empty
    run = ray & ~(end | (end - 1));
  }
  return run & (Bits{0} - Bits((end & own) != 0));
}

// line: every run of enemies starting next to t and closed by an own piece, in all directions.
inline Bits line_arrival(const Board& b, int t, Bits own, Bits enemy) {
  return line_run<0>(b, t, own, enemy) | line_run<1>(b, t, own, enemy) | line_run<2>(b, t, own, enemy) |
         line_run<3>(b, t, own, enemy);
}

// The lone enemy next to t in direction kDir closed by an own piece, or nothing.
template <int kDir>
inline Bits single_run(const Board& b, int t, Bits own, Bits enemy) {
  const Bits x = shift(b, bit(t), kDir) & enemy;
  return x & (Bits{0} - Bits((shift(b, x, kDir) & own) != 0));
}

// single: the lone enemies next to t closed by an own piece; each is one capture choice.
inline Bits single_arrival(const Board& b, int t, Bits own, Bits enemy) {
  return single_run<0>(b, t, own, enemy) | single_run<1>(b, t, own, enemy) | single_run<2>(b, t, own, enemy) |
         single_run<3>(b, t, own, enemy);
}

// The points from which an arrival captures something in direction kDir: walking back from the
// own pieces, A_k holds the enemies that start a run of k closed by an own piece; the point
// before one of them captures. `longest` caps k (1 for single capture).
// x is A_k shifted back once (then the points before the runs of k), so each step is one shift.
template <int kDir>
inline Bits capture_points(const Board& b, Bits own, Bits enemy, int longest) {
  Bits points = 0, x = shift(b, own, kDir ^ 2);
  for (int k = 0; k < longest; ++k) {
    x = shift(b, enemy & x, kDir ^ 2);
    points |= x;
  }
  return points;
}

// The points where an arrival captures by line (or, with single, by single capture), all at once:
// most positions have none, and then no point needs line_arrival or single_arrival.
[[gnu::always_inline]] inline Bits arrival_capture_points(const Board& b, Bits own, Bits enemy, bool single) {
  const int vertical = single ? 1 : b.rows - 2, horizontal = single ? 1 : b.cols - 2;
  return capture_points<0>(b, own, enemy, vertical) | capture_points<1>(b, own, enemy, horizontal) |
         capture_points<2>(b, own, enemy, vertical) | capture_points<3>(b, own, enemy, horizontal);
}

// corner: enemies on corners next to t all of whose neighbours are own after the step.
inline Bits corner_arrival(const Board& b, int t, Bits own_after, Bits enemy) {
  Bits result = 0;
  for (Bits c = b.adjacent[t] & b.corners & enemy; c; c &= c - 1) {
    const int sq = lowest(c);
    if ((b.adjacent[sq] & own_after) == b.adjacent[sq]) result |= bit(sq);
  }
  return result;
}

}  // namespace gonu
