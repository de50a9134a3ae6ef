// The CBC back end (see strategy_ilp.hpp), built as a module of its own that the superko solver
// loads when an ILP solve is asked for (strategy_ilp_loader.cpp), so that CBC and the libraries it
// brings (Clp, Cgl, LAPACK, BLAS, gfortran: some 17 MiB of address space) are mapped by no other
// command. Its one entry point is gonu_make_ilp_solver (C linkage, found by name).
// Rows are kept in plain arrays until a solve, then loaded into (or appended to) one
// OsiClpSolverInterface; each solve runs CBC's standard driver (CbcMain0/CbcMain1) on a copy of
// it, and the model is checked against every row before it is believed (a wrong model would only
// be caught later, as a broken strategy).
#include "solver/julgonu/superko/strategy_ilp.hpp"

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace gonu {

namespace {

class IlpSolver final : public StrategySolver {
 public:
  explicit IlpSolver(bool minimize) : minimize_(minimize) { lp_.messageHandler()->setLogLevel(0); }

  // sum over positive literals - sum over negative ones >= 1 - (negative literals); a clause
  // holding x and -x is always true and is left out.
  void clause(std::span<const int> lits) override {
    std::vector<int> l(lits.begin(), lits.end());
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    double lower = 1;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (std::binary_search(l.begin(), l.end(), -l[i])) return;
      if (l[i] < 0) lower -= 1;
    }
    for (int x : l) add_entry(x);
    close_row(lower, kInfinity);
  }

  void at_most_one(std::span<const int> vars) override {
    for (int x : vars) add_entry(x);
    close_row(-kInfinity, 1);
  }

  void cost(int var, double c) override {
    if (costs_.size() < std::size_t(var)) costs_.resize(std::size_t(var), 0);
    costs_[std::size_t(var) - 1] = c;
  }

  SolveResult solve(double max_seconds) override;

  bool value(int var) const override { return std::size_t(var) <= model_.size() && model_[std::size_t(var) - 1]; }
  std::string name() const override { return minimize_ ? "ILP (CBC)" : "ILP (CBC, feasibility)"; }
  SolverStats stats() const override { return stats_; }

 private:
  static constexpr double kInfinity = 1e30;

  void add_entry(int lit) {
    index_.push_back(std::abs(lit) - 1);
    element_.push_back(lit > 0 ? 1.0 : -1.0);
  }
  void close_row(double lower, double upper) {
    starts_.push_back(int(index_.size()));
    lower_.push_back(lower);
    upper_.push_back(upper);
    ++constraints_;
  }
  void load_pending();
  bool satisfies_rows(const double* x) const;

  bool minimize_;
  OsiClpSolverInterface lp_;  // the rows loaded so far
  int loaded_cols_ = 0;
  std::size_t loaded_rows_ = 0;
  // Every row added (CSR: row r's entries are [starts_[r], starts_[r + 1])), kept to check a model.
  std::vector<int> starts_{0}, index_;
  std::vector<double> element_, lower_, upper_, costs_;
  std::vector<char> model_;
  SolverStats stats_;
};

// Columns added since the last solve first (binary), then the rows added since.
void IlpSolver::load_pending() {
  const int n = vars();
  costs_.resize(std::size_t(n), 0);
  if (n > loaded_cols_) {  // empty columns in one call (one at a time would copy the model each time)
    const std::size_t k = std::size_t(n - loaded_cols_);
    const std::vector<CoinBigIndex> empty(k + 1, 0);
    const std::vector<double> lower(k, 0.0), upper(k, 1.0);
    std::vector<double> obj(k, 0.0);
    if (minimize_) std::copy(costs_.begin() + loaded_cols_, costs_.end(), obj.begin());
    lp_.addCols(int(k), empty.data(), nullptr, nullptr, lower.data(), upper.data(), obj.data());
    std::vector<int> cols(k);
    for (std::size_t j = 0; j < k; ++j) cols[j] = loaded_cols_ + int(j);
    lp_.setInteger(cols.data(), int(k));
    loaded_cols_ = n;
  }
  const std::size_t rows = lower_.size();
  if (rows == loaded_rows_) return;
  // Clp counts the entries from the first start: the new rows' starts made relative to it.
  const int base = starts_[loaded_rows_];
  std::vector<CoinBigIndex> starts(rows - loaded_rows_ + 1);
  for (std::size_t r = loaded_rows_; r <= rows; ++r) starts[r - loaded_rows_] = starts_[r] - base;
  lp_.addRows(int(rows - loaded_rows_), starts.data(), index_.data() + base, element_.data() + base,
              lower_.data() + loaded_rows_, upper_.data() + loaded_rows_);
  loaded_rows_ = rows;
}

bool IlpSolver::satisfies_rows(const double* x) const {
  for (std::size_t r = 0; r < lower_.size(); ++r) {
    double sum = 0;
    for (int k = starts_[r]; k < starts_[r + 1]; ++k) sum += element_[std::size_t(k)] * (x[index_[std::size_t(k)]] > 0.5 ? 1 : 0);
    if (sum < lower_[r] - 1e-6 || sum > upper_[r] + 1e-6) return false;
  }
  return true;
}

SolveResult IlpSolver::solve(double max_seconds) {
  load_pending();
  CbcModel cbc(lp_);
  CbcSolverUsefulData data;
  data.noPrinting_ = true;
  data.useSignalHandler_ = false;
  CbcMain0(cbc, data);
  cbc.setLogLevel(0);
  const std::string seconds = std::to_string(max_seconds > 0 ? max_seconds : 1e9);
  const char* argv[] = {"gonu", "-log", "0", "-sec", seconds.c_str(), "-solve", "-quit"};
  CbcMain1(int(std::size(argv)), argv, cbc, [](CbcModel*, int) { return 0; }, data);
  stats_.lp = true;
  // CBC leaves these at "infinity" when preprocessing decided the instance before a root LP.
  stats_.root_lp = cbc.getContinuousObjective() < 1e30 && cbc.getContinuousInfeasibilities() <= vars();
  stats_.lp_bound = stats_.root_lp ? cbc.getContinuousObjective() : 0;
  stats_.lp_fractional = stats_.root_lp ? std::uint64_t(cbc.getContinuousInfeasibilities()) : 0;
  stats_.nodes += std::uint64_t(std::max(0, cbc.getNodeCount()));
  const double* x = cbc.bestSolution();
  if (x && cbc.getNumCols() == vars()) {
    if (!satisfies_rows(x)) throw GonuError("superko strategy: CBC's solution breaks a row (a bug)");
    model_.assign(std::size_t(vars()), 0);
    for (int j = 0; j < vars(); ++j) model_[std::size_t(j)] = x[j] > 0.5;
    stats_.objective = cbc.getObjValue();
    return SolveResult::model;
  }
  return cbc.isProvenInfeasible() ? SolveResult::none : SolveResult::stopped;
}

}  // namespace

}  // namespace gonu

// The module's entry point: a new solver the caller owns (deleted through its virtual destructor).
extern "C" __attribute__((visibility("default"))) gonu::StrategySolver* gonu_make_ilp_solver(bool minimize) {
  return new gonu::IlpSolver(minimize);
}
