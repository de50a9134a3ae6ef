// The superko branch of `gonu solve`: the value of the start (or --from/--history) under
// positional superko, a node/time budget, the per-layer account when it is not proven, and the
// certificate (--certificate FILE, written through a temporary file and a rename).
// stdout depends only on the input and the budgets (but for the JSON's "seconds" and
// "peak_bytes"); timings go to stderr. Exit status 3 (kExitNotProven) when the value is not proven.
#include "tools/julgonu/superko_solve.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/certificate_play.hpp"
#include "core/error.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/superko/superko.hpp"
#include "tools/report/format_number.hpp"
#include "tools/cli/progress_display.hpp"
#include "tools/julgonu/solve_report.hpp"
#include "tools/report/units.hpp"
#include "util/atomic_file.hpp"

namespace gonu::cli {

void add_superko_options(CommandLine& cl) {
  cl.seconds("strategy-seconds", "superko: SAT budget per winner for a memoryless strategy, in seconds (0: none)");
  cl.count("strategy-depth", 2,
           "superko: if no strategy wins from the root, plies of game tree with strategies tried at every node");
  cl.count("strategy-layers", -1,
           "superko: confine strategies to positions with at most this many pieces fewer than the node's "
           "(smaller SAT instances; -1: no limit)",
           -1);
  cl.add()("strategy-method", po::value<std::string>()->default_value("injective"),
           "superko: injective (one SAT instance, paired replies used once; certificate format 2) or lazy "
           "(closure only, then the strongly connected parts' condition added clause by clause; format 4), or "
           "lazy-local (lazy, and a target violated twice is made injective: fewer rounds, but no proof of none)");
  cl.add()("cube", "superko: cube and conquer: the strategy tree level by level, the root's searches included, "
                   "every node's searches in parallel on --threads cores (same proof for any thread count)")
          ("resume", po::value<std::string>(),
           "superko: with --cube, record every finished strategy search in FILE and skip those it holds "
           "(a budget one is retried under a larger --strategy-seconds)");
  cl.count("max-searches", 0, "superko: with --cube, stop after running this many strategy searches (0: no limit)");
  cl.count("strategy-memory", 0,
           "superko: look at the root for a strategy with memory: its move may depend on the winner's moves since "
           "the last capture mod this (>= 2; certificate format 7; 0: memoryless)");
  cl.add()("entry-layers",
           "superko: first prove the values of capture-entry states layer by layer, bottom up, by strategies "
           "confined to their layer; the layers above and the root's strategy then use them (certificate format 6)");
  cl.seconds("entry-seconds", "superko: with --entry-layers, SAT budget per state and winner, in seconds (0: none)", 5);
  cl.seconds("entry-budget", "superko: with --entry-layers, budget of the whole pass, in seconds (0: none)", 600);
  cl.add()("strategy-solver", po::value<std::string>()->default_value("sat"),
           "superko: what solves the strategy instance: sat (CaDiCaL) or ilp (CBC on the same instance as a 0-1 "
           "program, smallest reach first), or ilp-feasible (CBC, any feasible point)");
  cl.add()("no-strategy", "superko: skip the strategy search (SAT)")
          ("no-search", "superko: skip the depth-first search");
  cl.add()("search", po::value<std::string>()->default_value("depth-first"),
           "superko: the last phase: depth-first or dfpn (df-pn over the full history, proofs shared under their "
           "history condition, on --threads cores, the same result for any count); depth-first writes certificate "
           "format 1, dfpn format 8 (a proof graph)");
  cl.add()("dfpn-layer", po::value<std::string>(),
           "superko: first run df-pn over the capture-entry states that the attractors leave open in the material "
           "layer B-W (black and white pieces, e.g. 2-2), one search per symmetry class within --max-nodes, the classes "
           "in parallel on --threads cores");
  cl.add()("dfpn-table", po::value<std::string>(),
           "superko: df-pn's proofs file: loaded at the start if it exists, saved at the end, when a budget "
           "stops the search and every 60 s, so a later run resumes and reuses what was proven (its facts are "
           "hints: a value resting on them is given out once the certificate's walk has proven it again)");
  cl.count("max-nodes", 0, "superko: search node budget (0: none; with --dfpn-layer, per class)");
  cl.seconds("max-seconds", "superko: time budget of the whole run in seconds, the ban-free solve included, every "
                            "phase getting what is left (0: none)");
  cl.add()("certificate", po::value<std::string>(), "superko: write the proof to FILE (see gonu check-certificate)");
  cl.count("table-entries", std::int64_t(1) << 22, "superko: transposition table size before it is cleared");
  cl.count("relevant-boards", 96,
           "superko: keep proofs that rely on at most this many boards for reuse under other histories (0: off)");
  cl.count("subset-boards", 0,
           "superko: df-pn solves a node outright by a search over the subsets of the boards it can still reach "
           "without a capture, when they are at most this many (0: off; at most 58)");
  cl.add()("dfpn-own-frame",
           "superko: df-pn keeps each conditional proof as found, not as its image under the board's symmetries "
           "and the colour swap (for comparison)");
  cl.add()("no-banfree-leaves", "superko: do not stop at ban-free decided states (slower; for testing)")
          ("no-table", "superko: no transposition table (slower; for testing)");
}

namespace {

void write_certificate(const std::string& path, const std::string& text) {
  try {
    write_file_atomically(path, {{text.data(), text.size()}});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write certificate " + path + ": " + e.what());
  }
}

// The budgets and switches; their ranges were checked when the command line was parsed.
SuperkoOptions superko_options(const CommandLine& cl) {
  SuperkoOptions o;
  o.strategy = !cl.has("no-strategy");
  o.search = !cl.has("no-search");
  o.strategy_seconds = cl.seconds_value("strategy-seconds");
  o.strategy_depth = int(cl.count_value("strategy-depth"));
  o.strategy_layers = int(cl.count_value("strategy-layers"));
  const std::string method = cl.text("strategy-method");
  if (method != "injective" && method != "lazy" && method != "lazy-local")
    cl.usage_error("--strategy-method must be injective, lazy or lazy-local");
  o.strategy_method = method == "lazy"         ? StrategyMethod::lazy
                      : method == "lazy-local" ? StrategyMethod::lazy_local
                                               : StrategyMethod::injective;
  o.cube = cl.has("cube");
  if (!o.cube && (cl.has("resume") || cl.count_value("max-searches") > 0))
    cl.usage_error("--resume and --max-searches go with --cube");
  o.resume = cl.text_or_empty("resume");
  o.max_searches = std::uint64_t(cl.count_value("max-searches"));
  o.strategy_memory = int(std::min<std::int64_t>(cl.count_value("strategy-memory"), 1 << 20));
  if (o.strategy_memory == 1) cl.usage_error("--strategy-memory must be 0 (memoryless) or at least 2");
  if (o.strategy_memory > 0 && o.strategy_method != StrategyMethod::injective)
    cl.usage_error("--strategy-memory works with --strategy-method injective only");
  o.entry_layers = cl.has("entry-layers");
  o.entry_seconds = cl.seconds_value("entry-seconds");
  o.entry_budget = cl.seconds_value("entry-budget");
  if (o.entry_layers && (o.cube || o.strategy_memory > 0))
    cl.usage_error("--entry-layers does not go with --cube or --strategy-memory (their certificates hold no entry values)");
  const std::string solver = cl.text("strategy-solver");
  if (solver != "sat" && solver != "ilp" && solver != "ilp-feasible")
    cl.usage_error("--strategy-solver must be sat, ilp or ilp-feasible");
  o.strategy_solver = solver == "ilp"            ? StrategySolverKind::ilp
                      : solver == "ilp-feasible" ? StrategySolverKind::ilp_feasible
                                                 : StrategySolverKind::sat;
  if (o.strategy_solver != StrategySolverKind::sat && (o.cube || o.strategy_memory > 0 || o.entry_layers))
    cl.usage_error("--strategy-solver ilp goes with the root's memoryless search and its tree only (not --cube, "
                   "--strategy-memory or --entry-layers)");
  const std::string search = cl.text("search");
  if (search != "depth-first" && search != "dfpn") cl.usage_error("--search must be depth-first or dfpn");
  o.search_method = search == "dfpn" ? SearchMethod::dfpn : SearchMethod::depth_first;
  if (cl.has("dfpn-layer")) {
    const std::string layer = cl.text("dfpn-layer");
    int b = -1, w = -1;
    char dash = 0, extra = 0;
    if (std::sscanf(layer.c_str(), "%d%c%d%c", &b, &dash, &w, &extra) != 3 || dash != '-' || b < 0 || w < 0 ||
        b > 64 || w > 64)
      cl.usage_error("--dfpn-layer must be B-W, the black and white piece counts (e.g. 2-2)");
    o.dfpn_layer_black = b;
    o.dfpn_layer_white = w;
  }
  o.dfpn_table = cl.text_or_empty("dfpn-table");
  if (!o.dfpn_table.empty() && o.search_method != SearchMethod::dfpn && o.dfpn_layer_black < 0)
    cl.usage_error("--dfpn-table goes with --search dfpn or --dfpn-layer");
  o.max_nodes = std::uint64_t(cl.count_value("max-nodes"));
  o.max_seconds = cl.seconds_value("max-seconds");
  o.max_table_entries = std::max<std::uint64_t>(1, std::uint64_t(cl.count_value("table-entries")));
  o.banfree_leaves = !cl.has("no-banfree-leaves");
  o.symmetric_proofs = !cl.has("dfpn-own-frame");
  o.subset_boards = std::size_t(std::min<std::int64_t>(cl.count_value("subset-boards"), 58));
  o.transpositions = !cl.has("no-table");
  o.max_relevant_boards = std::size_t(cl.count_value("relevant-boards"));
  o.relevance = o.max_relevant_boards > 0;
  o.certificate = cl.has("certificate");
  o.dfpn_layer_certificate = o.certificate && o.dfpn_layer_black >= 0;
  o.progress = make_progress(cl.has("quiet"));
  return o;
}

// Writes the certificate when the value is proven; returns what the report says of it.
std::string certificate_note(const std::string& path, const SuperkoResult& r) {
  if (r.value == SkValue::unknown && r.certificate_version == 6 && !r.certificate.empty()) {
    write_certificate(path, r.certificate);
    return path + " (format 6: the proven capture-entry values alone; the root is not proven)";
  }
  if (r.value == SkValue::unknown && r.certificate_version == 8 && !r.certificate.empty()) {
    write_certificate(path, r.certificate);
    return path + " (format 8: the proven capture-entry values of the df-pn layer alone; the root is not proven)";
  }
  if (r.value == SkValue::unknown) return "not written: the value is not proven";
  if (!r.certificate_error.empty()) return "not written: " + r.certificate_error;
  write_certificate(path, r.certificate);
  const std::string v = std::to_string(r.certificate_version);
  return path + (r.method == "strategy" && r.certificate_version == 6
                     ? " (format 6: memoryless strategy over proven capture-entry values)"
                 : r.method == "strategy"      ? " (format " + v + (r.certificate_version == 7 ? ": strategy with memory)" : ": memoryless strategy)")
                 : r.method == "strategy tree" ? " (format " + v + ": tree with strategy leaves)"
                 : r.certificate_version == 8  ? " (format 8: a proof graph of " + with_commas(r.certificate_nodes) + " nodes)"
                                               : " (" + with_commas(r.certificate_nodes) + " tree nodes)");
}

// What both reports print besides the result itself.
struct Report {
  const Game& game;
  std::optional<std::string> history;
  std::optional<std::string> certificate;  // the note, when --certificate was given
  double seconds = 0;                      // the whole solve's wall time
  std::optional<std::string> first_move;   // the winner's first move, read off the proof
  std::uint64_t proof_size = 0;            // tree nodes, strategy states and table lines of the proof
  std::optional<std::uint64_t> longest_game;  // plies, counted on the proof (none: over the walk's budget)
  bool layers = false;                     // --stats: the per-layer account in the text
  // Where the loser moves first: each of its first moves with the winner's answer ("b3-b2 c1-c2").
  std::vector<std::string> answers;
};

// States of play the longest game's walk may visit (about 15 us each on 4x3: under a second);
// larger proofs keep the solver's own bound (the value line's).
constexpr std::uint64_t kLongestGameStates = 50'000;

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The loser's first moves, each with the winner's answer from the proof.
std::vector<std::string> winner_answers(const CertificatePlayer& p, const Game& game) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(p.root())) {
    Game g = p.root();
    play(g, m);
    std::string line = format_move(game.board, game.rules, m);
    if (const std::optional<Move> a = p.winner_move(g)) {
      line += ' ';
      line += format_move(game.board, game.rules, *a);
    }
    out.push_back(line);
  }
  return out;
}

