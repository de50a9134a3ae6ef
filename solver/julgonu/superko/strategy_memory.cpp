// The search for a superko strategy with memory (see strategy_memory.hpp; proof: SUPERKO.md, F11),
// in phases: the product nodes (state, label) the root can reach when both sides play any ban-free
// move (only they get variables); the clauses, added in one fixed order (nodes by index, then the
// at-most-one board into each target, then the root's segment); CaDiCaL within the deadline; the
// strategy read back by walking the product graph from (root, 0); the format-7 block.
// A product node is state * m + label.
#include "solver/julgonu/superko/strategy_memory.hpp"

#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <sstream>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"
#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/strategy_cnf.hpp"

namespace gonu {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A candidate move of the winner at a product node: its variable and its index in generate_moves
// order.
struct MemoryChoice {
  int var;
  std::int16_t move;
};

struct MemoryCnf {
  int vars = 0;
  std::uint64_t clauses = 0;
  std::uint64_t nodes = 0;                          // product nodes with a variable
  std::vector<int> inc;                             // by product node: "in the reach" (0: none)
  std::vector<std::vector<MemoryChoice>> choices;   // by product node of the winner
};

class MemoryEncoder {
 public:
  MemoryEncoder(const StrategyStates& st, int m, CaDiCaL::Solver& sat) : st_(st), m_(std::size_t(m)), sat_(sat) {}

  MemoryCnf run() {
    buf_.resize(kMaxMoves);
    product_nodes();
    const std::size_t n = st_.pos.size();
    cnf_.choices.resize(n * m_);
    aim_.assign(n, {});
    into_.resize(n);
    first_.assign(n, 0);
    for (std::size_t x = 0; x < cnf_.inc.size(); ++x) {
      if (!cnf_.inc[x]) continue;
      if (st_.pos[x / m_].to_move == st_.winner) winner_moves(x);
      else opponent_moves(x);
    }
    segment_of_root();
    one_board_into_each();
    return std::move(cnf_);
  }

 private:
  int var() { return ++cnf_.vars; }
  void clause(std::initializer_list<int> lits) {
    for (int l : lits) sat_.add(l);
    sat_.add(0);
    ++cnf_.clauses;
  }
  int first(std::size_t t) { return first_[t] ? first_[t] : (first_[t] = var()); }

  // The open product nodes the root can reach with any ban-free moves of both sides, each with its
  // "in the reach" variable (by index, so the instance is the same on every run).
  void product_nodes() {
    const std::size_t n = st_.pos.size();
    std::vector<std::uint8_t> seen(n * m_, 0);
    std::vector<std::size_t> stack;
    if (st_.fixed(st_.root) == 0) {
      seen[st_.root * m_] = 1;
      stack.push_back(st_.root * m_);
    }
    while (!stack.empty()) {
      const std::size_t x = stack.back();
      stack.pop_back();
      const Position& p = st_.pos[x / m_];
      if (lost_by_material(p)) continue;
      const int k = generate_moves(st_.board, st_.oracle->rules, p, buf_.data());
      for (int i = 0; i < k; ++i) {
        const std::size_t v = st_.id_of(apply_move(p, buf_[i]));
        const std::size_t y = v * m_ + std::size_t(next_label(int(x % m_), int(m_), p.to_move == st_.winner,
                                                               buf_[i].captured != 0));
        if (st_.fixed(v) == 0 && !seen[y]) {
          seen[y] = 1;
          stack.push_back(y);
        }
      }
    }
    cnf_.inc.assign(n * m_, 0);
    for (std::size_t x = 0; x < n * m_; ++x)
      if (seen[x]) {
        cnf_.inc[x] = var();
        ++cnf_.nodes;
      }
  }

  // W to move at product node x in the reach: some sigma move, each to a product node in the reach;
  // a capture's target is a segment's first state; a non-capturing move sets its board's aim at
  // the target (one variable per board and move, shared by the labels).
  void winner_moves(std::size_t x) {
    const std::size_t w = x / m_;
    const Position& p = st_.pos[w];
    std::vector<int> any{-cnf_.inc[x]};
    if (!lost_by_material(p)) {
      const int k = generate_moves(st_.board, st_.oracle->rules, p, buf_.data());
      if (aim_[w].empty()) aim_[w].assign(std::size_t(k), 0);
      for (int i = 0; i < k; ++i) {
        const std::size_t v = st_.id_of(apply_move(p, buf_[i]));
        if (st_.fixed(v) != 0) continue;  // -1: a loss for W; +1 cannot happen (w would be ranked)
        const bool captured = buf_[i].captured != 0;
        const int c = var();
        cnf_.choices[x].push_back({c, std::int16_t(i)});
        any.push_back(c);
        clause({-c, cnf_.inc[v * m_ + std::size_t(next_label(int(x % m_), int(m_), true, captured))]});
        if (captured) {
          clause({-c, first(v)});
          continue;
        }
        int& a = aim_[w][std::size_t(i)];
        if (!a) {
          a = var();
          into_[v].push_back(a);
        }
        clause({-c, a});
      }
    }
    for (int l : any) sat_.add(l);
    sat_.add(0);
    ++cnf_.clauses;
  }

