// Fresh-entry superko values by material layer (see layers.hpp; proofs in SUPERKO.md).
#include "solver/julgonu/superko/layers.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"

namespace gonu {

namespace {

// The deadline is looked at once in this many states (a few milliseconds of work at most).
constexpr std::uint32_t kDeadlineStride = 4096;

void check_every(std::size_t i, const RunDeadline& deadline) {
  if (i % kDeadlineStride == 0) deadline.check();
}

// One layer's move graph. In-layer edges hold the local index of the target, exits (captures,
// which always leave the layer) the global id.
struct Edge {
  std::uint32_t to;
  std::int16_t move;  // index in generate_moves order
  bool exit;
};
struct PredEdge {
  std::uint32_t from;  // local
};

struct LayerGraph {
  std::vector<std::uint32_t> ids;  // global ids, ascending
  std::vector<Position> pos;
  std::vector<std::uint32_t> off;  // out edges of u: edges[off[u] .. off[u+1])
  std::vector<Edge> edges;
  std::vector<std::uint32_t> poff;  // in-layer predecessors of v: preds[poff[v] .. poff[v+1])
  std::vector<PredEdge> preds;
  std::vector<bool> terminal;  // the side to move has lost: at most one piece, or no move
};

LayerGraph build_layer(const BanFreeOracle& o, const Board& board, std::vector<std::uint32_t> ids,
                       std::vector<std::int32_t>& local, const RunDeadline& deadline) {
  const Solution& sol = o.solution;
  LayerGraph g;
  g.ids = std::move(ids);
  const std::size_t n = g.ids.size();
  g.pos.resize(n);
  g.terminal.assign(n, false);
  for (std::size_t u = 0; u < n; ++u) {
    Tag t;
    decode_key(sol.codec, sol.keys[g.ids[u]], g.pos[u], t);
    local[g.ids[u]] = std::int32_t(u);
  }
  g.off.assign(n + 1, 0);
  std::vector<Move> buf(kMaxMoves);
  std::vector<std::uint32_t> indeg(n + 1, 0);
  for (std::size_t u = 0; u < n; ++u) {
    check_every(u, deadline);
    const Position& p = g.pos[u];
    const int m = lost_by_material(p) ? 0 : generate_moves(board, o.rules, p, buf.data());
    g.terminal[u] = m == 0;
    for (int i = 0; i < m; ++i) {
      const auto at = find_state(sol, o.key(apply_move(p, buf[i])));
      if (!at) throw GonuError("superko layers: a successor is missing from the ban-free solution");
      const bool exit = buf[i].captured != 0;
      const std::uint32_t to = exit ? std::uint32_t(*at) : std::uint32_t(local[*at]);
      if (!exit && local[*at] < 0) throw GonuError("superko layers: a non-capturing move left its layer");
      g.edges.push_back({to, std::int16_t(i), exit});
      if (!exit) ++indeg[to];
    }
    g.off[u + 1] = std::uint32_t(g.edges.size());
  }
  g.poff.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) g.poff[v + 1] = g.poff[v] + indeg[v];
  g.preds.resize(g.poff[n]);
  std::vector<std::uint32_t> fill(g.poff.begin(), g.poff.end() - 1);
  for (std::size_t u = 0; u < n; ++u)
    for (std::uint32_t e = g.off[u]; e < g.off[u + 1]; ++e)
      if (!g.edges[e].exit) g.preds[fill[g.edges[e].to]++] = {std::uint32_t(u)};
  return g;
}

// The attractor: retrograde analysis inside the layer, exits fixed at their fresh values.
// Level-synchronous, so ranks strictly fall along the winner's strategy.
void solve_attractor(const LayerGraph& g, FreshValues& fv, FreshLayer& rep, const RunDeadline& deadline) {
  const std::size_t n = g.ids.size();
  std::vector<std::uint32_t> remaining(n, 0);
  std::vector<std::uint32_t> level, next;
  auto decide = [&](std::uint32_t u, SkValue v, std::uint32_t rank, std::int16_t reply, FreshMethod m,
                    std::vector<std::uint32_t>& into) {
    const std::uint32_t id = g.ids[u];
    fv.value[id] = v;
    fv.rank[id] = rank;
    fv.reply[id] = reply;
    fv.method[id] = m;
    into.push_back(u);
  };
  std::vector<std::uint32_t> level1;
  for (std::uint32_t u = 0; u < n; ++u) {
    check_every(u, deadline);
    if (g.terminal[u]) {
      decide(u, SkValue::loss, 0, -1, FreshMethod::terminal, level);
      continue;
    }
    std::uint32_t open = 0;
    std::int16_t win = -1;
    for (std::uint32_t e = g.off[u]; e < g.off[u + 1]; ++e) {
      const Edge& ed = g.edges[e];
      if (!ed.exit) {
        ++open;
      } else if (fv.exit_value(ed.to) == SkValue::loss) {
        if (win < 0) win = ed.move;
      } else if (fv.exit_value(ed.to) != SkValue::win) {
        ++open;  // unknown: never counts down
      }
    }
    remaining[u] = open;
    if (win >= 0) decide(u, SkValue::win, 1, win, FreshMethod::attractor, level1);
    else if (open == 0) decide(u, SkValue::loss, 1, -1, FreshMethod::attractor, level1);
  }
  auto decided = [&](std::uint32_t u) { return fv.value[g.ids[u]] != SkValue::unknown; };
  auto move_to = [&](std::uint32_t u, std::uint32_t v) {
    for (std::uint32_t e = g.off[u]; e < g.off[u + 1]; ++e)
      if (!g.edges[e].exit && g.edges[e].to == v) return g.edges[e].move;
    return std::int16_t(-1);
  };
  for (std::uint32_t k = 0; !level.empty() || !level1.empty(); ++k) {
    next.clear();
    if (k == 0) next.swap(level1);
    for (std::size_t j = 0; j < level.size(); ++j) {
      check_every(j, deadline);
      const std::uint32_t v = level[j];
      const bool lost = fv.value[g.ids[v]] == SkValue::loss;
      for (std::uint32_t i = g.poff[v]; i < g.poff[v + 1]; ++i) {
        const std::uint32_t u = g.preds[i].from;
        if (decided(u)) continue;
        if (lost) decide(u, SkValue::win, k + 1, move_to(u, v), FreshMethod::attractor, next);
        else if (--remaining[u] == 0) decide(u, SkValue::loss, k + 1, -1, FreshMethod::attractor, next);
      }
    }
    level.swap(next);
  }
  for (std::uint32_t u = 0; u < n; ++u) {
    const SkValue v = fv.value[g.ids[u]];
    if (v == SkValue::win) ++rep.attractor_win;
    if (v == SkValue::loss) ++rep.attractor_loss;
  }
}

}  // namespace