// The winner's move at the root, the proof's size and its longest game, from the certificate the
// solve made (read, not checked again: gonu check-certificate does that).
void read_proof(const SuperkoResult& r, Report& rep) {
  if (r.value == SkValue::unknown || r.certificate.empty()) return;
  try {
    const CertificatePlayer p = CertificatePlayer::read(r.certificate, false);
    if (const std::optional<Move> m = p.winner_move(p.root()))
      rep.first_move = format_move(rep.game.board, rep.game.rules, *m);
    else
      rep.answers = winner_answers(p, rep.game);
    rep.proof_size = p.size();
    rep.longest_game = p.longest_game(kLongestGameStates);
  } catch (const GonuError&) {
    // A proof that cannot be read back leaves the line out; the value stands.
  }
}

std::string winner_of(const SuperkoResult& r, const Position& root) {
  return r.value == SkValue::win ? to_string(root.to_move) : r.value == SkValue::loss ? to_string(other(root.to_move)) : "";
}

nlohmann::ordered_json strategies_json(const SuperkoResult& r) {
  nlohmann::ordered_json strategies = nlohmann::ordered_json::array();
  for (const auto& st : r.strategies) {
    strategies.push_back({{"winner", st.winner}, {"status", st.status}, {"note", st.note},
                          {"variables", st.variables}, {"clauses", st.clauses}, {"reachable_states", st.reach},
                          {"paired", st.paired}, {"ranked", st.ranked}});
    if (st.ilp)  // only then: the SAT solver's output stays as it was
      strategies.back()["ilp"] = {{"solver", st.solver},
                                  {"lp_bound", st.root_lp ? nlohmann::ordered_json(st.lp_bound) : nullptr},
                                  {"lp_fractional", st.root_lp ? nlohmann::ordered_json(st.lp_fractional) : nullptr},
                                  {"objective", st.objective},
                                  {"nodes", st.nodes}, {"seconds", st.seconds}};
    if (st.lazy)  // only then: the injective method's output stays as it was
      strategies.back()["lazy"] = {{"rounds", st.rounds}, {"violations", st.violations},
                                   {"blocking_clauses", st.blocking}, {"parts", st.parts},
                                   {"largest_part", st.largest_part}, {"targets_made_injective", st.restricted},
                                   {"seconds", st.seconds}};
    if (st.memory)  // only then, as for lazy
      strategies.back()["memory"] = {{"label", "winner-moves"}, {"m", st.memory}, {"product_nodes", st.product_nodes},
                                     {"product_reachable", st.product_reach}, {"seconds", st.seconds}};
    if (!r.entry_layers.empty())  // only with the layer-by-layer pass, as entry_layers below
      strategies.back()["entry_exits"] = st.exits;
  }
  return strategies;
}

