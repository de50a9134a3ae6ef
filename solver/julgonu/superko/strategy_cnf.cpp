// The SAT encoding of a memoryless superko strategy (see strategy_cnf.hpp). The clauses are added
// in one fixed order: the state variables by id, then per state its move clauses, then at most one
// sigma into each state, then the first states of the root's segment.
#include "solver/julgonu/superko/strategy_cnf.hpp"

#include <initializer_list>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/symmetry.hpp"

namespace gonu {

std::optional<std::size_t> StrategyStates::find_id(const Position& p) const {
  return find_state(oracle->solution, oracle->key(p));
}

std::size_t StrategyStates::id_of(const Position& p) const {
  const auto at = find_id(p);
  if (!at) throw GonuError("superko strategy: a state is missing from the ban-free solution");
  return *at;
}

StrategyStates strategy_states(const BanFreeOracle& o, const FreshValues& fresh, const Game& game, Side W,
                               int layers) {
  StrategyStates st;
  st.oracle = &o;
  st.fresh = &fresh;
  st.winner = W;
  st.board = make_board(o.rules.rows, o.rules.cols);
  const Solution& sol = o.solution;
  const std::size_t n = sol.keys.size();
  st.pos.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    Tag t;
    decode_key(sol.codec, sol.keys[i], st.pos[i], t);
  }
  st.least = layers < 0 ? 0 : popcount(current(game).black | current(game).white) - layers;
  st.root = st.id_of(current(game));
  for (std::size_t i = 0; i + 1 < game.since_capture.size(); ++i)  // boards the root cannot reach again do not matter
    if (const auto at = find_state(sol, o.key(game.since_capture[i]))) st.history.push_back(*at);
  return st;
}

bool pair_mirror_images(StrategyStates& st, bool use_mirror) {
  st.mirrored = use_mirror && st.history.empty() && map_position(st.board, 1, st.pos[st.root]) == st.pos[st.root];
  if (st.mirrored && st.mirror_of.size() != st.pos.size()) {  // computed once, kept for the next search
    const std::size_t n = st.pos.size();
    st.mirror_of.resize(n);
    st.mirror_closed = true;
    for (std::size_t i = 0; i < n; ++i) {
      const auto at = st.find_id(map_position(st.board, 1, st.pos[i]));
      st.mirror_closed &= at.has_value();
      st.mirror_of[i] = at.value_or(i);
    }
  }
  st.mirrored = st.mirrored && st.mirror_closed;
  return st.mirrored;
}

namespace {

class Encoder {
 public:
  Encoder(const StrategyStates& st, StrategySolver& sat, bool injective, std::chrono::steady_clock::time_point until,
          const ProgressFn& progress)
      : st_(st), sat_(sat), injective_(injective), until_(until), progress_(progress) {}

  StrategyCnf run() {
    state_variables();
    buf_.resize(kMaxMoves);
    into_.resize(st_.pos.size());
    cnf_.choices.resize(st_.pos.size());
    for (std::size_t i = 0; i < st_.pos.size(); ++i) {
      if ((i & 4095) == 0) {
        if (std::chrono::steady_clock::now() > until_) throw EncodingOutOfTime{};
        if (progress_)
          progress_(st_.winner == Side::black ? "encoding for black" : "encoding for white", i, st_.pos.size());
      }
      if (!cnf_.inc[i] || st_.rep(i) != i) continue;
      if (st_.pos[i].to_move == st_.winner) winner_moves(i);
      else opponent_moves(i);
    }
    if (injective_) {
      injective();
      first_states();
    } else {
      history_and_root();
    }
    cnf_.vars = sat_.vars();
    cnf_.clauses = sat_.constraints();
    return std::move(cnf_);
  }

 private:
  int var() { return sat_.new_var(); }
  void clause(std::initializer_list<int> lits) { sat_.clause(std::span<const int>(lits.begin(), lits.size())); }

  // One "in the reach" variable per open state, one "first state" variable per open opponent
  // state; a state shares its mirror image's.
  void state_variables() {
    const std::size_t n = st_.pos.size();
    cnf_.inc.assign(n, 0);
    cnf_.entry.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      if (st_.fixed(i) == 0 && st_.rep(i) == i) {
        cnf_.inc[i] = var();
        sat_.cost(cnf_.inc[i], 1);  // an ILP keeps the reach small (fewer S3 violations in the lazy search)
        if (injective_ && st_.pos[i].to_move != st_.winner) cnf_.entry[i] = var();
      }
    if (st_.mirrored)
      for (std::size_t i = 0; i < n; ++i) {
        cnf_.inc[i] = cnf_.inc[st_.rep(i)];
        cnf_.entry[i] = cnf_.entry[st_.rep(i)];
      }
  }

