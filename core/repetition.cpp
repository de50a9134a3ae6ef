// Tag transitions and normal form for the `immediate` and `undo` repetition rules (see header).
#include "core/repetition.hpp"

#include "core/captures.hpp"

namespace gonu {

namespace {

Step reversed(const Step& s) { return Step{s.to, s.from}; }

// Whether stepping `s` is possible for the side to move in p (piece there, target empty); sets
// `quiet` to whether it captures nothing (captures.hpp: any capture at all, under any rule, is a
// non-empty arrival set, so one set answers for every capture choice).
bool step_possible(const Board& b, const Rules& r, const Position& p, const Step& s, bool& quiet) {
  if (!s.valid() || !(mover(p) & bit(s.from)) || (occupied(p) & bit(s.to))) return false;
  const Bits own = mover(p), enemy = waiter(p);
  Bits taken = r.capture == Capture::line ? line_arrival(b, s.to, own, enemy) : single_arrival(b, s.to, own, enemy);
  if (r.corner) taken |= corner_arrival(b, s.to, (own ^ bit(s.from)) | bit(s.to), enemy);
  quiet = taken == 0;
  return true;
}

}  // namespace

bool tag_bans(const Rules& r, const Tag& t, const Move& m) {
  if (!t.mine.valid() || m.from != t.mine.to || m.to != t.mine.from) return false;
  if (r.repetition == Repetition::undo) return true;
  return r.repetition == Repetition::immediate && t.ban && m.captured == 0;
}

Tag normalize_tag(const Board& b, const Rules& r, const Position& p, Tag t) {
  if (!uses_tag(r)) return Tag{};
  if (t.mine.valid()) {
    bool quiet = false;
    bool keep = step_possible(b, r, p, reversed(t.mine), quiet);
    if (r.repetition == Repetition::immediate) {
      keep = keep && quiet;
      if (keep && !t.ban) {
        // Pending: matters only if, after the mover steps back, the opponent could step back too.
        bool quiet2 = false;
        const Position stepped_back = apply_move(p, Move{t.mine.to, t.mine.from, 0});
        keep = t.theirs.valid() && step_possible(b, r, stepped_back, reversed(t.theirs), quiet2) && quiet2;
      }
    }
    if (!keep) t.mine = Step{};
  }
  if (!t.mine.valid()) t.ban = false;
  return t;
}

Tag next_tag(const Board& b, const Rules& r, const Position& p, const Tag& t, const Move& m) {
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
    n.ban = t.mine.valid() && n.mine.valid() && played == reversed(t.mine);
  }
  return normalize_tag(b, r, apply_move(p, m), n);
}

std::uint32_t pack_tag(const Board& b, const Tag& t) {
  auto code = [&](const Step& s) -> std::uint32_t {
    if (!s.valid()) return 0u;
    const int diff = s.to - s.from;  // a step never wraps, so the difference names the direction
    const std::uint32_t dir = diff == b.cols ? 0u : diff == 1 ? 1u : diff == -b.cols ? 2u : 3u;
    return 1u + std::uint32_t(s.to) * 4u + dir;
  };
  return code(t.mine) | (code(t.theirs) << 9) | (std::uint32_t(t.ban) << 18);
}

Tag unpack_tag(const Board& b, std::uint32_t c) {
  auto step = [&](std::uint32_t v) -> Step {
    if (v == 0) return Step{};
    const int to = int((v - 1) / 4), d = int((v - 1) % 4);
    return Step{b.step[to][reverse_dir(d)], std::int8_t(to)};
  };
  Tag t;
  t.mine = step(c & 511u);
  t.theirs = step((c >> 9) & 511u);
  t.ban = (c >> 18) & 1u;
  return t;
}

}  // namespace gonu
