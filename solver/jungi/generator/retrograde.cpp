// The retrograde generator, after Syzygy's (syzygy1/tb): each position is first valued from its
// moves that leave the material (captures and promotions: values read from the smaller tables),
// and its moves that stay inside are counted; then the distances are found level by level from
// the end, by un-moves (the side that just moved takes back a move that captured nothing and did
// not promote): a position that is a LOSS in t makes each of its predecessors a WIN in t + 1; a
// position that is a WIN in t takes one off the counter of each predecessor, and a predecessor
// whose counter reaches zero has lost (in t + 1, or later if a move leaving the material loses
// later). Invariants: an entry is final once the level reaches its distance (a WIN only shortens
// before that, and a LOSS is written once); a counter (in the entry while undecided) counts the
// moves not yet known to lose. A position whose side to move takes a royal (a WIN in 1, about a
// fifth of a table) is not passed on by un-moves: each position tells apart, from the start, its
// quiet moves that leave its royal to be taken (Threats::safe_squares), which lose in 2 plies and
// are never counted. Nor is an update sent to a predecessor that is a WIN no later level can
// shorten (Solver::won_): most predecessors of a lost position have won already.
//
// En-passant fields. A move that passes squares (a slide of two squares or more, a Pawn's 2-step,
// an Emperor's two-step) leads to C with a field, not stored: its value for the side to move is
// the stored value of C combined with C's captures of what passed by (Reader::child), and those
// captures leave the material, so their best value `caps` is final from the start. With caps
// LOSS c (every capture of what passed by loses), the move wins for its mover when C is a LOSS
// in l, in max(c, l) + 1 plies; with caps DRAW it never wins; both lose when C is a WIN, as a
// plain move. With caps WIN c, the move loses for its mover in min(c, w) + 1 plies where C is a
// WIN in w, else in c + 1: it is left out of the counter, and a position whose counted moves
// have all lost waits (the pending list) until each such move's distance is known (where the
// piece that passed is a royal, c is 1: the move loses in 2, valued at once). A move to a C
// whose captures of what passed by are its only moves (stalemate=draw) is valued as a capture.
#include "solver/jungi/generator/retrograde.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "core/error.hpp"
#include "solver/jungi/generator/reader.hpp"

