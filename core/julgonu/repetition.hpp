// The history tag of the finite repetition rules: the least history that decides which moves are
// legal now and later, so that (position, tag) is a state of a finite game graph.
//
// A Step is a past move (from, to) with no capture information. The tag holds:
//   mine   - the side to move's own last move,
//   theirs - the opponent's last move (the one just played),
//   ban    - `immediate` only: mine is banned from being reversed right now.
//
// `immediate` (no move may recreate the position of four plies before): a board recurs after
// four plies exactly when both sides stepped there and back with no capture, so the move banned
// now is the reverse of `mine` when `theirs` reversed the opponent's move before it (ban set).
// Otherwise `mine` is pending: if the mover reverses it, the opponent may not then reverse
// `theirs`. A capture clears the whole tag (the old positions had more pieces).
// `undo` (a player may not move the piece it moved last straight back, capture or not): the
// reverse of `mine` is banned; `theirs` is kept because it becomes the opponent's `mine`.
// `none` and `superko` use the empty tag (superko needs the whole history; see game.hpp).
//
// The transitions are inline: a solve asks for one at nearly every edge.
//
// Normal form (so equal futures give equal tags): a part that can no longer matter is cleared.
// mine is cleared unless its reverse is a possible step now (the piece is there, the way back
// empty) - for immediate also non-capturing, and when pending, also the reverse of theirs must be
// a non-capturing step after it; ban is cleared with mine. `theirs` is kept while it may matter.
#pragma once
#include <cstdint>

#include "core/julgonu/board.hpp"
#include "core/julgonu/captures.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu {

struct Step {
  std::int8_t from = -1, to = -1;  // -1: none
  bool valid() const { return from >= 0; }
  friend bool operator==(const Step&, const Step&) = default;
};

struct Tag {
  Step mine, theirs;
  bool ban = false;
  bool empty() const { return !mine.valid() && !theirs.valid() && !ban; }
  friend bool operator==(const Tag&, const Tag&) = default;
};

// True if the rule set's repetition rule uses a tag (immediate, undo).
inline bool uses_tag(const Rules& r) {
  return r.repetition == Repetition::immediate || r.repetition == Repetition::undo;
}

// Helpers of the transitions below.
namespace detail {

inline Step reversed(const Step& s) { return Step{s.to, s.from}; }

// Whether stepping `s` is possible for the side to move in p (piece there, target empty); sets
// `quiet` to whether it captures nothing (captures.hpp: any capture at all, under any rule, is a
// non-empty arrival set, so one set answers for every capture choice).
inline bool step_possible(const Board& b, const Rules& r, const Position& p, const Step& s, bool& quiet) {
  if (!s.valid() || !(mover(p) & bit(s.from)) || (occupied(p) & bit(s.to))) return false;
  const Bits own = mover(p), enemy = waiter(p);
  Bits taken = r.capture == Capture::line ? line_arrival(b, s.to, own, enemy) : single_arrival(b, s.to, own, enemy);
  if (r.corner) taken |= corner_arrival(b, s.to, (own ^ bit(s.from)) | bit(s.to), enemy);
  quiet = taken == 0;
  return true;
}

}  // namespace detail

// True if `m` (a move of generate_moves for p) is banned by the tag.
inline bool tag_bans(const Rules& r, const Tag& t, const Move& m) {
  if (!t.mine.valid() || m.from != t.mine.to || m.to != t.mine.from) return false;
  if (r.repetition == Repetition::undo) return true;
  return r.repetition == Repetition::immediate && t.ban && m.captured == 0;
}

// Brings a tag to normal form for the position it belongs to.
inline Tag normalize_tag(const Board& b, const Rules& r, const Position& p, Tag t) {
  if (!uses_tag(r)) return Tag{};
  if (t.mine.valid()) {
    bool quiet = false;
    bool keep = detail::step_possible(b, r, p, detail::reversed(t.mine), quiet);
    if (r.repetition == Repetition::immediate) {
      keep = keep && quiet;
      if (keep && !t.ban) {
        // Pending: matters only if, after the mover steps back, the opponent could step back too.
        bool quiet2 = false;
        const Position stepped_back = apply_move(p, Move{t.mine.to, t.mine.from, 0});
        keep = t.theirs.valid() && detail::step_possible(b, r, stepped_back, detail::reversed(t.theirs), quiet2) && quiet2;
      }
    }
    if (!keep) t.mine = Step{};
  }
  if (!t.mine.valid()) t.ban = false;
  return t;
}