nlohmann::ordered_json layers_json(const SuperkoResult& r) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& l : r.layers)
    layers.push_back({{"black", l.black}, {"white", l.white}, {"banfree_states", l.banfree_states},
                      {"banfree_draws", l.banfree_draws}, {"entries_win", l.entries_win},
                      {"entries_loss", l.entries_loss}, {"entries_banfree", l.entries_banfree},
                      {"entries_unknown", l.entries_unknown}, {"attractor_win", l.attractor_win},
                      {"attractor_loss", l.attractor_loss}, {"attractor_open", l.attractor_open},
                      {"nodes", l.nodes}});
  return layers;
}

// Only with --cube: the other outputs stay as they were.
nlohmann::ordered_json cube_json(const SuperkoCubeReport& c) {
  return {{"nodes_per_depth", c.nodes_per_depth},
          {"searches", {{"run", c.run}, {"resumed", c.resumed}, {"found", c.found}, {"none", c.none},
                        {"budget", c.budget}, {"not_applicable", c.not_applicable}}},
          {"largest_instance", {{"variables", c.largest_variables}, {"clauses", c.largest_clauses}}},
          {"search_seconds", c.search_seconds},
          {"stopped_by_search_limit", c.stopped}};
}

// "cube: ..." : the tree's nodes per depth, the searches, the largest instance.
void print_cube_line(const SuperkoCubeReport& c) {
  std::cout << "cube:             nodes per depth";
  for (std::size_t d = 0; d < c.nodes_per_depth.size(); ++d)
    std::cout << (d ? " / " : " ") << with_commas(c.nodes_per_depth[d]);
  std::cout << "; searches " << with_commas(c.run) << " run, " << with_commas(c.resumed) << " resumed: "
            << with_commas(c.found) << " found, " << with_commas(c.none) << " none, " << with_commas(c.budget)
            << " budget";
  if (c.not_applicable) std::cout << ", " << with_commas(c.not_applicable) << " not applicable";
  std::cout << "; largest instance " << with_commas(c.largest_variables) << " variables, "
            << with_commas(c.largest_clauses) << " clauses" << (c.stopped ? "; stopped by --max-searches" : "")
            << "\n";
}

