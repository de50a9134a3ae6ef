// The one order of every list of moves gonu shows, for both games (Jul-gonu's query, play, explorer
// and Python, and Jungi's table commands): best first for the mover. Game-neutral: it needs only a
// move's value for its mover and its distance, so it includes nothing of either game.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "solver/common/value.hpp"

namespace gonu {

// The mover's value after a move, from the value of the position it leads to (for the opponent).
inline Value mover_value(Value after) {
  return after == Value::win ? Value::loss : after == Value::loss ? Value::win : Value::draw;
}

// How good a move is for its mover (larger is better): a win beats a draw beats a loss; a faster
// win and a slower loss are better.
inline long long move_score(Value mover_value, int dist) {
  if (mover_value == Value::win) return 1'000'000LL - dist;
  if (mover_value == Value::draw) return 0;
  return -1'000'000LL + dist;
}

// Best first for the mover: the fastest win, then the draws, then the slowest loss; equal moves
// keep the order of `moves` (the game's generate_moves order; a stable sort). Returns the indices
// of `moves` in that order; M has the mover's `value` and the `dist`.
template <class M>
std::vector<std::size_t> best_first(const std::vector<M>& moves) {
  std::vector<std::size_t> order(moves.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return move_score(moves[a].value, int(moves[a].dist)) > move_score(moves[b].value, int(moves[b].dist));
  });
  return order;
}

}  // namespace gonu