namespace gonu::jungi {

using namespace entry;

namespace {

// Working codes of a position not decided yet: the kind bits 00, a flag that a move leaving the
// material draws (it cannot lose), a flag that it has moves with caps WIN, and the counter of its
// moves inside not yet known to lose. Never the code 0 (invalid): a position whose counter is 0
// either has a flag or is decided. The counter in the entry itself makes a decrement touch one
// place in memory; the longest loss among the moves leaving the material, read once when the
// counter reaches 0, lies apart (Solver::fixed_loss_).
constexpr std::uint16_t kCantLose = 0x2000, kCapsWin = 0x1000, kCounterMask = 0x0FFF;

// A royal (an Emperor's two-step) that passes a square where the opponent can take what passed
// by is taken at once: the move loses in 2 plies, known from the start, as a capture's value is.
const std::uint16_t kRoyalPassedByThreat = code(kLoss, 2);
bool undecided(std::uint16_t e) { return e != kInvalidEntry && kind(e) == 0; }

// Steps and leaps read backwards: the square a non-capturing atom comes from, with the squares
// it needs empty.
struct ReverseAtom {
  std::int8_t from, block, middle;
};

// The atoms (steps and leaps) of the rules, split for speed. Those that need nothing but their
// target square (no first-move right, no middle square, nothing that hobbles them under these
// rules) as sets by (side, type, square): where they move to and capture from it, and where a
// non-capturing one that reaches it comes from. The others as lists: forwards by the square they
// leave (first-move atoms left out: table positions have no such right), backwards by the square
// they reach (non-capturing ones: a capture leaves the material). And the squares each piece can
// stand on, and each side's promotion zone.
struct AtomSets {
  using BySquare = std::array<std::array<std::array<Set, kSquares>, kTypes>, 2>;
  using First = std::array<std::array<std::array<std::uint32_t, kSquares + 1>, kTypes>, 2>;
  BySquare move{}, capture{}, back{};
  std::vector<Atom> forward;
  std::vector<ReverseAtom> backward;
  First forward_first{}, backward_first{};
  std::array<Set, 2 * kTypes + 1> stand{};
  std::array<Set, 2> zone{};
  // Where a piece on a square could take what passed by: a Pawn's two diagonal forward squares,
  // the eight neighbours for the other pieces that capture so (entry::captures_passed_by_onto).
  std::array<std::array<Set, kSquares>, 2 * kTypes + 1> passed_reach{};
  // Each slide's ray from a square (by direction, as Geometry's), and the squares strictly
  // between two squares on one line (0 elsewhere).
  std::array<std::array<Set, 8>, kSquares> ray{};
  std::array<std::array<Set, kSquares>, kSquares> between{};
  // Every square a piece's move from a square could end on, on an empty board.
  BySquare goes{};
};

// The King-step neighbours of each square, as sets.
const std::array<Set, kSquares>& neighbour_sets() {
  static const std::array<Set, kSquares> sets = [] {
    const Geometry& g = geometry(false);
    std::array<Set, kSquares> out{};
    for (int sq = 0; sq < kSquares; ++sq)
      for (int i = 0; i < g.neighbours[std::size_t(sq)]; ++i) out[std::size_t(sq)] |= bit(g.neighbour[std::size_t(sq)][std::size_t(i)]);
    return out;
  }();
  return sets;
}

// The squares an Emperor's two King steps reach from each square on an empty board: its
// neighbours and theirs.
const std::array<Set, kSquares>& two_step_sets() {
  static const std::array<Set, kSquares> sets = [] {
    const auto& ring = neighbour_sets();
    std::array<Set, kSquares> out{};
    for (int sq = 0; sq < kSquares; ++sq) {
      out[std::size_t(sq)] = ring[std::size_t(sq)];
      for (Set mids = ring[std::size_t(sq)]; mids; mids &= mids - 1) out[std::size_t(sq)] |= ring[std::size_t(lowest(mids))];
    }
    return out;
  }();
  return sets;
}

// AtomSets' rays, squares between and squares a move could end on.
void add_lines(const Geometry& g, AtomSets& out) {
  for (int from = 0; from < kSquares; ++from)
    for (int d = 0; d < 8; ++d) {
      Set passed = 0;
      for (int i = 0; i < g.ray_length[std::size_t(from)][std::size_t(d)]; ++i) {
        const int sq = g.ray[std::size_t(from)][std::size_t(d)][std::size_t(i)];
        out.ray[std::size_t(from)][std::size_t(d)] |= bit(sq);
        out.between[std::size_t(from)][std::size_t(sq)] = passed;
        passed |= bit(sq);
      }
    }
  const auto& ring = neighbour_sets();
  for (std::size_t si = 0; si < 2; ++si)
    for (int type = 0; type < kTypes; ++type)
      for (int from = 0; from < kSquares; ++from) {
        const auto t = std::size_t(type), f = std::size_t(from);
        Set& goes = out.goes[si][t][f];
        for (int i = g.first[si][t][f]; i < g.first[si][t][f + 1]; ++i) goes |= bit(g.atoms[std::size_t(i)].to);
        for (int d = 0; d < 8; ++d)
          if (g.slides[si][t] >> d & 1) goes |= out.ray[f][std::size_t(d)];
        if (type == type_of(Kind::king, true))
          for (Set mids = ring[f]; mids; mids &= mids - 1) goes |= ring[std::size_t(lowest(mids))];
      }
}

AtomSets build_atom_sets(const Rules& r, const Geometry& g) {
  AtomSets out;
  for (const Side side : {Side::south, Side::north}) {
    const auto si = std::size_t(index(side));
    for (int sq = 0; sq < kSquares; ++sq)
      if (in_zone(side, sq)) out.zone[si] |= bit(sq);
    for (std::size_t type = 0; type < std::size_t(kTypes); ++type) {
      const Piece x = make_piece(side, int(type));
      for (int sq = 0; sq < kSquares; ++sq) {
        if (can_stand(r, x, sq)) out.stand[x] |= bit(sq);
        for (int j = 0; j < g.neighbours[std::size_t(sq)] && captures_passed_by(int(type)); ++j) {
          const int to = g.neighbour[std::size_t(sq)][std::size_t(j)];
          if (captures_passed_by_onto(x, sq, to)) out.passed_reach[x][std::size_t(sq)] |= bit(to);
        }
      }
      std::array<std::vector<ReverseAtom>, kSquares> by_to;
      const auto& first = g.first[si][type];
      for (int from = 0; from < kSquares; ++from) {
        out.forward_first[si][type][std::size_t(from)] = std::uint32_t(out.forward.size());
        for (int i = first[std::size_t(from)]; i < first[std::size_t(from) + 1]; ++i) {
          const Atom& a = g.atoms[std::size_t(i)];
          if (a.flags & kFirstMove) continue;
          const bool plain = !(a.flags & kDoubleStep) && a.middle < 0 && (a.block < 0 || !r.hobbling);
          if (plain && (a.flags & kMoveOk)) out.move[si][type][std::size_t(from)] |= bit(a.to);
          if (plain && (a.flags & kCaptureOk)) out.capture[si][type][std::size_t(from)] |= bit(a.to);
          if (!plain) out.forward.push_back(a);
          if (!(a.flags & kMoveOk)) continue;
          if (plain) out.back[si][type][std::size_t(a.to)] |= bit(from);
          else by_to[std::size_t(a.to)].push_back({std::int8_t(from), a.block, a.middle});
        }
      }
      out.forward_first[si][type][kSquares] = std::uint32_t(out.forward.size());
      for (int to = 0; to < kSquares; ++to) {
        out.backward_first[si][type][std::size_t(to)] = std::uint32_t(out.backward.size());
        out.backward.insert(out.backward.end(), by_to[std::size_t(to)].begin(), by_to[std::size_t(to)].end());
      }
      out.backward_first[si][type][kSquares] = std::uint32_t(out.backward.size());
    }
  }
  add_lines(g, out);
  return out;
}

int opposite(int d) { return d < 4 ? (d + 2) % 4 : 4 + (d - 2) % 4; }

Set occupied(const Placement& pl) {
  Set s = 0;
  for (int k = 0; k < pl.n; ++k) s |= bit(pl.square[std::size_t(k)]);
  return s;
}

Set all_squares() { return (Set{1} << kSquares) - 1; }

// Files e-i, where South's royal crosses the mirror fold (Solver::un_moves).
Set fold_files() {
  static const Set files = [] {
    Set s = 0;
    for (int sq = 0; sq < kSquares; ++sq)
      if (file_of(sq) >= kFiles / 2) s |= bit(sq);
    return s;
  }();
  return files;
}

// A placement's squares: all its pieces', and each side's (by index(side)), found once a
// position for the steps that read them.
struct Squares {
  Set taken = 0;
  std::array<Set, 2> side{};
};

Squares squares_of(const Placement& pl) {
  Squares out;
  for (int k = 0; k < pl.n; ++k) out.side[std::size_t(index(side_of(pl.piece[std::size_t(k)])))] |= bit(pl.square[std::size_t(k)]);
  out.taken = out.side[0] | out.side[1];
  return out;
}

// Of `on`, squares of one ray from `from`, the one nearest `from`.
int nearest_on(const AtomSets& as, int from, Set on) {
  for (Set b = on;; b &= b - 1)
    if (!(as.between[std::size_t(from)][std::size_t(lowest(b))] & on)) return lowest(b);
}

// Calls f(slot, from, passed) for the moves inside the material that lead to c (no field,
// stored): the piece in placement slot `slot` came from `from`, by a move that passed `passed` (0:
// none). The same moves as generate_moves makes from the predecessor (steps and leaps, hobbling
// read; slides back to the first blocker; a Pawn's 2-step; an Emperor's two-steps, one per middle
// square), one for one, except that an Emperor's moves from one square whose field the opponent
// cannot use (no square passed, or none in `reach`, the squares where the opponent's pieces could
// take what passed by) come once, with passed 0: whatever the path, they make one stored
// position, and counting it once is what halves an Emperor's updates. table_moves groups
// the same moves. Most moves pass nothing the opponent can use: those come as sets instead,
// group(slot, froms), each square of a set one move (a set per kind of move, so a square reached
// by two kinds of move comes twice, as generate_moves makes two moves).
template <class F, class G>
void for_each_unmove(const Rules& r, const Geometry& g, const AtomSets& as, const Position& c, const Placement& pl, Set reach, F&& f,
                     G&& group) {
  const Side mover = other(c.to_move);
  const auto si = std::size_t(index(mover));
  const auto& ring = neighbour_sets();
  const Set empty = all_squares() & ~occupied(pl);
  for (int s = 0; s < pl.n; ++s) {
    const Piece x = pl.piece[std::size_t(s)];
    if (side_of(x) != mover) continue;
    const int to = pl.square[std::size_t(s)];
    const auto type = std::size_t(type_of(x));
    const bool emperor = is_royal(x) && is_promoted(x);
    Set quiet = 0;  // an Emperor's grouped moves, by the square it came from
    const Set plain = as.back[si][type][std::size_t(to)] & empty & as.stand[x];
    if (emperor) quiet = plain;
    else group(s, plain);
    for (std::uint32_t k = as.backward_first[si][type][std::size_t(to)]; k < as.backward_first[si][type][std::size_t(to) + 1]; ++k) {
      const ReverseAtom& a = as.backward[k];
      if (c.cell[std::size_t(a.from)] != kEmpty || !can_stand(r, x, a.from)) continue;
      if (a.block >= 0 && r.hobbling && c.cell[std::size_t(a.block)] != kEmpty) continue;
      if (a.middle < 0) {
        if (emperor) quiet |= bit(a.from);
        else f(s, a.from, Set{0});
      } else if (c.cell[std::size_t(a.middle)] == kEmpty) {
        f(s, a.from, bit(a.middle));
      }
    }
    const unsigned dirs = g.slides[si][type];
    Set slid = 0;  // slides back that passed nothing in reach: distinct squares, one move each
    for (int d = 0; d < 8; ++d) {
      if (!(dirs >> d & 1)) continue;
      // The ray back up to its first piece, as a set; past its nearest square in reach, a
      // slide passed it.
      const Set ray = as.ray[std::size_t(to)][std::size_t(opposite(d))], blockers = ray & ~empty;
      const Set open = blockers ? ray & ~as.ray[std::size_t(nearest_on(as, to, blockers))][std::size_t(opposite(d))] & empty : ray;
      const Set froms = open & as.stand[x], inreach = open & reach;
      const Set past = inreach ? open & as.ray[std::size_t(nearest_on(as, to, inreach))][std::size_t(opposite(d))] : Set{0};
      slid |= froms & ~past;
      for (Set from = froms & past; from; from &= from - 1) f(s, lowest(from), as.between[std::size_t(to)][std::size_t(lowest(from))]);
    }
    group(s, slid);
    if (!emperor) continue;
    for (Set mids = ring[std::size_t(to)] & empty; mids; mids &= mids - 1) {
      const int mid = lowest(mids);
      if (!has(reach, mid)) {
        quiet |= ring[std::size_t(mid)] & empty;
        continue;
      }
      for (Set from = ring[std::size_t(mid)] & empty; from; from &= from - 1) f(s, lowest(from), bit(mid));
    }
    group(s, quiet);
  }
}

// The three kinds of move table_moves reads for one piece x of the side to move (si) on `from`,
// each handed to push(x, from, to, mid, kind, passed, captures). An Emperor's moves that pass
// nothing the opponent can use are not pushed but returned, as the squares they reach
// (`emperor`), to be counted once a square with its other such moves.

// Steps and leaps that need more than their target square (AtomSets::forward: hobbled leaps,
// 2-steps, moves that only move or only capture).
template <class Push>
Set atom_moves(const Rules& r, const AtomSets& as, const Position& p, std::size_t si, Piece x, int from, bool emperor, Push&& push) {
  Set quiet = 0;
  const auto& first = as.forward_first[si][std::size_t(type_of(x))];
  for (std::uint32_t i = first[std::size_t(from)]; i < first[std::size_t(from) + 1]; ++i) {
    const Atom& a = as.forward[i];
    if (a.block >= 0 && r.hobbling && p.cell[std::size_t(a.block)] != kEmpty) continue;
    const bool two = a.flags & kDoubleStep;
    if (two && p.cell[std::size_t(a.middle)] != kEmpty) continue;
    const Piece t = p.cell[std::size_t(a.to)];
    const MoveKind kind = two ? MoveKind::double_step : MoveKind::step;
    const Set passed = two ? bit(a.middle) : 0;
    if (t == kEmpty) {
      if (!(a.flags & kMoveOk)) continue;
      if (emperor && !passed) quiet |= bit(a.to);
      else push(x, from, a.to, a.middle, kind, passed, false);
    } else if (side_of(t) != side_of(x) && (a.flags & kCaptureOk)) {
      push(x, from, a.to, a.middle, kind, passed, true);
    }
  }
  return quiet;
}

// Slides, each ray up to the first piece (taken if an enemy). Those that pass nothing in `reach`
// and do not promote stay plain, counted as a set (`plain`); the others are pushed one by one,
// with the squares they pass: most of a slider's moves are counted without a call a square.
template <class Push, class Count>
void slide_moves(const Geometry& g, const AtomSets& as, std::size_t si, Piece x, int from, Set taken, Set enemies, Set reach,
                 Push&& push, Count&& plain) {
  const unsigned dirs = g.slides[si][std::size_t(type_of(x))];
  const Set promoting = is_promoted(x) ? Set{0} : as.zone[si];
  const auto& between = as.between[std::size_t(from)];
  for (int d = 0; d < 8; ++d) {
    if (!(dirs >> d & 1)) continue;
    const Set ray = as.ray[std::size_t(from)][std::size_t(d)], blockers = ray & taken;
    const int stop = blockers ? nearest_on(as, from, blockers) : -1;
    const Set open = stop < 0 ? ray : ray & ~as.ray[std::size_t(stop)][std::size_t(d)] & ~bit(stop);
    // Past the nearest square in reach, a slide passes it.
    const Set inreach = open & reach;
    const Set past = inreach ? open & as.ray[std::size_t(nearest_on(as, from, inreach))][std::size_t(d)] : Set{0};
    plain((open & ~past) & ~promoting);
    for (Set to = (open & ~past & promoting) | past; to; to &= to - 1)
      push(x, from, lowest(to), kNoSquare, MoveKind::slide, between[std::size_t(lowest(to))], false);
    if (stop >= 0 && has(enemies, stop)) push(x, from, stop, kNoSquare, MoveKind::slide, between[std::size_t(stop)], true);
  }
}

// An Emperor's two-steps through each neighbour `mid` (empty or an enemy, taken on the way), to
// a neighbour of mid or back to `from`.
template <class Push>
Set emperor_two_steps(Piece x, int from, Set empty, Set enemies, Set reach, Push&& push) {
  const auto& ring = neighbour_sets();
  Set quiet = 0;
  for (Set mids = ring[std::size_t(from)] & (empty | enemies); mids; mids &= mids - 1) {
    const int mid = lowest(mids);
    const bool takes = has(enemies, mid);
    if (takes) push(x, from, from, mid, MoveKind::two_step, bit(mid), true);  // and back
    if (!takes && !has(reach, mid)) quiet |= ring[std::size_t(mid)] & empty;
    const Set ends = ring[std::size_t(mid)] & (takes || has(reach, mid) ? empty | enemies : enemies) & ~bit(from);
    for (Set to = ends; to; to &= to - 1) push(x, from, lowest(to), mid, MoveKind::two_step, bit(mid), takes || has(enemies, lowest(to)));
  }
  return quiet;
}

// Where each piece of the side to move (by placement slot) may make a quiet move (one that
// captures nothing) and leave its royal standing: a move elsewhere lets the opponent take the
// royal at once, and loses in 2 plies (Threats::safe_squares).
using Safe = std::array<Set, kMaxTablePieces>;
const std::uint16_t kRoyalLeftToBeTaken = code(kLoss, 2);

// A position's plain moves (table_moves), those that leave its royal standing and the others.
struct Plain {
  int safe = 0, unsafe = 0;
};

// Counts the plain moves of p, a stored position (no field, no first-move rights): those that
// stay inside the material (capture nothing, do not promote) and leave no field the opponent can
// use (none of the squares they pass in `reach`), whose value is their stored position's, apart
// by whether they leave the royal standing (`safe`): the others lose at once. Calls
// visit(move, passed, captures) for each of its other moves, with the squares it passes and
// whether it captures. The moves are generate_moves's (the same atoms, slides and two-steps),
// without building a list, one for one except that an Emperor's plain moves count once for each
// square they reach (steps, leaps and two-steps alike make one stored position), as
// for_each_unmove gives them. The tests check the tables it makes against the sweeps, which take
// their moves from generate_moves.
template <class Visit>
Plain table_moves(const Rules& r, const Geometry& g, const AtomSets& as, const Position& p, const Placement& pl, const Squares& sq,
                  Set reach, const Safe& safe, Visit&& visit) {
  const Side side = p.to_move;
  const auto si = std::size_t(index(side));
  Plain plain;
  int slot = 0;  // the piece whose moves are read
  const auto count = [&](Set to) {
    plain.safe += popcount(to & safe[std::size_t(slot)]);
    plain.unsafe += popcount(to & ~safe[std::size_t(slot)]);
  };
  auto push = [&](Piece x, int from, int to, int mid, MoveKind kind, Set passed, bool captures) {
    const bool promotes = !is_promoted(x) && in_zone(side, to);
    const bool stays = !captures && !(passed & reach);
    Move m{std::int8_t(from), std::int8_t(to), std::int8_t(mid), kind, promotes};
    if (promotes && r.optional_promotion) {
      m.promotes = false;
      if (stays) count(bit(to));
      else visit(m, passed, captures);
      m.promotes = true;
    }
    if (stays && !promotes) count(bit(to));
    else visit(m, passed, captures);
  };
  const Set enemies = sq.side[std::size_t(index(other(side)))];
  const Set empty = all_squares() & ~sq.taken;
  for (slot = 0; slot < pl.n; ++slot) {
    const Piece x = pl.piece[std::size_t(slot)];
    if (side_of(x) != side) continue;
    const int from = pl.square[std::size_t(slot)];
    const auto type = std::size_t(type_of(x));
    const bool emperor = is_royal(x) && is_promoted(x);
    // Steps and leaps that need only their target square, as sets: counted where they stay
    // plain, an Emperor's kept with its other quiet moves (by the square they reach).
    const Set moves = as.move[si][type][std::size_t(from)] & empty;
    const Set promoting = is_promoted(x) ? Set{0} : as.zone[si];
    Set quiet = emperor ? moves : Set{0};
    if (!emperor) count(moves & ~promoting);
    for (Set to = moves & promoting; to; to &= to - 1) push(x, from, lowest(to), kNoSquare, MoveKind::step, Set{0}, false);
    for (Set to = as.capture[si][type][std::size_t(from)] & enemies; to; to &= to - 1) push(x, from, lowest(to), kNoSquare, MoveKind::step, Set{0}, true);
    quiet |= atom_moves(r, as, p, si, x, from, emperor, push);
    slide_moves(g, as, si, x, from, sq.taken, enemies, reach, push, count);
    if (emperor) quiet |= emperor_two_steps(x, from, empty, enemies, reach, push);
    count(quiet);
  }
  return plain;
}

// What a move to c with the field (passed, ending on `end`) is worth through c's captures of
// what passed by (see the head of the file).
struct Caps {
  enum Kind : std::uint8_t { none, alone, win, loss, draw } kind = none;
  int dist = 0;
  std::uint16_t value = kInvalidEntry;  // the best capture for c's side to move
};

// The squares where the pieces of `side` could capture what passed by (AtomSets::passed_reach).
// A field none of whose passed squares is among them has no capture of what passed by.
Set capture_reach(const AtomSets& as, const Placement& pl, Side side) {
  Set reach = 0;
  for (int k = 0; k < pl.n; ++k)
    if (side_of(pl.piece[std::size_t(k)]) == side) reach |= as.passed_reach[pl.piece[std::size_t(k)]][std::size_t(pl.square[std::size_t(k)])];
  return reach;
}

// The squares a move passes (0 for a step, a leap, a slide of one square).
Set passed_by_move(const Move& m) {
  if (m.kind == MoveKind::double_step || m.kind == MoveKind::two_step) return bit(m.mid);
  if (m.kind != MoveKind::slide || distance(m.from, m.to) < 2) return 0;
  Set s = 0;
  const int df = (file_of(m.to) > file_of(m.from)) - (file_of(m.to) < file_of(m.from));
  const int dr = (rank_of(m.to) > rank_of(m.from)) - (rank_of(m.to) < rank_of(m.from));
  for (int f = file_of(m.from) + df, k = rank_of(m.from) + dr; square_at(f, k) != m.to; f += df, k += dr) s |= bit(square_at(f, k));
  return s;
}

// Whether m (from a stored position, so without a field) leaves the material.
bool leaves_material(const Position& p, const Move& m) {
  if (m.promotes) return true;
  auto enemy = [&](int sq) { return p.cell[std::size_t(sq)] != kEmpty && side_of(p.cell[std::size_t(sq)]) != p.to_move; };
  if (m.kind == MoveKind::two_step) return enemy(m.mid) || (m.to != m.from && enemy(m.to));
  return enemy(m.to);
}

// Where a royal would be taken (piece_takes' moves, read as sets and lines): whether the side to
// move takes the enemy royal, and which quiet moves of the side to move leave its own royal to be
// taken (Safe). The solver's fast forms of the rules engine's piece_takes_royal, for the moves
// the AtomSets hold; the tables they make are checked against the sweeps, which use the engine.
struct Threats {
  const Rules& rules;
  const Geometry& g;
  const AtomSets& as;

