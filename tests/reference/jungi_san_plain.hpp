// A plain reference for Jungi's moves as people write them (a piece letter, from, '-' or 'x', to,
// the promotion: "Qa6-a7=+Q", "+Ka3-c5"), written apart from core/jungi's formatter: it reads
// only the plain reference generator's texts (tests/reference/jungi_plain.hpp), the position
// before the move, the move's squares and the position after it, so that the two agree only if
// both read READING.md's letters and promotion alike.
#pragma once
#include <string>

#include "tests/reference/jungi_plain.hpp"

namespace gonu::plain_jungi_san {

// The move `squares` (from the reference: "e2-e3", "e5xe6-e7", a '+' suffix under optional
// promotion) made in `before`, reaching `after`, written with its piece and promotion.
inline std::string san(const std::string& before, const std::string& squares, const std::string& after) {
  using plain_jungi::detail::Cell;
  const auto p = plain_jungi::detail::parse(before), q = plain_jungi::detail::parse(after);
  std::string move = squares;
  if (!move.empty() && move.back() == '+') move.pop_back();
  const std::size_t n = move.size();
  // from: the first two characters; the piece ends on the last square named.
  const Cell& mover = p.cell[move[1] - '1'][move[0] - 'a'];
  const Cell& landed = q.cell[move[n - 1] - '1'][move[n - 2] - 'a'];
  std::string out = mover.promoted ? "+" : "";
  out += mover.kind;
  out += move;
  if (!mover.promoted && landed.promoted) {
    out += "=+";
    out += mover.kind;
  }
  return out;
}

}  // namespace gonu::plain_jungi_san
