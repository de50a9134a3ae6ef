// What the superko tests compare the solver with: the plain negamax over core's Game record with
// the full history (every legal move under superko, no pruning, no caching, so obviously right and
// slow), and the random tiny positions they draw (2 or 3 black and 2 white pieces on 3x3, 2x4,
// 4x2, 3x2 or 2x3, `soldiers` or `corner`, after a few random moves). Header-only, for the tests.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "core/julgonu/game.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu::test {

// The side to move wins iff some legal move leads to a position the opponent loses; nullopt once
// `budget` nodes are spent.
inline std::optional<bool> negamax(Game& g, std::uint64_t& budget) {
  if (budget == 0) return std::nullopt;
  --budget;
  bool win = false;
  for (const Move& m : legal_moves(g)) {
    Game next = g;
    play(next, m);
    const std::optional<bool> child = negamax(next, budget);
    if (!child) return std::nullopt;
    if (!*child) win = true;
  }
  return win;
}

// Trial `trial`'s random game (the board shape and rule set cycle with it).
inline Game random_tiny_game(std::mt19937_64& rng, int trial) {
  const int shapes[][2] = {{3, 3}, {2, 4}, {4, 2}, {3, 2}, {2, 3}};
  const auto* s = shapes[trial % 5];
  Rules r = rules_by_name(trial % 2 ? "corner" : "soldiers");
  r.rows = s[0];
  r.cols = s[1];
  const Board b = make_board(r.rows, r.cols);
  std::vector<int> sq(std::size_t(b.n));
  for (int i = 0; i < b.n; ++i) sq[std::size_t(i)] = i;
  std::shuffle(sq.begin(), sq.end(), rng);
  Position p;
  const int nb = 2 + int(rng() % 2), nw = 2;
  for (int i = 0; i < nb; ++i) p.black |= bit(sq[std::size_t(i)]);
  for (int i = nb; i < nb + nw; ++i) p.white |= bit(sq[std::size_t(i)]);
  p.to_move = rng() & 1 ? Side::black : Side::white;
  Game g = new_game(r, p);
  for (int k = int(rng() % 5); k > 0 && !legal_moves(g).empty(); --k) {
    const auto legal = legal_moves(g);
    play(g, legal[rng() % legal.size()]);
  }
  return g;
}

}  // namespace gonu::test