  // W to move at i in the reach: some sigma move, each to a state in the reach (a capture's target
  // is the first state of its segment).
  void winner_moves(std::size_t i) {
    const std::vector<int>& inc = cnf_.inc;
    const Position& p = st_.pos[i];
    const int m = generate_moves(st_.board, st_.oracle->rules, p, buf_.data());
    std::vector<int> any{-inc[i]};
    for (int k = 0; k < m; ++k) {
      const std::size_t v = st_.id_of(apply_move(p, buf_[k]));
      const bool exit = buf_[k].captured && st_.entry_exit(v);  // won for W by v's own strategy (F10)
      if (!exit && (buf_[k].captured ? st_.fixed_capture(v) : st_.fixed(v)) != 0) continue;  // -1: a loss for W; +1 cannot happen (i would be ranked)
      if (injective_ && !buf_[k].captured && st_.self_mirrored(i) != st_.self_mirrored(v)) continue;  // see pair_mirror_images
      if (injective_ && buf_[k].captured && st_.self_mirrored(i) && !st_.self_mirrored(v)) continue;  // sigma(i) must be its own image
      const int x = var();
      cnf_.choices[i].push_back({x, std::int16_t(k), v});
      any.push_back(x);
      if (exit) continue;  // no condition on the target
      clause({-x, inc[v]});
      if (buf_[k].captured && injective_) clause({-x, cnf_.entry[v]});
      else into_[st_.rep(v)].push_back(x);
    }
    sat_.clause(any);
  }

  // The opponent to move at i in the reach: every move stays in the reach or in W's attractor.
  void opponent_moves(std::size_t i) {
    const std::vector<int>& inc = cnf_.inc;
    const Position& p = st_.pos[i];
    const int m = generate_moves(st_.board, st_.oracle->rules, p, buf_.data());
    for (int k = 0; k < m; ++k) {
      const std::size_t v = st_.id_of(apply_move(p, buf_[k]));
      const int f = buf_[k].captured ? st_.fixed_capture(v) : st_.fixed(v);
      if (f == 1) continue;
      if (f == -1) {
        clause({-inc[i]});
        break;
      }
      clause({-inc[i], inc[v]});
    }
  }

  // At most one sigma into each opponent state, none into a segment's first state.
  void injective() {
    for (std::size_t t = 0; t < into_.size(); ++t) {
      const std::vector<int>& P = into_[t];
      if (P.empty()) continue;
      for (int x : P) clause({-cnf_.entry[t], -x});
      sat_.at_most_one(P);
    }
  }

  // The root is in the reach; it and the earlier boards of its segment are first states.
  void first_states() {
    for (std::size_t h : st_.history)
      if (cnf_.entry[h]) clause({cnf_.entry[h]});
    if (cnf_.inc[st_.root]) {
      clause({cnf_.inc[st_.root]});
      if (cnf_.entry[st_.root]) clause({cnf_.entry[st_.root]});
    }
  }

  // Not injective: the root is in the reach, no non-capturing sigma goes to a board of the history.
  void history_and_root() {
    for (std::size_t h : st_.history)
      for (int x : into_[st_.rep(h)]) clause({-x});
    if (cnf_.inc[st_.root]) clause({cnf_.inc[st_.root]});
  }

  const StrategyStates& st_;
  StrategySolver& sat_;
  bool injective_;
  std::chrono::steady_clock::time_point until_;  // the run's deadline: encoding stops past it
  const ProgressFn& progress_;
  StrategyCnf cnf_;
  std::vector<Move> buf_;
  std::vector<std::vector<int>> into_;  // by rep: non-capturing sigma variables into an opponent state
};

}  // namespace

StrategyCnf encode_strategy(const StrategyStates& st, StrategySolver& sat, bool injective,
                            std::chrono::steady_clock::time_point until, const ProgressFn& progress) {
  return Encoder(st, sat, injective, until, progress).run();
}

}  // namespace gonu
