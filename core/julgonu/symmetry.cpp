// Board symmetries by coordinates; simple loops, since tables are built from them, not hot paths.
#include "core/julgonu/symmetry.hpp"

namespace gonu {

int symmetry_count(const Board& b) { return b.rows == b.cols ? 8 : 4; }

int map_square(const Board& b, int sym, int sq) {
  const int f = file_of(b, sq), r = rank_of(b, sq), R = b.rows, C = b.cols;
  int nf = f, nr = r;
  switch (sym) {
    case 0: break;
    case 1: nf = C - 1 - f; break;
    case 2: nr = R - 1 - r; break;
    case 3: nf = C - 1 - f; nr = R - 1 - r; break;
    case 4: nf = r; nr = f; break;
    case 5: nf = R - 1 - r; nr = f; break;
    case 6: nf = r; nr = C - 1 - f; break;
    case 7: nf = R - 1 - r; nr = C - 1 - f; break;
  }
  return square_at(b, nf, nr);
}

Bits map_bits(const Board& b, int sym, Bits bits) {
  Bits out = 0;
  for (; bits; bits &= bits - 1) out |= bit(map_square(b, sym, lowest(bits)));
  return out;
}

Position map_position(const Board& b, int sym, const Position& p) {
  return Position{map_bits(b, sym, p.black), map_bits(b, sym, p.white), p.to_move};
}

Move map_move(const Board& b, int sym, const Move& m) {
  return Move{std::int8_t(map_square(b, sym, m.from)), std::int8_t(map_square(b, sym, m.to)),
              map_bits(b, sym, m.captured)};
}

Position swap_colours(const Board& b, const Position& p) {
  return Position{map_bits(b, 2, p.white), map_bits(b, 2, p.black), other(p.to_move)};
}

Move swap_colours(const Board& b, const Move& m) { return map_move(b, 2, m); }

}  // namespace gonu