// The layer-by-layer pass, ascending material (only with --entry-layers).
nlohmann::ordered_json entry_layers_json(const SuperkoResult& r) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const EntryLayer& l : r.entry_layers)
    layers.push_back({{"black", l.black}, {"white", l.white}, {"capture_entry", l.capture_entry}, {"open", l.open},
                      {"win", l.win}, {"loss", l.loss}, {"none", l.none}, {"still_open", l.still_open},
                      {"searches", l.searches}, {"largest_variables", l.largest_variables},
                      {"largest_seconds", l.largest_seconds}, {"seconds", l.seconds}, {"complete", l.complete},
                      {"attractor_win", l.attractor_win}, {"attractor_loss", l.attractor_loss},
                      {"attractor_open", l.attractor_open}, {"exits", l.exits}});
  return layers;
}

nlohmann::ordered_json dfpn_json(const DfpnStats& t) {
  return {{"nodes", t.nodes}, {"exact_entries", t.exact}, {"conditional_entries", t.conditional},
          {"fresh_entries", t.entries}, {"collections", t.collections}, {"conditional_hits", t.hits},
          {"image_hits", t.image_hits}, {"subset_solved", t.subset_solved}, {"subset_nodes", t.subset_nodes}};
}

nlohmann::ordered_json dfpn_layer_json(const DfpnLayerReport& l) {
  return {{"black", l.black}, {"white", l.white}, {"capture_entry", l.capture_entry}, {"open", l.open},
          {"classes", l.classes}, {"classes_win", l.win}, {"classes_loss", l.loss},
          {"classes_open", l.classes - l.win - l.loss}, {"states_win", l.states_win},
          {"states_loss", l.states_loss}, {"nodes", l.nodes}, {"max_decided_class_nodes", l.max_class_nodes},
          {"seconds", l.seconds}, {"table", dfpn_json(l.table)}, {"certified_classes", l.certified},
          {"classes_run", l.classes_run}, {"classes_from_file_unproven", l.unchecked.size()},
          {"stopped_by", !l.stop.empty() ? l.stop : l.win + l.loss + l.unchecked.size() < l.classes ? "node budget" : "none"}};
}

