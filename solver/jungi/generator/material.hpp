// A Jungi material signature: which pieces each side has, as text "KRvK" (South's pieces 'v'
// North's, READING.md's letters, '+' before a promoted piece, each side's one royal K or +K
// first). An endgame table holds every placement of one material; captures and promotions lead to
// other materials, solved first.
#pragma once
#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/jungi/position.hpp"

namespace gonu::jungi {

struct Material {
  // count[side][type]: how many pieces of that side and type (the royal's type counted too)
  std::array<std::array<std::uint8_t, kTypes>, 2> count{};

  int pieces() const;
  int pieces(Side s) const;
  // Unpromoted pieces, both sides: a promotion lowers it, a capture lowers the piece count.
  int unpromoted() const;
  auto operator<=>(const Material&) const = default;
};

// Reads "KRvK", "+KvK", "K+RvKP" (the non-royal pieces of a side in any order); throws GonuError
// with one line naming what is wrong (a bad letter, no 'v', a side without a royal or with two).
Material parse_material(std::string_view text);
// Canonical text: each side's royal first, then its pieces by type (the order of READING.md's
// table, each base type before its promoted one): "KQPvK", "K+RvKP".
std::string material_text(const Material& m);
// The colour-flipped material: the sides swapped (with ranks mirrored, a position of one is a
// position of the other; see flip_position). Inline: a capture's probe into a flipped table
// flips its placement.
inline Material flipped(const Material& m) {
  Material out;
  out.count = {m.count[1], m.count[0]};
  return out;
}
// Whether m's table is kept (solved and written): a material and its colour flip share one table
// (a position of one is a position of the other, flipped, with the other side to move), kept as
// the one whose South has more pieces, on a tie the greater in Material's order (a material that
// is its own flip is kept). Halves the tables to solve and store, as Syzygy's do.
bool is_canonical(const Material& m);
// m if it is kept, else its flip.
Material canonical(const Material& m);
// The materials that one capture (of a non-royal piece of either side) or one promotion (of an
// unpromoted piece of either side, the King's included) leads to, sorted, without repeats. Every
// move of a position of `m` leads to `m`, to one of these, or (an Emperor's two captures, or a
// capture that promotes) to one of theirs.
std::vector<Material> next_materials(const Material& m);
// `m` and every material reachable from it by captures and promotions, smallest first: each
// material comes after every material it leads to (fewer pieces first, then fewer unpromoted).
std::vector<Material> material_closure(const Material& m);
// The kept materials (canonical) of m's closure, without repeats, in material_closure's order:
// the tables solving m needs.
std::vector<Material> kept_closure(const Material& m);
// Every material of exactly `pieces` pieces (2 or more), canonical order, both sides' extra
// pieces and promoted forms included.
std::vector<Material> materials_of_size(int pieces);

// The material of a position (both royals expected).
Material material_of(const Position& p);
// The position colour-flipped: sides swapped, ranks mirrored (rank r to 10 - r), the other side
// to move, the en-passant field mirrored. Jungi's rules map to themselves under it.
Position flip_position(const Position& p);
// A square under the colour flip: its rank mirrored (rank r to 10 - r), its file kept. Inline,
// as flipped().
inline int rank_mirror(int sq) { return square_at(file_of(sq), kRanks - 1 - rank_of(sq)); }

}  // namespace gonu::jungi
