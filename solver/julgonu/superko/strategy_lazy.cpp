// The S3 check of a strategy read off a model, and its blocking clauses (see strategy_lazy.hpp).
// Phases: the reach's graph (local indices, edges with their move variable); its strongly connected
// parts (Tarjan without recursion); per part with a violation, one walk tree out of a centre and
// one into it, so that a closed walk t -> centre -> w -> t is read off in time linear in its length.
#include "solver/julgonu/superko/strategy_lazy.hpp"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"

namespace gonu {

namespace {

constexpr std::uint32_t kNone = ~std::uint32_t(0);

struct Edge {
  std::uint32_t to;
  int var;  // the move's SAT variable (0: a loser's move or a ranked winner's, fixed)
  bool captures;
};

struct Graph {
  std::vector<std::size_t> id;                    // local index -> state id
  std::vector<std::vector<Edge>> out, in;         // in: the same edges, by target (Edge::to is the source)
  std::vector<std::uint8_t> winner, first;        // W to move; a segment's first state (root or capture target)
};

Graph build_graph(const StrategyStates& st, const ModelStrategy& ms) {
  Graph g;
  std::vector<std::uint32_t> local(st.pos.size(), kNone);
  for (std::size_t u : *ms.reach) {
    local[u] = std::uint32_t(g.id.size());
    g.id.push_back(u);
  }
  const std::size_t n = g.id.size();
  g.out.resize(n);
  g.in.resize(n);
  g.winner.assign(n, 0);
  g.first.assign(n, 0);
  g.first[local[st.root]] = 1;
  std::vector<Move> buf(kMaxMoves);
  for (std::uint32_t a = 0; a < n; ++a) {
    const Position& p = st.pos[g.id[a]];
    if (lost_by_material(p)) continue;
    const int m = generate_moves(st.board, st.oracle->rules, p, buf.data());
    g.winner[a] = p.to_move == st.winner;
    for (int k = 0; k < m; ++k) {
      if (g.winner[a] && k != (*ms.move_at)[g.id[a]]) continue;
      const std::size_t to = st.id_of(apply_move(p, buf[k]));
      if (buf[k].captured && st.entry_exit(to)) continue;  // an exit to a proven entry state: not walked (F10)
      const std::uint32_t b = local[to];
      if (b == kNone) throw GonuError("superko strategy: the reach is not closed (a bug)");
      const int var = g.winner[a] ? ms.var_at[g.id[a]] : 0;
      g.out[a].push_back({b, var, buf[k].captured != 0});
      g.in[b].push_back({a, var, buf[k].captured != 0});
      if (buf[k].captured) g.first[b] = 1;
    }
  }
  return g;
}

// The strongly connected part of every state, by Tarjan's algorithm with an explicit call stack.
std::vector<std::uint32_t> strong_parts(const Graph& g) {
  const std::size_t n = g.id.size();
  std::vector<std::uint32_t> part(n, kNone), order(n, kNone), low(n, 0), open;
  std::vector<std::uint8_t> on_open(n, 0);
  std::vector<std::pair<std::uint32_t, std::size_t>> call;
  std::uint32_t counter = 0, parts = 0;
  auto enter = [&](std::uint32_t v) {
    order[v] = low[v] = counter++;
    open.push_back(v);
    on_open[v] = 1;
    call.push_back({v, 0});
  };
  for (std::uint32_t s = 0; s < n; ++s) {
    if (order[s] != kNone) continue;
    enter(s);
    while (!call.empty()) {
      auto& [v, k] = call.back();
      if (k < g.out[v].size()) {
        const std::uint32_t w = g.out[v][k++].to;
        if (order[w] == kNone) enter(w);
        else if (on_open[w]) low[v] = std::min(low[v], order[w]);
        continue;
      }
      const std::uint32_t done = v;
      call.pop_back();
      if (!call.empty()) low[call.back().first] = std::min(low[call.back().first], low[done]);
      if (low[done] != order[done]) continue;
      std::uint32_t w;
      do {
        w = open.back();
        open.pop_back();
        on_open[w] = 0;
        part[w] = parts;
      } while (w != done);
      ++parts;
    }
  }
  return part;
}

// Breadth-first trees inside one part from its centre: `from` (the edge into each state on a walk
// out of the centre) and `to` (the edge out of each state on a walk into the centre).
class PartWalks {
 public:
  PartWalks(const Graph& g, const std::vector<std::uint32_t>& part)
      : g_(g), part_(part), from_(g.id.size(), {kNone, 0, false}), to_(g.id.size(), {kNone, 0, false}) {}

