// The superko branch of `gonu solve` (issue 5): the value of the start (or --from/--history)
// under positional superko, a node/time budget, the per-layer account when it is not proven, and
// the certificate (--certificate FILE, written through a temporary file and a rename).
// stdout depends only on the input and the budgets; timings go to stderr.
#include "tools/superko_solve.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/superko/superko.hpp"
#include "tools/format_number.hpp"
#include "tools/progress_display.hpp"
#include "util/atomic_file.hpp"

namespace gonu::cli {

void add_superko_options(po::options_description& d) {
  d.add_options()
      ("strategy-seconds", po::value<double>()->default_value(0),
       "superko: SAT budget per winner for a memoryless strategy, in seconds (0: none)")
      ("strategy-depth", po::value<int>()->default_value(2),
       "superko: if no strategy wins from the root, plies of game tree with strategies tried at every node")
      ("strategy-layers", po::value<int>()->default_value(-1),
       "superko: confine strategies to positions with at most this many pieces fewer than the node's "
       "(smaller SAT instances; -1: no limit)")
      ("no-strategy", "superko: skip the strategy search (SAT)")
      ("no-search", "superko: skip the depth-first search")
      ("max-nodes", po::value<std::uint64_t>()->default_value(0), "superko: search node budget (0: none)")
      ("max-seconds", po::value<double>()->default_value(0), "superko: search time budget in seconds (0: none)")
      ("certificate", po::value<std::string>(), "superko: write the proof to FILE (see gonu check-certificate)")
      ("table-entries", po::value<std::uint64_t>()->default_value(std::uint64_t(1) << 22),
       "superko: transposition table size before it is cleared")
      ("relevant-boards", po::value<std::size_t>()->default_value(96),
       "superko: keep proofs that rely on at most this many boards for reuse under other histories (0: off)")
      ("no-banfree-leaves", "superko: do not stop at ban-free decided states (slower; for testing)")
      ("no-table", "superko: no transposition table (slower; for testing)");
}

namespace {

void write_file_atomically(const std::string& path, const std::string& text) {
  try {
    gonu::write_file_atomically(path, {{text.data(), text.size()}});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write certificate " + path + ": " + e.what());
  }
}

}  // namespace

int run_superko_solve(const po::variables_map& vm, const Game& game) {
  SuperkoOptions o;
  o.strategy = vm.count("no-strategy") == 0;
  o.search = vm.count("no-search") == 0;
  o.strategy_seconds = vm["strategy-seconds"].as<double>();
  o.strategy_depth = vm["strategy-depth"].as<int>();
  o.strategy_layers = std::max(-1, vm["strategy-layers"].as<int>());
  if (o.strategy_depth < 0) throw GonuError("--strategy-depth must be >= 0");
  if (o.strategy_seconds < 0) throw GonuError("--strategy-seconds must be >= 0");
  o.max_nodes = vm["max-nodes"].as<std::uint64_t>();
  o.max_seconds = vm["max-seconds"].as<double>();
  if (o.max_seconds < 0) throw GonuError("--max-seconds must be >= 0");
  o.max_table_entries = std::max<std::uint64_t>(1, vm["table-entries"].as<std::uint64_t>());
  o.banfree_leaves = vm.count("no-banfree-leaves") == 0;
  o.transpositions = vm.count("no-table") == 0;
  o.max_relevant_boards = vm["relevant-boards"].as<std::size_t>();
  o.relevance = o.max_relevant_boards > 0;
  o.certificate = vm.count("certificate") > 0;
  const bool quiet = vm.count("quiet") > 0;
  o.progress = make_progress(quiet);
  const SuperkoResult r = solve_superko(game, o);
  if (o.progress) std::cerr << "\r" << std::string(60, ' ') << "\r";

  const Rules& rules = game.rules;
  const Position& root = current(game);
  std::string cert_note;
  if (o.certificate) {
    if (r.value == SkValue::unknown) {
      cert_note = "not written: the value is not proven";
    } else if (!r.certificate_error.empty()) {
      cert_note = "not written: " + r.certificate_error;
    } else {
      write_file_atomically(vm["certificate"].as<std::string>(), r.certificate);
      cert_note = vm["certificate"].as<std::string>() +
                  (r.method == "strategy"        ? " (format 2: memoryless strategy)"
                   : r.method == "strategy tree" ? " (format 3: tree with strategy leaves)"
                                          : " (" + with_commas(r.certificate_nodes) + " tree nodes)");
    }
  }
  const std::string winner =
      r.value == SkValue::win ? to_string(root.to_move) : r.value == SkValue::loss ? to_string(other(root.to_move)) : "";
  const std::string bf = r.banfree_value == Value::draw
                             ? "DRAW"
                             : std::string(to_string(r.banfree_value)) + " in " + std::to_string(r.banfree_dist);

  if (vm.count("json")) {
    nlohmann::ordered_json j;
    j["rules"] = {{"name", rules.name}, {"board", std::to_string(rules.rows) + "x" + std::to_string(rules.cols)},
                  {"capture", to_string(rules.capture)}, {"corner", rules.corner},
                  {"repetition", to_string(rules.repetition)}, {"first", to_string(rules.first)}};
    j["root"] = format_position(game.board, root);
    if (vm.count("history")) j["history"] = vm["history"].as<std::string>();
    j["proven"] = r.value != SkValue::unknown;
    j["value"] = to_string(r.value);
    if (r.value != SkValue::unknown) {
      j["winner"] = winner;
      j["method"] = r.method;
      j["proof_depth"] = r.depth;
    } else {
      j["stopped_by"] = r.stop_reason;
    }
    j["banfree_value"] = to_string(r.banfree_value);
    j["banfree_distance"] = r.banfree_dist;
    j["banfree_states"] = r.banfree_states;
    nlohmann::ordered_json strategies = nlohmann::ordered_json::array();
    for (const auto& st : r.strategies)
      strategies.push_back({{"winner", st.winner}, {"status", st.status}, {"note", st.note},
                            {"variables", st.variables}, {"clauses", st.clauses}, {"reachable_states", st.reach},
                            {"paired", st.paired}, {"ranked", st.ranked}});
    j["strategy_searches"] = strategies;
    j["strategy_tree"] = {{"nodes", r.tree_nodes}, {"searches", r.tree_searches}, {"leaves", r.tree_leaves}};
    j["nodes"] = r.nodes;
    j["table_entries"] = r.table_entries;
    j["table_clears"] = r.table_clears;
    j["capture_entries_memoized"] = r.memo_entries;
    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (const auto& l : r.layers)
      layers.push_back({{"black", l.black}, {"white", l.white}, {"banfree_states", l.banfree_states},
                        {"banfree_draws", l.banfree_draws}, {"entries_win", l.entries_win},
                        {"entries_loss", l.entries_loss}, {"entries_banfree", l.entries_banfree},
                        {"entries_unknown", l.entries_unknown}, {"attractor_win", l.attractor_win},
                        {"attractor_loss", l.attractor_loss}, {"attractor_open", l.attractor_open},
                        {"nodes", l.nodes}});
    j["layers"] = layers;
    if (o.certificate) j["certificate"] = cert_note;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "rules:            " << describe(rules) << "\n";
    std::cout << "root:             " << format_position(game.board, root);
    if (vm.count("history")) std::cout << "  after " << vm["history"].as<std::string>();
    std::cout << "\n";
    std::cout << "ban-free value:   " << bf << " (" << with_commas(r.banfree_states) << " ban-free states)\n";
    if (r.value != SkValue::unknown) {
      std::cout << "superko value:    " << to_string(r.value) << " for " << to_string(root.to_move)
                << " (side to move): " << winner << " wins; "
                << (r.method == "strategy" ? "by a memoryless strategy, games of at most " + std::to_string(r.depth) + " plies"
                    : r.method == "strategy tree"
                        ? "by a tree of " + std::to_string(r.depth) + " plies with " + std::to_string(r.tree_leaves) +
                              " memoryless strategies at its leaves"
                        : "by search, proof depth " + std::to_string(r.depth) + " plies")
                << "\n";
    } else {
      std::cout << "superko value:    NOT PROVEN ("
                << (r.stop_reason == "search off" ? std::string("no strategy found, and the search is off")
                                                  : "stopped by the " + r.stop_reason)
                << ")\n";
    }
    for (const auto& st : r.strategies) {
      std::cout << "strategy (" << st.winner << "): " << st.status;
      if (!st.note.empty()) std::cout << " (" << st.note << ")";
      if (st.variables) std::cout << "; SAT " << with_commas(st.variables) << " variables, " << with_commas(st.clauses) << " clauses";
      if (st.status == "found")
        std::cout << "; " << with_commas(st.reach) << " states reachable, " << with_commas(st.paired) << " paired, "
                  << with_commas(st.ranked) << " ranked";
      std::cout << "\n";
    }
    if (r.tree_nodes)
      std::cout << "strategy tree:    " << with_commas(r.tree_nodes) << " nodes, " << with_commas(r.tree_searches)
                << " strategy searches\n";
    std::cout << "search:           " << with_commas(r.nodes) << " nodes, " << with_commas(r.memo_entries)
              << " capture-entry states memoized, table " << with_commas(r.table_entries) << " entries ("
              << r.table_clears << " clears)\n";
    std::cout << "layers (black-white: ban-free states / draws; attractor won / lost / open for the side to move; "
                 "search capture targets won / lost / by ban-free value / unknown; nodes):\n";
    for (const auto& l : r.layers)
      std::cout << "  " << l.black << "-" << l.white << ": " << with_commas(l.banfree_states) << " / "
                << with_commas(l.banfree_draws) << "; " << with_commas(l.attractor_win) << " / "
                << with_commas(l.attractor_loss) << " / " << with_commas(l.attractor_open) << "; " << l.entries_win << " / " << l.entries_loss << " / "
                << l.entries_banfree << " / " << l.entries_unknown << "; " << with_commas(l.nodes) << "\n";
    if (o.certificate) std::cout << "certificate:      " << cert_note << "\n";
  }
  if (!quiet)
    std::cerr << "ban-free solve " << r.banfree_seconds << " s, superko search " << r.seconds << " s\n";
  return 0;
}

}  // namespace gonu::cli
