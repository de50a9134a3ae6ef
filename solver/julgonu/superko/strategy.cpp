// The search for a memoryless superko strategy (see strategy.hpp; proof: SUPERKO.md, F7): the
// instance built by strategy_cnf.cpp, solved by CaDiCaL or CBC (strategy_solver.hpp) within a
// deadline, the strategy read back off the model, and its format-2 block written.
#include "solver/julgonu/superko/strategy.hpp"

#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/symmetry.hpp"
#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/strategy_cnf.hpp"
#include "solver/julgonu/superko/strategy_ilp.hpp"
#include "solver/julgonu/superko/strategy_lazy.hpp"

namespace gonu {

const char* to_string(StrategyStatus s) {
  switch (s) {
    case StrategyStatus::found: return "found";
    case StrategyStatus::none: return "none exists";
    case StrategyStatus::budget: return "budget";
    default: return "not applicable";
  }
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The solver's answer (10 a model, 20 none, else stopped), within max_seconds if > 0.
int solve_within(StrategySolver& sat, double max_seconds) { return int(sat.solve(max_seconds)); }

// The strategy as read off the model: W's move where it is W's turn in the reach (an index in
// generate_moves order; -1 elsewhere), and the states the play can reach, ascending.
struct ReadStrategy {
  std::vector<std::int16_t> move_at;
  std::vector<std::size_t> reach;
  std::uint64_t exits = 0, exits_winner = 0;  // capture edges onto proven entry states (StrategySearch)
};

// W's move at u (in the reach, W to move, m moves listed in `moves`): the attractor's reply when
// ranked, else the model's sigma (at a mirror image, the image of the pair's move); -1 if none.
std::int16_t winner_move(const StrategyStates& st, const StrategyCnf& cnf, const StrategySolver& sat, std::size_t u,
                         const std::vector<Move>& moves, int m) {
  if (st.fixed(u) == 1) return st.fresh->reply[u];
  std::int16_t k = -1;
  const std::size_t r = st.rep(u);
  for (const StrategyChoice& c : cnf.choices[r])
    if (sat.value(c.var)) {
      k = c.move;
      break;
    }
  if (r != u && k >= 0) {  // the mirror image of the pair's move
    std::vector<Move> at_r(kMaxMoves);
    generate_moves(st.board, st.oracle->rules, st.pos[r], at_r.data());
    const Move mirrored = map_move(st.board, 1, at_r[k]);
    k = -1;
    for (int j = 0; j < m && k < 0; ++j)
      if (moves[j] == mirrored) k = std::int16_t(j);
  }
  return k;
}

// Walks the play from the root, W following the model, the opponent playing every ban-free move.
ReadStrategy read_strategy(const StrategyStates& st, const StrategyCnf& cnf, const StrategySolver& sat) {
  const std::size_t n = st.pos.size();
  ReadStrategy out;
  out.move_at.assign(n, -1);
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<std::size_t> stack{st.root};
  std::vector<Move> buf(kMaxMoves);
  seen[st.root] = 1;
  auto visit = [&](std::size_t v) {
    if (!seen[v]) {
      seen[v] = 1;
      stack.push_back(v);
    }
  };
  while (!stack.empty()) {
    const std::size_t u = stack.back();
    stack.pop_back();
    out.reach.push_back(u);
    const Position& p = st.pos[u];
    const int f = st.fixed(u);
    if (f == -1 || (f == 0 && !sat.value(cnf.inc[u])))
      throw GonuError("superko strategy: the model leaves the strategy's reach (a bug)");
    if (lost_by_material(p)) continue;
    const int m = generate_moves(st.board, st.oracle->rules, p, buf.data());
    // A capture into a proven entry state is an exit: that state's own strategy goes on (F10).
    auto follow = [&](const Move& mv) {
      const std::size_t v = st.id_of(apply_move(p, mv));
      if (!(mv.captured && st.entry_exit(v))) {
        visit(v);
        return;
      }
      ++out.exits;
      out.exits_winner += p.to_move == st.winner;
    };
    if (p.to_move == st.winner) {
      const std::int16_t k = winner_move(st, cnf, sat, u, buf, m);
      if (k < 0 || k >= m) throw GonuError("superko strategy: no move for the winner (a bug)");
      out.move_at[u] = k;
      follow(buf[k]);
    } else {
      for (int k = 0; k < m; ++k) follow(buf[k]);
    }
  }
  std::sort(out.reach.begin(), out.reach.end());
  return out;
}

// The move variable of each W-to-move state of the reach (0 at ranked states), for the S3 check.
std::vector<int> move_variables(const StrategyStates& st, const StrategyCnf& cnf, const StrategySolver& sat,
                                const ReadStrategy& rs) {
  std::vector<int> var_at(st.pos.size(), 0);
  for (std::size_t u : rs.reach) {
    if (st.pos[u].to_move != st.winner || st.fixed(u) == 1) continue;
    for (const StrategyChoice& c : cnf.choices[st.rep(u)])
      if (sat.value(c.var)) {
        var_at[u] = c.var;
        break;
      }
  }
  return var_at;
}

// lazy_local: the F7 conditions for one target t alone: no two sigma moves into t, at least one of
// them non-capturing; none non-capturing into the root. A restriction: a strategy found still
// meets S1-S3 (checked as always), but "none" no longer means none of F9's kind.
void make_target_injective(const StrategyStates& st, const std::vector<std::vector<std::pair<int, bool>>>& into,
                           std::size_t t, StrategySolver& sat) {
  const auto& P = into[st.rep(t)];
  for (std::size_t a = 0; a < P.size(); ++a) {
    if (st.rep(t) == st.rep(st.root) && !P[a].second) {
      const int c[1] = {-P[a].first};
      sat.clause(c);
    }
    for (std::size_t b = a + 1; b < P.size(); ++b)
      if (!P[a].second || !P[b].second) {
        const int c[2] = {-P[a].first, -P[b].first};
        sat.clause(c);
      }
  }
}

// The lazy loop (F9): solve, read the strategy off the model, check S3 on its graph; while it
// fails, add a blocking clause per violation (up to kBlockingPerRound) and solve again, within
// max_seconds from t0. CaDiCaL's answer as solve_within gives it; rs holds the last strategy read.
// local (lazy_local): a target violated in a second round is made injective (make_target_injective).
int solve_lazily(const StrategyStates& st, const StrategyCnf& cnf, StrategySolver& sat, double max_seconds,
                 std::chrono::steady_clock::time_point t0, bool local, StrategySearch& out, ReadStrategy& rs) {
  constexpr std::size_t kBlockingPerRound = 20'000;
  std::vector<std::vector<std::pair<int, bool>>> into;  // lazy_local: by rep, the sigma variables into it (captures?)
  std::vector<std::uint8_t> hits;
  if (local) {
    into.resize(st.pos.size());
    hits.assign(st.pos.size(), 0);
    std::vector<Move> buf(kMaxMoves);
    for (std::size_t s = 0; s < st.pos.size(); ++s) {
      if (cnf.choices[s].empty()) continue;
      generate_moves(st.board, st.oracle->rules, st.pos[s], buf.data());
      for (const StrategyChoice& c : cnf.choices[s]) into[st.rep(c.to)].push_back({c.var, buf[c.move].captured != 0});
    }
  }
  for (;;) {
    const double left = max_seconds > 0 ? std::max(0.001, max_seconds - seconds_since(t0)) : 0;
    const int res = solve_within(sat, left);
    if (res != 10) return res;
    rs = read_strategy(st, cnf, sat);
    const ModelStrategy ms{&rs.reach, &rs.move_at, move_variables(st, cnf, sat, rs)};
    const S3Violations v = s3_violations(st, ms, kBlockingPerRound);
    ++out.rounds;
    out.violations += v.found;
    out.parts = v.parts;
    out.largest_part = v.largest;
    if (v.found == 0) return 10;
    for (const std::vector<int>& c : v.clauses) sat.clause(c);
    out.blocking += v.clauses.size();
    if (local)
      for (std::size_t t : v.targets)
        if (hits[st.rep(t)] < 2 && ++hits[st.rep(t)] == 2) {
          make_target_injective(st, into, t, sat);
          ++out.restricted;
        }
    if (max_seconds > 0 && seconds_since(t0) > max_seconds) return 0;
  }
}

// The block of format 2 (SUPERKO.md): the paired moves, then the ranked states.
std::string strategy_block(const StrategyStates& st, const ReadStrategy& rs, const StrategySearch& s) {
  const Rules& rules = st.oracle->rules;
  const Side W = st.winner;
  std::vector<Move> buf(kMaxMoves);
  std::ostringstream c;
  c << "strategy " << s.paired << "\n";
  for (std::size_t u : rs.reach) {
    if (st.fixed(u) == 1 || st.pos[u].to_move != W) continue;
    generate_moves(st.board, rules, st.pos[u], buf.data());  // move_at holds an index into this list
    c << format_position(st.board, st.pos[u]) << ' ' << format_move(st.board, rules, buf[rs.move_at[u]]) << "\n";
  }
  c << "ranked " << s.ranked << "\n";
  for (std::size_t u : rs.reach) {
    if (st.fixed(u) != 1) continue;
    c << format_position(st.board, st.pos[u]) << ' ' << st.fresh->rank[u] << ' ';
    if (st.pos[u].to_move == W && rs.move_at[u] >= 0) {
      generate_moves(st.board, rules, st.pos[u], buf.data());
      c << format_move(st.board, rules, buf[rs.move_at[u]]) << "\n";
    } else {
      c << "-\n";
    }
  }
  return c.str();
}

// One search, in phases: the states; what the attractors answer alone; the mirror pairing; the
// encoding; the solve within the deadline; the strategy read off the model; its block.
StrategySearch search_strategy(StrategyStates& st, double max_seconds, bool want_certificate, bool use_mirror,
                               StrategyMethod method, StrategySolverKind kind,
                               std::chrono::steady_clock::time_point until, const ProgressFn& progress) {
  const bool lazy = method != StrategyMethod::injective;
  const auto t0 = std::chrono::steady_clock::now();
  StrategySearch out;
  out.winner = st.winner;
  const Side W = st.winner;
  out.version = lazy ? 4 : 2;
  const std::unique_ptr<StrategySolver> solver =
      kind == StrategySolverKind::sat ? make_sat_solver() : make_ilp_solver(kind == StrategySolverKind::ilp);
  StrategySolver& sat = *solver;
  out.solver = sat.name();
  if (answered_without_sat(st, out)) {
    out.seconds = seconds_since(t0);
    return out;
  }
  out.mirrored = pair_mirror_images(st, use_mirror);
  StrategyCnf cnf;
  try {
    cnf = encode_strategy(st, sat, !lazy, until, progress);
  } catch (const EncodingOutOfTime&) {
    out.status = StrategyStatus::budget;
    out.note = "the run's time budget ran out while encoding";
    out.seconds = seconds_since(t0);
    return out;
  }
  // The run's deadline caps the solver's own budget.
  if (until != std::chrono::steady_clock::time_point::max()) {
    const double left = std::max(0.001, std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count());
    max_seconds = max_seconds > 0 ? std::min(max_seconds, left) : left;
  }
  out.variables = std::uint64_t(cnf.vars);
  out.clauses = cnf.clauses;
  ReadStrategy rs;
  int res = 10;
  if (cnf.inc[st.root]) res = lazy ? solve_lazily(st, cnf, sat, max_seconds, t0, method == StrategyMethod::lazy_local, out, rs)
                                  : solve_within(sat, max_seconds);
  out.seconds = seconds_since(t0);
  out.ilp = sat.stats();
  if (res == 20 && out.restricted) {  // lazy_local: none within its restrictions is no answer
    out.status = StrategyStatus::budget;
    out.note = "none within " + std::to_string(out.restricted) + " targets made injective";
    return out;
  }
  if (res == 20) {
    out.status = StrategyStatus::none;
    return out;
  }
  if (res != 10) {
    out.status = StrategyStatus::budget;
    return out;
  }
  out.status = StrategyStatus::found;
  if (!lazy || !cnf.inc[st.root]) rs = read_strategy(st, cnf, sat);
  out.reach = rs.reach.size();
  out.exits = rs.exits;
  out.exits_winner = rs.exits_winner;
  for (std::size_t u : rs.reach) {
    if (st.fixed(u) == 1) ++out.ranked;
    else if (st.pos[u].to_move == W) ++out.paired;
  }
  if (want_certificate) out.block = strategy_block(st, rs, out);
  return out;
}

}  // namespace

bool answered_without_sat(const StrategyStates& st, StrategySearch& out) {
  for (std::size_t h : st.history)
    if (st.pos[h].to_move != st.winner && st.fixed(h) == 1) {
      out.note = "the history holds a state of the winner's attractor";
      return true;
    }
  if (st.fixed(st.root) == -1) {
    out.status = StrategyStatus::none;
    out.note = "the attractor decides the root for the other side";
    return true;
  }
  return false;
}

int solve_within(CaDiCaL::Solver& sat, double max_seconds) {
  struct Deadline : CaDiCaL::Terminator {
    std::chrono::steady_clock::time_point end;
    bool on = false;
    bool terminate() override { return on && std::chrono::steady_clock::now() > end; }
  } deadline;
  if (max_seconds > 0) {
    deadline.on = true;
    deadline.end = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                         std::chrono::duration<double>(max_seconds));
    sat.connect_terminator(&deadline);
  }
  const int res = sat.solve();
  if (max_seconds > 0) sat.disconnect_terminator();
  return res;
}