  // The squares of `among` on which the piece x on `from` would take a royal (piece_takes' moves,
  // onto each square at once), with `occupied` the squares taken and `own` those of x's side.
  Set takes_on(Piece x, int from, Set occupied, Set own, Set among) const {
    const auto si = std::size_t(index(side_of(x))), type = std::size_t(type_of(x));
    Set out = as.capture[si][type][std::size_t(from)];
    const auto& first = as.forward_first[si][type];
    for (std::uint32_t k = first[std::size_t(from)]; k < first[std::size_t(from) + 1]; ++k) {
      const Atom& a = as.forward[k];
      if ((a.flags & kCaptureOk) && !(need_empty(a) & occupied)) out |= bit(a.to);
    }
    const unsigned dirs = g.slides[si][type];
    for (int d = 0; d < 8; ++d) {
      if (!(dirs >> d & 1)) continue;
      const Set ray = as.ray[std::size_t(from)][std::size_t(d)], blockers = ray & occupied;
      if (!(ray & among)) continue;
      // The ray up to its first piece, that piece's square included.
      out |= blockers ? (ray & ~as.ray[std::size_t(nearest_on(as, from, blockers))][std::size_t(d)]) : ray;
    }
    if (is_royal(x) && is_promoted(x)) out |= emperor_takes_on(from, own);
    return out & among;
  }

