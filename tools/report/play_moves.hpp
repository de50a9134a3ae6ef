// How gonu query and gonu play list a position's moves for people: best first for the mover
// (best_first in solver/common/move_order.hpp), grouped under "winning moves:", "drawing moves:",
// "losing moves:"; and word lists wrapped to 80 columns.
#pragma once
#include <string>
#include <vector>

#include "solver/common/value.hpp"

namespace gonu::cli {

constexpr std::size_t kTextWidth = 80;

// "winning moves:" / "drawing moves:" / "losing moves:" for the mover's value.
const char* group_label(Value v);

// `words` joined by `separator`, `first` before the first, broken into lines of at most `width`
// columns (a word longer than a line gets a line of its own); continuation lines start with
// `indent` spaces. Ends with a newline.
std::string wrap_words(const std::string& first, const std::vector<std::string>& words, std::size_t indent,
                       const std::string& separator = "  ", std::size_t width = kTextWidth);

// A sentence broken at spaces into lines of at most `width` columns; continuation lines start
// with two spaces. Ends with a newline.
std::string wrap_text(const std::string& text, std::size_t width = kTextWidth);

}  // namespace gonu::cli
