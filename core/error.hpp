// gonu's one error type: every bad input (position text, move, rule flag, table file) throws
// GonuError with a one-line message that names the problem and its place; tools print it and exit 1.
#pragma once
#include <stdexcept>
#include <string>

namespace gonu {

struct GonuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace gonu