// "df-pn layer B-W: ..." (only with --dfpn-layer).
void print_dfpn_layer(const DfpnLayerReport& l) {
  std::cout << "df-pn layer " << l.black << "-" << l.white << ":   " << with_commas(l.capture_entry)
            << " capture-entry states, " << with_commas(l.open) << " open after the attractor, "
            << with_commas(l.classes) << " classes under the board symmetries and the colour swap; proven " << with_commas(l.win)
            << " won / " << with_commas(l.loss) << " lost for the side to move (" << with_commas(l.states_win) << " / "
            << with_commas(l.states_loss) << " states), " << with_commas(l.classes - l.win - l.loss)
            << " classes open; " << with_commas(l.nodes) << " nodes (a decided class at most "
            << with_commas(l.max_class_nodes) << "); table " << with_commas(l.table.exact) << " exact + "
            << with_commas(l.table.conditional) << " conditional entries, " << with_commas(l.table.hits)
            << " conditional hits (" << with_commas(l.table.image_hits) << " through an image), "
            << l.table.collections << " collections, " << with_commas(l.table.subset_solved)
            << " nodes by the subset search"
            << (l.certified ? "; " + with_commas(l.certified) + " decided classes proven again for the certificate" : "")
            << (l.unchecked.empty() ? "" : "; " + with_commas(l.unchecked.size()) +
                                               " open classes decided only through the proofs file's facts, not proven again")
            << (l.stop.empty() ? "" : "; stopped by the " + l.stop + " after " + with_commas(l.classes_run) + " classes")
            << "\n";
}

