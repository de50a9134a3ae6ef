// Position text: parsing (strict, with the place of each error) and printing.
#include "core/julgonu/position.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"

namespace gonu {

Position start_position(const Board& b, Side first) {
  Position p;
  for (int f = 0; f < b.cols; ++f) {
    p.white |= bit(square_at(b, f, 0));
    p.black |= bit(square_at(b, f, b.rows - 1));
  }
  p.to_move = first;
  return p;
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// The words of a position text (runs of anything but blanks), so that spaces and tabs around and
// between the diagram and the side to move do not matter, as people type and paste them.
std::vector<std::string_view> blank_separated_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_blank(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !is_blank(text[i])) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

}  // namespace

ParsedPosition parse_position_text(std::string_view raw) {
  const std::vector<std::string_view> words = blank_separated_words(raw);
  std::string normal;  // the words joined by one space: what the messages quote
  for (const std::string_view w : words) {
    if (!normal.empty()) normal += ' ';
    normal += w;
  }
  const std::string quoted = "position '" + normal + "': ";
  if (words.size() < 2) throw GonuError(quoted + "missing the side to move (add ' x' or ' w' after the board)");
  const std::string_view diagram = words[0];
  const std::string side = normal.substr(diagram.size() + 1);
  if (side != "x" && side != "w")
    throw GonuError(quoted + "side to move must be 'x' (Black) or 'w' (White), not '" + side + "'");

  // Split into ranks, top first; read each into a string of 'x', 'w', '.'.
  std::vector<std::string> ranks(1);
  for (std::size_t i = 0; i < diagram.size(); ++i) {
    const char c = diagram[i];
    if (c == '/') {
      ranks.emplace_back();
    } else if (c == 'x' || c == 'w' || c == '.') {
      ranks.back() += c;
    } else if (c >= '1' && c <= '9') {
      std::size_t j = i;
      int run = 0;
      while (j < diagram.size() && diagram[j] >= '0' && diagram[j] <= '9' && run <= 64)
        run = run * 10 + (diagram[j++] - '0');
      if (run > 64) throw GonuError(quoted + "empty run '" + std::string(diagram.substr(i, j - i)) + "' is too long");
      ranks.back().append(std::size_t(run), '.');
      i = j - 1;
    } else {
      // Quote the whole character (UTF-8 takes several bytes), or the one byte that starts none.
      const std::size_t n = std::max<std::size_t>(1, utf8_char_length(diagram, i));
      throw GonuError(quoted + "unknown character '" + std::string(diagram.substr(i, n)) + "' at column " +
                      std::to_string(i + 1) + " (expected x, w, ., a digit or /)");
    }
  }
  const int rows = int(ranks.size());
  const int cols = int(ranks[0].size());
  for (int i = 0; i < rows; ++i) {
    const int rank_number = rows - i;
    if (ranks[i].empty()) throw GonuError(quoted + "rank " + std::to_string(rank_number) + " is empty");
    if (int(ranks[i].size()) != cols)
      throw GonuError(quoted + "rank " + std::to_string(rank_number) + " has " + std::to_string(ranks[i].size()) +
                      " points, but rank " + std::to_string(rows) + " has " + std::to_string(cols));
  }
  Board b;
  try {
    b = make_board(rows, cols);
  } catch (const GonuError& e) {
    throw GonuError(quoted + e.what());
  }
  ParsedPosition out;
  out.rows = rows;
  out.cols = cols;
  for (int i = 0; i < rows; ++i)
    for (int f = 0; f < cols; ++f) {
      const int sq = square_at(b, f, rows - 1 - i);
      if (ranks[i][f] == 'x') out.position.black |= bit(sq);
      if (ranks[i][f] == 'w') out.position.white |= bit(sq);
    }
  out.position.to_move = side == "x" ? Side::black : Side::white;
  return out;
}

Position parse_position(const Board& b, std::string_view text) {
  const ParsedPosition p = parse_position_text(text);
  if (p.rows != b.rows || p.cols != b.cols)
    throw GonuError("position '" + std::string(text) + "' is a " + std::to_string(p.rows) + "x" +
                    std::to_string(p.cols) + " board, but the rules are for " + std::to_string(b.rows) + "x" +
                    std::to_string(b.cols));
  return p.position;
}

std::string format_position(const Board& b, const Position& p) {
  std::string s;
  for (int r = b.rows - 1; r >= 0; --r) {
    int run = 0;
    for (int f = 0; f < b.cols; ++f) {
      const int sq = square_at(b, f, r);
      const char c = (p.black & bit(sq)) ? 'x' : (p.white & bit(sq)) ? 'w' : '.';
      if (c == '.') {
        ++run;
        continue;
      }
      if (run) s += std::to_string(run);
      run = 0;
      s += c;
    }
    if (run) s += std::to_string(run);
    if (r) s += '/';
  }
  s += p.to_move == Side::black ? " x" : " w";
  return s;
}

std::string draw_position(const Board& b, const Position& p) {
  std::string s;
  for (int r = b.rows - 1; r >= 0; --r) {
    const std::string label = std::to_string(r + 1);
    s += std::string(label.size() < 2 ? 1 : 0, ' ') + label + " ";
    for (int f = 0; f < b.cols; ++f) {
      const int sq = square_at(b, f, r);
      s += (p.black & bit(sq)) ? " x" : (p.white & bit(sq)) ? " w" : " .";
    }
    s += '\n';
  }
  s += "   ";
  for (int f = 0; f < b.cols; ++f) {
    s += ' ';
    s += square_name(b, square_at(b, f, 0)).substr(0, 1);
  }
  s += "\n";
  s += std::string(p.to_move == Side::black ? "Black (x)" : "White (w)") + " to move\n";
  return s;
}

}  // namespace gonu
