// The lazy strategy search's check (solver/julgonu/superko/SUPERKO.md, F9): the strategy read off a model
// of the instance without injectivity is checked by the strongly connected parts of its graph
// (S3), and every violation found becomes a blocking clause over the strategy's move variables,
// which every strategy meeting S1-S3 satisfies (so "none exists" keeps its meaning) and the
// current model does not (so the loop progresses). Internal to the strategy search (strategy.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "solver/julgonu/superko/strategy_cnf.hpp"

namespace gonu {

// The strategy as the model gives it: the states the play reaches (ids, any order), W's move at
// each of its W-to-move states (an index in generate_moves order; -1 elsewhere), and the SAT
// variable of that move (0 at a ranked state: the attractor's move is fixed).
struct ModelStrategy {
  const std::vector<std::size_t>* reach = nullptr;
  const std::vector<std::int16_t>* move_at = nullptr;
  std::vector<int> var_at;  // by state id
};

struct S3Violations {
  std::uint64_t found = 0;                 // winner edges inside a strongly connected part that break S3
  std::uint64_t parts = 0, largest = 0;    // nontrivial strongly connected parts, the largest's states
  std::vector<std::vector<int>> clauses;   // blocking clauses (at most max_clauses)
  std::vector<std::size_t> targets;        // the target t of every violation found (state ids)
};

// The violations of S3 by the strategy (S1 and S2 hold by the encoding), each as a clause "not all
// of these moves": the moves of a closed walk t -> ... -> w in the part, the move w -> t, and the
// move of t's other predecessor (none when t is the root).
S3Violations s3_violations(const StrategyStates& st, const ModelStrategy& ms, std::size_t max_clauses);

}  // namespace gonu