  // The opponent to move at x in the reach: every move stays in the reach or in W's attractor.
  void opponent_moves(std::size_t x) {
    const Position& p = st_.pos[x / m_];
    if (lost_by_material(p)) return;
    const int k = generate_moves(st_.board, st_.oracle->rules, p, buf_.data());
    for (int i = 0; i < k; ++i) {
      const std::size_t v = st_.id_of(apply_move(p, buf_[i]));
      const int f = st_.fixed(v);
      if (f == 1) continue;
      if (f == -1) {
        clause({-cnf_.inc[x]});
        break;
      }
      clause({-cnf_.inc[x], cnf_.inc[v * m_ + std::size_t(next_label(int(x % m_), int(m_), false, buf_[i].captured != 0))]});
    }
  }

  // (root, 0) is in the reach; the root and the earlier boards of its segment are first states.
  void segment_of_root() {
    if (cnf_.inc[st_.root * m_]) clause({cnf_.inc[st_.root * m_]});
    if (st_.pos[st_.root].to_move != st_.winner && st_.fixed(st_.root) == 0) clause({first(st_.root)});
    for (std::size_t h : st_.history)
      if (st_.pos[h].to_move != st_.winner && st_.fixed(h) == 0) clause({first(h)});
  }

  // At most one board aims at each target without capturing, and none at a first state.
  void one_board_into_each() {
    for (std::size_t t = 0; t < into_.size(); ++t) {
      const std::vector<int>& P = into_[t];
      if (P.empty()) continue;
      if (first_[t])
        for (int a : P) clause({-first_[t], -a});
      if (P.size() <= 5) {
        for (std::size_t i = 0; i < P.size(); ++i)
          for (std::size_t j = i + 1; j < P.size(); ++j) clause({-P[i], -P[j]});
        continue;
      }
      int prev = 0;  // sequential counter: s_i = "one of P[0..i] is set"
      for (std::size_t i = 0; i + 1 < P.size(); ++i) {
        const int s = var();
        clause({-P[i], s});
        if (prev) {
          clause({-prev, s});
          clause({-P[i], -prev});
        }
        prev = s;
      }
      clause({-P.back(), -prev});
    }
  }

