// solve_superko, in phases: the ban-free oracle and the layers' attractors; a memoryless strategy
// at the root, then the strategy tree; the search (on a thread with a large stack: lines inside a
// material layer can be thousands of plies deep) and its certificate; the per-layer report.
#include "solver/julgonu/superko/superko.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <optional>

#include "core/error.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/cube.hpp"
#include "solver/julgonu/superko/dfpn_certificate.hpp"
#include "solver/julgonu/superko/dfpn_table.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/search.hpp"
#include "solver/julgonu/superko/strategy.hpp"
#include "solver/julgonu/superko/strategy_memory.hpp"
#include "solver/julgonu/superko/strategy_tree.hpp"
#include "util/large_stack.hpp"

namespace gonu {

namespace {

// The whole run's time budget (SuperkoOptions::max_seconds, 0: none), from the start of the run:
// each later phase gets what is left of it.
class RunClock {
 public:
  explicit RunClock(double max_seconds) : max_(max_seconds), t0_(std::chrono::steady_clock::now()) {}
  bool out() const { return max_ > 0 && left() <= 0; }
  // The deadline itself (time_point::max() without a budget).
  std::chrono::steady_clock::time_point until() const {
    if (max_ <= 0) return std::chrono::steady_clock::time_point::max();
    return t0_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(max_));
  }
  RunDeadline deadline() const { return {until()}; }
  double left() const { return max_ - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }
  // A phase's budget: `own` (0: none) capped by what is left; 0 without a run budget.
  double cap(double own) const {
    if (max_ <= 0) return own;
    const double l = std::max(0.001, left());
    return own > 0 ? std::min(own, l) : l;
  }