StrategySearch find_strategy(const BanFreeOracle& o, const FreshValues& fresh, const Game& g, Side W,
                             double max_seconds, bool certificate, int layers, StrategyMethod method,
                             StrategySolverKind solver, std::chrono::steady_clock::time_point until,
                             const ProgressFn& progress) {
  StrategyStates st = strategy_states(o, fresh, g, W, layers);
  return find_strategy_in(st, max_seconds, certificate, method, layers, solver, until, progress);
}

StrategySearch find_strategy_in(StrategyStates& st, double max_seconds, bool certificate, StrategyMethod method,
                                int layers, StrategySolverKind solver, std::chrono::steady_clock::time_point until,
                                const ProgressFn& progress) {
  // A mirrored strategy first (half the variables); if none exists, one of any shape.
  StrategySearch s = search_strategy(st, max_seconds, certificate, true, method, solver, until, progress);
  if (s.status != StrategyStatus::none || !s.mirrored) {
    if (s.status == StrategyStatus::none && layers >= 0) s.note = "none within " + std::to_string(layers) + " layers";
    return s;
  }
  const double spent = s.seconds;
  const double left = max_seconds > 0 ? std::max(0.001, max_seconds - spent) : 0;
  const StrategySearch mirrored = s;
  s = search_strategy(st, left, certificate, false, method, solver, until, progress);
  s.ilp.nodes += mirrored.ilp.nodes;
  s.seconds += spent;
  s.rounds += mirrored.rounds;
  s.violations += mirrored.violations;
  s.blocking += mirrored.blocking;
  s.restricted += mirrored.restricted;
  if (s.status == StrategyStatus::none && layers >= 0) s.note = "none within " + std::to_string(layers) + " layers";
  return s;
}

std::string strategy_certificate(const Game& game, const StrategySearch& s) {
  return certificate_header(game, s.version, s.winner) + s.block + "end-certificate\n";
}

}  // namespace gonu
