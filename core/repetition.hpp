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
// Normal form (so equal futures give equal tags): a part that can no longer matter is cleared.
// mine is cleared unless its reverse is a possible step now (the piece is there, the way back
// empty) - for immediate also non-capturing, and when pending, also the reverse of theirs must be
// a non-capturing step after it; ban is cleared with mine. `theirs` is kept while it may matter.
#pragma once
#include <cstdint>

#include "core/board.hpp"
#include "core/moves.hpp"
#include "core/position.hpp"
#include "core/rules.hpp"

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

// True if `m` (a move of generate_moves for p) is banned by the tag.
bool tag_bans(const Rules& r, const Tag& t, const Move& m);

// The tag after `m` is played from p with tag t (normal form).
Tag next_tag(const Board& b, const Rules& r, const Position& p, const Tag& t, const Move& m);

// Brings a tag to normal form for the position it belongs to.
Tag normalize_tag(const Board& b, const Rules& r, const Position& p, Tag t);

// A compact code: 19 bits, each step as 1 + to * 4 + direction travelled (9 bits), then ban.
std::uint32_t pack_tag(const Board& b, const Tag& t);
Tag unpack_tag(const Board& b, std::uint32_t code);

}  // namespace gonu