 private:
  double max_;
  std::chrono::steady_clock::time_point t0_;
};

// A memoryless strategy (or one with memory, F11, when asked for): the side to move's win first,
// then the other side's. The tree below stays memoryless. With the layer-by-layer pass (`pass` not
// null), its proven exits are used and the certificate is format 6.
void try_strategies(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const SuperkoOptions& o,
                    const EntryPass* pass, const RunClock& clock, SuperkoResult& res) {
  const Side to_move = current(g).to_move;
  for (Side w : {to_move, other(to_move)}) {
    if (clock.out()) return;
    if (o.progress) o.progress(w == Side::black ? "strategy for black" : "strategy for white", 0, 0);
    const double seconds = clock.cap(o.strategy_seconds);
    const StrategySearch ss =
        o.strategy_memory > 0
            ? find_memory_strategy(oracle, fresh, g, w, seconds, o.certificate, o.strategy_layers, o.strategy_memory)
            : find_strategy(oracle, fresh, g, w, seconds, o.certificate, o.strategy_layers, o.strategy_method,
                            o.strategy_solver, clock.until(), o.progress);
    res.strategies.push_back({to_string(w), to_string(ss.status), ss.note, ss.variables, ss.clauses, ss.reach,
                              ss.paired, ss.ranked, ss.seconds, o.strategy_method != StrategyMethod::injective,
                              ss.rounds, ss.violations, ss.blocking, ss.parts, ss.largest_part, ss.restricted,
                              ss.solver, ss.ilp.lp, ss.ilp.root_lp, ss.ilp.lp_bound, ss.ilp.lp_fractional, ss.ilp.objective,
                              ss.ilp.nodes, ss.memory, ss.product_nodes, ss.product_reach, ss.exits});
    if (ss.status == StrategyStatus::found) {
      res.value = w == to_move ? SkValue::win : SkValue::loss;
      res.method = "strategy";
      res.certificate_version = ss.version;
      res.depth = std::uint32_t(ss.reach - 1);
      if (o.certificate && pass) {
        res.certificate_version = 6;
        res.certificate = entry_certificate(oracle, *pass, g, w, ss.block, ss.version);
      } else if (o.certificate) {
        res.certificate = strategy_certificate(g, ss);
      }
      break;
    }
  }
}

// The tree, unless a root search ran out of budget (it would at every node of the tree too).
void try_strategy_tree(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const SuperkoOptions& o,
                       const RunClock& clock, SuperkoResult& res) {
  bool root_budget = false;
  for (const SuperkoStrategyReport& r : res.strategies)  // lazy-local's "none within its restrictions" (a note) is no timeout
    root_budget |= r.status == to_string(StrategyStatus::budget) && r.restricted == 0;
  if (res.value != SkValue::unknown || o.strategy_depth <= 0 || root_budget || clock.out()) return;
  if (o.progress) o.progress("strategy tree", 0, 0);
  const StrategyTree t = prove_by_strategy_tree(oracle, fresh, g, o.strategy_depth, o.strategy_seconds,
                                                o.certificate, true, o.strategy_layers, o.strategy_method,
                                                o.strategy_solver, o.max_seconds > 0 ? clock.cap(0) : 0, o.progress);
  res.tree_nodes = t.nodes;
  res.tree_searches = t.sat_calls;
  res.tree_leaves = t.leaves;
  if (t.value != SkValue::unknown) {
    res.value = t.value;
    res.method = "strategy tree";
    res.certificate_version = o.strategy_method == StrategyMethod::injective ? 3 : 5;
    res.depth = t.depth;
    res.certificate = t.certificate;
    if (!fresh.entry.empty() && o.certificate) {  // its strategies may end at proven entry states
      res.certificate.clear();
      res.certificate_error = "no certificate format for a strategy tree over proven entry values";
    }
  }
}

SuperkoStrategyReport strategy_report(const CubeRecord& r) {
  SuperkoStrategyReport s;
  s.winner = to_string(r.side);
  s.status = to_string(r.status);
  s.note = r.note;
  s.variables = r.variables;
  s.clauses = r.clauses;
  s.reach = r.reach;
  s.paired = r.paired;
  s.ranked = r.ranked;
  s.seconds = r.seconds;
  // s.lazy stays false: the lazy method's rounds and clauses are not kept in the resume file
  return s;
}

// Cube and conquer in place of the root's strategies and the tree: the same tree, level by level,
// its searches in parallel and resumable. The root's searches are reported as the root's strategies.
void try_cube(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const SuperkoOptions& o,
              SuperkoResult& res) {
  const CubeOptions co{o.strategy_depth, o.strategy_seconds, o.certificate, o.strategy_layers,
                       o.strategy_method, o.resume, o.max_searches};
  CubeResult c = solve_by_cube(oracle, fresh, g, co, o.progress);
  for (const CubeRecord& r : c.root) res.strategies.push_back(strategy_report(r));
  std::uint64_t nodes = 0;
  for (std::uint64_t n : c.nodes_per_depth) nodes += n;
  res.tree_nodes = nodes;
  res.tree_searches = c.run + c.resumed;
  res.tree_leaves = c.root_strategy ? 0 : c.leaves;
  res.cube = {true, c.nodes_per_depth, c.run, c.resumed, c.found, c.none, c.budget, c.not_applicable,
              c.largest_variables, c.largest_clauses, c.search_seconds, c.stopped};
  if (c.value == SkValue::unknown) return;
  res.value = c.value;
  res.method = c.root_strategy ? "strategy" : "strategy tree";
  res.certificate_version = c.certificate_version;
  res.depth = c.depth;
  for (const CubeRecord& r : c.root)
    if (c.root_strategy && r.status == StrategyStatus::found) res.depth = std::uint32_t(r.reach - 1);
  res.certificate = std::move(c.certificate);
}

// The depth-first search from the root, then (proven, when asked for) its certificate. Both run
// on a thread with a large stack.
void run_search(SuperkoSearch& search, const Game& g, const SuperkoOptions& o, SuperkoResult& res) {
  SkOutcome root;
  run_with_large_stack([&] {
    try {
      root = search.solve(g);
    } catch (const SearchAborted& a) {
      res.stop_reason = a.reason;
    }
  });
  res.value = root.value;
  res.depth = root.depth;
  if (root.value != SkValue::unknown) {
    res.method = "search";
    res.certificate_version = 1;
  }
  if (!o.certificate || root.value == SkValue::unknown) return;
  CertificateText c;
  run_with_large_stack([&] {
    try {
      c = write_certificate(search, g, root, o.max_certificate_nodes);
    } catch (const SearchAborted& a) {
      // Writing re-walks the proof; what the tables forgot is searched again, within the budget.
      c = CertificateText{};
      c.error = "re-walking the proof ran past the " + a.reason;
    }
  });
  res.certificate = std::move(c.text);
  res.certificate_error = c.error;
  res.certificate_nodes = c.nodes;
}

DfpnOptions dfpn_options(const SuperkoOptions& o) {
  DfpnOptions d;
  d.max_nodes = o.max_nodes;
  d.max_table_entries = o.max_table_entries;
  d.max_relevant_boards = o.max_relevant_boards;
  d.relevance = o.relevance && o.transpositions;
  d.banfree_leaves = o.banfree_leaves;
  d.symmetric_proofs = o.symmetric_proofs;
  d.subset_boards = o.subset_boards;
  return d;
}

// Gives out the value that `s` decided (`out`), walking its proof into `graph` within max_nodes:
// a finished walk proves it from the rules' leaves; a value resting on a file's hints (DfpnSource)
// is given out only then, else unknown (the walk's stop in res.stop_reason). A contradiction the
// walk meets is the file's fault.
SkValue walk_root(DfpnSearch& s, const Game& g, const DfpnOutcome& out, std::uint64_t max_nodes,
                  const SuperkoOptions& o, const DfpnTableFile* table, DfpnProofGraph& graph, SuperkoResult& res) {
  s.set_max_nodes(max_nodes);
  try {
    res.certificate_error = graph.add_root(s, g, out.value, o.max_certificate_nodes);
  } catch (const DfpnContradiction& e) {
    if (table) table->blame(e);  // before any save: a fact the walk contradicts is not written back
    throw;
  }
  if (res.certificate_error.empty() || out.source == DfpnSource::proven) return out.value;
  res.stop_reason = graph.stopped_by();
  return SkValue::unknown;
}

// Adds from's proven entries to `to` (where a hint says otherwise, the proven entry stays).
void share_proven(const DfpnSearch& from, DfpnSearch& to) {
  DfpnSearch::Proofs p = from.proofs();
  p.erase_if_source([](DfpnSource s) { return s != DfpnSource::proven; });
  to.add_proofs(p);
}

// The turns of run_dfpn over a file's hints: the node budget and the clock they share.
struct Turns {
  std::uint64_t max_nodes;  // 0: none
  double max_seconds;       // 0: none
  std::uint64_t spent = 0;  // expansions of the searches and the hints' walks
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  // At most n, within what is left (0: nothing left).
  std::uint64_t cap(std::uint64_t n) const { return !max_nodes ? n : spent >= max_nodes ? 0 : std::min(n, max_nodes - spent); }
  // Sets s's budgets for a turn of at most n nodes; false when none is left.
  bool budget(DfpnSearch& s, std::uint64_t n) const {
    const double left = max_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (cap(n) == 0 || (max_seconds > 0 && left <= 0)) return false;
    s.set_max_nodes(cap(n));
    s.set_max_seconds(max_seconds > 0 ? left : 0);
    return true;
  }
  // Runs f on s, counting the expansions it takes.
  template <class F>
  auto run(DfpnSearch& s, F&& f) {
    const std::uint64_t before = s.stats().nodes;
    auto r = f();
    spent += s.stats().nodes - before;
    return r;
  }
};

// With a proofs file's hints, the search over them (`hinted`) and one of its own from the rules
// alone (`own`) take turns, in rounds whose budget doubles from round_nodes: `hinted` within the
// round's budget, then the walk of a value it decided on hints within it, then `own` within half
// of it; between turns each gets the other's proven entries (which displace hints that say
// otherwise). Why: a false hint turns a node's value round and can make the search prove a harder
// game than the true one at any cost (forged 5x2 files: over a hundred times a run without it);
// so a forged file costs at most a few times what `own` needs, and a true one at most about half
// again what `hinted` needs.
void take_turns(DfpnSearch& hinted, DfpnSearch& own, const Game& g, const SuperkoOptions& o, Turns& t,
                const DfpnTableFile* table, DfpnProofGraph& graph, SuperkoResult& res) {
  const std::uint64_t first = std::max<std::uint64_t>(1, dfpn_options(o).round_nodes);
  for (std::uint64_t b = first;; b = std::min(b * 2, DfpnSearch::kInfinite)) {
    if (!t.budget(hinted, b)) break;
    const DfpnOutcome h = t.run(hinted, [&] { return hinted.solve_rounds(g); });
    if (h.value != SkValue::unknown && h.source == DfpnSource::proven) {
      res.value = walk_root(hinted, g, h, o.max_nodes, o, table, graph, res);
      return;
    }
    if (h.value != SkValue::unknown && t.budget(hinted, b)) {
      res.value = t.run(hinted, [&] { return walk_root(hinted, g, h, t.cap(b), o, table, graph, res); });
      if (res.value != SkValue::unknown) return;
    }
    share_proven(hinted, own);
    if (!t.budget(own, std::max<std::uint64_t>(1, b / 2))) break;
    const DfpnOutcome m = t.run(own, [&] { return own.solve_rounds(g); });
    share_proven(own, hinted);
    if (m.value != SkValue::unknown) {  // proven (no file's fact: a contradiction is no fault of the file's)
      res.value = walk_root(own, g, m, o.max_nodes, o, nullptr, graph, res);
      return;
    }
  }
  res.stop_reason = t.max_nodes && t.spent >= t.max_nodes ? "node budget" : "time budget";
}

// Df-pn from the root instead of the depth-first search. With a certificate asked for, or a proofs
// file read, it runs without the attractors' values and the symmetries, so that its proof uses
// F3's leaves alone and names the positions the game reaches; the proof goes into `graph` (format
// 8, dfpn_certificate.hpp), and its walk proves again a value that rests on the file's hints.
void run_dfpn(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const SuperkoOptions& o,
              double seconds_left, const DfpnTableFile* table, DfpnProofGraph& graph, SuperkoResult& res) {
  const bool walk = o.certificate || table;
  DfpnOptions d = dfpn_options(o);
  d.symmetry = !walk;
  d.max_seconds = seconds_left;
  DfpnSearch dfpn(oracle, walk ? nullptr : &fresh, d);
  if (table) table->attach(dfpn);
  res.dfpn_ran = true;
  std::uint64_t own_nodes = 0;
  if (table && table->hints()) {
    DfpnSearch own(oracle, nullptr, d);
    Turns t{o.max_nodes, seconds_left};
    take_turns(dfpn, own, g, o, t, table, graph, res);
    own_nodes = own.stats().nodes;
  } else {
    const DfpnOutcome out = dfpn.solve_rounds(g);  // on --threads cores, the same for any count
    res.value = out.value;
    res.stop_reason = out.stop;
    if (out.value != SkValue::unknown && walk) res.value = walk_root(dfpn, g, out, o.max_nodes, o, table, graph, res);
  }
  if (res.value != SkValue::unknown) {
    res.method = "df-pn";
    res.stop_reason.clear();
  }
  if (res.value != SkValue::unknown && o.certificate && res.certificate_error.empty()) {
    res.certificate = graph.text(g);
    res.certificate_nodes = graph.nodes();
    res.certificate_version = 8;
  }
  if (table) table->save(dfpn);  // decided, or stopped by a budget
  res.dfpn = dfpn.stats();
  res.dfpn.nodes += own_nodes;
}

// The layer pass's decided classes proven again in certificate mode (no fresh values, no
// symmetry; the same node budget a class, within what is left of the run's time), each written into
// `graph` as an entry. A class the
// budget does not decide again is left out (the report counts those written). One class after
// another on one thread, after the layer's parallel rounds, in class order: the certificate's bytes
// do not depend on the thread count.
void certify_dfpn_layer(const BanFreeOracle& oracle, const SuperkoOptions& o, const RunClock& clock,
                        const DfpnTableFile* table, DfpnLayerReport& layer, DfpnProofGraph& graph) try {
  DfpnOptions d = dfpn_options(o);
  d.symmetry = false;
  DfpnSearch search(oracle, nullptr, d);
  // Proven again from the rules alone (this search reads no file): true whatever the layer's rested on.
  const auto again = [&](const Position& p, SkValue v) {
    if (clock.out()) return false;  // the classes not proven again are left out, as when out of nodes
    search.set_max_seconds(clock.cap(0));
    const SkValue w = search.solve_entry(p).value;
    if (w == SkValue::unknown) return false;
    if (w != v) throw DfpnContradiction("df-pn layer: a class proven twice with two values (internal error)");
    return true;
  };
  const auto certify = [&](const Position& p, SkValue v) {
    if (graph.add_entry(search, p, v, o.max_certificate_nodes).empty()) ++layer.certified;
  };
  for (const auto& [p, v] : layer.decided)
    if (again(p, v)) certify(p, v);
  std::vector<DfpnLayerReport::Class> open;
  for (const DfpnLayerReport::Class& c : layer.unchecked) {  // the classes a file's hints decided
    if (!again(c.pos, c.value)) {
      open.push_back(c);
      continue;
    }
    layer.add_decided(c);
    certify(c.pos, c.value);
  }
  layer.unchecked = std::move(open);
} catch (const DfpnContradiction& e) {  // a class the layer pass decided from the file's facts
  if (table) table->blame(e);
  throw;
}

// Per material layer: the ban-free states, the capture entries the search met, its nodes, and the
// attractor's counts; by descending material (pieces in all, then black, then white).
std::vector<SuperkoLayer> layer_report(const BanFreeOracle& oracle, const FreshValues& fresh,
                                       const SuperkoSearch& search) {
  std::map<std::pair<int, int>, SuperkoLayer> layers;
  auto layer_of = [&](const Position& p) -> SuperkoLayer& {
    SuperkoLayer& l = layers[{popcount(p.black), popcount(p.white)}];
    l.black = popcount(p.black);
    l.white = popcount(p.white);
    return l;
  };
  const Solution& s = oracle.solution;
  for (std::size_t i = 0; i < s.keys.size(); ++i) {
    Position p;
    Tag t;
    decode_key(s.codec, s.keys[i], p, t);
    SuperkoLayer& l = layer_of(p);
    ++l.banfree_states;
    if (s.value[i] == Value::draw) ++l.banfree_draws;
  }
  for (const auto& [k, status] : search.capture_targets()) {
    Position p;
    Tag t;
    decode_key(s.codec, k, p, t);
    SuperkoLayer& l = layer_of(p);
    if (status == 2) {
      ++l.entries_banfree;
    } else {
      const auto it = search.memo().find(k);
      if (it == search.memo().end()) ++l.entries_unknown;
      else if (it->second.value == SkValue::win) ++l.entries_win;
      else ++l.entries_loss;
    }
  }
  for (const auto& [idx, n] : search.layer_nodes()) {
    SuperkoLayer& l = layers[{idx / 65, idx % 65}];
    l.black = idx / 65;
    l.white = idx % 65;
    l.nodes += n;
  }
  for (const FreshLayer& f : fresh.layers) {
    SuperkoLayer& l = layers[{f.black, f.white}];
    l.black = f.black;
    l.white = f.white;
    l.attractor_win = f.attractor_win;
    l.attractor_loss = f.attractor_loss;
    l.attractor_open = f.open;
  }
  std::vector<SuperkoLayer> out;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) out.push_back(it->second);
  std::stable_sort(out.begin(), out.end(), [](const SuperkoLayer& a, const SuperkoLayer& b) {
    return a.black + a.white > b.black + b.white;
  });
  return out;
}

