// Un-moves by candidates checked forward: for the piece that moved last, each square it could
// have come from (its moves read backwards: the other side's table of the same piece, pieces
// being left-right symmetric), each piece it could have captured, then the move generated from
// that predecessor and kept only if it leads to the position. Slower than a hand-inverted
// generator, and exact by construction.
#include "core/jungi/unmoves.hpp"

#include <optional>

namespace gonu::jungi {
namespace {

struct Context {
  const Rules& r;
  const Geometry& g;
  const Position& p;
  Side mover;         // the side that made the last move
  bool need_royal;    // the last move captured the other side's royal
  Position base;      // p with the mover to move and no field: the predecessors' common start
  std::vector<Predecessor>& out;
};

// The pieces the mover may have captured on `sq`: nothing (if allowed), or a piece of the side to
// move that can stand there; royal exactly when the royal is missing, unless `any_royalty` (the
// Emperor's two captures, of which one is the royal; the caller counts).
std::vector<Piece> captured_choices(const Context& c, int sq, bool allow_none, bool any_royalty = false) {
  std::vector<Piece> v;
  if (allow_none) v.push_back(kEmpty);
  const Side victim = other(c.mover);
  for (int type = 0; type < kTypes; ++type) {
    const Piece x = make_piece(victim, type);
    if ((any_royalty || is_royal(x) == c.need_royal) && can_stand(c.r, x, sq)) v.push_back(x);
  }
  return v;
}

// The move of the piece on `from` in q with this shape that leads to p, if any.
std::optional<Move> leading_move(const Context& c, Position& q, int from, int to, int mid, bool passed_by) {
  find_royals(q);
  MoveList list;
  generate_piece_moves(c.r, q, from, list);
  for (const Move& m : list) {
    if (m.to != to || (m.kind == MoveKind::two_step) != (mid != kNoSquare) || (mid != kNoSquare && m.mid != mid)) continue;
    if ((m.kind == MoveKind::passed_by) != passed_by) continue;
    if (apply_move(q, m) == c.p) return m;
  }
  return std::nullopt;
}

// Keeps `q` if the piece on `from` has a move of this shape leading to p.
void check_forward(const Context& c, Position q, int from, int to, int mid, bool passed_by) {
  if (const auto m = leading_move(c, q, from, to, mid, passed_by)) c.out.push_back({q, *m});
}

// Keeps q with each of `victims` on `sq` if q with the first of them has a move of this shape that
// leads to p: a capture is legal, and leads to p, whatever enemy piece it takes, so one check
// stands for all.
void check_captures(const Context& c, Position q, int sq, const std::vector<Piece>& victims, int from, int to, int mid) {
  if (victims.empty()) return;
  q.cell[sq] = victims[0];
  const auto m = leading_move(c, q, from, to, mid, false);
  if (!m) return;
  const int victim = index(other(c.mover));
  for (const Piece x : victims) {
    q.cell[sq] = x;
    q.royal[victim] = is_royal(x) ? static_cast<std::int8_t>(sq) : c.p.royal[victim];
    c.out.push_back({q, *m});
  }
}

// The squares a piece of this type could have come from to reach `to` by a step, leap or slide:
// the other side's moves of the same type from `to` (left-right symmetric pieces), slides only
// over squares empty now.
Set origins(const Context& c, int type, int to) {
  const Side back = other(c.mover);
  const auto& first = c.g.first[index(back)][type];
  Set s = 0;
  for (int i = first[to]; i < first[to + 1]; ++i) s |= bit(c.g.atoms[static_cast<std::size_t>(i)].to);
  // The moves allowed only from one rank are missing from the other side's table there: the
  // Pawn's 2-step and the Elephant's forward 3-leap.
  const int reach = type == type_of(Kind::pawn, false) ? 2 : type == type_of(Kind::elephant, false) ? 3 : 0;
  const int from_rank = rank_of(to) - reach * forward(c.mover);
  if (reach && from_rank >= 0 && from_rank < kRanks) s |= bit(square_at(file_of(to), from_rank));
  const unsigned dirs = c.g.slides[index(back)][type];
  for (int d = 0; d < 8; ++d) {
    if (!(dirs >> d & 1)) continue;
    for (int i = 0; i < c.g.ray_length[to][d] && c.p.cell[c.g.ray[to][d][i]] == kEmpty; ++i) s |= bit(c.g.ray[to][d][i]);
  }
  return s;
}

// The forms the piece on `to` may have had before moving there.
std::vector<Piece> earlier_forms(const Context& c, int to) {
  const Piece after = c.p.cell[to];
  std::vector<Piece> v{after};
  if (is_promoted(after) && in_zone(c.mover, to)) v.push_back(demote(after));
  return v;
}

void plain_unmoves(const Context& c, int to) {
  for (const Piece before : earlier_forms(c, to)) {
    for (Set s = origins(c, type_of(before), to); s; s &= s - 1) {
      const int from = lowest(s);
      if (c.p.cell[from] != kEmpty || !can_stand(c.r, before, from)) continue;
      Position q = c.base;
      q.cell[to] = kEmpty;
      q.cell[from] = before;
      if (!c.need_royal) check_forward(c, q, from, to, kNoSquare, false);
      check_captures(c, q, to, captured_choices(c, to, false), from, to, kNoSquare);
    }
  }
}

// The Emperor's two-step via the passed square `mid`: from a neighbour of mid, or from `to`
// itself after capturing on mid.
void two_step_unmoves(const Context& c, int to, int mid) {
  const std::vector<Piece> victims = captured_choices(c, mid, false, true), none{kEmpty};
  for (int i = 0; i < c.g.neighbours[mid]; ++i) {
    const int from = c.g.neighbour[mid][i];
    const bool returns = from == to;
    if (!returns && c.p.cell[from] != kEmpty) continue;
    // What stood on mid and on `to`: nothing or a victim each (only a victim on mid when it
    // returns), the royal among them exactly when it is missing.
    for (const bool took_mid : {false, true}) {
      for (const bool took_to : {false, true}) {
        if ((returns && (!took_mid || took_to))) continue;
        const std::vector<Piece>& on_mids = took_mid ? victims : none;
        const std::vector<Piece> on_tos = took_to ? captured_choices(c, to, false, true) : none;
        if (on_mids.empty() || on_tos.empty()) continue;
        Position q = c.base;
        q.cell[to] = on_tos[0];
        q.cell[mid] = on_mids[0];
        q.cell[from] = c.p.cell[to];
        const auto m = leading_move(c, q, from, to, mid, false);
        if (!m) continue;
        for (const Piece a : on_mids) {
          for (const Piece b : on_tos) {
            if (is_royal(a) + is_royal(b) != (c.need_royal ? 1 : 0)) continue;
            q.cell[to] = b;
            q.cell[mid] = a;
            q.cell[from] = c.p.cell[to];
            find_royals(q);
            c.out.push_back({q, *m});
          }
        }
      }
    }
  }
}

// The last move captured what passed by: its piece moved from `from` onto `to` by `m`, which the
// victim's move had passed; the victim is put back on its end square `end` with each field its
// move could have left (the field's shape and the victim's type decide; the capture itself is
// the same for all, checked once by the caller).
void passed_by_fields(const Context& c, const Position& q0, const Move& m, int from, int to) {
  const Side victim = other(c.mover);
  Position base = q0;
  find_royals(base);
  auto consider = [&](int end, Set passed) {
    for (const Piece taken : captured_choices(c, end, false)) {
      // Only a piece that slides, makes a 2-step or is an Emperor leaves a field.
      const int type = type_of(taken);
      const bool may_pass = c.g.slides[index(victim)][type] != 0 || type == type_of(Kind::pawn, false) ||
                            kind_of(taken) == Kind::king || type == type_of(Kind::queen, false);
      if (!may_pass) continue;
      Position q = base;
      q.cell[end] = taken;
      q.passed = passed;
      q.passed_end = static_cast<std::int8_t>(end);
      if (!field_is_possible(c.r, q)) continue;
      if (is_royal(taken)) q.royal[index(victim)] = static_cast<std::int8_t>(end);
      c.out.push_back({q, m});
    }
  };
  auto usable = [&](int sq) { return sq != from && c.p.cell[sq] == kEmpty; };
  // Lines through `to`: a slide or 2-step from a start to `end`, passing every square between.
  // A one-square field ({to}) also covers an Emperor's straight two-step.
  Set seen_single = 0;
  for (int d = 0; d < 8; ++d) {
    Set near = 0;
    for (int k = 0; k < c.g.ray_length[to][d] && usable(c.g.ray[to][d][k]); ++k) {
      const int end = c.g.ray[to][d][k];
      Set far = 0;
      for (int j = 0; j < c.g.ray_length[to][d ^ 2] && usable(c.g.ray[to][d ^ 2][j]); ++j) {
        if (k == 0 && j == 0) seen_single |= bit(end);
        consider(end, bit(to) | near | far);
        far |= bit(c.g.ray[to][d ^ 2][j]);
      }
      near |= bit(end);
    }
  }
  // An Emperor's two-step through `to` that ended on any other neighbour of it (bent, or back).
  for (int i = 0; i < c.g.neighbours[to]; ++i) {
    const int end = c.g.neighbour[to][i];
    if (usable(end) && !has(seen_single, end)) consider(end, bit(to));
  }
}

void passed_by_unmoves(const Context& c, int to) {
  const Geometry& g = c.g;
  for (const Piece before : earlier_forms(c, to)) {
    if (!captures_passed_by(type_of(before))) continue;
    for (int i = 0; i < g.neighbours[to]; ++i) {
      const int from = g.neighbour[to][i];
      if (c.p.cell[from] != kEmpty || !can_stand(c.r, before, from)) continue;
      // The capture, checked once with a stand-in victim (promoted, so it may stand anywhere) on
      // any empty square: the move's legality and result do not depend on the victim.
      Position q = c.base;
      q.cell[to] = kEmpty;
      q.cell[from] = before;
      int stand_in = kNoSquare;
      for (int sq = 0; sq < kSquares && stand_in < 0; ++sq) {
        if (sq != from && sq != to && c.p.cell[sq] == kEmpty) stand_in = sq;
      }
      if (stand_in < 0) continue;
      Position probe = q;
      probe.cell[stand_in] = make_piece(other(c.mover), c.need_royal ? Kind::king : Kind::horseman, true);
      probe.passed = bit(to);
      probe.passed_end = static_cast<std::int8_t>(stand_in);
      if (const auto m = leading_move(c, probe, from, to, kNoSquare, true)) passed_by_fields(c, q, *m, from, to);
    }
  }
}

}  // namespace

std::vector<Predecessor> predecessors(const Rules& r, const Position& p) {
  std::vector<Predecessor> out;
  const Side mover = other(p.to_move);
  if (p.royal[index(mover)] < 0) return out;
  Position base = p;
  base.to_move = mover;
  base.passed = 0;
  base.passed_end = kNoSquare;
  base.first_move = 0;
  const Context c{r, geometry(r.lancer_queen), p, mover, p.royal[index(p.to_move)] < 0, base, out};
  if (p.passed) {
    const int end = p.passed_end;
    plain_unmoves(c, end);
    const Piece x = p.cell[end];
    if (popcount(p.passed) == 1 && is_royal(x) && is_promoted(x)) two_step_unmoves(c, end, lowest(p.passed));
    return out;
  }
  for (int sq = 0; sq < kSquares; ++sq) {
    const Piece x = p.cell[sq];
    if (x == kEmpty || side_of(x) != mover) continue;
    plain_unmoves(c, sq);
    passed_by_unmoves(c, sq);
  }
  return out;
}

}  // namespace gonu::jungi