void print_json(const SuperkoResult& r, const Report& rep) {
  const Position& root = current(rep.game);
  nlohmann::ordered_json j;
  j["schema"] = "gonu-superko/1";
  j["rules"] = solve_rules_json(rep.game.rules);
  j["root"] = format_position(rep.game.board, root);
  if (rep.history) j["history"] = *rep.history;
  j["proven"] = r.value != SkValue::unknown;
  j["value"] = to_string(r.value);
  if (r.value != SkValue::unknown) {
    j["winner"] = winner_of(r, root);
    j["method"] = r.method;
    j["proof_depth"] = r.depth;
  } else {
    j["stopped_by"] = r.stop_reason;
  }
  // null when the time budget ran out before the ban-free solve ended
  j["banfree_value"] = r.banfree_solved ? nlohmann::ordered_json(to_string(r.banfree_value)) : nullptr;
  j["banfree_distance"] = r.banfree_solved ? nlohmann::ordered_json(r.banfree_dist) : nullptr;
  j["banfree_states"] = r.banfree_states;
  j["strategy_searches"] = strategies_json(r);
  j["strategy_tree"] = {{"nodes", r.tree_nodes}, {"searches", r.tree_searches}, {"leaves", r.tree_leaves}};
  if (r.cube.ran) j["cube"] = cube_json(r.cube);
  j["nodes"] = r.nodes;
  j["table_entries"] = r.table_entries;
  j["table_clears"] = r.table_clears;
  j["capture_entries_memoized"] = r.memo_entries;
  j["layers"] = layers_json(r);
  if (!r.entry_layers.empty())  // only then: the output without the pass stays as it was
    j["entry_layers"] = {{"seconds", r.entry_seconds}, {"budget_out", r.entry_budget_out},
                         {"layers", entry_layers_json(r)}};
  if (r.dfpn_ran) j["dfpn"] = dfpn_json(r.dfpn);  // only then, as entry_layers
  if (r.dfpn_layer_ran) j["dfpn_layer"] = dfpn_layer_json(r.dfpn_layer);
  if (rep.certificate) j["certificate"] = *rep.certificate;
  j["first_move"] = rep.first_move ? nlohmann::ordered_json(*rep.first_move) : nlohmann::ordered_json(nullptr);
  j["answers"] = rep.answers;
  j["proof_size"] = rep.proof_size;
  j["longest_game"] = rep.longest_game ? nlohmann::ordered_json(*rep.longest_game) : nlohmann::ordered_json(nullptr);
  j["seconds"] = rep.seconds;
  j["peak_bytes"] = peak_resident_bytes();
  std::cout << json_text(j) << "\n";
}

// "superko value: ..." : who wins and how, or why it is not proven.
void print_value_line(const SuperkoResult& r, const Position& root) {
  if (r.value != SkValue::unknown) {
    std::cout << "superko value:    " << to_string(r.value) << " for " << to_string(root.to_move)
              << " (side to move): " << winner_of(r, root) << " wins; "
              << (r.method == "strategy"
                      ? std::string(r.certificate_version == 7 ? "by a strategy with memory (the winner's moves since the last capture, mod " +
                                                                      std::to_string(r.strategies.back().memory) + ")"
                                                                : "by a memoryless strategy") +
                            ", games of at most " + std::to_string(r.depth) + " plies" +
                            // past a capture onto a proven entry the game goes on under that entry's strategy
                            (!r.strategies.empty() && r.strategies.back().exits ? " before a capture onto a proven entry" : "")
                  : r.method == "strategy tree"
                      ? "by a tree of " + std::to_string(r.depth) + " plies with " + std::to_string(r.tree_leaves) +
                            " memoryless strategies at its leaves"
                  : r.method == "df-pn" ? std::string("by df-pn over the full history")
                      : "by search, proof depth " + std::to_string(r.depth) + " plies")
              << "\n";
  } else {
    std::cout << "superko value:    NOT PROVEN ("
              << (r.stop_reason == "search off" ? std::string("no strategy found, and the search is off")
                                                : "stopped by the " + r.stop_reason)
              << ")\n";
  }
}

