// Packing of states into 64-bit keys (layout in state_key.hpp).
#include "solver/julgonu/state/state_key.hpp"

#include "core/error.hpp"

namespace gonu {

KeyCodec make_key_codec(const Rules& r) {
  KeyCodec c;
  c.board = make_board(r.rows, r.cols);
  c.rules = r;
  c.tagged = uses_tag(r);
  c.tag_bits = c.tagged ? 19 : 0;
  if (r.repetition == Repetition::superko)
    throw GonuError("superko has no finite state graph: its solver is separate (see gonu solve --help)");
  // B = bit length of 3^n - 1, computed exactly in 128 bits.
  unsigned __int128 p3 = 1;
  for (int i = 0; i < c.board.n; ++i) p3 *= 3;
  const unsigned __int128 max = p3 - 1;
  while (c.board_bits < 128 && (max >> c.board_bits) != 0) ++c.board_bits;
  const int total = c.board_bits + 1 + (c.tagged ? 19 : 0);
  if (total > 63)
    throw GonuError("board " + std::to_string(r.rows) + "x" + std::to_string(r.cols) + " under repetition " +
                    to_string(r.repetition) + " needs " + std::to_string(total) +
                    "-bit state keys; this solver handles at most 63 (boards up to 27 points with a tag, 32 without)");
  std::uint64_t place[64];
  place[0] = 1;
  for (int i = 1; i < c.board.n; ++i) place[i] = place[i - 1] * 3;
  for (int chunk = 0; chunk < 8; ++chunk)
    for (int byte = 0; byte < 256; ++byte) {
      std::uint64_t v = 0;
      for (int b = 0; b < 8; ++b) {
        const int sq = chunk * 8 + b;
        if ((byte >> b) & 1 && sq < c.board.n) v += place[sq];
      }
      c.byte_value[chunk][byte] = v;
    }
  for (int v = 0; v < 6561; ++v) {
    int x = v, black = 0, white = 0;
    for (int b = 0; b < 8; ++b, x /= 3) {
      if (x % 3 == 1) black |= 1 << b;
      if (x % 3 == 2) white |= 1 << b;
    }
    c.digits8[v] = std::uint16_t(black | (white << 8));
  }
  return c;
}

Key encode_key(const KeyCodec& c, const Position& p, const Tag& t) {
  return encode_board_side(c, p) << c.tag_bits | (c.tagged ? Key(pack_tag(c.board, t)) : 0);
}

void decode_key(const KeyCodec& c, Key k, Position& p, Tag& t) {
  t = c.tagged ? unpack_tag(c.board, std::uint32_t(k & ((Key(1) << c.tag_bits) - 1))) : Tag{};
  k >>= c.tag_bits;
  std::uint64_t v = k & ((Key(1) << c.board_bits) - 1);
  p = Position{};
  for (int chunk = 0; chunk * 8 < c.board.n; ++chunk, v /= 6561) {
    const std::uint16_t d = c.digits8[v % 6561];
    p.black |= Bits(d & 0xff) << (8 * chunk);
    p.white |= Bits(d >> 8) << (8 * chunk);
  }
  p.to_move = ((k >> c.board_bits) & 1) ? Side::white : Side::black;
}

}  // namespace gonu
