// The predecessors of a decided tagged state along one board un-move (P, m), shared by the
// tagged engine's retrograde (tagged_retrograde.cpp) and the distributed one (solver/julgonu/mpi/):
// the states (P, tP) that were reached and whose move m, legal under tP, leads to the decided
// state's tag. tP.theirs becomes the decided tag's mine (when it keeps one), so only mine and
// ban are searched; each candidate is checked with the forward rules (tag_bans, next_tag), so
// every edge is counted exactly once. Mirror images are counted as in the untagged engine (see
// Predecessor::update).
#pragma once
#include <algorithm>
#include <cstdint>

#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu::dense {

// An edge from a reached predecessor state into a decided one.
struct Update {
  std::uint64_t id, board, board_id;  // id: the predecessor's cell index
  std::uint8_t edges;
  bool lost;
};

// The predecessor board P of one un-move (P, m), and what its candidate states share.
template <class Store>
struct Predecessor {
  using Run = TaggedRunOf<Store>;
  // before and m outlive it; board_id and base are P's.
  Predecessor(const Run& t, const Position& p, const Move& move, std::uint64_t board_id, std::uint64_t base)
      : before(p), m(move), clears(t.immediate && m.captured), ps(t.b, before), pw(pack(before)),
        pmw(t.space.mirror_board(pw)), pbid(board_id), pbase(base), image_bid(pbid), image_base(pbase) {
    const std::uint32_t back_code = step_code(t.b, m.to, m.from);
    const std::uint32_t* back_at = std::find(ps.mine, ps.mine + ps.a, back_code);
    back = back_at == ps.mine + ps.a ? 0u : std::uint32_t(back_at - ps.mine) + 1;
    for (std::uint32_t ti = 0; ti <= ps.c; ++ti) leads[ti][0] = leads[ti][1] = -1;
  }
  // tP.mine matters to next_tag only through "m reverses it" (the index back), and tP.ban not at
  // all; so next_tag is asked at most once per (theirs, reverses or not), and only when a reached
  // candidate needs it (most candidates were never reached).
  std::uint32_t lead(const Run& t, std::uint32_t ti, bool rev) {
    if (leads[ti][rev] < 0) leads[ti][rev] = next_tag_code(t.b, t.rules, before, m, ti ? ps.theirs[ti - 1] : 0u, rev);
    return std::uint32_t(leads[ti][rev]);
  }
  // Where P's states that are not canonical keep their cells: on the image board, or on P itself
  // when it is its own image (asked for when first needed). The cell of the canonical form
  // (board, code) of such a state; its board id in board_id.
  std::uint64_t image_cell(const Run& t, std::uint64_t board, std::uint32_t code, std::uint64_t& board_id) {
    if (!image_ready) {
      image_pos = unpack(board, before.to_move);
      if (board != pw) {
        image_bid = t.space.board_id(image_pos);
        image_base = t.space.base(image_bid);
      }
      image_tags = tag_space(t.b, image_pos);
      image_ready = true;
    }
    board_id = image_bid;
    return image_base + tag_slot(t.b, image_pos, image_tags, code);
  }

  // The edge from the reached state pid of P (tag `code`) into a decided state (its own mirror
  // image or not; lost or won) in u, its cell the canonical form's: false when the edge is not
  // counted (from a state that is not canonical into one that is its own image).
  bool update(const Run& t, std::uint64_t pid, std::uint32_t code, bool self_image, bool lost, Update& u) {
    const auto c = t.space.canonical(pw, pmw, code);
    if (self_image && !c.kept) return false;
    u = Update{pid, c.board, pbid, std::uint8_t(!self_image && c.orbit == 1 ? 2 : 1), lost};
    if (!c.kept) u.id = image_cell(t, c.board, c.code, u.board_id);
    u.id = t.store.index(u.id);
    return true;
  }

  const Position& before;
  const Move& m;
  const bool clears;  // a capture under immediate: the move empties the tag
  const BoardSteps ps;
  const std::uint64_t pw, pmw, pbid, pbase;  // P packed, its image, its board id and slot base
  std::uint32_t back;                        // the index in ps.mine of m's reverse (0: none)
  std::int64_t leads[4 * 32 + 1][2];         // by (theirs index, reverses): -1, not asked yet
  bool image_ready = false;
  Position image_pos;
  std::uint64_t image_bid, image_base;
  TagSpace image_tags{};
};

// take(pid, mi, ti, ban) for each reached state of P (id pid; its tag's parts mine index, theirs
// index, ban) whose move p.m leads to the decided state with tag code x_code.
template <class Store, class Take>
void for_each_predecessor_state(const TaggedRunOf<Store>& t, Predecessor<Store>& p, std::uint32_t x_code, Take&& take) {
  const BoardSteps& ps = p.ps;
  if (p.clears && x_code != 0) return;  // a capture under immediate leads to the empty tag only
  // tP.theirs becomes S's mine: fixed when S keeps one (it must be a step of P).
  const std::uint32_t mine_s = x_code & 511u;
  std::uint32_t ti_lo = 0, ti_hi = ps.c;
  if (mine_s) {
    const std::uint32_t* at = std::find(ps.theirs, ps.theirs + ps.c, mine_s);
    if (at == ps.theirs + ps.c) return;
    ti_lo = ti_hi = std::uint32_t(at - ps.theirs) + 1;
  }
  // The candidates of one (ban, theirs) are a run of slots, mine from 0 (1 with a ban: a ban
  // needs a mine) to a. All but the one whose mine m reverses (index back) lead to one tag,
  // so the run is walked only when that tag is x's; the other is checked alone (tag_bans:
  // undo bans reversing mine, immediate only with the ban and no capture).
  for (std::uint32_t ban = 0; ban < 2; ++ban)
    for (std::uint32_t ti = ti_lo; ti <= ti_hi; ++ti) {
      const std::uint64_t row = p.pbase + (std::uint64_t(ban) * (ps.c + 1) + ti) * (ps.a + 1);
      const std::uint64_t lo = row + ban, hi = row + ps.a + 1;
      if (!t.store.any_reached(lo, hi)) continue;
      const bool back_ok = p.back && !t.undo && !(ban && !p.m.captured) && t.reached.test(row + p.back) &&
                           (p.clears || p.lead(t, ti, true) == x_code);
      if (p.clears || p.lead(t, ti, false) == x_code) {
        t.reached.for_each(lo, hi, [&](std::uint64_t pid) {
          const std::uint32_t mi = std::uint32_t(pid - row);
          if (mi != p.back || back_ok) take(pid, mi, ti, ban);
        });
      } else if (back_ok) {
        take(row + p.back, p.back, ti, ban);
      }
    }
}

}  // namespace gonu::dense