// The tag after `m` is played from p with tag t (normal form).
inline Tag next_tag(const Board& b, const Rules& r, const Position& p, const Tag& t, const Move& m) {
  if (!uses_tag(r)) return Tag{};
  const Step played{m.from, m.to};
  Tag n;
  if (r.repetition == Repetition::undo) {
    n.mine = t.theirs;
    n.theirs = played;
  } else {
    if (m.captured) return Tag{};
    n.mine = t.theirs;
    n.theirs = played;
    n.ban = t.mine.valid() && n.mine.valid() && played == detail::reversed(t.mine);
  }
  return normalize_tag(b, r, apply_move(p, m), n);
}

// pack_tag's code of one step: 1 + to * 4 + direction travelled (a step never wraps, so the
// difference names the direction).
inline std::uint32_t step_code(const Board& b, int from, int to) {
  const int diff = to - from;
  return 1u + std::uint32_t(to) * 4u + (diff == b.cols ? 0u : diff == 1 ? 1u : diff == -b.cols ? 2u : 3u);
}

// A compact code: 19 bits, each step's code (9 bits, 0 for none), mine then theirs, then ban.
inline std::uint32_t pack_tag(const Board& b, const Tag& t) {
  auto code = [&](const Step& s) { return s.valid() ? step_code(b, s.from, s.to) : 0u; };
  return code(t.mine) | (code(t.theirs) << 9) | (std::uint32_t(t.ban) << 18);
}

// pack_tag(b, next_tag(b, r, p, t, m)) from the two things next_tag reads of t: its theirs
// (theirs_code, a step code or 0) and whether m reverses t.mine (`reverses`; t.ban is not read).
// The dense engines ask for it at nearly every edge class, so it works on bit sets: no Tag, no
// apply_move, no second position for the pending check. tests/test_core_repetition.cpp checks it
// against next_tag.
inline std::uint32_t next_tag_code(const Board& b, const Rules& r, const Position& p, const Move& m,
                                   std::uint32_t theirs_code, bool reverses) {
  if (!uses_tag(r)) return 0;
  const bool immediate = r.repetition == Repetition::immediate;
  if (immediate && m.captured) return 0;  // a capture clears the tag
  const std::uint32_t played = step_code(b, m.from, m.to) << 9;  // the new theirs
  if (!theirs_code) return played;
  // The new mine is the old theirs, tf -> tt; it is kept if its reverse is a possible step for
  // the side to move after m (its piece on tt, tf empty) - under immediate, a quiet one.
  const int tt = int((theirs_code - 1) >> 2), tf = b.step[tt][reverse_dir(int((theirs_code - 1) & 3))];
  const Bits own = waiter(p) & ~m.captured, enemy = mover(p) ^ bit(m.from) ^ bit(m.to);  // after m
  if (tf < 0 || !((own >> tt) & 1) || (((own | enemy) >> tf) & 1)) return played;
  if (!immediate) return theirs_code | played;  // undo
  auto quiet = [&](int from, int to, Bits mover_pieces, Bits other) {
    Bits taken = r.capture == Capture::line ? line_arrival(b, to, mover_pieces, other) : single_arrival(b, to, mover_pieces, other);
    if (r.corner) taken |= corner_arrival(b, to, mover_pieces ^ bit(from) ^ bit(to), other);
    return taken == 0;
  };
  if (!quiet(tt, tf, own, enemy)) return played;
  if (reverses) return theirs_code | played | 1u << 18;  // banned now
  // Pending: kept only if, once the mover has stepped back, the opponent could step m back quietly.
  const Bits back = own ^ bit(tt) ^ bit(tf);
  if (!((enemy >> m.to) & 1) || (((enemy | back) >> m.from) & 1)) return played;
  return quiet(m.to, m.from, enemy, back) ? theirs_code | played : played;
}
Tag unpack_tag(const Board& b, std::uint32_t code);

}  // namespace gonu