// The strategy searches, the search's counts, and the per-layer account.
void print_work_lines(const SuperkoResult& r, bool layers) {
  for (const auto& st : r.strategies) {
    std::cout << "strategy (" << st.winner << "): " << st.status;
    if (!st.note.empty()) std::cout << " (" << st.note << ")";
    if (st.variables && !st.ilp)
      std::cout << "; SAT " << with_commas(st.variables) << " variables, " << with_commas(st.clauses) << " clauses";
    if (st.variables && st.ilp)
      std::cout << "; " << st.solver << " " << with_commas(st.variables) << " variables, " << with_commas(st.clauses)
                << " rows; last root LP "
                << (st.root_lp ? std::to_string(st.lp_bound) + " (" + with_commas(st.lp_fractional) + " fractional)"
                               : std::string("none (decided in preprocessing)"))
                << ", " << with_commas(st.nodes) << " nodes, " << st.seconds << " s";
    if (st.status == "found")
      std::cout << "; " << with_commas(st.reach) << " states reachable, " << with_commas(st.paired) << " paired, "
                << with_commas(st.ranked) << " ranked";
    if (st.status == "found" && !r.entry_layers.empty())
      std::cout << ", " << with_commas(st.exits) << " captures onto proven entries";
    if (st.memory)
      std::cout << "; memory (the winner's moves since the last capture mod " << st.memory << "): product graph "
                << with_commas(st.product_nodes) << " nodes, " << with_commas(st.product_reach) << " reachable, "
                << st.seconds << " s";
    if (st.lazy)
      std::cout << "; lazy: " << with_commas(st.rounds) << " rounds, " << with_commas(st.violations)
                << " S3 violations, " << with_commas(st.blocking) << " blocking clauses, "
                << with_commas(st.restricted) << " targets made injective, " << st.seconds << " s";
    std::cout << "\n";
  }
  if (r.cube.ran) print_cube_line(r.cube);
  if (r.tree_nodes)
    std::cout << "strategy tree:    " << with_commas(r.tree_nodes) << " nodes, " << with_commas(r.tree_searches)
              << " strategy searches\n";
  if (r.dfpn_ran)
    std::cout << "df-pn:            " << with_commas(r.dfpn.nodes) << " nodes, " << with_commas(r.dfpn.entries)
              << " fresh entries proven, table " << with_commas(r.dfpn.exact) << " exact + "
              << with_commas(r.dfpn.conditional) << " conditional entries (" << r.dfpn.collections
              << " collections, " << with_commas(r.dfpn.hits) << " conditional hits, "
              << with_commas(r.dfpn.image_hits) << " through an image; " << with_commas(r.dfpn.subset_solved)
              << " nodes by the subset search)\n";
  else
    std::cout << "search:           " << with_commas(r.nodes) << " nodes, " << with_commas(r.memo_entries)
              << " capture-entry states memoized, table " << with_commas(r.table_entries) << " entries ("
              << r.table_clears << " clears)\n";
  if (!layers) return;
  std::cout << "layers (black-white: ban-free states / draws; attractor won / lost / open for the side to move; "
               "search capture targets won / lost / by ban-free value / unknown; nodes):\n";
  for (const auto& l : r.layers)
    std::cout << "  " << l.black << "-" << l.white << ": " << with_commas(l.banfree_states) << " / "
              << with_commas(l.banfree_draws) << "; " << with_commas(l.attractor_win) << " / "
              << with_commas(l.attractor_loss) << " / " << with_commas(l.attractor_open) << "; " << l.entries_win << " / " << l.entries_loss << " / "
              << l.entries_banfree << " / " << l.entries_unknown << "; " << with_commas(l.nodes) << "\n";
}

// The layer-by-layer pass: per layer, bottom up.
void print_entry_lines(const SuperkoResult& r) {
  if (r.entry_layers.empty()) return;
  std::cout << "entry layers (black-white: capture-entry states / open after the attractor; proven won / lost "
               "for the side to move; none for either side; still open; searches, largest instance "
               "variables and seconds; captures onto proven entries below)"
            << (r.entry_budget_out ? ", stopped by the overall budget" : "") << ":\n";
  for (const EntryLayer& l : r.entry_layers) {
    if (!l.capture_entry) continue;
    std::cout << "  " << l.black << "-" << l.white << ": " << with_commas(l.capture_entry) << " / "
              << with_commas(l.open) << "; " << with_commas(l.win) << " / " << with_commas(l.loss) << "; "
              << with_commas(l.none) << "; " << with_commas(l.still_open) << (l.complete ? "" : " (not all tried)")
              << "; " << with_commas(l.searches) << ", " << with_commas(l.largest_variables) << " in "
              << l.largest_seconds << " s; " << with_commas(l.exits) << "\n";
  }
}

