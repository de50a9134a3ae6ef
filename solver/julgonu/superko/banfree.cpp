// The ban-free oracle: one retrograde solve of the ban-free game from the superko root.
#include "solver/julgonu/superko/banfree.hpp"

namespace gonu {

Value BanFreeOracle::value(Key k, std::uint16_t& dist) const {
  const auto at = find_state(solution, k);
  if (!at) {
    dist = 0;
    return Value::draw;
  }
  dist = solution.dist[*at];
  return solution.value[*at];
}

BanFreeOracle make_banfree_oracle(const Game& g, const ProgressFn& progress, const RunDeadline& deadline) {
  BanFreeOracle o;
  o.rules = g.rules;
  o.rules.repetition = Repetition::none;
  Game free_game = new_game(o.rules, current(g));
  SolveOptions so;
  so.progress = [&](const char* phase, std::uint64_t done, std::uint64_t total) {
    deadline.check();
    if (progress) progress(phase, done, total);
  };
  o.solution = solve(free_game, so);
  return o;
}

}  // namespace gonu
