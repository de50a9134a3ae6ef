// Square names and distances of Jungi's 9x9 board.
#include "core/jungi/board.hpp"

#include <algorithm>
#include <cstdlib>

namespace gonu::jungi {

std::string square_name(int sq) {
  return std::string(1, static_cast<char>('a' + file_of(sq))) + static_cast<char>('1' + rank_of(sq));
}

int parse_square(std::string_view text, std::size_t& used) {
  used = 0;
  if (text.size() < 2 || text[0] < 'a' || text[0] > 'i' || text[1] < '1' || text[1] > '9') return kNoSquare;
  used = 2;
  return square_at(text[0] - 'a', text[1] - '1');
}

}  // namespace gonu::jungi