  // An Emperor's two King steps take on its neighbours and on theirs past any not of `own` side
  // (all of them where none of its own stands beside it, as a rule).
  static Set emperor_takes_on(int from, Set own) {
    const auto& ring = neighbour_sets();
    if (!(ring[std::size_t(from)] & own)) return two_step_sets()[std::size_t(from)];
    Set out = ring[std::size_t(from)];
    for (Set mids = ring[std::size_t(from)] & ~own; mids; mids &= mids - 1) out |= ring[std::size_t(lowest(mids))];
    return out;
  }

  // The squares a forward atom needs empty (its hobbling square, a 2-step's middle).
  Set need_empty(const Atom& a) const {
    Set s = 0;
    if (a.block >= 0 && rules.hobbling) s |= bit(a.block);
    if (a.flags & kDoubleStep) s |= bit(a.middle);
    return s;
  }

  // Calls f(need) for each way the enemy piece x on `from` takes a royal on `target`, `need` the
  // squares it needs empty (0: none, as when the piece steps onto the royal).
  template <class F>
  void lines_onto(Piece x, int from, int target, Set own, F&& f) const {
    const auto si = std::size_t(index(side_of(x))), type = std::size_t(type_of(x));
    if (has(as.capture[si][type][std::size_t(from)], target)) f(Set{0});
    const auto& first = as.forward_first[si][type];
    for (std::uint32_t k = first[std::size_t(from)]; k < first[std::size_t(from) + 1]; ++k) {
      const Atom& a = as.forward[k];
      if (a.to == target && (a.flags & kCaptureOk)) f(need_empty(a));
    }
    const unsigned dirs = g.slides[si][type];
    for (int d = 0; d < 8; ++d)
      if ((dirs >> d & 1) && has(as.ray[std::size_t(from)][std::size_t(d)], target)) f(as.between[std::size_t(from)][std::size_t(target)]);
    if (is_royal(x) && is_promoted(x) && has(emperor_takes_on(from, own), target)) f(Set{0});
  }

  // Whether p's side to move takes the enemy royal (piece_takes_royal, by the lines onto it).
  bool takes_a_royal(const Position& p, const Placement& pl, const Squares& sq) const {
    const int target = p.royal[std::size_t(index(other(p.to_move)))];
    const Set taken = sq.taken, own = sq.side[std::size_t(index(p.to_move))];
    bool takes = false;
    for (int k = 0; k < pl.n && !takes; ++k) {
      const Piece x = pl.piece[std::size_t(k)];
      const int from = pl.square[std::size_t(k)];
      if (side_of(x) != p.to_move || !has(g.reach(side_of(x), type_of(x), from), target)) continue;
      lines_onto(x, from, target, own, [&](Set need) { takes = takes || !(need & taken); });
    }
    return takes;
  }

  // Where each piece of p's side to move may make a quiet move and leave its royal standing
  // (Safe): the royal itself, where no enemy piece takes it once it has left its square; another
  // piece, into every line on which an enemy takes the royal that is open (its squares empty) or
  // that only that piece closes. Found once a position, from the few enemy pieces whose reach
  // on an empty board meets the royal's: the un-moves from every position that takes a royal,
  // which it replaces, were a quarter of a solve.
  Safe safe_squares(const Position& p, const Placement& pl, const Squares& sq) const {
    const Side mover = p.to_move;
    const int royal = p.royal[std::size_t(index(mover))];
    const Set taken = sq.taken, enemy = sq.side[std::size_t(index(other(mover)))];
    Safe safe;
    safe.fill(all_squares());
    Set open = all_squares(), taken_on = 0;
    int royal_slot = 0;
    for (int k = 0; k < pl.n; ++k)
      if (pl.square[std::size_t(k)] == royal) royal_slot = k;
    // Where the royal could go, and whether an enemy piece could take there or on the royal's
    // square on an empty board: most cannot.
    const Piece r = pl.piece[std::size_t(royal_slot)];
    const Set goes = as.goes[std::size_t(index(mover))][std::size_t(type_of(r))][std::size_t(royal)];
    for (int k = 0; k < pl.n; ++k) {
      const Piece x = pl.piece[std::size_t(k)];
      const int from = pl.square[std::size_t(k)];
      if (side_of(x) == mover) continue;
      const Set reach = g.reach(side_of(x), type_of(x), from);
      if (reach & goes) taken_on |= takes_on(x, from, taken & ~bit(royal), enemy, goes);
      if (!has(reach, royal)) continue;
      lines_onto(x, from, royal, enemy, [&](Set need) {
        const Set closed = need & taken;
        if (!closed) open &= need;
        else if (!(closed & (closed - 1)) && !(closed & enemy)) safe[std::size_t(slot_on(pl, lowest(closed)))] &= need;
      });
    }
    for (int k = 0; k < pl.n; ++k) safe[std::size_t(k)] &= open;
    safe[std::size_t(royal_slot)] = all_squares() & ~taken_on;
    return safe;
  }

  static int slot_on(const Placement& pl, int sq) {
    int k = 0;
    while (pl.square[std::size_t(k)] != sq) ++k;
    return k;
  }
};

// The values of captures of what passed by of one piece (one slot of a placement), by the square
// the capture moves to: the moves to one position (un-moves) or from one (its moves) share them.
struct CapsCache {
  int slot = -1;
  Set known = 0;
  std::array<std::uint16_t, kSquares> value;  // where `known`
};

// A bit an index, set by any thread (relaxed: a bit only ever goes from 0 to 1).
class IndexBits {
 public:
  explicit IndexBits(std::uint64_t n) : words_((n + 63) / 64) {}
  bool operator[](std::uint64_t i) const { return words_[i / 64].load(std::memory_order_relaxed) >> (i % 64) & 1; }
  std::uint64_t words() const { return words_.size(); }
  std::uint64_t word(std::uint64_t w) const { return words_[w].load(std::memory_order_relaxed); }
  void set(std::uint64_t i) {
    std::atomic<std::uint64_t>& w = words_[i / 64];
    const std::uint64_t b = std::uint64_t{1} << (i % 64);
    if (!(w.load(std::memory_order_relaxed) & b)) w.fetch_or(b, std::memory_order_relaxed);
  }

 private:
  std::vector<std::atomic<std::uint64_t>> words_;
};

struct Update {
  std::uint64_t index;
  int win;  // > 0: the position wins in that many plies or less; 0: one more of its moves lost
};

struct Pending {
  std::uint64_t index;
  int base;  // the loss distance from its other moves
};

class Solver {
 public:
  Solver(const TableSet& set, Table& t)
      : set_(set), rules_(set.rules()), g_(geometry(rules_.lancer_queen)), atoms_(build_atom_sets(rules_, g_)), t_(t),
        reader_{set, rules_}, fixed_loss_(t.indexer.size(), 0),
        mark_words_((t.indexer.size() / kBlock + 64) / 64), marks_(std::size_t(kMarkedLevels) * mark_words_),
        takes_royal_(t.indexer.size()), later_(t.indexer.size()), won_(t.indexer.size()) {
    find_tables_after();
    for (std::size_t x = 0; x < steps_.size(); ++x) steps_[x] = t_.indexer.square_step(Piece(x));
  }

