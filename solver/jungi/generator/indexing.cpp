// Indexing a material's placements: royals, then groups of identical pieces as combinations.
#include "solver/jungi/generator/indexing.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.hpp"

namespace gonu::jungi {

namespace {

constexpr int kFoldedFiles = 5;  // files a-e hold South's royal after the mirror fold

// C(n, k) for n <= 81, k <= kMaxTablePieces.
struct Binomials {
  std::array<std::array<std::uint64_t, kMaxTablePieces + 1>, kSquares + 1> c{};
  Binomials() {
    for (int n = 0; n <= kSquares; ++n) {
      c[std::size_t(n)][0] = 1;
      for (int k = 1; k <= kMaxTablePieces; ++k)
        c[std::size_t(n)][std::size_t(k)] = n == 0 ? 0 : c[std::size_t(n - 1)][std::size_t(k - 1)] + c[std::size_t(n - 1)][std::size_t(k)];
    }
  }
};
const Binomials kBinomials;
std::uint64_t choose(int n, int k) { return kBinomials.c[std::size_t(n)][std::size_t(k)]; }

// n / d by a multiply: decode divides by each group's size on every index of every sweep, and a
// 64-bit division costs some 40 cycles. With m = floor((2^64 - 1) / d) the product's high word
// is the quotient or one less (n < 2^64), corrected once.
std::uint64_t reciprocal(std::uint64_t d) { return ~std::uint64_t{0} / d; }
std::uint64_t divide(std::uint64_t& n, std::uint64_t d, std::uint64_t m) {
  std::uint64_t q = static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * m) >> 64);
  std::uint64_t r = n - q * d;
  if (r >= d) ++q, r -= d;
  n = q;
  return r;
}

}  // namespace

bool placement_of(const Position& p, Placement& out) {
  out = Placement{};
  auto add = [&](int sq) {
    const Piece x = p.cell[std::size_t(sq)];
    if (out.n == kMaxTablePieces) return false;
    out.piece[std::size_t(out.n)] = x;
    out.square[std::size_t(out.n)] = static_cast<std::int8_t>(sq);
    ++out.n;
    ++out.material.count[std::size_t(index(side_of(x)))][std::size_t(type_of(x))];
    return true;
  };
  // Eight squares a word (whole words: a shorter copy would go through memory), empty words
  // skipped: a table's few pieces are found in a dozen steps.
  constexpr int kWords = kSquares / 8;
  for (int w = 0; w < kWords; ++w) {
    std::uint64_t word;
    std::memcpy(&word, p.cell.data() + 8 * w, 8);
    while (word) {
      const int at = __builtin_ctzll(word) / 8;
      word &= ~(std::uint64_t{0xFF} << (8 * at));
      if (!add(8 * w + at)) return false;
    }
  }
  for (int sq = 8 * kWords; sq < kSquares; ++sq)
    if (p.cell[std::size_t(sq)] != kEmpty && !add(sq)) return false;
  return true;
}

Placement flip_placement(const Placement& p) {
  Placement q = p;
  q.material = flipped(p.material);
  for (int k = 0; k < p.n; ++k) {
    const Piece x = p.piece[std::size_t(k)];
    const int sq = p.square[std::size_t(k)];
    q.piece[std::size_t(k)] = make_piece(other(side_of(x)), type_of(x));
    q.square[std::size_t(k)] = static_cast<std::int8_t>(rank_mirror(sq));
  }
  return q;
}

Position mirror_position(const Position& p) {
  Position q = p;
  q.passed = 0;
  q.first_move = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    q.cell[std::size_t(mirror_square(sq))] = p.cell[std::size_t(sq)];
    if (has(p.passed, sq)) q.passed |= bit(mirror_square(sq));
    if (has(p.first_move, sq)) q.first_move |= bit(mirror_square(sq));
  }
  if (p.passed_end >= 0) q.passed_end = static_cast<std::int8_t>(mirror_square(p.passed_end));
  find_royals(q);
  return q;
}

Placement mirror_placement(const Placement& p) {
  Placement q = p;
  for (int k = 0; k < p.n; ++k) q.square[std::size_t(k)] = static_cast<std::int8_t>(mirror_square(p.square[std::size_t(k)]));
  return q;
}

