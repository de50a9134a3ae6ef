// Small helpers shared by the test files: rule sets built from parts or from a named set on
// another board.
#pragma once
#include <string>

#include "core/rules.hpp"

namespace gonu::test {

inline Rules make_rules(Capture c, bool corner, Repetition rep = Repetition::none, int rows = 4, int cols = 4) {
  Rules r;
  r.name = "custom";
  r.capture = c;
  r.corner = corner;
  r.repetition = rep;
  r.rows = rows;
  r.cols = cols;
  return r;
}

inline Rules named_on(const std::string& name, int rows, int cols) {
  Rules r = rules_by_name(name);
  r.rows = rows;
  r.cols = cols;
  return r;
}

}  // namespace gonu::test
