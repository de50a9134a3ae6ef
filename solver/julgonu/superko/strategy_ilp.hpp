// The CBC back end of the strategy search's solver interface (strategy_solver.hpp): the same
// Boolean instance as a 0-1 integer program. A clause l1 or ... or lk is the row
// sum(l_i) >= 1 (a negative literal -x counts as 1 - x); an at-most-one group is the row
// sum(x_i) <= 1 (one row where CaDiCaL gets pairwise clauses or a counter); the objective is the
// costs given (the encoding puts 1 on each "in the reach" variable: the smallest strategy) or
// nothing (feasibility). Clauses added after a solve become rows of the next solve, which starts
// from scratch (the last model breaks them, so it is no warm start). CBC runs with its standard
// driver settings (preprocessing, cuts, heuristics) under a time limit.
#pragma once
#include <memory>

#include "solver/julgonu/superko/strategy_solver.hpp"

namespace gonu {

// minimize: use the costs; otherwise any feasible point ends the solve.
std::unique_ptr<StrategySolver> make_ilp_solver(bool minimize);

}  // namespace gonu
