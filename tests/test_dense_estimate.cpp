// The memory estimate (solver/julgonu/dense/estimate.hpp) against the peaks recorded in
// results/values.csv (GNU time's maximum resident size of `gonu solve --json --quiet`, written by
// scripts/results.sh): within 25% on every solved row. Not a timed test: it reads the recorded
// figures and computes the estimate for each row's board and rule set, with the options the
// script's command line gives (the result streamed, the machine's memory as the limit).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;

namespace {

// The rule set of a row's name (scripts/results.sh: flags_of).
Rules rules_of(const std::string& name, int rows, int cols) {
  const bool single = name.rfind("single", 0) == 0, corner = name.find("corner") != std::string::npos;
  const Repetition rep = name == "undo" ? Repetition::undo
                         : name == "encyclopedia" || name.find("-immediate") != std::string::npos ? Repetition::immediate
                                                                                                   : Repetition::none;
  return make_rules(single ? Capture::single : Capture::line, corner, rep, rows, cols);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

}  // namespace

TEST_CASE("the memory estimate is within 25% of every peak recorded in results/values.csv", "[solver][estimate]") {
  std::ifstream in(std::string(GONU_SOURCE_DIR) + "/results/values.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  int rows_checked = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split(line);
    if (f.size() < 13 || f[2] != "solved") continue;
    const int rows = std::stoi(f[1]), cols = std::stoi(f[1].substr(f[1].find('x') + 1));
    const Rules r = rules_of(f[0], rows, cols);
    SolveOptions o;
    o.compact_result = true;
    const MemoryEstimate e = estimate_memory(new_game(r, start_position(make_board(rows, cols), r.first)), o);
    const double peak = std::stod(f[12]) * (1 << 20), ratio = double(e.bytes) / peak;
    INFO(f[0] << " " << f[1] << ": estimate " << (e.bytes >> 20) << " MiB, recorded peak " << f[12] << " MiB");
    CHECK(ratio > 0.75);
    CHECK(ratio < 1.25);
    ++rows_checked;
  }
  CHECK(rows_checked >= 30);
}
