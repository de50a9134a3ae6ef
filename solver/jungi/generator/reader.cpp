// The Reader (reader.hpp): the values of positions reached by moves, read from the tables.
#include "solver/jungi/generator/reader.hpp"

#include <array>
#include <atomic>

#include "core/error.hpp"

namespace gonu::jungi::entry {

// A Pawn on its two diagonal forward squares, the others (Veteran, Queen, Empress, King, Emperor)
// on their eight neighbours (READING.md "Capturing what passed by"). Faster than generating the
// piece's moves; the reference solver, which takes its moves from core/jungi's generator, checks it.
bool captures_passed_by_onto(Piece x, int from, int to) {
  if (distance(from, to) != 1) return false;
  if (kind_of(x) != Kind::pawn || is_promoted(x)) return true;
  return rank_of(to) - rank_of(from) == forward(side_of(x)) && file_of(to) != file_of(from);
}

namespace {

// The squares of the 3x3 block centred on each square (cut by the board's edges), found once: a
// value read through a field asks for them on every move that passes squares.
Set block_around(int sq) {
  static const std::array<Set, kSquares> blocks = [] {
    std::array<Set, kSquares> out{};
    for (int at = 0; at < kSquares; ++at)
      for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr)
          if (on_board(file_of(at) + df, rank_of(at) + dr)) out[std::size_t(at)] |= bit(square_at(file_of(at) + df, rank_of(at) + dr));
    return out;
  }();
  return blocks[std::size_t(sq)];
}

}  // namespace

std::uint16_t Reader::stored(const Position& c) const {
  if (c.royal[std::size_t(index(c.to_move))] < 0) return code(kLoss, 0);
  Placement pl;
  if (!placement_of(c, pl)) throw GonuError("jungi tables: a position with more than " + std::to_string(kMaxTablePieces) + " pieces");
  // The table being solved holds its own material (moves that stay in it never reach its flip).
  const bool is_own = own && pl.material == own->indexer.material();
  if (!is_own) return set.entry(pl, c.to_move);
  const std::uint64_t i = own->indexer.encode(pl, c.to_move);
  if (i == Indexer::kInvalid) throw GonuError("jungi tables: no index for " + format_position(c));
  const std::uint16_t e = std::atomic_ref<std::uint16_t>(own->entries[i]).load(std::memory_order_relaxed);
  return decided(e) && dist(e) >= level ? kUnknown : e;
}

// Positions with an en-passant field are not stored. The field changes only the moves onto
// passed squares by the pieces that capture what passed by (Pawn, Veteran, Queen, Empress, King,
// Emperor): each becomes a capture of the piece that just moved (for a Pawn's diagonal, a move
// that did not exist). So the value of C with its field is the best, for C's mover, of the
// stored value of C without it and of the values of its captures of what passed by, which lead
// to smaller materials (or take the royal), already solved: the approach of Syzygy's generator
// for chess's en passant. This takes the plain step onto a passed square, which the capture
// replaces, to be no better than the capture (it only removes an enemy piece besides); the
// plain reference solver (tests/reference/jungi_endgame_plain.hpp), which evaluates positions
// with fields by their own moves, checks that on the materials of the tests. Under
// stalemate=draw, a C without moves is a draw stored, but with captures of what passed by it
// has moves: then those alone count.
std::uint16_t Reader::child(const Position& c) const {
  if (c.royal[std::size_t(index(c.to_move))] < 0) return code(kLoss, 0);
  const std::uint16_t base = stored(c);
  if (!c.passed) return base;
  bool alone = false;
  const std::uint16_t captures = passed_by_captures(c, alone);
  if (captures == kInvalidEntry) return base;
  if (alone) return captures;
  Best best;
  best.add(captures);
  best.add(base);
  return best.result();
}

std::uint16_t Reader::passed_by_captures(const Position& c, bool& alone) const {
  Best best;
  bool captures = false;
  // Only a piece next to a passed square can capture what passed by: those squares alone.
  Set near = 0;
  for (Set ps = c.passed; ps; ps &= ps - 1) near |= block_around(lowest(ps));
  for (; near; near &= near - 1) {
    const int sq = lowest(near);
    const Piece x = c.cell[std::size_t(sq)];
    if (x == kEmpty || side_of(x) != c.to_move || !captures_passed_by(type_of(x))) continue;
    for (Set ps = c.passed; ps; ps &= ps - 1) {
      const int to = lowest(ps);
      if (!captures_passed_by_onto(x, sq, to)) continue;
      captures = true;
      // The capture leads to a position without a field, of a smaller material (or the royal
      // taken); under optional promotion a piece entering its zone may also stay unpromoted.
      Move m{std::int8_t(sq), std::int8_t(to), kNoSquare, MoveKind::passed_by, !is_promoted(x) && in_zone(c.to_move, to)};
      best.add(through_move(child(apply_move(c, m))));
      if (m.promotes && rules.optional_promotion) {
        m.promotes = false;
        best.add(through_move(child(apply_move(c, m))));
      }
    }
  }
  if (!captures) return kInvalidEntry;
  alone = rules.stalemate_draw && no_moves_without_field(c);
  return best.result();
}

bool Reader::no_moves_without_field(Position c) const {
  c.passed = 0;
  c.passed_end = kNoSquare;
  MoveList moves;
  generate_moves(rules, c, moves);
  return moves.size == 0;
}

}  // namespace gonu::jungi::entry