Indexer::Group Indexer::make_group(const Rules& rules, Piece piece, int count, int files) {
  Group g{piece, count};
  g.ordinal.fill(-1);
  for (int sq = 0; sq < kSquares; ++sq) {
    if (file_of(sq) >= files || !can_stand(rules, piece, sq)) continue;
    g.ordinal[std::size_t(sq)] = static_cast<std::int8_t>(g.squares);
    g.square[std::size_t(g.squares++)] = static_cast<std::int8_t>(sq);
  }
  g.combinations = choose(g.squares, count);
  g.reciprocal = reciprocal(std::max<std::uint64_t>(g.combinations, 1));
  return g;
}

Indexer::Indexer(const Rules& rules, const Material& material) : rules_(rules), material_(material) {
  if (material.pieces() > kMaxTablePieces)
    throw GonuError("material " + material_text(material) + ": more than " + std::to_string(kMaxTablePieces) + " pieces");
  long double total = 2.0L;
  for (const Side s : {Side::south, Side::north}) {
    const auto& count = material.count[std::size_t(index(s))];
    if (count[0] + count[1] != 1) throw GonuError("material " + material_text(material) + ": each side needs one royal");
    royal_[index(s)] = make_group(rules, make_piece(s, count[0] ? 0 : 1), 1, s == Side::south ? kFoldedFiles : kFiles);
    total *= static_cast<long double>(royal_[index(s)].squares);
  }
  for (const Side s : {Side::south, Side::north}) {
    const auto& count = material.count[std::size_t(index(s))];
    for (int type = 2; type < kTypes; ++type) {
      const int k = count[std::size_t(type)];
      if (k == 0) continue;
      groups_.push_back(make_group(rules, make_piece(s, type), k, kFiles));
      total *= static_cast<long double>(groups_.back().combinations);
    }
  }
  if (total > 4.0e18L) throw GonuError("material " + material_text(material) + ": too many positions to index");
  size_ = static_cast<std::uint64_t>(total);
}

std::uint64_t Indexer::encode(const Position& p) const {
  Placement placement;
  if (!placement_of(p, placement)) return kInvalid;
  return encode(placement, p.to_move);
}

template <bool kFlip, bool kMirrorBase>
std::uint64_t Indexer::encode_as(const Placement& pl, Side to_move) const {
  // The placement's k-th piece and square, colour-flipped where kFlip (flip_placement's map).
  auto piece = [&](int k) {
    const Piece x = pl.piece[std::size_t(k)];
    return kFlip ? make_piece(other(side_of(x)), type_of(x)) : x;
  };
  auto square = [&](int k) { return kFlip ? rank_mirror(pl.square[std::size_t(k)]) : int(pl.square[std::size_t(k)]); };
  int south_royal = kNoSquare, north_royal = kNoSquare;
  for (int i = 0; i < pl.n; ++i) {
    if (piece(i) == royal_[0].piece) south_royal = square(i);
    if (piece(i) == royal_[1].piece) north_royal = square(i);
  }
  if (south_royal < 0 || north_royal < 0) return kInvalid;
  const bool mirror = kMirrorBase || file_of(south_royal) >= kFoldedFiles;
  auto place = [&](int sq) { return mirror ? mirror_square(sq) : sq; };
  const int south = kMirrorBase ? 0 : royal_[0].ordinal[std::size_t(place(south_royal))];
  const int north = royal_[1].ordinal[std::size_t(place(north_royal))];
  if (south < 0 || north < 0) return kInvalid;
  std::uint64_t idx = std::uint64_t(south) * std::uint64_t(royal_[1].squares) + std::uint64_t(north);
  int used = 2;
  for (const Group& g : groups_) {
    std::array<int, kMaxTablePieces> ord{};
    int k = 0;
    for (int i = 0; i < pl.n; ++i)
      if (piece(i) == g.piece) {
        if (k == g.count) return kInvalid;
        const int o = g.ordinal[std::size_t(place(square(i)))];
        if (o < 0) return kInvalid;
        ord[std::size_t(k++)] = o;
      }
    if (k != g.count) return kInvalid;
    used += k;
    idx = idx * g.combinations + group_rank(ord, k);
  }
  if (used != pl.n) return kInvalid;
  return idx * 2 + std::uint64_t(index(to_move));
}