// The layers' fresh values, with the layer-by-layer pass first when asked for. Throws OutOfTime
// at the run's deadline.
EntryPass fresh_values(const BanFreeOracle& oracle, const SuperkoOptions& o, const RunClock& clock,
                       SuperkoResult& res) {
  EntryPass pass;
  if (o.entry_layers) {
    pass = solve_entry_layers(
        oracle, {o.entry_seconds, clock.cap(o.entry_budget), o.strategy_method, o.certificate, clock.deadline()},
        o.progress);
    res.entry_layers = pass.layers;
    res.entry_seconds = pass.seconds;
    res.entry_budget_out = pass.budget_out;
  } else {
    pass.fresh = solve_fresh_values(oracle, o.progress, {}, clock.deadline());
  }
  return pass;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

SuperkoResult solve_superko(const Game& g, const SuperkoOptions& o) {
  if (g.rules.repetition != Repetition::superko)
    throw GonuError("the superko solver needs repetition superko, not " + to_string(g.rules.repetition));
  SuperkoResult res;
  std::optional<DfpnTableFile> table;  // refused before the long work
  if (!o.dfpn_table.empty()) table.emplace(o.dfpn_table, g.rules);
  const DfpnTableFile* tablep = table ? &*table : nullptr;
  const RunClock clock(o.max_seconds);
  const auto t0 = std::chrono::steady_clock::now();
  auto t1 = t0;
  BanFreeOracle oracle;
  EntryPass pass;
  try {  // the two phases without a budget of their own stop at the run's deadline
    oracle = make_banfree_oracle(g, o.progress, clock.deadline());
    t1 = std::chrono::steady_clock::now();
    res.banfree_seconds = seconds_since(t0);
    res.banfree_solved = true;
    res.banfree_states = oracle.solution.keys.size();
    res.banfree_value = oracle.value(oracle.key(current(g)), res.banfree_dist);
    pass = fresh_values(oracle, o, clock, res);
  } catch (const OutOfTime&) {
    if (!res.banfree_solved) res.banfree_seconds = seconds_since(t0);
    else res.seconds = seconds_since(t1);
    res.stop_reason = "time budget";
    return res;
  }
  const FreshValues& fresh = pass.fresh;
  DfpnProofGraph graph(oracle);  // df-pn's proofs for a certificate: the layer's entries, the root's
  if (o.dfpn_layer_black >= 0) {
    DfpnOptions d = dfpn_options(o);
    d.max_seconds = clock.cap(0);  // the rounds stop at the run's deadline
    // With a certificate, the layer's proofs are written once its walks (and the root's, where
    // df-pn runs next) have met no contradiction.
    res.dfpn_layer = dfpn_entry_layer(oracle, fresh, o.dfpn_layer_black, o.dfpn_layer_white, d, tablep,
                                      !o.dfpn_layer_certificate);
    res.dfpn_layer_ran = true;
    if (o.dfpn_layer_certificate) certify_dfpn_layer(oracle, o, clock, tablep, res.dfpn_layer, graph);
  }
  if (o.strategy && o.cube) {
    try_cube(oracle, fresh, g, o, res);
  } else if (o.strategy) {
    try_strategies(oracle, fresh, g, o, o.entry_layers ? &pass : nullptr, clock, res);
    try_strategy_tree(oracle, fresh, g, o, clock, res);
  }
  if (o.entry_layers && o.certificate && res.value == SkValue::unknown) {  // the table alone
    res.certificate = entry_certificate(oracle, pass, g, Side::black, "", 0);
    res.certificate_version = 6;
  }
  SuperkoOptions so = o;  // the search gets what is left of the run's budget
  so.max_seconds = clock.cap(0);
  SuperkoSearch search(g.rules, oracle, so);
  if (res.cube.stopped && res.value == SkValue::unknown) res.stop_reason = "strategy search limit";
  else if (res.value == SkValue::unknown && clock.out()) res.stop_reason = "time budget";
  else if (res.value == SkValue::unknown && o.search && o.search_method == SearchMethod::dfpn)
    run_dfpn(oracle, fresh, g, o, so.max_seconds, tablep, graph, res);
  else if (res.value == SkValue::unknown && o.search) run_search(search, g, so, res);
  else if (res.value == SkValue::unknown) res.stop_reason = "search off";
  if (tablep && o.dfpn_layer_certificate && !res.dfpn_ran) tablep->write_kept();  // else the root's df-pn wrote it
  if (res.value == SkValue::unknown && !graph.empty() && res.certificate.empty()) {  // the layer's entries alone
    res.certificate = graph.text(g);
    res.certificate_version = 8;
  }
  res.nodes = search.nodes();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  res.table_entries = search.table_entries();
  res.table_clears = search.table_clears();
  res.memo_entries = search.memo().size();
  if (res.dfpn_ran) {  // the counts of the search that ran
    res.nodes = res.dfpn.nodes;
    res.table_entries = res.dfpn.exact + res.dfpn.conditional;
    res.table_clears = res.dfpn.collections;
    res.memo_entries = res.dfpn.entries;
  }
  res.layers = layer_report(oracle, fresh, search);
  return res;
}

}  // namespace gonu
