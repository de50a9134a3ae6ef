// Material signatures: parsing, canonical text, colour flip, the materials moves lead to.
#include "solver/jungi/generator/material.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "core/error.hpp"

namespace gonu::jungi {

namespace {

constexpr int kKingType = 0, kEmperorType = 1;

bool royal_type(int type) { return type == kKingType || type == kEmperorType; }

std::string type_text(int type) {
  std::string out = is_promoted(make_piece(Side::south, type)) ? "+" : "";
  return out + kind_letter(static_cast<Kind>(type / 2));
}

// One side's pieces "K+RP" read into count[side]; `label` names the side in errors.
void parse_side(std::string_view text, Side side, const std::string& label, Material& m) {
  if (text.empty()) throw GonuError("material: " + label + " has no pieces (its royal, K or +K, comes first)");
  auto& count = m.count[static_cast<std::size_t>(index(side))];
  int royals = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool promoted = text[i] == '+';
    if (promoted && ++i == text.size()) throw GonuError("material: " + label + " ends with '+' without a letter");
    Kind k{};
    if (!(text[i] >= 'A' && text[i] <= 'Z') || !parse_kind(text[i], k))
      throw GonuError("material: '" + std::string(text.substr(i, std::max<std::size_t>(1, utf8_char_length(text, i)))) + "' in " + label +
                      " is not a piece letter (K Q P N E M S C R L O, '+' before a promoted piece)");
    const int type = type_of(k, promoted);
    if (royal_type(type)) {
      if (++royals > 1) throw GonuError("material: " + label + " has two royals (one K or +K a side)");
      if (i != (promoted ? 1u : 0u)) throw GonuError("material: " + label + "'s royal (K or +K) must come first");
    } else if (i == (promoted ? 1u : 0u)) {
      throw GonuError("material: " + label + " must begin with its royal (K or +K), not " + type_text(type));
    }
    ++count[static_cast<std::size_t>(type)];
  }
}

}  // namespace

int Material::pieces(Side s) const {
  int n = 0;
  for (const auto c : count[static_cast<std::size_t>(index(s))]) n += c;
  return n;
}

int Material::pieces() const { return pieces(Side::south) + pieces(Side::north); }

int Material::unpromoted() const {
  int n = 0;
  for (const auto& side : count)
    for (std::size_t t = 0; t < side.size(); t += 2) n += side[t];
  return n;
}

Material parse_material(std::string_view text) {
  const std::size_t v = text.find('v');
  if (v == std::string_view::npos || text.find('v', v + 1) != std::string_view::npos)
    throw GonuError("material '" + std::string(text) + "': write South's pieces, 'v', North's (KRvK)");
  Material m;
  parse_side(text.substr(0, v), Side::south, "South (before 'v')", m);
  parse_side(text.substr(v + 1), Side::north, "North (after 'v')", m);
  return m;
}

std::string material_text(const Material& m) {
  std::string out;
  for (const Side s : {Side::south, Side::north}) {
    if (s == Side::north) out += 'v';
    const auto& count = m.count[static_cast<std::size_t>(index(s))];
    for (int type = 0; type < kTypes; ++type)
      for (int i = 0; i < count[static_cast<std::size_t>(type)]; ++i) out += type_text(type);
  }
  return out;
}

bool is_canonical(const Material& m) {
  const Material f = flipped(m);
  if (m.pieces(Side::south) != m.pieces(Side::north)) return m.pieces(Side::south) > m.pieces(Side::north);
  return !(m < f);
}

Material canonical(const Material& m) { return is_canonical(m) ? m : flipped(m); }

