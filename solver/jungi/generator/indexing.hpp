// A position's index in its material's table, from its placement alone. Layout, most significant
// first: South's royal (on files a-e: a position whose South royal stands on files f-i is mirrored
// left-right first, a symmetry of every rule), North's royal, then each group of identical pieces
// (one side, one type, South's groups first, by type) as a combination, then the side to move
// (South 0, North 1). Each piece is counted over the squares it can stand on (can_stand: not an
// unpromoted piece in its zone, not a Pawn on its first two ranks), by its ordinal among them in
// square order, so those squares take no room: an unpromoted King has 30 folded squares, not 45.
// A group of k pieces ranks its ordinals o1 < .. < ok in the combinatorial number system
// (C(o1,1) + .. + C(ok,k)). An index whose pieces overlap is invalid: it stays in the table,
// unused, so that indexing is a few multiplies. A South royal on the e-file gives two indices for
// mirror images; both are stored.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/jungi/position.hpp"
#include "solver/jungi/generator/material.hpp"

namespace gonu::jungi {

// The pieces of a position in square order (the most a table holds, with room to spare).
constexpr int kMaxTablePieces = 8;
struct Placement {
  int n = 0;
  std::array<Piece, kMaxTablePieces> piece{};
  std::array<std::int8_t, kMaxTablePieces> square{};
  Material material;
};
// The placement of p; false if it holds more than kMaxTablePieces pieces.
bool placement_of(const Position& p, Placement& out);

class Indexer {
 public:
  static constexpr std::uint64_t kInvalid = ~std::uint64_t{0};
  // Throws GonuError if the material has more than kMaxTablePieces pieces or more indices than
  // 2^62.
  Indexer(const Rules& rules, const Material& material);

  const Material& material() const { return material_; }
  // The number of indices, valid or not.
  std::uint64_t size() const { return size_; }
  // The index of a position of this material (its en-passant field is ignored).
  std::uint64_t encode(const Position& p) const;
  std::uint64_t encode(const Placement& placement, Side to_move) const;
  // encode(flip_placement(placement), to_move), without building the flipped placement: a
  // capture's probe into a table kept under the flipped material.
  std::uint64_t encode_flipped(const Placement& placement, Side to_move) const;
  // The position of an index (no en-passant field, no first-move rights), or false if the index
  // is invalid.
  bool decode(std::uint64_t index, Position& out) const;
  // The same, with the position's placement (its pieces in no set order).
  bool decode(std::uint64_t index, Position& out, Placement& placement) const;
  // For moving one piece without encoding again: the index is linear in the rank of each group,
  // with this step. The rank of a royal (South's: a square of files a-e) or of a piece alone in
  // its group is the ordinal of its square (mirrored first with the rest); that of a group of
  // `count` pieces is group_rank of their ordinals.
  struct SquareStep {
    std::uint64_t step = 0;
    const std::array<std::int8_t, kSquares>* ordinal = nullptr;  // -1 where the piece cannot stand
    int count = 0;                                                 // 0: not a piece of this material
  };
  SquareStep square_step(Piece p) const;
  // The index of the placement's mirror image (file a to i) with South's royal's term left out:
  // the image's index is this plus square_step(South's royal).step times the royal's ordinal on
  // its mirrored square. Un-moves of South's royal that cross the fold add that term to this,
  // found once a position, instead of encoding each predecessor. kInvalid as encode.
  std::uint64_t mirror_base(const Placement& placement, Side to_move) const;
  // The rank of a group of k identical pieces on these ordinals (distinct, in any order): the
  // combinatorial number system's C(o1,1) + .. + C(ok,k) over them sorted.
  // Inline for a piece alone and a pair, the commonest groups (encode ranks every group; un-moves
  // rank a pair for each square one of its pieces came from).
  static std::uint64_t group_rank(std::array<int, kMaxTablePieces> ordinals, int k) {
    if (k == 1) return std::uint64_t(ordinals[0]);
    if (k != 2) return larger_group_rank(ordinals, k);
    const int low = ordinals[0] < ordinals[1] ? ordinals[0] : ordinals[1], high = ordinals[0] ^ ordinals[1] ^ low;
    return std::uint64_t(low) + std::uint64_t(high) * std::uint64_t(high - 1) / 2;
  }
  // The square of South's royal at an index below size(), read from the index's leading ordinal
  // without decoding (files a-e; where the index is invalid, the square it would stand on).
  int south_royal_square(std::uint64_t index) const {
    return royal_[0].square[std::size_t(index / (size_ / std::uint64_t(royal_[0].squares)))];
  }

 private:
  // A royal or a group of identical pieces, with the squares it can stand on (South's royal: on
  // files a-e) numbered in square order.
  struct Group {
    Piece piece;
    int count;
    int squares = 0;  // how many it can stand on
    std::uint64_t combinations = 0;  // C(squares, count)
    std::uint64_t reciprocal = 0;    // for dividing by combinations (indexing.cpp, divide)
    std::array<std::int8_t, kSquares> ordinal{};  // -1 where it cannot stand
    std::array<std::int8_t, kSquares> square{};   // by ordinal
  };
  static std::uint64_t larger_group_rank(std::array<int, kMaxTablePieces> ordinals, int k);
  static Group make_group(const Rules& rules, Piece piece, int count, int files);
  // kMirrorBase: mirror_base's index (mirrored whatever the royal's file, its term left out).
  template <bool kFlip, bool kMirrorBase = false>
  std::uint64_t encode_as(const Placement& placement, Side to_move) const;
  Rules rules_;
  Material material_;
  Group royal_[2];
  std::vector<Group> groups_;
  std::uint64_t size_ = 0;
};

// The placement colour-flipped (flip_position's map: sides swapped, ranks mirrored), its
// material flipped.
Placement flip_placement(const Placement& p);

// The square mirrored left-right (file a to i).
inline int mirror_square(int sq) { return square_at(kFiles - 1 - file_of(sq), rank_of(sq)); }
// The position mirrored left-right (file a to i), its field too.
Position mirror_position(const Position& p);
// The placement mirrored left-right (file a to i).
Placement mirror_placement(const Placement& p);

}  // namespace gonu::jungi
