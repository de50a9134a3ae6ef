// Jungi's board: 9x9 squares, index = rank0 * 9 + file (a1 = 0, i1 = 8, a9 = 72, i9 = 80), files
// a..i left to right, ranks 1..9 bottom to top. 81 squares do not fit one 64-bit word, so a set of
// squares is one unsigned 128-bit integer (bit i = square i; bits 81..127 always 0). South moves
// up the board (forward = +1 rank) from ranks 1-3; North moves down from ranks 7-9.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace gonu::jungi {

constexpr int kFiles = 9, kRanks = 9, kSquares = 81;
constexpr int kNoSquare = -1;

using Set = unsigned __int128;
// A square's bit, read from a table: a shift of a 128-bit word takes several instructions.
inline constexpr auto kBits = [] {
  std::array<Set, 128> out{};
  for (int sq = 0; sq < 128; ++sq) out[std::size_t(sq)] = Set{1} << sq;
  return out;
}();
inline Set bit(int sq) { return kBits[std::size_t(sq)]; }
inline bool has(Set s, int sq) { return (s >> sq) & 1; }
inline int popcount(Set s) {
  return __builtin_popcountll(static_cast<std::uint64_t>(s)) + __builtin_popcountll(static_cast<std::uint64_t>(s >> 64));
}
inline int lowest(Set s) {
  const auto lo = static_cast<std::uint64_t>(s);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<std::uint64_t>(s >> 64));
}

inline int file_of(int sq) { return sq % kFiles; }
inline int rank_of(int sq) { return sq / kFiles; }  // 0-based: 0 is rank 1
inline bool on_board(int file, int rank0) { return file >= 0 && file < kFiles && rank0 >= 0 && rank0 < kRanks; }
inline int square_at(int file, int rank0) { return rank0 * kFiles + file; }

enum class Side : std::uint8_t { south = 0, north = 1 };
inline Side other(Side s) { return s == Side::south ? Side::north : Side::south; }
inline int index(Side s) { return static_cast<int>(s); }
inline int forward(Side s) { return s == Side::south ? 1 : -1; }  // rank step of "forward"
// The zone: the opponent's three home ranks, where a piece that ends its move promotes.
inline bool in_zone(Side s, int sq) { return s == Side::south ? rank_of(sq) >= 6 : rank_of(sq) <= 2; }
// A side's own back rank (0-based): the Elephant's forward 3-leap starts there.
inline int back_rank(Side s) { return s == Side::south ? 0 : 8; }
// The Pawns' home rank (0-based), from which the 2-step is allowed.
inline int pawn_home_rank(Side s) { return s == Side::south ? 2 : 6; }

std::string square_name(int sq);  // "e4"
// The square named at the start of text ("e4"), setting `used`; kNoSquare if none.
int parse_square(std::string_view text, std::size_t& used);
// Chebyshev distance: the number of King steps between two squares (inline: the table generator
// asks it for every capture of what passed by it values).
inline int distance(int a, int b) {
  const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  return std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr);
}

}  // namespace gonu::jungi
