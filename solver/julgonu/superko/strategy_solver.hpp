// Where the strategy encoding goes (strategy_cnf.hpp) and how it is solved: a small interface over
// Boolean variables 1..vars() that takes clauses and at-most-one groups (a group is native: each
// solver states it its own way), solves within a deadline, and reads the model back. Two back ends:
// CaDiCaL (make_sat_solver: a group becomes pairwise clauses, or a sequential counter with fresh
// variables when it has more than five members, so the SAT instance is the one encoded before this
// interface existed, variable for variable and clause for clause) and CBC (strategy_ilp.hpp: a
// clause is a row "sum of literals >= 1", a group a row "sum <= 1"). Internal to the strategy search.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace gonu {

// What an ILP solve learnt (zero for SAT): over the rounds of a lazy search, the last solve's root
// LP relaxation (its objective and how many variables it left fractional), the objective of the
// model, and branch-and-bound nodes summed.
struct SolverStats {
  bool lp = false;       // an ILP solve ran
  bool root_lp = false;  // it solved a root LP (not when preprocessing decided the instance first)
  double lp_bound = 0, objective = 0;
  std::uint64_t lp_fractional = 0, nodes = 0;
};

// The answer of a solve, with CaDiCaL's numbers: a model, proven none, or stopped by the deadline.
enum class SolveResult : int { stopped = 0, model = 10, none = 20 };

class StrategySolver {
 public:
  virtual ~StrategySolver() = default;
  int new_var() { return ++vars_; }
  int vars() const { return vars_; }
  std::uint64_t constraints() const { return constraints_; }  // clauses (SAT) or rows (ILP) added
  // At least one literal true (a literal: +v or -v).
  virtual void clause(std::span<const int> lits) = 0;
  // At most one of the variables true (positive literals).
  virtual void at_most_one(std::span<const int> vars) = 0;
  // A cost on a variable being true, for a solver that minimizes (the ILP); the SAT solver ignores it.
  virtual void cost(int /*var*/, double /*c*/) {}
  // Solves what was added so far, within max_seconds (> 0; 0: no limit); clauses may be added after
  // a solve and it solves again.
  virtual SolveResult solve(double max_seconds) = 0;
  // The variable's value in the last model (after SolveResult::model).
  virtual bool value(int var) const = 0;
  // "SAT" or "ILP (CBC)": what the report says ran.
  virtual std::string name() const = 0;
  virtual SolverStats stats() const { return {}; }

 protected:
  int vars_ = 0;
  std::uint64_t constraints_ = 0;
};

std::unique_ptr<StrategySolver> make_sat_solver();

}  // namespace gonu