std::uint64_t Indexer::larger_group_rank(std::array<int, kMaxTablePieces> ord, int k) {
  for (int i = 1; i < k; ++i)  // mirrored or moved squares out of order: an insertion sort of a few
    for (int j = i; j > 0 && ord[std::size_t(j - 1)] > ord[std::size_t(j)]; --j) std::swap(ord[std::size_t(j - 1)], ord[std::size_t(j)]);
  std::uint64_t rank = 0;
  for (int i = 0; i < k; ++i) rank += choose(ord[std::size_t(i)], i + 1);
  return rank;
}

std::uint64_t Indexer::encode(const Placement& pl, Side to_move) const { return encode_as<false>(pl, to_move); }

std::uint64_t Indexer::encode_flipped(const Placement& pl, Side to_move) const { return encode_as<true>(pl, to_move); }

std::uint64_t Indexer::mirror_base(const Placement& pl, Side to_move) const { return encode_as<false, true>(pl, to_move); }

Indexer::SquareStep Indexer::square_step(Piece p) const {
  std::uint64_t step = 2;
  for (std::size_t gi = groups_.size(); gi-- > 0;) {
    if (groups_[gi].piece == p) return SquareStep{step, &groups_[gi].ordinal, groups_[gi].count};
    step *= groups_[gi].combinations;
  }
  if (p == royal_[1].piece) return {step, &royal_[1].ordinal, 1};
  return p == royal_[0].piece ? SquareStep{step * std::uint64_t(royal_[1].squares), &royal_[0].ordinal, 1} : SquareStep{};
}

bool Indexer::decode(std::uint64_t idx, Position& out) const {
  Placement unused;
  return decode(idx, out, unused);
}

bool Indexer::decode(std::uint64_t idx, Position& out, Placement& placement) const {
  if (idx >= size_) return false;
  // Field by field, not `out = Position{}`: that built a temporary with rep stos and copied it, half
  // of decode's time, and the solver decodes every position at least once a pass.
  out.cell.fill(kEmpty);
  out.passed = 0;
  out.passed_end = kNoSquare;
  out.first_move = 0;
  out.royal = {kNoSquare, kNoSquare};
  placement.n = 0;
  placement.material = material_;
  out.to_move = idx % 2 ? Side::north : Side::south;
  idx /= 2;
  // Every ordinal names a square the piece can stand on: only an overlap makes an index invalid.
  auto put = [&](Piece x, int sq) {
    if (out.cell[std::size_t(sq)] != kEmpty) return false;
    out.cell[std::size_t(sq)] = x;
    placement.piece[std::size_t(placement.n)] = x;
    placement.square[std::size_t(placement.n++)] = static_cast<std::int8_t>(sq);
    return true;
  };
  for (std::size_t gi = groups_.size(); gi-- > 0;) {
    const Group& g = groups_[gi];
    std::uint64_t rank = divide(idx, g.combinations, g.reciprocal);
    // The greatest ordinal o with C(o, i) <= rank, for i = k down to 1 (C(o, 1) = o: a piece
    // alone in its group is its ordinal).
    int top = g.count == 1 ? int(rank) : g.squares - 1;
    for (int i = g.count; i >= 1; --i) {
      // C(o, i) grows with o: a binary search over [i - 1, top] (C(i - 1, i) = 0 <= rank); a
      // piece alone has its ordinal already.
      for (int lo = g.count == 1 ? top : i - 1; lo < top;) {
        const int mid = (lo + top + 1) / 2;
        if (choose(mid, i) > rank) top = mid - 1;
        else lo = mid;
      }
      rank -= choose(top, i);
      if (!put(g.piece, g.square[std::size_t(top)])) return false;
      --top;
    }
  }
  const int north_royal = royal_[1].square[std::size_t(divide(idx, royal_[1].combinations, royal_[1].reciprocal))];
  const int south_royal = royal_[0].square[std::size_t(idx)];
  if (!put(royal_[1].piece, north_royal) || !put(royal_[0].piece, south_royal)) return false;
  out.royal = {static_cast<std::int8_t>(south_royal), static_cast<std::int8_t>(north_royal)};
  return true;
}

}  // namespace gonu::jungi
