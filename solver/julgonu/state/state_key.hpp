// A solver state (board, side to move, repetition tag) packed into one 64-bit key:
//   key = (side << B | ternary(board)) << T | tag
// where ternary(board) = sum over points i of 3^i * (0 empty, 1 black, 2 white), B is the bit
// length of 3^n - 1 (n points), and the tag is core's 19-bit pack_tag code (T = 19) for the
// immediate and undo rules, absent (T = 0) otherwise. Board-major: the states of one board are
// neighbours in key order, so an engine that numbers boards in key order and tags within each
// board (dense_solve.hpp) produces keys already sorted. Keys are stable: table files store them,
// so the layout is part of the table format (see table_format.md; format 1 had the tag on top).
// Keys use at most 63 bits (bit 63 is free for the solver's own marks); a rule set whose keys
// would not fit (tag rules past 27 points) is refused clearly.
#pragma once
#include <array>
#include <cstdint>

#include "core/julgonu/board.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/repetition.hpp"
#include "core/julgonu/rules.hpp"

namespace gonu {

using Key = std::uint64_t;

struct KeyCodec {
  Board board;
  Rules rules;
  int board_bits = 0;  // B
  bool tagged = false;
  int tag_bits = 0;    // T: 19 when tagged, else 0
  // ternary place values of each byte of a bit set: byte_value[chunk][byte]
  std::array<std::array<std::uint64_t, 256>, 8> byte_value{};
  // decoding: 8 ternary digits (0 .. 3^8 - 1) -> black byte | white byte << 8
  std::array<std::uint16_t, 6561> digits8{};
};

// Throws GonuError if the rule set's states do not fit a 64-bit key.
KeyCodec make_key_codec(const Rules& r);

Key encode_key(const KeyCodec& c, const Position& p, const Tag& t);
void decode_key(const KeyCodec& c, Key k, Position& p, Tag& t);

// side << B | ternary(board): the key without its tag.
// Boards of up to 16 points (the dense engines' whole solves read off millions of keys) take
// their two bytes unrolled; the bytes past the board are empty and worth nothing.
inline Key encode_board_side(const KeyCodec& c, const Position& p) {
  std::uint64_t v = 0;
  const int chunks = c.board.n <= 16 ? 2 : (c.board.n + 7) / 8;
  auto add = [&](int i) {
    v += c.byte_value[i][(p.black >> (8 * i)) & 0xff] + 2 * c.byte_value[i][(p.white >> (8 * i)) & 0xff];
  };
  if (chunks == 2) {
    add(0);
    add(1);
  } else {
    for (int i = 0; i < chunks; ++i) add(i);
  }
  return v | (Key(p.to_move == Side::white) << c.board_bits);
}

}  // namespace gonu