  void run(const LevelReport& on_level, bool keep_derived) {
    const auto t0 = std::chrono::steady_clock::now();
    initialise();
    for (int level = 0;; ++level) {
      if (level >= kMaxDist) throw GonuError("material " + material_text(t_.indexer.material()) + ": distances pass " + std::to_string(kMaxDist));
      resolve_pending(level);
      if (level > max_written_.load() && pending_.empty()) break;
      const std::uint64_t decided = propagate(level);
      if (on_level) on_level(t_.indexer.material(), level, decided, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    for (std::uint16_t& e : t_.entries)
      if (undecided(e)) e = kDraw;
    if (keep_derived) keep_derived_bits();
  }

 private:
  static constexpr std::size_t kGrain = 2048, kBatch = 1024;
  // A level's pass reads only the blocks of kBlock entries where an entry was decided at that level
  // (marks_, one bit a block and level below kMarkedLevels; a level past them is read whole): past
  // the first levels few positions are decided a level, and a pass over every entry cost more than
  // their un-moves (tables of 100 to 200 levels).
  static constexpr std::uint64_t kBlock = 1024;
  static constexpr int kMarkedLevels = 1024;

  // Entry i was decided at distance d: its block is read at level d, and the levels run to d.
  void note_written(std::uint64_t i, int d) {
    if (d < kMarkedLevels) {
      const std::uint64_t b = i / kBlock, bit = std::uint64_t(1) << (b % 64);
      std::atomic<std::uint64_t>& w = marks_[std::size_t(d) * mark_words_ + b / 64];
      if (!(w.load(std::memory_order_relaxed) & bit)) w.fetch_or(bit, std::memory_order_relaxed);
    }
    int m = max_written_.load(std::memory_order_relaxed);
    while (d > m && !max_written_.compare_exchange_weak(m, d)) {}
  }

  // What a move to c (its placement, `to_move` to move in it) with the field (passed, ending on
  // the piece of slot end_slot) is worth through c's captures of what passed by. Each capture
  // takes the piece that just moved and leaves no field: its value is read straight from the
  // smaller table (the same as Reader::passed_by_captures, without building positions), except
  // under stalemate=draw, where c's other moves must be looked at (Reader).
  Caps caps(const Placement& c, Side to_move, Set passed, int end_slot, Set reach, CapsCache& cache) const {
    if (!(passed & reach)) return {};
    if (rules_.stalemate_draw) return caps_by_reader(c, to_move, passed, end_slot);
    if (cache.slot != end_slot) {
      cache.slot = end_slot;
      cache.known = 0;
    }
    Best best;
    for (Set ps = passed & reach; ps; ps &= ps - 1) {
      const int q = lowest(ps);
      if (!has(cache.known, q)) {
        cache.value[std::size_t(q)] = captures_onto(c, to_move, q, end_slot);
        cache.known |= bit(q);
      }
      best.add(cache.value[std::size_t(q)]);
    }
    Caps out;
    out.value = best.result();
    out.dist = dist(out.value);
    out.kind = kind(out.value) == kWin ? Caps::win : kind(out.value) == kLoss ? Caps::loss : Caps::draw;
    return out;
  }

  // The best, for `to_move`, of its captures of what passed by onto q (one of them at least) of
  // the piece of slot end_slot. Where that piece stands does not matter: it is taken.
  std::uint16_t captures_onto(const Placement& c, Side to_move, int q, int end_slot) const {
    const Piece moved = c.piece[std::size_t(end_slot)];
    Best best;
    for (int k = 0; k < c.n; ++k) {
      const Piece x = c.piece[std::size_t(k)];
      if (side_of(x) != to_move || !has(atoms_.passed_reach[x][std::size_t(c.square[std::size_t(k)])], q)) continue;
      if (is_royal(moved)) {
        best.add(code(kWin, 1));  // the royal taken
        continue;
      }
      const bool promotes = !is_promoted(x) && in_zone(to_move, q);
      best.add(through_move(after_capture(c, k, q, promotes ? promote(x) : x, end_slot, to_move)));
      if (promotes && rules_.optional_promotion) best.add(through_move(after_capture(c, k, q, x, end_slot, to_move)));
    }
    return best.result();
  }

  // The stored value of c after the piece of slot k (now x) moved to q taking the piece of slot
  // `taken`, the other side to move.
  std::uint16_t after_capture(const Placement& c, int k, int q, Piece x, int taken, Side to_move) const {
    Placement r;
    for (int j = 0; j < c.n; ++j) {
      if (j == taken) continue;
      r.piece[std::size_t(r.n)] = j == k ? x : c.piece[std::size_t(j)];
      r.square[std::size_t(r.n)] = std::int8_t(j == k ? q : c.square[std::size_t(j)]);
      ++r.n;
    }
    return stored_after(r, other(to_move), c.piece[std::size_t(taken)], kEmpty, x != c.piece[std::size_t(k)] ? c.piece[std::size_t(k)] : kEmpty);
  }

  // The tables captures and promotions lead to, found once a solve (a lookup by material for each
  // capture valued cost a tenth of the solve): by the pieces a move takes (up to two, an Emperor's
  // two-step) and the piece it promotes, each as its place among the material's kinds of piece
  // (0: none). A table of the flipped material is read flipped.
  struct TableRef {
    const Table* table = nullptr;
    bool flip = false;
    Material material;  // for the message when the table is not held
  };
  static constexpr std::size_t kKindsHere = kMaxTablePieces + 1;

  void find_tables_after() {
    const Material& m = t_.indexer.material();
    std::vector<Piece> kinds{kEmpty};
    for (const Side s : {Side::south, Side::north})
      for (int type = 0; type < kTypes; ++type)
        if (m.count[std::size_t(index(s))][std::size_t(type)]) kinds.push_back(make_piece(s, type));
    for (std::size_t i = 1; i < kinds.size(); ++i) kind_id_[kinds[i]] = std::uint8_t(i);
    tables_after_.resize(kKindsHere * kKindsHere * kKindsHere);
    for (std::size_t a = 0; a < kinds.size(); ++a)
      for (std::size_t b = 0; b < kinds.size(); ++b)
        for (std::size_t p = 0; p < kinds.size(); ++p) {
          Material x = m;
          bool possible = true;
          auto change = [&](Piece y, int by) {
            auto& n = x.count[std::size_t(index(side_of(y)))][std::size_t(type_of(y))];
            if (by < 0 && n == 0) possible = false;
            else n = std::uint8_t(n + by);
          };
          if (a) change(kinds[a], -1);
          if (b) change(kinds[b], -1);
          if (p && !is_promoted(kinds[p])) change(kinds[p], -1), change(promote(kinds[p]), +1);
          if (!possible) continue;
          TableRef& ref = tables_after_[(a * kKindsHere + b) * kKindsHere + p];
          ref.material = x;
          ref.table = set_.find(x);
          ref.flip = !ref.table;
          if (!ref.table) ref.table = set_.find(flipped(x));
          // stored_after reads entries as they are: a table read as stored would give its
          // derived indices' don't-cares.
          if (ref.table && ref.table->derive_on_read)
            throw std::logic_error("jungi tables: the solver needs " + material_text(canonical(x)) + " read whole (TableFile::load)");
        }
  }

  // The stored entry of r (the placement after a capture of `taken` and `also`, and the promotion
  // of `promoted`; kEmpty: none) with `to_move` to move.
  std::uint16_t stored_after(const Placement& r, Side to_move, Piece taken, Piece also, Piece promoted) const {
    const TableRef& ref = tables_after_[(std::size_t(kind_id_[taken]) * kKindsHere + kind_id_[also]) * kKindsHere + kind_id_[promoted]];
    if (!ref.table) throw GonuError("jungi tables: the table of " + material_text(canonical(ref.material)) + " is not solved");
    const std::uint64_t i = ref.flip ? ref.table->indexer.encode_flipped(r, other(to_move)) : ref.table->indexer.encode(r, to_move);
    return ref.table->entries[i];
  }

  Caps caps_by_reader(const Placement& c, Side to_move, Set passed, int end_slot) const {
    Position p;
    for (int k = 0; k < c.n; ++k) p.cell[std::size_t(c.square[std::size_t(k)])] = c.piece[std::size_t(k)];
    p.to_move = to_move;
    p.passed = passed;
    p.passed_end = c.square[std::size_t(end_slot)];
    find_royals(p);
    bool alone = false;
    Caps out;
    out.value = reader_.passed_by_captures(p, alone);
    if (out.value == kInvalidEntry) return {};
    out.dist = dist(out.value);
    out.kind = alone ? Caps::alone : kind(out.value) == kWin ? Caps::win : kind(out.value) == kLoss ? Caps::loss : Caps::draw;
    return out;
  }

  // The value for its mover of m, which leaves the material (a capture or a promotion). Without
  // a field the opponent could use (none of the passed squares in reach of its capturers, which a
  // capture only makes fewer), straight from the smaller table; else by the Reader.
  std::uint16_t leaving_value(const Position& p, const Placement& pl, const Move& m, Set passed, Set reach) const {
    if (passed & reach) return through_move(reader_.child(apply_move(p, m)));
    auto taken = [&](int sq) {
      if (m.kind == MoveKind::two_step) return sq == m.mid || (sq == m.to && m.to != m.from);
      return sq == m.to;
    };
    Placement r;
    std::array<Piece, 2> took{kEmpty, kEmpty};
    Piece promoted = kEmpty;
    for (int k = 0; k < pl.n; ++k) {
      Piece x = pl.piece[std::size_t(k)];
      int sq = pl.square[std::size_t(k)];
      if (sq != m.from && taken(sq)) {
        if (is_royal(x)) return code(kWin, 1);  // the royal taken
        took[took[0] == kEmpty ? 0 : 1] = x;
        continue;
      }
      if (sq == m.from) {
        sq = m.to;
        if (m.promotes) promoted = x, x = promote(x);
      }
      r.piece[std::size_t(r.n)] = x;
      r.square[std::size_t(r.n++)] = std::int8_t(sq);
    }
    return through_move(stored_after(r, other(p.to_move), took[0], took[1], promoted));
  }

  // The placement after m (which captures nothing) and the slot of the piece it moved.
  static int moved_placement(const Placement& p, const Move& m, Placement& out) {
    out = p;
    for (int k = 0; k < p.n; ++k)
      if (p.square[std::size_t(k)] == m.from) {
        out.square[std::size_t(k)] = m.to;
        if (m.promotes) out.piece[std::size_t(k)] = promote(p.piece[std::size_t(k)]);
        return k;
      }
    return -1;
  }

  // Every position valued from its moves that leave the material, its other moves counted. A
  // placement whose South royal stands on the e-file is stored twice, as itself and as its mirror
  // image (indexing.hpp): every rule is left-right symmetric, so the one of the larger index
  // starts as its image does, copied once the others are found (copy_images) instead of found
  // again (a tenth of the indices). The levels then pass on both, as before.
  void initialise() {
    const std::uint64_t n = t_.indexer.size();
    t_.entries.assign(n, kInvalidEntry);
    tbb::enumerable_thread_specific<std::vector<Pending>> found;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, kGrain), [&](const tbb::blocked_range<std::uint64_t>& r) {
      Position p;
      auto& mine = found.local();
      Placement pl;
      bool found_here = false;
      // Indices 2k and 2k + 1 are one placement, South then North to move: decoded once.
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
        if (i % 2 == 0 || i == r.begin()) {
          const bool valid = t_.indexer.decode(i, p, pl);
          const bool copied = valid && image_index(p, pl) < i;  // kInvalid where none
          if (copied && i % 2 == 0) later_.set(i);
          found_here = valid && !copied;
        } else {
          p.to_move = Side::north;
        }
        if (found_here) initialise_one(i, p, pl, mine);
      }
    });
    copy_images(later_, found);
    for (auto& v : found) pending_.insert(pending_.end(), v.begin(), v.end());
  }

