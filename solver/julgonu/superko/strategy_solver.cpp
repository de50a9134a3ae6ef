// The CaDiCaL back end of the strategy search's solver interface (see strategy_solver.hpp): clauses
// go straight in; an at-most-one group becomes the clauses the encoding has always used, so the
// instance is unchanged; the deadline is a CaDiCaL terminator.
#include "solver/julgonu/superko/strategy_solver.hpp"

#include <cadical.hpp>

#include <chrono>

namespace gonu {

namespace {

struct Deadline : CaDiCaL::Terminator {
  std::chrono::steady_clock::time_point end;
  bool terminate() override { return std::chrono::steady_clock::now() > end; }
};

class SatSolver final : public StrategySolver {
 public:
  SatSolver() { sat_.set("quiet", 1); }

  void clause(std::span<const int> lits) override {
    for (int l : lits) sat_.add(l);
    sat_.add(0);
    ++constraints_;
  }

  // Pairwise up to five members; beyond, a sequential counter: s_i = "one of P[0..i] is set".
  void at_most_one(std::span<const int> P) override {
    if (P.size() <= 5) {
      for (std::size_t a = 0; a < P.size(); ++a)
        for (std::size_t b = a + 1; b < P.size(); ++b) pair(-P[a], -P[b]);
      return;
    }
    int prev = 0;
    for (std::size_t a = 0; a + 1 < P.size(); ++a) {
      const int s = new_var();
      pair(-P[a], s);
      if (prev) {
        pair(-prev, s);
        pair(-P[a], -prev);
      }
      prev = s;
    }
    pair(-P.back(), -prev);
  }

  SolveResult solve(double max_seconds) override {
    Deadline deadline;
    if (max_seconds > 0) {
      deadline.end = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                           std::chrono::duration<double>(max_seconds));
      sat_.connect_terminator(&deadline);
    }
    const int res = sat_.solve();
    if (max_seconds > 0) sat_.disconnect_terminator();
    return res == 10 ? SolveResult::model : res == 20 ? SolveResult::none : SolveResult::stopped;
  }

  bool value(int var) const override { return sat_.val(var) > 0; }
  std::string name() const override { return "SAT"; }

 private:
  void pair(int a, int b) {
    const int c[2] = {a, b};
    clause(c);
  }

  mutable CaDiCaL::Solver sat_;  // val() is not const in CaDiCaL's interface
};

}  // namespace

std::unique_ptr<StrategySolver> make_sat_solver() { return std::make_unique<SatSolver>(); }

}  // namespace gonu