void print_text(const SuperkoResult& r, const Report& rep) {
  const Position& root = current(rep.game);
  print_rules_and_root(rep.game.rules, rep.game.board, root, rep.history);
  const std::string bf = r.banfree_value == Value::draw
                             ? "DRAW"
                             : std::string(to_string(r.banfree_value)) + " in " + std::to_string(r.banfree_dist);
  if (r.banfree_solved)
    std::cout << "ban-free value:   " << bf << " (" << with_commas(r.banfree_states) << " ban-free states)\n";
  else
    std::cout << "ban-free value:   not solved (the time budget ran out first)\n";
  print_value_line(r, root);
  if (rep.first_move)
    std::cout << "first move:       " << *rep.first_move << " (" << winner_of(r, root) << ", by the proof; "
              << with_commas(rep.proof_size) << " entries in the proof: tree nodes, strategy states, table lines)\n";
  else if (rep.proof_size)
    std::cout << "answers:          " << joined(rep.answers) << " (" << winner_of(r, root)
              << "'s answer to each first move, by the proof; " << with_commas(rep.proof_size)
              << " entries in the proof: tree nodes, strategy states, table lines)\n";
  if (rep.proof_size)  // the proof was read
    std::cout << "longest game:     "
              << (rep.longest_game ? with_commas(*rep.longest_game) + " plies (the proof's strategy against the "
                                                                     "loser's longest defence)"
                                   : "not counted (more than " + with_commas(kLongestGameStates) +
                                         " states of play to walk)")
              << "\n";
  print_work_lines(r, rep.layers);
  print_entry_lines(r);
  if (r.dfpn_layer_ran) print_dfpn_layer(r.dfpn_layer);
  if (rep.certificate) std::cout << "certificate:      " << *rep.certificate << "\n";
}

}  // namespace

// Past the ban-free solve's own arrays, the layers, the strategy instances and the search's table
// take about this much a ban-free state (peak resident memory over ban-free states, 4x4 soldiers:
// 2.6 GiB over 3.4 million; 3x4: 88 MiB over 0.27 million).
constexpr std::uint64_t kSuperkoBytesPerBanfreeState = 800;

// "estimated peak memory: ..." on stderr before the run: the ban-free solve's estimate and the
// per-state allowance above.
void print_superko_estimate(const Game& game) {
  Rules banfree = game.rules;
  banfree.repetition = Repetition::none;
  const MemoryEstimate e = estimate_memory(new_game(banfree, current(game)));
  const std::uint64_t bytes = e.bytes + e.states * kSuperkoBytesPerBanfreeState;
  std::cerr << "estimated peak memory: about " << bytes_text(bytes) << " (ban-free solve " << bytes_text(e.bytes)
            << ", about " << with_commas(e.states) << " ban-free states; " << kSuperkoBytesPerBanfreeState
            << " bytes a state for the layers, strategies and search, as measured on 3x4 and 4x4)\n";
}

namespace {

// --max-memory (default: the physical memory) under superko: the ban-free solve, estimated as gonu
// solve estimates any solve, is refused before it starts where it would pass the limit; the
// search after it stops (NOT PROVEN, "memory limit") once the process's peak passes it.
std::uint64_t check_superko_memory(const CommandLine& cl, const Game& game) {
  SolveOptions so;
  so.max_memory = cl.byte_size_value("max-memory");
  Rules banfree = game.rules;
  banfree.repetition = Repetition::none;
  const MemoryEstimate e = estimate_memory(new_game(banfree, current(game)), so);
  const std::uint64_t limit = memory_limit(so);
  check_memory_estimate(e, limit, so.max_memory ? "--max-memory" : "this machine's physical memory",
                        "the ban-free solve comes first; --max-memory SIZE sets the limit");
  return limit;
}

}  // namespace

int run_superko_solve(const CommandLine& cl, const Game& game) {
  SuperkoOptions o = superko_options(cl);
  o.max_memory = check_superko_memory(cl, game);  // a refusal is the one line said
  if (!cl.has("quiet")) print_superko_estimate(game);
  const bool write = o.certificate;
  o.certificate = true;  // the proof is read for the winner's first move even when not written
  const auto t0 = std::chrono::steady_clock::now();
  const SuperkoResult r = solve_superko(game, o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  end_progress(o.progress);
  Report rep{game, cl.optional_text("history"), std::nullopt, seconds, std::nullopt, 0, std::nullopt, false, {}};
  rep.layers = cl.has("stats");
  read_proof(r, rep);
  if (write) rep.certificate = certificate_note(cl.text("certificate"), r);
  if (cl.has("json"))
    print_json(r, rep);
  else
    print_text(r, rep);
  if (!cl.has("quiet"))
    std::cerr << "ban-free solve " << seconds_text(r.banfree_seconds) << ", superko search " << seconds_text(r.seconds)
              << (r.cube.ran ? " (cube: " + seconds_text(r.cube.search_seconds) + " of strategy searches)" : "")
              << ", " << bytes_text(peak_resident_bytes()) << " at peak (resident)\n";
  return r.value == SkValue::unknown ? kExitNotProven : 0;
}

}  // namespace gonu::cli
