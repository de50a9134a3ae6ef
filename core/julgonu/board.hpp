// Board geometry for an R x C grid of points, 2 <= R, C and R*C <= 64, so a set of points is one
// 64-bit word. Square index = (rank - 1) * cols + file, file 0 = 'a' on the left, rank 1 at the
// bottom (White's home), rank R at the top (Black's home). Directions: 0 north (+cols), 1 east
// (+1), 2 south (-cols), 3 west (-1); the reverse of d is d ^ 2. Squares named a1, b4, ...:
// files a..z then A..Z, ranks 1..R.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace gonu {

using Bits = std::uint64_t;
constexpr int kMaxSquares = 64;
constexpr int kNoSquare = -1;

inline Bits bit(int sq) { return Bits{1} << sq; }
inline int popcount(Bits b) { return __builtin_popcountll(b); }
inline int lowest(Bits b) { return __builtin_ctzll(b); }
inline int reverse_dir(int d) { return d ^ 2; }

struct Board {
  int rows = 0, cols = 0, n = 0;
  Bits all = 0;      // every point of the board
  Bits corners = 0;  // the four corner points
  Bits not_first_file = 0, not_last_file = 0;  // points off file a / off the last file (for shifts)
  std::array<Bits, kMaxSquares> adjacent{};                 // orthogonal neighbours
  std::array<std::array<std::int8_t, 4>, kMaxSquares> step{};  // neighbour in direction d, or -1
  // The points beyond a point in direction d, to the edge (not the point itself). Square indices
  // rise going north and east, and fall going south and west.
  std::array<std::array<Bits, 4>, kMaxSquares> ray{};
};

// The points one step in direction d from the points of x, those that stay on the board. With d a
// constant the switch folds away: whole sets move in a few instructions, with no branch.
inline Bits shift(const Board& b, Bits x, int d) {
  switch (d) {
    case 0: return (x << b.cols) & b.all;
    case 1: return (x << 1) & b.not_first_file;
    case 2: return x >> b.cols;
    default: return (x >> 1) & b.not_last_file;
  }
}

// f(std::integral_constant<int, d>{}) for d = 0..3: code written once per direction, compiled
// with the direction a constant (shifts fold to a few instructions).
template <class F>
void for_each_direction(F&& f) {
  f(std::integral_constant<int, 0>{});
  f(std::integral_constant<int, 1>{});
  f(std::integral_constant<int, 2>{});
  f(std::integral_constant<int, 3>{});
}

// visit(step, to) for the steps in direction kDir from the points of `from` (each with its
// neighbour that way on the board): `step` holds both points, `to` the one arrived at. Taken as
// bit pairs, with no loop over pieces and directions: a pair is its lower point times 1 + 2^delta
// (north and east step up from the lower point, south and west down onto it).
template <int kDir, class Visit>
void for_each_step(const Board& b, Bits from, Visit&& visit) {
  const Bits lows = kDir < 2 ? from : shift(b, from, kDir);
  const Bits span = kDir % 2 == 0 ? (Bits{1} | Bits{1} << b.cols) : Bits{3};
  for (Bits x = lows; x; x &= x - 1) {
    const Bits low = x & (Bits{0} - x), step = low * span;
    visit(step, kDir < 2 ? step ^ low : low);
  }
}

// Builds the geometry; throws GonuError unless 2 <= rows, cols and rows * cols <= 64.
Board make_board(int rows, int cols);

int file_of(const Board& b, int sq);
int rank_of(const Board& b, int sq);  // 0-based: 0 is rank 1
int square_at(const Board& b, int file, int rank0);

std::string square_name(const Board& b, int sq);
// Parses a square name at the start of text; returns its index and sets `used` to the characters
// consumed, or returns kNoSquare if text does not start with a square of this board.
int parse_square_prefix(const Board& b, std::string_view text, std::size_t& used);
// Parses a whole square name; throws GonuError naming the text if it is not a square of the board.
int parse_square(const Board& b, std::string_view text);

// Direction from one square to an orthogonally adjacent one, or -1 if they are not neighbours.
int direction_between(const Board& b, int from, int to);

}  // namespace gonu
