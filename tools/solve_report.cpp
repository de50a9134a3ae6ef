// The report lines shared by the two branches of gonu solve.
#include "tools/solve_report.hpp"

#include <iostream>

namespace gonu::cli {

nlohmann::ordered_json solve_rules_json(const Rules& r) {
  return {{"name", r.name}, {"board", std::to_string(r.rows) + "x" + std::to_string(r.cols)},
          {"capture", to_string(r.capture)}, {"corner", r.corner},
          {"repetition", to_string(r.repetition)}, {"first", to_string(r.first)}};
}

void print_rules_and_root(const Rules& r, const Board& b, const Position& root,
                          const std::optional<std::string>& history) {
  std::cout << "rules:            " << describe(r) << "\n";
  std::cout << "root:             " << format_position(b, root);
  if (history) std::cout << "  after " << *history;
  std::cout << "\n";
}

}  // namespace gonu::cli
