// Move generation with the capture rules, and move notation.
#include "core/julgonu/moves.hpp"

#include <algorithm>
#include <type_traits>

#include "core/julgonu/captures.hpp"
#include "core/error.hpp"

namespace gonu {

namespace {

// The captures of a step to `to`, given the mover's pieces after it; one set per choice under
// `single` (none if nothing is captured), exactly one set under `line`.
template <Capture kCapture, bool kCorner>
inline int captures_of(const Board& b, Bits own_after, Bits enemy, int to, Bits* out) {
  Bits taken = kCapture == Capture::line ? line_arrival(b, to, own_after, enemy) : single_arrival(b, to, own_after, enemy);
  if constexpr (kCorner) taken |= corner_arrival(b, to, own_after, enemy);
  if (kCapture == Capture::line || !taken) {
    out[0] = taken;
    return 1;
  }
  int n = 0;
  for (; taken; taken &= taken - 1) out[n++] = bit(lowest(taken));
  return n;
}

// Captures by line or single capture depend only on the arrival point (captures.hpp), so they
// are computed once per reachable empty point into at[point]; corner captures depend on the
// point left too. at[] is meaningful for the arrival points only; it is zeroed on the board's
// points and on the last entry, which the line loop reads for off-board steps. Not all 64:
// clearing them cost a fifth of the generation.
template <Capture kCapture>
void arrival_captures(const Board& b, Bits own, Bits enemy, Bits empty, Bits* at) {
  std::fill(at, at + b.n, Bits{0});
  at[kMaxSquares - 1] = 0;
  const Bits arrivals = (shift(b, own, 0) | shift(b, own, 1) | shift(b, own, 2) | shift(b, own, 3)) & empty;
  for (Bits x = arrivals & arrival_capture_points(b, own, enemy, kCapture == Capture::single); x; x &= x - 1) {
    const int t = lowest(x);
    at[t] = kCapture == Capture::line ? line_arrival(b, t, own, enemy) : single_arrival(b, t, own, enemy);
  }
}

template <Capture kCapture, bool kCorner>
int generate(const Board& b, const Position& p, Move* out) {
  const Bits own = mover(p), enemy = waiter(p), empty = b.all & ~(own | enemy);
  Bits at[kMaxSquares];
  arrival_captures<kCapture>(b, own, enemy, empty, at);
  int n = 0;
  if constexpr (kCapture == Capture::line && !kCorner) {
    // One move per open step: written always, kept by advancing n (no branch on the position).
    for (Bits pieces = own; pieces; pieces &= pieces - 1) {
      const int from = lowest(pieces);
      for (int d = 0; d < 4; ++d) {
        const int to = b.step[from][d], at_to = to & (kMaxSquares - 1);
        out[n] = Move{std::int8_t(from), std::int8_t(to), at[at_to]};
        n += int(to >= 0) & int((empty >> at_to) & 1);
      }
    }
    return n;
  }
  for (Bits pieces = own; pieces; pieces &= pieces - 1) {
    const int from = lowest(pieces);
    for (int d = 0; d < 4; ++d) {
      const int to = b.step[from][d];
      if (to < 0 || !(empty & bit(to))) continue;
      Bits taken = at[to];
      if constexpr (kCorner)
        if (b.adjacent[to] & b.corners & enemy) taken |= corner_arrival(b, to, (own ^ bit(from)) | bit(to), enemy);
      if (kCapture == Capture::line || !taken) {
        out[n++] = Move{std::int8_t(from), std::int8_t(to), taken};
        continue;
      }
      for (; taken; taken &= taken - 1) out[n++] = Move{std::int8_t(from), std::int8_t(to), bit(lowest(taken))};
    }
  }
  return n;
}

}  // namespace

int capture_choices(const Board& b, const Rules& r, const Position& p, int from, int to, Bits* out) {
  const Bits own_after = (mover(p) ^ bit(from)) | bit(to);
  const Bits enemy = waiter(p);
  if (r.capture == Capture::line)
    return r.corner ? captures_of<Capture::line, true>(b, own_after, enemy, to, out)
                    : captures_of<Capture::line, false>(b, own_after, enemy, to, out);
  return r.corner ? captures_of<Capture::single, true>(b, own_after, enemy, to, out)
                  : captures_of<Capture::single, false>(b, own_after, enemy, to, out);
}

int generate_moves(const Board& b, const Rules& r, const Position& p, Move* out) {
  if (r.capture == Capture::line)
    return r.corner ? generate<Capture::line, true>(b, p, out) : generate<Capture::line, false>(b, p, out);
  return r.corner ? generate<Capture::single, true>(b, p, out) : generate<Capture::single, false>(b, p, out);
}

int generate_moves_any_order(const Board& b, const Rules& r, const Position& p, Move* out) {
  if (r.capture != Capture::line || r.corner) return generate_moves(b, r, p, out);
  const Bits own = mover(p), enemy = waiter(p), empty = b.all & ~(own | enemy);
  Bits at[kMaxSquares];
  arrival_captures<Capture::line>(b, own, enemy, empty, at);
  // Direction d moves a piece by delta[d] points; the pieces that can go are those an empty
  // point lies one step beyond (the empty points shifted back the other way). Unrolled, so that
  // each shift is a constant direction's few instructions.
  int n = 0;
  for_each_direction([&]<int kDir>(std::integral_constant<int, kDir>) {
    const int delta = kDir == 0 ? b.cols : kDir == 1 ? 1 : kDir == 2 ? -b.cols : -1;
    for (Bits x = own & shift(b, empty, kDir ^ 2); x; x &= x - 1) {
      const int from = lowest(x), to = from + delta;
      out[n++] = Move{std::int8_t(from), std::int8_t(to), at[to]};
    }
  });
  return n;
}

std::vector<Move> generate_moves(const Board& b, const Rules& r, const Position& p) {
  Move buf[kMaxMoves];
  const int n = generate_moves(b, r, p, buf);
  return std::vector<Move>(buf, buf + n);
}

std::string format_squares(const Board& b, Bits squares) {
  std::string s;
  for (; squares; squares &= squares - 1) {
    if (!s.empty()) s += ' ';
    s += square_name(b, lowest(squares));
  }
  return s;
}

std::string format_move(const Board& b, const Rules& r, const Move& m) {
  std::string s = square_name(b, m.from) + "-" + square_name(b, m.to);
  if (r.capture == Capture::single)
    for (Bits c = m.captured; c; c &= c - 1) {
      s += 'x';
      s += square_name(b, lowest(c));
    }
  return s;
}

Move parse_move(const Board& b, const Rules& r, const Position& p, std::string_view text,
                const std::vector<Move>& candidates) {
  (void)r;
  const std::string quoted = "move '" + std::string(text) + "': ";
  std::size_t used = 0, at = 0;
  const int from = parse_square_prefix(b, text, used);
  if (from == kNoSquare) throw GonuError(quoted + "does not start with a point of the board (e.g. b4-b3)");
  at = used;
  if (at >= text.size() || text[at] != '-') throw GonuError(quoted + "expected '-' after the first point");
  ++at;
  const int to = parse_square_prefix(b, text.substr(at), used);
  if (to == kNoSquare) throw GonuError(quoted + "expected a point of the board after '-'");
  at += used;
  Bits named = 0;
  bool names_capture = false;
  while (at < text.size()) {
    if (text[at] != 'x') throw GonuError(quoted + "unexpected '" + std::string(text.substr(at)) + "' (captures are written xc3)");
    ++at;
    const int c = parse_square_prefix(b, text.substr(at), used);
    if (c == kNoSquare) throw GonuError(quoted + "expected a captured point after 'x'");
    if (named & bit(c)) throw GonuError(quoted + "names " + square_name(b, c) + " twice");
    named |= bit(c);
    names_capture = true;
    at += used;
  }
  if (!(mover(p) & bit(from)))
    throw GonuError(quoted + "no " + (p.to_move == Side::black ? "Black" : "White") + " piece on " + square_name(b, from));
  if (direction_between(b, from, to) < 0)
    throw GonuError(quoted + square_name(b, to) + " is not next to " + square_name(b, from) + " (pieces step orthogonally)");
  if (occupied(p) & bit(to)) throw GonuError(quoted + square_name(b, to) + " is occupied");
  std::vector<Move> same_step;
  for (const Move& m : candidates)
    if (m.from == from && m.to == to) same_step.push_back(m);
  if (same_step.empty()) throw GonuError(quoted + "is not a legal move here");
  if (names_capture) {
    for (const Move& m : same_step)
      if (m.captured == named) return m;
    std::string options;
    for (const Move& m : same_step) options += (options.empty() ? "" : ", ") + (m.captured ? format_squares(b, m.captured) : "nothing");
    throw GonuError(quoted + "captures " + options + ", not " + format_squares(b, named));
  }
  if (same_step.size() > 1) {
    std::string options;
    for (const Move& m : same_step) options += (options.empty() ? "" : " or ") + format_move(b, Rules{.capture = Capture::single}, m);
    throw GonuError(quoted + "name the capture: " + options);
  }
  return same_step[0];
}

}  // namespace gonu
