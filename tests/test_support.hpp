// Small helpers shared by the test files: rule sets built from parts or from a named set on
// another board; a named set's game from its start on another board; certificate text split into
// tokens and joined again (for tampering).
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "core/julgonu/rules.hpp"

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

// The game of the named rule set on a rows x cols board, at its start.
inline Game start_game(const std::string& name, int rows, int cols) {
  const Rules r = named_on(name, rows, cols);
  return new_game(r, start_position(make_board(rows, cols), r.first));
}

inline std::vector<std::string> tokens(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

inline std::string join(const std::vector<std::string>& t) {
  std::string s;
  for (const auto& w : t) s += w + "\n";
  return s;
}

}  // namespace gonu::test
