// Helpers for the Jungi tests: random legal positions (both royals, up to a dozen pieces, each on a
// square it may stand on, some reached by a move so that they carry an en-passant field) and the
// fast generator's successors in the reference's form.
#pragma once
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/jungi/moves.hpp"
#include "tests/reference/jungi_plain.hpp"

namespace gonu::test {

inline plain_jungi::Options plain_options(const jungi::Rules& r) {
  plain_jungi::Options o;
  o.hobbling = r.hobbling;
  o.optional_promotion = r.optional_promotion;
  o.lancer_queen = r.lancer_queen;
  return o;
}

// Every move as {move text, resulting position text}, sorted by move text (as the reference).
inline std::vector<std::pair<std::string, std::string>> fast_successors(const jungi::Rules& r, const jungi::Position& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const jungi::Move& m : jungi::legal_moves(r, p)) {
    out.emplace_back(jungi::format_move(r, p, m), jungi::format_position(jungi::apply_move(p, m)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A random piece of `side` that may stand on sq (royal or not as asked), or kEmpty after a few tries.
inline jungi::Piece random_piece(std::mt19937_64& rng, const jungi::Rules& r, jungi::Side side, int sq, bool royal) {
  for (int tries = 0; tries < 20; ++tries) {
    const int type = royal ? static_cast<int>(rng() % 2) : 2 + static_cast<int>(rng() % (jungi::kTypes - 2));
    const jungi::Piece x = jungi::make_piece(side, type);
    if (jungi::can_stand(r, x, sq)) return x;
  }
  return jungi::kEmpty;
}

// A random position with both royals and up to `pieces` pieces in all (at least 2), side to move
// random, no first-move rights; with `moves` > 0, that many random moves are played from it (while
// the game goes on), so that en-passant fields and captures arise.
inline jungi::Position random_position(std::mt19937_64& rng, const jungi::Rules& r, int pieces, int moves = 0) {
  jungi::Position p;
  std::vector<int> squares(jungi::kSquares);
  for (int i = 0; i < jungi::kSquares; ++i) squares[static_cast<std::size_t>(i)] = i;
  std::shuffle(squares.begin(), squares.end(), rng);
  int placed = 0;
  for (int sq : squares) {
    if (placed == pieces) break;
    const jungi::Side side = placed == 0 ? jungi::Side::south : placed == 1 ? jungi::Side::north
                                                               : (rng() % 2 ? jungi::Side::south : jungi::Side::north);
    const jungi::Piece x = random_piece(rng, r, side, sq, placed < 2);
    if (x == jungi::kEmpty) continue;
    p.cell[static_cast<std::size_t>(sq)] = x;
    ++placed;
  }
  p.to_move = rng() % 2 ? jungi::Side::south : jungi::Side::north;
  jungi::find_royals(p);
  for (int i = 0; i < moves && jungi::outcome(r, p) == jungi::Outcome::ongoing; ++i) {
    const auto legal = jungi::legal_moves(r, p);
    p = jungi::apply_move(p, legal[rng() % legal.size()]);
  }
  return p;
}

}  // namespace gonu::test