FreshValues solve_fresh_values(const BanFreeOracle& o, const ProgressFn& progress, const FreshLayerHook& after_layer,
                               const RunDeadline& deadline) {
  const Solution& sol = o.solution;
  const std::size_t n = sol.keys.size();
  if (n >= (std::size_t(1) << 31)) throw GonuError("superko layers: too many ban-free states to hold");
  const Board board = make_board(o.rules.rows, o.rules.cols);
  FreshValues fv;
  fv.value.assign(n, SkValue::unknown);
  fv.method.assign(n, FreshMethod::none);
  fv.rank.assign(n, 0);
  fv.reply.assign(n, -1);

  // Layers in ascending material: a capture always lowers it, so exits are known before.
  std::map<std::pair<int, int>, std::vector<std::uint32_t>> layers;  // (total, black) -> ids
  for (std::size_t i = 0; i < n; ++i) {
    check_every(i, deadline);
    Position p;
    Tag t;
    decode_key(sol.codec, sol.keys[i], p, t);
    const int b = popcount(p.black), w = popcount(p.white);
    layers[{b + w, b}].push_back(std::uint32_t(i));
  }
  std::vector<std::int32_t> local(n, -1);
  std::uint64_t done = 0;
  for (auto& [key, ids] : layers) {
    const auto t0 = std::chrono::steady_clock::now();
    FreshLayer rep;
    rep.black = key.second;
    rep.white = key.first - key.second;
    rep.states = ids.size();
    for (std::uint32_t id : ids)
      if (sol.value[id] == Value::draw) ++rep.banfree_draws;
    const LayerGraph g = build_layer(o, board, std::move(ids), local, deadline);
    solve_attractor(g, fv, rep, deadline);
    for (std::uint32_t id : g.ids) {
      if (fv.value[id] == SkValue::unknown) ++rep.open;
      local[id] = -1;
    }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fv.layers.push_back(rep);
    if (after_layer) after_layer(fv, g.ids);
    done += rep.states;
    if (progress) progress("superko layers", done, n);
  }
  return fv;
}

}  // namespace gonu