  // Table::derived: the indices whose side to move takes a royal, and the mirror images copied
  // (later_ marks a placement's even index; its odd one, North to move, is an image too).
  void keep_derived_bits() {
    t_.derived.resize(later_.words());
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, later_.words(), kGrain), [&](const tbb::blocked_range<std::uint64_t>& r) {
      for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
        const std::uint64_t images = later_.word(w);
        t_.derived[w] = takes_royal_.word(w) | images | images << 1;
      }
    });
  }

  // The index of the mirror image of p (placement pl) where its South royal stands on the e-file
  // (the image has another index, or the same where the placement is symmetric); else none.
  std::uint64_t image_index(const Position& p, const Placement& pl) const {
    if (file_of(p.royal[0]) != kFiles / 2) return Indexer::kInvalid;
    return t_.indexer.encode(mirror_placement(pl), p.to_move);
  }

  // Each placement of `later`, both sides to move, starts as its image: the entry, the longest
  // loss apart, the bits, the level's mark and the pending list, as initialise_one left the image.
  // The image's index is found again (a decode and an encode, a small part of what its moves
  // cost) rather than kept from the first pass, 8 bytes for each such placement.
  void copy_images(const IndexBits& later, tbb::enumerable_thread_specific<std::vector<Pending>>& found) {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, later.words(), kGrain / 64), [&](const tbb::blocked_range<std::uint64_t>& r) {
      Position p;
      Placement pl;
      auto& mine = found.local();
      for (std::uint64_t w = r.begin(); w != r.end(); ++w)
        for (std::uint64_t bits = later.word(w); bits; bits &= bits - 1) {
          const std::uint64_t i = w * 64 + std::uint64_t(__builtin_ctzll(bits));
          t_.indexer.decode(i, p, pl);
          const std::uint64_t image = image_index(p, pl);
          for (const std::uint64_t side : {std::uint64_t{0}, std::uint64_t{1}}) copy_start(i + side, image + side, mine);
        }
    });
  }

  void copy_start(std::uint64_t i, std::uint64_t from, std::vector<Pending>& pending) {
    const std::uint16_t e = t_.entries[from];
    t_.entries[i] = e;
    fixed_loss_[i] = fixed_loss_[from];
    if (takes_royal_[from]) takes_royal_.set(i);
    if (won_[from]) won_.set(i);
    if (decided(e)) note_written(i, dist(e));
    // initialise_one's last line: every counted move lost, with moves of caps WIN to wait for.
    if (undecided(e) && (e & kCounterMask) == 0 && !(e & kCantLose)) pending.push_back({i, fixed_loss_[i]});
  }

  void initialise_one(std::uint64_t i, const Position& p, const Placement& pl, std::vector<Pending>& pending) {
    std::uint16_t& e = t_.entries[i];
    // A position that takes the royal wins in 1, the shortest win there is: its other moves and
    // their probes are not looked at (16 % of KRvKO's indices win in 1).
    // Its predecessors learn it from their own moves (safe_squares): it is not passed on.
    const Squares sq = squares_of(pl);
    if (threats_.takes_a_royal(p, pl, sq)) {
      e = code(kWin, 1);
      note_written(i, 1);
      takes_royal_.set(i);
      won_.set(i);
      return;
    }
    const Set reach = capture_reach(atoms_, pl, other(p.to_move));
    const Safe safe = threats_.safe_squares(p, pl, sq);
    CapsCache cache;
    Best fixed;
    bool any_fixed = false, caps_win = false, any = false;
    int count = 0;  // the moves inside, not yet known to lose
    const Plain plain = table_moves(rules_, g_, atoms_, p, pl, sq, reach, safe, [&](const Move& m, Set passed, bool captures) {
      any = true;
      if (captures || m.promotes) {
        fixed.add(leaving_value(p, pl, m, passed, reach));
        any_fixed = true;
        return;
      }
      if (passed & reach) {
        if (is_royal(p.cell[std::size_t(m.from)])) {
          fixed.add(kRoyalPassedByThreat);
          any_fixed = true;
          return;
        }
        Placement c;
        const int slot = moved_placement(pl, m, c);
        const Caps caps = this->caps(c, other(p.to_move), passed, slot, reach, cache);
        if (caps.kind == Caps::alone) {
          fixed.add(through_move(caps.value));
          any_fixed = true;
          return;
        }
        if (caps.kind == Caps::win) {
          caps_win = true;
          return;
        }
        if (!has(safe[std::size_t(slot)], m.to)) {
          fixed.add(kRoyalLeftToBeTaken);
          any_fixed = true;
          return;
        }
      }
      ++count;
    });
    count += plain.safe;
    if (plain.unsafe) {
      fixed.add(kRoyalLeftToBeTaken);
      any_fixed = any = true;
    }
    if (!any && count == 0) {
      e = rules_.stalemate_draw ? kDraw : code(kLoss, 0);
      if (decided(e)) note_written(i, 0);
      return;
    }
    if (count > kCounterMask) throw GonuError("material " + material_text(t_.indexer.material()) + ": a position with too many moves");
    if (any_fixed && fixed.win) {
      e = code(kWin, fixed.win_dist);  // a WIN, perhaps shortened later by a move inside
      note_written(i, fixed.win_dist);
      return;
    }
    const bool cant_lose = any_fixed && !fixed.all_loss;
    const int loss = any_fixed ? fixed.loss_dist : 0;
    if (count == 0 && !caps_win) {
      e = fixed.result();
      if (decided(e)) note_written(i, dist(e));
      return;
    }
    e = static_cast<std::uint16_t>((cant_lose ? kCantLose : 0) | (caps_win ? kCapsWin : 0) | count);
    fixed_loss_[i] = static_cast<std::uint16_t>(loss);
    if (count == 0 && !cant_lose) pending.push_back({i, loss});
  }

  // Level `level`: the positions decided at that distance pass it on to their predecessors.
  std::uint64_t propagate(int level) {
    const std::uint64_t n = t_.indexer.size();
    const std::uint16_t loss_code = code(kLoss, level), win_code = code(kWin, level);
    const std::vector<std::uint64_t> blocks = blocks_of(level);
    tbb::enumerable_thread_specific<std::vector<Pending>> found;
    const std::uint64_t decided = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, blocks.size(), kGrain / kBlock), std::uint64_t{0},
        [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t here) {
          Position c;
          Placement pl;
          auto& mine = found.local();
          std::vector<Update> updates;
          std::array<std::uint16_t, kBlock> hits;
          for (std::size_t k = r.begin(); k != r.end(); ++k) {
            const std::uint64_t first = blocks[k] * kBlock;
            const int found_here = decided_in_block(first, std::min(n, first + kBlock), loss_code, win_code, hits);
            here += std::uint64_t(found_here);
            for (int h = 0; h < found_here; ++h) {
              const std::uint64_t i = first + (hits[std::size_t(h)] & ~kLostHit);
              if (!(hits[std::size_t(h)] & kLostHit)) won_.set(i);  // a WIN at its level is final
              if (level == 1 && takes_royal_[i]) continue;
              t_.indexer.decode(i, c, pl);
              un_moves(i, c, pl, level, hits[std::size_t(h)] & kLostHit, updates);
              if (updates.size() >= kBatch) apply(updates, level, mine);
            }
          }
          apply(updates, level, mine);
          return here;
        },
        std::plus<>());
    for (auto& v : found) pending_.insert(pending_.end(), v.begin(), v.end());
    return decided;
  }

  // The entries of [first, end) that read `loss` or `win`, in order, into hits (each its offset, and
  // kLostHit where it lost); their count. One tight pass over the block before any un-move: the
  // un-moves' scattered updates would otherwise evict the block between reads, each of its cache
  // lines then fetched late. No entry of the block changes to this level's codes meanwhile: a
  // level's updates write longer distances. Read four entries at a time, by one aligned 8-byte load
  // (a block starts at a multiple of kBlock entries): most groups hold neither code, which two
  // tests of the word tell (a lane that XORs to zero; a lane above a zero one may show as one too,
  // so a group that shows one is read again entry by entry). Read entry by entry, this pass had
  // half the samples of the level passes' own code in +K+P+Mv+K (perf).
  static constexpr std::uint16_t kLostHit = 0x8000;
  int decided_in_block(std::uint64_t first, std::uint64_t end, std::uint16_t loss, std::uint16_t win,
                       std::array<std::uint16_t, kBlock>& hits) {
    using Word [[gnu::may_alias]] = std::uint64_t;
    constexpr std::uint64_t kLanes = 0x0001000100010001, kHighs = 0x8000800080008000;
    const auto zero_lane = [](std::uint64_t x) { return (x - kLanes) & ~x & kHighs; };
    std::uint16_t* e = t_.entries.data() + first;
    const int size = int(end - first);
    const std::uint64_t losses = loss * kLanes, wins = win * kLanes;
    int found = 0;
    auto one = [&](int k) {
      const std::uint16_t x = std::atomic_ref<std::uint16_t>(e[k]).load(std::memory_order_relaxed);
      hits[std::size_t(found)] = std::uint16_t(k | (x == loss ? kLostHit : 0));
      found += x == loss || x == win;
    };
    int k = 0;
    for (; k + 4 <= size; k += 4) {
      const std::uint64_t x = __atomic_load_n(reinterpret_cast<const Word*>(e + k), __ATOMIC_RELAXED);
      if (!(zero_lane(x ^ losses) | zero_lane(x ^ wins))) continue;
      for (int j = k; j < k + 4; ++j) one(j);
    }
    for (; k < size; ++k) one(k);
    return found;
  }

  // The blocks that hold an entry decided at `level`, in order (every block past kMarkedLevels).
  std::vector<std::uint64_t> blocks_of(int level) const {
    std::vector<std::uint64_t> out;
    if (level >= kMarkedLevels) {
      for (std::uint64_t b = 0; b * kBlock < t_.indexer.size(); ++b) out.push_back(b);
      return out;
    }
    for (std::uint64_t w = 0; w < mark_words_; ++w)
      for (std::uint64_t bits = marks_[std::size_t(level) * mark_words_ + w].load(std::memory_order_relaxed); bits;
           bits &= bits - 1)
        out.push_back(w * 64 + std::uint64_t(__builtin_ctzll(bits)));
    return out;
  }

  // The predecessors' entries lie far apart: they are updated in batches, each fetched from
  // memory some updates ahead of its turn (48: 5 % less time than 16 on +K+Nv+K+R, one thread).
  void apply(std::vector<Update>& updates, int level, std::vector<Pending>& pending) {
    constexpr std::size_t kAhead = 48;
    const std::size_t n = updates.size();
    for (std::size_t k = 0; k < std::min(n, kAhead); ++k) fetch(updates[k].index);
    for (std::size_t k = 0; k < n; ++k) {
      if (k + kAhead < n) fetch(updates[k + kAhead].index);
      if (updates[k].win) {
        win_through(updates[k].index, updates[k].win, level);
      } else {
        lose_through(updates[k].index, level, pending);
      }
    }
    updates.clear();
  }

  void fetch(std::uint64_t i) const {
    __builtin_prefetch(&t_.entries[i], 1);
  }

  // The updates the un-moves from c make: c lost, each predecessor wins (win > 0: in that many
  // plies or less); c won, each predecessor has one move fewer not known to lose (win 0). A
  // predecessor already won for good (won_) is left out: either update would leave it as it is.
  void un_moves(std::uint64_t c_index, Position& c, const Placement& pl, int level, bool lost, std::vector<Update>& updates) {
    const Side mover = other(c.to_move);
    const int c_south_file = file_of(c.royal[0]);
    // c's board with the mover to move (c, decoded, is not mirrored): a predecessor is this index
    // plus the moved piece's step times the change of its group's rank (Indexer::square_step),
    // not a full encode (those of a piece of a pair were a fifth of the instructions of
    // +K+L+Lv+K's solve, those of South's royal near the fold some 8 % of +K+M+SvK's time), except
    // where South's royal crosses the fold (predecessors).
    const std::uint64_t base = (c_index & ~std::uint64_t{1}) | std::uint64_t(index(mover));
    int south_slot = -1;
    for (int k = 0; k < pl.n; ++k)
      if (is_royal(pl.piece[std::size_t(k)]) && side_of(pl.piece[std::size_t(k)]) == Side::south) south_slot = k;
    const Set reach = capture_reach(atoms_, pl, c.to_move);
    const int plain_win = lost ? 1 + level : 0;
    auto push = [&](std::uint64_t i, int win) {
      if (!won_[i]) updates.push_back({i, win});
    };
    // The rank of the group of the piece of `slot` (Indexer::SquareStep s) with that piece on
    // `from`: its ordinal where it is alone (inline: most un-moves), else group_rank_on.
    auto rank_on = [&](int slot, const Indexer::SquareStep& s, int from) {
      return s.count == 1 ? std::uint64_t((*s.ordinal)[std::size_t(from)]) : group_rank_on(pl, slot, s, from);
    };
    // The predecessors where the piece of `slot` came from `from`: one index, or two or none
    // where South's royal crosses the mirror fold. A stored position (South royal on files a-e)
    // whose move leads to c's board, or to c's mirror image where that image has c's index (c's
    // South royal off the e-file): the un-move from c gives the board itself (from files a-e) or
    // its mirror image (from files e-i), whose index is mirror_base's plus the royal's term,
    // mirror_base found once for c.
    std::uint64_t mirrored = Indexer::kInvalid;
    auto predecessors = [&](int slot, int from, int win) {
      const int to = pl.square[std::size_t(slot)];
      const Indexer::SquareStep& s = steps_[pl.piece[std::size_t(slot)]];
      const std::uint64_t at_to = base - s.step * rank_on(slot, s, to);
      if (slot != south_slot || file_of(from) < kFiles / 2) return push(at_to + s.step * rank_on(slot, s, from), win);
      if (file_of(from) == kFiles / 2) push(at_to + s.step * rank_on(slot, s, from), win);
      if (c_south_file == kFiles / 2) return;
      if (mirrored == Indexer::kInvalid) mirrored = t_.indexer.mirror_base(pl, mover);
      push(mirrored + s.step * std::uint64_t((*s.ordinal)[std::size_t(mirror_square(from))]), win);
    };
    CapsCache cache;
    auto one = [&](int slot, int from, Set passed) {
      if (!(passed & reach)) return predecessors(slot, from, plain_win);
      if (is_royal(pl.piece[std::size_t(slot)])) return;  // valued apart: kRoyalPassedByThreat
      const Caps caps = this->caps(pl, c.to_move, passed, slot, reach, cache);
      if (caps.kind == Caps::alone || caps.kind == Caps::win) return;  // valued apart
      if (lost && caps.kind == Caps::draw) return;
      predecessors(slot, from, lost ? 1 + (caps.kind == Caps::loss ? std::max(caps.dist, level) : level) : 0);
    };
    auto group = [&](int slot, Set froms) {  // moves that passed nothing in reach
      const int to = pl.square[std::size_t(slot)];
      const Indexer::SquareStep& s = steps_[pl.piece[std::size_t(slot)]];
      Set crossing = slot == south_slot ? froms & fold_files() : Set{0};  // South's royal from files e-i
      const std::uint64_t at_to = base - s.step * rank_on(slot, s, to);
      for (Set from = froms & ~crossing; from; from &= from - 1) push(at_to + s.step * rank_on(slot, s, lowest(from)), plain_win);
      for (; crossing; crossing &= crossing - 1) predecessors(slot, lowest(crossing), plain_win);
    };
    for_each_unmove(rules_, g_, atoms_, c, pl, reach, one, group);
  }

  // The rank of the group of several pieces (Indexer::SquareStep s) of placement slot `slot` with
  // that piece on `from`, the others where they stand.
  [[gnu::noinline]] static std::uint64_t group_rank_on(const Placement& pl, int slot, const Indexer::SquareStep& s, int from) {
    std::array<int, kMaxTablePieces> ordinals{};
    int k = 0;
    for (int j = 0; j < pl.n; ++j)
      if (pl.piece[std::size_t(j)] == pl.piece[std::size_t(slot)])
        ordinals[std::size_t(k++)] = (*s.ordinal)[std::size_t(j == slot ? from : pl.square[std::size_t(j)])];
    return Indexer::group_rank(ordinals, k);
  }

  // A move of position i leads to a LOSS for the opponent: i is a WIN in `d` or less. A WIN in
  // level + 1 is final: no update of this level or a later one gives less.
  void win_through(std::uint64_t i, int d, int level) {
    std::atomic_ref<std::uint16_t> entry(t_.entries[i]);
    std::uint16_t e = entry.load(std::memory_order_relaxed);
    const std::uint16_t want = code(kWin, d);
    for (;;) {
      if (kind(e) == kWin && dist(e) <= d) return;
      if (!undecided(e) && kind(e) != kWin) throw std::logic_error("jungi retrograde: a predecessor already lost or invalid");
      if (entry.compare_exchange_weak(e, want, std::memory_order_relaxed)) break;
    }
    if (d == level + 1) won_.set(i);
    note_written(i, d);
  }

  // A move of position i leads to a WIN in `level` for the opponent.
  void lose_through(std::uint64_t i, int level, std::vector<Pending>& pending) {
    std::atomic_ref<std::uint16_t> entry(t_.entries[i]);
    std::uint16_t e = entry.load(std::memory_order_relaxed);
    for (;;) {
      if (!undecided(e)) {
        if (kind(e) == kWin) return;
        throw std::logic_error("jungi retrograde: a predecessor already lost or invalid");
      }
      const int left = e & kCounterMask;
      if (left == 0) throw std::logic_error("jungi retrograde: more un-moves than moves");
      // The last move known to lose, no flag: the position has lost, written at once (its entry
      // never reads 0).
      const bool lost = left == 1 && !(e & (kCantLose | kCapsWin));
      const int d = lost ? std::max(level + 1, int(fixed_loss_[i])) : 0;
      const std::uint16_t next = lost ? code(kLoss, d) : static_cast<std::uint16_t>(e - 1);
      if (!entry.compare_exchange_weak(e, next, std::memory_order_relaxed)) continue;
      if (lost) note_written(i, d);
      if (left == 1 && (e & kCapsWin) && !(e & kCantLose)) pending.push_back({i, std::max(level + 1, int(fixed_loss_[i]))});
      return;
    }
  }

  // The positions whose counted moves have all lost, with moves of caps WIN: each such move
  // loses in min(c, w) + 1, known once the level passes c or C is a WIN in w below it.
  void resolve_pending(int level) {
    if (pending_.empty()) return;
    tbb::enumerable_thread_specific<std::vector<Pending>> left;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pending_.size(), 64), [&](const tbb::blocked_range<std::size_t>& r) {
      Position p;
      MoveList moves;
      auto& mine = left.local();
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        if (!resolve_one(pending_[k], level, p, moves)) mine.push_back(pending_[k]);
      }
    });
    pending_.clear();
    for (auto& v : left) pending_.insert(pending_.end(), v.begin(), v.end());
  }

  bool resolve_one(const Pending& x, int level, Position& p, MoveList& moves) {
    t_.indexer.decode(x.index, p);
    generate_moves(rules_, p, moves);
    int worst = x.base;
    Placement pl;
    placement_of(p, pl);
    const Set reach = capture_reach(atoms_, pl, other(p.to_move));
    CapsCache cache;
    for (const Move& m : moves) {
      const Set passed = passed_by_move(m);
      if (!passed || leaves_material(p, m)) continue;
      Placement c;
      const int slot = moved_placement(pl, m, c);
      const Caps caps = this->caps(c, other(p.to_move), passed, slot, reach, cache);
      if (caps.kind != Caps::win) continue;
      const std::uint16_t w = std::atomic_ref<std::uint16_t>(t_.entries[t_.indexer.encode(c, other(p.to_move))]).load(std::memory_order_relaxed);
      const bool known = kind(w) == kWin && dist(w) < level;
      if (caps.dist >= level && !known) return false;
      worst = std::max(worst, 1 + std::min(caps.dist, known ? dist(w) : caps.dist));
    }
    if (worst < level) throw std::logic_error("jungi retrograde: a pending loss resolved late");
    std::atomic_ref<std::uint16_t>(t_.entries[x.index]).store(code(kLoss, worst), std::memory_order_relaxed);
    note_written(x.index, worst);
    return true;
  }

  const TableSet& set_;
  const Rules& rules_;
  const Geometry& g_;
  const AtomSets atoms_;
  const Threats threats_{rules_, g_, atoms_};
  Table& t_;
  const Reader reader_;
  std::vector<std::uint16_t> fixed_loss_;
  std::uint64_t mark_words_;                        // words of one level's block bits
  std::vector<std::atomic<std::uint64_t>> marks_;   // [level * mark_words_ + word]
  std::array<Indexer::SquareStep, 256> steps_{};  // Indexer::square_step by piece
  std::array<std::uint8_t, 256> kind_id_{};  // a piece's place among the material's kinds (0: none)
  std::vector<TableRef> tables_after_;        // by (taken, also taken, promoted), find_tables_after
  std::vector<Pending> pending_;
  std::atomic<int> max_written_{0};
  IndexBits takes_royal_;  // its side to move takes a royal
  IndexBits later_;        // at a placement's even index: its mirror image's index is smaller
  // A WIN no later update changes, whose un-move updates are not made (most of a LOSS's
  // predecessors have won already).
  IndexBits won_;
};

}  // namespace

void solve_retrograde(const TableSet& set, Table& t, const LevelReport& on_level, bool keep_derived) {
  Solver(set, t).run(on_level, keep_derived);
}

}  // namespace gonu::jungi
