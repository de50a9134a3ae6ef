// Group labels and line wrapping for the move lists of query and play.
#include "tools/report/play_moves.hpp"

#include <algorithm>

namespace gonu::cli {

const char* group_label(Value v) {
  return v == Value::win ? "winning moves:" : v == Value::draw ? "drawing moves:" : "losing moves:";
}

std::string wrap_words(const std::string& first, const std::vector<std::string>& words, std::size_t indent,
                       const std::string& separator, std::size_t width) {
  std::string out = first, line_start_pad(indent, ' ');
  std::size_t column = first.size();
  bool line_empty = true;  // nothing but the lead-in or the indent on this line yet
  for (const std::string& w : words) {
    const std::size_t need = (line_empty ? 0 : separator.size()) + w.size();
    if (!line_empty && column + need > width) {
      out += "\n" + line_start_pad;
      column = indent;
      line_empty = true;
    }
    if (!line_empty) out += separator;
    out += w;
    column += (line_empty ? 0 : separator.size()) + w.size();
    line_empty = false;
  }
  return out + "\n";
}

std::string wrap_text(const std::string& text, std::size_t width) {
  std::vector<std::string> words;
  for (std::size_t a = 0, b; a < text.size(); a = b + 1) {
    b = std::min(text.find(' ', a), text.size());
    if (b > a) words.push_back(text.substr(a, b - a));
  }
  return wrap_words("", words, 2, " ", width);
}

}  // namespace gonu::cli