  // The move variables of a closed walk t -> ... -> w (then w -> t closes it), w and t in one part.
  void walk(std::uint32_t t, std::uint32_t w, std::vector<int>& vars) {
    const std::uint32_t c = centre(part_[t]);
    for (std::uint32_t v = t; v != c; v = to_[v].to) push(to_[v].var, v, vars);
    for (std::uint32_t v = w; v != c; v = from_[v].to) push(from_[v].var, from_[v].to, vars);
  }

 private:
  void push(int var, std::uint32_t source, std::vector<int>& vars) {
    if (g_.winner[source] && var == 0) throw GonuError("superko strategy: a ranked state on a cycle (a bug)");
    if (var) vars.push_back(var);
  }
  std::uint32_t centre(std::uint32_t p) {
    const auto it = centres_.find(p);
    if (it != centres_.end()) return it->second;
    std::uint32_t c = 0;
    while (part_[c] != p) ++c;  // once per part with a violation
    centres_.emplace(p, c);
    bfs(c, g_.out, from_);
    bfs(c, g_.in, to_);
    return c;
  }
  // tree[v] = the edge by which v was reached: (its other end, the move variable).
  void bfs(std::uint32_t c, const std::vector<std::vector<Edge>>& adj, std::vector<Edge>& tree) {
    std::deque<std::uint32_t> q{c};
    tree[c] = {c, 0, false};
    while (!q.empty()) {
      const std::uint32_t v = q.front();
      q.pop_front();
      for (const Edge& e : adj[v]) {
        if (part_[e.to] != part_[c] || tree[e.to].to != kNone) continue;
        tree[e.to] = {v, e.var, false};  // forward: the edge v -> e.to; backward: e.to -> v
        q.push_back(e.to);
      }
    }
  }

  const Graph& g_;
  const std::vector<std::uint32_t>& part_;
  std::vector<Edge> from_, to_;
  std::unordered_map<std::uint32_t, std::uint32_t> centres_;
};

}  // namespace

S3Violations s3_violations(const StrategyStates& st, const ModelStrategy& ms, std::size_t max_clauses) {
  S3Violations out;
  const Graph g = build_graph(st, ms);
  const std::vector<std::uint32_t> part = strong_parts(g);
  std::vector<std::uint32_t> size(g.id.size(), 0);
  for (std::uint32_t p : part) ++size[p];
  for (std::uint32_t s : size)
    if (s > 1) {
      ++out.parts;
      out.largest = std::max<std::uint64_t>(out.largest, s);
    }
  PartWalks walks(g, part);
  for (std::uint32_t w = 0; w < g.id.size(); ++w) {
    if (!g.winner[w] || g.out[w].empty()) continue;
    const Edge& e = g.out[w][0];
    const std::uint32_t t = e.to;
    if (e.captures || part[w] != part[t]) continue;
    std::vector<std::uint32_t> others;  // t's other predecessors (a capture into t is one)
    for (const Edge& back : g.in[t])
      if (back.to != w) others.push_back(back.to);
    const bool root = g.id[t] == st.root;
    if (!root && !g.first[t] && others.empty()) continue;
    ++out.found;
    out.targets.push_back(g.id[t]);
    if (out.clauses.size() >= max_clauses) continue;
    std::vector<int> base;
    walks.walk(t, w, base);
    base.push_back(e.var);
    if (root) others.clear();
    if (others.size() > 3) others.resize(3);  // enough to exclude this model; later rounds find the rest
    std::vector<int> clause;
    for (std::size_t k = 0; k < std::max<std::size_t>(1, others.size()); ++k) {
      clause = base;
      if (!others.empty()) {
        const Edge& o = g.out[others[k]][0];
        if (o.var == 0) throw GonuError("superko strategy: a ranked move into a cycle (a bug)");
        clause.push_back(o.var);
      }
      std::sort(clause.begin(), clause.end());
      clause.erase(std::unique(clause.begin(), clause.end()), clause.end());
      for (int& l : clause) l = -l;
      out.clauses.push_back(clause);
    }
  }
  return out;
}

}  // namespace gonu