  const StrategyStates& st_;
  std::size_t m_;
  CaDiCaL::Solver& sat_;
  MemoryCnf cnf_;
  std::vector<Move> buf_;
  std::vector<std::vector<int>> aim_;   // by board: per move, "this board aims at the move's target" (0: none yet)
  std::vector<std::vector<int>> into_;  // by target: the aim variables into it
  std::vector<int> first_;              // by opponent state: "a segment's first state" (0: no variable)
};

// The strategy read off the model: the winner's move at each of its product nodes reached (an index
// in generate_moves order; -1 elsewhere), and the product nodes reached, ascending.
struct MemoryRead {
  std::vector<std::int16_t> move_at;
  std::vector<std::size_t> reach;
};

// Walks the product graph from (root, 0): W the attractor's move at ranked states, the model's
// elsewhere; the opponent every ban-free move.
MemoryRead read_memory_strategy(const StrategyStates& st, const MemoryCnf& cnf, std::size_t m, CaDiCaL::Solver& sat) {
  MemoryRead out;
  out.move_at.assign(st.pos.size() * m, -1);
  std::vector<std::uint8_t> seen(st.pos.size() * m, 0);
  std::vector<std::size_t> stack{st.root * m};
  std::vector<Move> buf(kMaxMoves);
  seen[st.root * m] = 1;
  while (!stack.empty()) {
    const std::size_t x = stack.back(), u = x / m;
    stack.pop_back();
    out.reach.push_back(x);
    const Position& p = st.pos[u];
    const int f = st.fixed(u);
    if (f == -1 || (f == 0 && sat.val(cnf.inc[x]) <= 0))
      throw GonuError("superko strategy with memory: the model leaves the strategy's reach (a bug)");
    if (lost_by_material(p)) continue;
    const int k = generate_moves(st.board, st.oracle->rules, p, buf.data());
    const bool w = p.to_move == st.winner;
    if (w) {
      std::int16_t chosen = f == 1 ? st.fresh->reply[u] : std::int16_t(-1);
      for (const MemoryChoice& c : cnf.choices[x])
        if (chosen < 0 && sat.val(c.var) > 0) chosen = c.move;
      if (chosen < 0 || chosen >= k) throw GonuError("superko strategy with memory: no move for the winner (a bug)");
      out.move_at[x] = chosen;
    }
    for (int i = 0; i < k; ++i) {
      if (w && i != out.move_at[x]) continue;
      const std::size_t y = st.id_of(apply_move(p, buf[i])) * m +
                            std::size_t(next_label(int(x % m), int(m), w, buf[i].captured != 0));
      if (!seen[y]) {
        seen[y] = 1;
        stack.push_back(y);
      }
    }
  }
  std::sort(out.reach.begin(), out.reach.end());
  return out;
}

// The block of format 7 (SUPERKO.md): the label, the paired moves by (state, label), then the
// ranked states (their moves do not depend on the label).
std::string memory_block(const StrategyStates& st, const MemoryRead& rs, std::size_t m, const StrategySearch& s) {
  const Rules& rules = st.oracle->rules;
  std::vector<Move> buf(kMaxMoves);
  std::ostringstream c;
  c << "memory " << kMemoryLabel << ' ' << m << "\nstrategy " << s.paired << "\n";
  for (std::size_t x : rs.reach) {
    const std::size_t u = x / m;
    if (st.fixed(u) == 1 || st.pos[u].to_move != st.winner || rs.move_at[x] < 0) continue;
    generate_moves(st.board, rules, st.pos[u], buf.data());
    c << format_position(st.board, st.pos[u]) << ' ' << x % m << ' ' << format_move(st.board, rules, buf[rs.move_at[x]])
      << "\n";
  }
  c << "ranked " << s.ranked << "\n";
  std::size_t last = ~std::size_t(0);
  for (std::size_t x : rs.reach) {
    const std::size_t u = x / m;
    if (st.fixed(u) != 1 || u == last) continue;
    last = u;
    c << format_position(st.board, st.pos[u]) << ' ' << st.fresh->rank[u] << ' ';
    if (st.pos[u].to_move == st.winner && rs.move_at[x] >= 0) {
      generate_moves(st.board, rules, st.pos[u], buf.data());
      c << format_move(st.board, rules, buf[rs.move_at[x]]) << "\n";
    } else {
      c << "-\n";
    }
  }
  return c.str();
}

// The counts of a strategy read: states and product nodes reached, paired product nodes of the
// winner (the block's entries), ranked states.
void count_reach(const StrategyStates& st, const MemoryRead& rs, std::size_t m, StrategySearch& out) {
  out.product_reach = rs.reach.size();
  std::size_t last = ~std::size_t(0);
  for (std::size_t x : rs.reach) {
    const std::size_t u = x / m;
    if (st.fixed(u) != 1 && st.pos[u].to_move == st.winner && rs.move_at[x] >= 0) ++out.paired;
    if (u == last) continue;
    last = u;
    ++out.reach;
    if (st.fixed(u) == 1) ++out.ranked;
  }
}

}  // namespace

StrategySearch find_memory_strategy(const BanFreeOracle& o, const FreshValues& fresh, const Game& game, Side W,
                                    double max_seconds, bool want_certificate, int layers, int memory) {
  if (memory < 1) throw GonuError("superko strategy with memory: the label's range must be at least 1");
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t m = std::size_t(memory);
  StrategySearch out;
  out.winner = W;
  out.version = 7;
  out.memory = memory;
  const StrategyStates st = strategy_states(o, fresh, game, W, layers);
  if (answered_without_sat(st, out)) {
    out.seconds = seconds_since(t0);
    return out;
  }
  CaDiCaL::Solver sat;
  sat.set("quiet", 1);
  const MemoryCnf cnf = MemoryEncoder(st, memory, sat).run();
  out.variables = std::uint64_t(cnf.vars);
  out.clauses = cnf.clauses;
  out.product_nodes = cnf.nodes;
  const int res = cnf.inc[st.root * m] ? solve_within(sat, max_seconds) : 10;  // 0: the root is ranked
  out.seconds = seconds_since(t0);
  if (res != 10) {
    out.status = res == 20 ? StrategyStatus::none : StrategyStatus::budget;
    if (res == 20 && layers >= 0) out.note = "none within " + std::to_string(layers) + " layers";
    return out;
  }
  out.status = StrategyStatus::found;
  const MemoryRead rs = read_memory_strategy(st, cnf, m, sat);
  count_reach(st, rs, m, out);
  if (want_certificate) out.block = memory_block(st, rs, m, out);
  return out;
}

}  // namespace gonu