std::vector<Material> next_materials(const Material& m) {
  std::set<Material> out;
  for (std::size_t s = 0; s < 2; ++s) {
    for (std::size_t t = 0; t < std::size_t(kTypes); ++t) {
      if (m.count[s][t] == 0) continue;
      if (!royal_type(int(t))) {
        Material c = m;
        --c.count[s][t];
        out.insert(c);
      }
      if (t % 2 == 0) {
        Material p = m;
        --p.count[s][t];
        ++p.count[s][t + 1];
        out.insert(p);
      }
    }
  }
  return {out.begin(), out.end()};
}

std::vector<Material> material_closure(const Material& m) {
  std::set<Material> seen{m};
  std::vector<Material> todo{m};
  while (!todo.empty()) {
    const Material x = todo.back();
    todo.pop_back();
    for (const Material& n : next_materials(x))
      if (seen.insert(n).second) todo.push_back(n);
  }
  std::vector<Material> out(seen.begin(), seen.end());
  std::stable_sort(out.begin(), out.end(), [](const Material& a, const Material& b) {
    return std::pair(a.pieces(), a.unpromoted()) < std::pair(b.pieces(), b.unpromoted());
  });
  return out;
}

std::vector<Material> kept_closure(const Material& m) {
  std::vector<Material> out;
  std::set<Material> seen;
  for (const Material& x : material_closure(m))
    if (seen.insert(canonical(x)).second) out.push_back(canonical(x));
  return out;
}

std::vector<Material> materials_of_size(int pieces) {
  // Each side: a royal (K or +K) and a multiset of non-royal types; the extra pieces split
  // between the sides in every way.
  std::vector<std::vector<std::array<std::uint8_t, kTypes>>> sides(static_cast<std::size_t>(std::max(pieces, 1)));
  std::function<void(std::array<std::uint8_t, kTypes>&, int, int, int)> extend =
      [&](std::array<std::uint8_t, kTypes>& c, int from_type, int left, int total) {
        if (left == 0) {
          sides[static_cast<std::size_t>(total)].push_back(c);
          return;
        }
        for (int t = from_type; t < kTypes; ++t) {
          ++c[static_cast<std::size_t>(t)];
          extend(c, t, left - 1, total);
          --c[static_cast<std::size_t>(t)];
        }
      };
  for (int extra = 0; extra + 2 <= pieces; ++extra) {
    for (const int royal : {kKingType, kEmperorType}) {
      std::array<std::uint8_t, kTypes> c{};
      c[static_cast<std::size_t>(royal)] = 1;
      extend(c, 2, extra, extra);
    }
  }
  std::vector<Material> out;
  for (int south = 0; south + 2 <= pieces; ++south) {
    const int north = pieces - 2 - south;
    for (const auto& s : sides[static_cast<std::size_t>(south)])
      for (const auto& n : sides[static_cast<std::size_t>(north)]) out.push_back(Material{{s, n}});
  }
  std::sort(out.begin(), out.end(), [](const Material& a, const Material& b) { return material_text(a) < material_text(b); });
  return out;
}

Material material_of(const Position& p) {
  Material m;
  for (const Piece x : p.cell)
    if (x != kEmpty) ++m.count[static_cast<std::size_t>(index(side_of(x)))][static_cast<std::size_t>(type_of(x))];
  return m;
}

Position flip_position(const Position& p) {
  Position q;
  for (int sq = 0; sq < kSquares; ++sq) {
    const Piece x = p.cell[static_cast<std::size_t>(sq)];
    if (x != kEmpty) q.cell[static_cast<std::size_t>(rank_mirror(sq))] = make_piece(other(side_of(x)), type_of(x));
  }
  q.to_move = other(p.to_move);
  for (int sq = 0; sq < kSquares; ++sq) {
    if (has(p.passed, sq)) q.passed |= bit(rank_mirror(sq));
    if (has(p.first_move, sq)) q.first_move |= bit(rank_mirror(sq));
  }
  q.passed_end = p.passed_end < 0 ? kNoSquare : static_cast<std::int8_t>(rank_mirror(p.passed_end));
  find_royals(q);
  return q;
}

}  // namespace gonu::jungi
