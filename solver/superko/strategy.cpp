// The SAT search for a memoryless superko strategy (see superko_strategy.hpp; proof: superko.md F7).
#include "solver/superko/strategy.hpp"

#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>

#include "core/error.hpp"
#include "core/moves.hpp"
#include "core/symmetry.hpp"
#include "solver/superko/certificate.hpp"

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

struct Deadline : CaDiCaL::Terminator {
  std::chrono::steady_clock::time_point end;
  bool on = false;
  bool terminate() override { return on && std::chrono::steady_clock::now() > end; }
};

// What the attractors say of a state, from W's side: +1 W has won it (ranked), -1 W has lost it,
// 0 open (a SAT variable).
int fixed_for(const FreshValues& f, std::size_t id, Side to_move, Side W) {
  if (f.method[id] != FreshMethod::attractor && f.method[id] != FreshMethod::terminal) return 0;
  return ((to_move == W) == (f.value[id] == SkValue::win)) ? 1 : -1;
}

StrategySearch search_strategy(const BanFreeOracle& o, const FreshValues& fresh, const Game& game, Side W,
                               double max_seconds, bool want_certificate, int layers, bool use_mirror) {
  const auto t0 = std::chrono::steady_clock::now();
  StrategySearch out;
  out.winner = W;
  const Solution& sol = o.solution;
  const std::size_t n = sol.keys.size();
  const Board board = make_board(o.rules.rows, o.rules.cols);
  auto id_of = [&](const Position& p) {
    const auto at = find_state(sol, o.key(p));
    if (!at) throw GonuError("superko strategy: a state is missing from the ban-free solution");
    return *at;
  };
  std::vector<Position> pos(n);
  for (std::size_t i = 0; i < n; ++i) {
    Tag t;
    decode_key(sol.codec, sol.keys[i], pos[i], t);
  }
  // Open states with fewer pieces than the root's less `layers` are left out (as if lost for W).
  const int least = layers < 0 ? 0 : popcount(current(game).black | current(game).white) - layers;
  auto fixed = [&](std::size_t v) {
    const int f = fixed_for(fresh, v, pos[v].to_move, W);
    return f == 0 && popcount(pos[v].black | pos[v].white) < least ? -1 : f;
  };
  const std::size_t root = id_of(current(game));
  std::vector<std::size_t> history;  // earlier boards of the root's segment
  for (std::size_t i = 0; i + 1 < game.since_capture.size(); ++i)  // boards the root cannot reach again do not matter
    if (const auto at = find_state(sol, o.key(game.since_capture[i]))) history.push_back(*at);
  for (std::size_t h : history)
    if (pos[h].to_move != W && fixed(h) == 1) {
      out.note = "the history holds a state of the winner's attractor";
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return out;
    }
  if (fixed(root) == -1) {
    out.status = StrategyStatus::none;
    out.note = "the attractor decides the root for the other side";
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  }

  // Mirror symmetry: when the root is its own file-mirror image and has no earlier board, only
  // strategies that commute with the mirror (sigma(m(s)) = m(sigma(s))) are sought, with one set of
  // variables per mirror pair. Such a strategy is injective if no two states of a pair aim at one
  // self-mirrored state and a self-mirrored state aims only at one: both are excluded below.
  const bool sym = use_mirror && history.empty() && map_position(board, 1, pos[root]) == pos[root];
  out.mirrored = sym;
  std::vector<std::size_t> mirror_of;
  if (sym) {
    mirror_of.resize(n);
    for (std::size_t i = 0; i < n; ++i) mirror_of[i] = id_of(map_position(board, 1, pos[i]));
  }
  auto rep = [&](std::size_t v) { return sym ? std::min(v, mirror_of[v]) : v; };
  auto self_mirrored = [&](std::size_t v) { return sym && mirror_of[v] == v; };

  // Variables (CaDiCaL literals are positive ints); a state shares its mirror image's.
  CaDiCaL::Solver sat;
  sat.set("quiet", 1);
  int vars = 0;
  std::vector<int> inc(n, 0), entry(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    if (fixed(i) == 0 && rep(i) == i) {
      inc[i] = ++vars;
      if (pos[i].to_move != W) entry[i] = ++vars;
    }
  if (sym)
    for (std::size_t i = 0; i < n; ++i) {
      inc[i] = inc[rep(i)];
      entry[i] = entry[rep(i)];
    }
  std::uint64_t clauses = 0;
  auto clause = [&](std::initializer_list<int> lits) {
    for (int l : lits) sat.add(l);
    sat.add(0);
    ++clauses;
  };
  std::vector<Move> buf(kMaxMoves);
  std::vector<std::vector<int>> into(n);  // non-capturing sigma variables into an opponent state
  struct Choice {
    int var;
    std::int16_t move;
    std::size_t to;
  };
  std::vector<std::vector<Choice>> choices(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!inc[i] || rep(i) != i) continue;
    const Position& p = pos[i];
    const int m = generate_moves(board, o.rules, p, buf.data());
    if (p.to_move == W) {
      std::vector<int> any{-inc[i]};
      for (int k = 0; k < m; ++k) {
        const std::size_t v = id_of(apply_move(p, buf[k]));
        if (fixed(v) != 0) continue;  // -1: a loss for W; +1 cannot happen (i would be ranked)
        if (!buf[k].captured && self_mirrored(i) != self_mirrored(v)) continue;  // see the mirror above
        if (buf[k].captured && self_mirrored(i) && !self_mirrored(v)) continue;  // sigma(i) must be its own image
        const int x = ++vars;
        choices[i].push_back({x, std::int16_t(k), v});
        any.push_back(x);
        clause({-x, inc[v]});
        if (buf[k].captured) clause({-x, entry[v]});
        else into[rep(v)].push_back(x);
      }
      for (int l : any) sat.add(l);
      sat.add(0);
      ++clauses;
    } else {
      for (int k = 0; k < m; ++k) {
        const std::size_t v = id_of(apply_move(p, buf[k]));
        const int f = fixed(v);
        if (f == 1) continue;
        if (f == -1) {
          clause({-inc[i]});
          break;
        }
        clause({-inc[i], inc[v]});
      }
    }
  }
  // At most one sigma into each opponent state, none into a segment's first state.
  for (std::size_t t = 0; t < n; ++t) {
    const std::vector<int>& P = into[t];
    if (P.empty()) continue;
    for (int x : P) clause({-entry[t], -x});
    if (P.size() <= 5) {
      for (std::size_t a = 0; a < P.size(); ++a)
        for (std::size_t b = a + 1; b < P.size(); ++b) clause({-P[a], -P[b]});
    } else {  // sequential counter: s_i = "one of P[0..i] is set"
      int prev = 0;
      for (std::size_t a = 0; a + 1 < P.size(); ++a) {
        const int s = ++vars;
        clause({-P[a], s});
        if (prev) {
          clause({-prev, s});
          clause({-P[a], -prev});
        }
        prev = s;
      }
      clause({-P.back(), -prev});
    }
  }
  for (std::size_t h : history)
    if (entry[h]) clause({entry[h]});
  if (inc[root]) {
    clause({inc[root]});
    if (entry[root]) clause({entry[root]});
  }
  out.variables = std::uint64_t(vars);
  out.clauses = clauses;

  Deadline deadline;
  if (max_seconds > 0) {
    deadline.on = true;
    deadline.end = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                         std::chrono::duration<double>(max_seconds));
    sat.connect_terminator(&deadline);
  }
  const int res = inc[root] ? sat.solve() : 10;
  if (max_seconds > 0) sat.disconnect_terminator();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (res == 20) {
    out.status = StrategyStatus::none;
    return out;
  }
  if (res != 10) {
    out.status = StrategyStatus::budget;
    return out;
  }
  out.status = StrategyStatus::found;

  // The strategy read off the model, and the states the play can reach under it.
  std::vector<std::int16_t> move_at(n, -1);  // W's move where it is W's turn in the reach
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<std::size_t> stack{root}, reach;
  seen[root] = 1;
  while (!stack.empty()) {
    const std::size_t u = stack.back();
    stack.pop_back();
    reach.push_back(u);
    const Position& p = pos[u];
    const int f = fixed(u);
    if (f == -1 || (f == 0 && sat.val(inc[u]) <= 0))
      throw GonuError("superko strategy: the model leaves the strategy's reach (a bug)");
    if (lost_by_material(p)) continue;
    const int m = generate_moves(board, o.rules, p, buf.data());
    if (p.to_move == W) {
      std::int16_t k = -1;
      if (f == 1) {
        k = fresh.reply[u];
      } else {
        const std::size_t r = rep(u);
        for (const Choice& c : choices[r])
          if (sat.val(c.var) > 0) {
            k = c.move;
            break;
          }
        if (r != u && k >= 0) {  // the mirror image of the pair's move
          std::vector<Move> at_r(kMaxMoves);
          generate_moves(board, o.rules, pos[r], at_r.data());
          const Move mirrored = map_move(board, 1, at_r[k]);
          k = -1;
          for (int j = 0; j < m && k < 0; ++j)
            if (buf[j] == mirrored) k = std::int16_t(j);
        }
      }
      if (k < 0 || k >= m) throw GonuError("superko strategy: no move for the winner (a bug)");
      move_at[u] = k;
      const std::size_t v = id_of(apply_move(p, buf[k]));
      if (!seen[v]) {
        seen[v] = 1;
        stack.push_back(v);
      }
    } else {
      for (int k = 0; k < m; ++k) {
        const std::size_t v = id_of(apply_move(p, buf[k]));
        if (!seen[v]) {
          seen[v] = 1;
          stack.push_back(v);
        }
      }
    }
  }
  std::sort(reach.begin(), reach.end());
  out.reach = reach.size();
  for (std::size_t u : reach) {
    if (fixed(u) == 1) ++out.ranked;
    else if (pos[u].to_move == W) ++out.paired;
  }
  if (!want_certificate) return out;

  // The block of format 2 (superko.md): the paired moves, then the ranked states.
  std::ostringstream c;
  c << "strategy " << out.paired << "\n";
  for (std::size_t u : reach) {
    if (fixed(u) == 1 || pos[u].to_move != W) continue;
    generate_moves(board, o.rules, pos[u], buf.data());  // move_at holds an index into this list
    c << format_position(board, pos[u]) << ' ' << format_move(board, o.rules, buf[move_at[u]]) << "\n";
  }
  c << "ranked " << out.ranked << "\n";
  for (std::size_t u : reach) {
    if (fixed(u) != 1) continue;
    c << format_position(board, pos[u]) << ' ' << fresh.rank[u] << ' ';
    if (pos[u].to_move == W && move_at[u] >= 0) {
      generate_moves(board, o.rules, pos[u], buf.data());
      c << format_move(board, o.rules, buf[move_at[u]]) << "\n";
    } else {
      c << "-\n";
    }
  }
  out.block = c.str();
  return out;
}

}  // namespace

StrategySearch find_strategy(const BanFreeOracle& o, const FreshValues& fresh, const Game& g, Side W,
                             double max_seconds, bool certificate, int layers) {
  // A mirrored strategy first (half the variables); if none exists, one of any shape.
  StrategySearch s = search_strategy(o, fresh, g, W, max_seconds, certificate, layers, true);
  if (s.status != StrategyStatus::none || !s.mirrored) {
    if (s.status == StrategyStatus::none && layers >= 0) s.note = "none within " + std::to_string(layers) + " layers";
    return s;
  }
  const double spent = s.seconds;
  const double left = max_seconds > 0 ? std::max(0.001, max_seconds - spent) : 0;
  s = search_strategy(o, fresh, g, W, left, certificate, layers, false);
  s.seconds += spent;
  if (s.status == StrategyStatus::none && layers >= 0) s.note = "none within " + std::to_string(layers) + " layers";
  return s;
}

std::string strategy_certificate(const Game& game, const StrategySearch& s) {
  return certificate_header(game, 2, s.winner) + s.block + "end-certificate\n";
}

}  // namespace gonu
