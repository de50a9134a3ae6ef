// Board geometry tables; see board.hpp for the square numbering.
#include "core/julgonu/board.hpp"

#include "core/error.hpp"

namespace gonu {

namespace {
constexpr char file_letter(int f) { return f < 26 ? char('a' + f) : char('A' + (f - 26)); }
int file_index(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}
}  // namespace

Board make_board(int rows, int cols) {
  if (rows < 2 || cols < 2)
    throw GonuError("board " + std::to_string(rows) + "x" + std::to_string(cols) +
                    ": each side must be at least 2");
  if (rows * cols > kMaxSquares)
    throw GonuError("board " + std::to_string(rows) + "x" + std::to_string(cols) + " has " +
                    std::to_string(rows * cols) + " points; at most 64 are supported");
  Board b;
  b.rows = rows;
  b.cols = cols;
  b.n = rows * cols;
  b.all = b.n == 64 ? ~Bits{0} : (bit(b.n) - 1);
  for (int sq = 0; sq < b.n; ++sq) {
    const int f = sq % cols, r = sq / cols;
    const int df[4] = {0, 1, 0, -1}, dr[4] = {1, 0, -1, 0};
    for (int d = 0; d < 4; ++d) {
      const int nf = f + df[d], nr = r + dr[d];
      const bool inside = nf >= 0 && nf < cols && nr >= 0 && nr < rows;
      b.step[sq][d] = inside ? std::int8_t(nr * cols + nf) : std::int8_t(-1);
      if (inside) b.adjacent[sq] |= bit(nr * cols + nf);
    }
  }
  for (int sq = 0; sq < b.n; ++sq)
    for (int d = 0; d < 4; ++d)
      for (int at = b.step[sq][d]; at >= 0; at = b.step[at][d]) b.ray[sq][d] |= bit(at);
  for (int sq = 0; sq < b.n; ++sq) {
    if (sq % cols != 0) b.not_first_file |= bit(sq);
    if (sq % cols != cols - 1) b.not_last_file |= bit(sq);
  }
  b.corners = bit(0) | bit(cols - 1) | bit((rows - 1) * cols) | bit(b.n - 1);
  for (int sq = b.n; sq < kMaxSquares; ++sq) b.step[sq] = {-1, -1, -1, -1};
  return b;
}

int file_of(const Board& b, int sq) { return sq % b.cols; }
int rank_of(const Board& b, int sq) { return sq / b.cols; }
int square_at(const Board& b, int file, int rank0) { return rank0 * b.cols + file; }

std::string square_name(const Board& b, int sq) {
  return std::string(1, file_letter(file_of(b, sq))) + std::to_string(rank_of(b, sq) + 1);
}

int parse_square_prefix(const Board& b, std::string_view text, std::size_t& used) {
  used = 0;
  if (text.empty()) return kNoSquare;
  const int f = file_index(text[0]);
  if (f < 0 || f >= b.cols) return kNoSquare;
  std::size_t i = 1;
  int rank = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i < 4) rank = rank * 10 + (text[i++] - '0');
  if (i == 1 || text[1] == '0' || rank < 1 || rank > b.rows) return kNoSquare;
  used = i;
  return square_at(b, f, rank - 1);
}

int parse_square(const Board& b, std::string_view text) {
  std::size_t used = 0;
  const int sq = parse_square_prefix(b, text, used);
  if (sq == kNoSquare || used != text.size())
    throw GonuError("'" + std::string(text) + "' is not a point of the " + std::to_string(b.rows) +
                    "x" + std::to_string(b.cols) + " board");
  return sq;
}

int direction_between(const Board& b, int from, int to) {
  for (int d = 0; d < 4; ++d)
    if (b.step[from][d] == to) return d;
  return -1;
}

}  // namespace gonu
