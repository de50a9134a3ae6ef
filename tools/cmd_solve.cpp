// gonu solve: enumerate and solve a rule set from the start (or --from a position), print the
// counts, the value of the start and of every first move; --json for one JSON object.
// stdout depends only on the input (never on time or threads); timings go to stderr.
#include <tbb/global_control.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/solve.hpp"
#include "solver/state/successors.hpp"
#include "solver/table/table.hpp"
#include "solver/verify.hpp"
#include "tools/cli.hpp"
#include "tools/format_number.hpp"
#include "tools/progress_display.hpp"
#include "tools/superko_solve.hpp"

namespace gonu::cli {

namespace {

std::string value_text(Value v, int dist) {
  return v == Value::draw ? "DRAW" : std::string(to_string(v)) + " in " + std::to_string(dist);
}

}  // namespace

int cmd_solve(int argc, char** argv) {
  po::options_description opts("options");
  add_rule_options(opts);
  opts.add_options()
      ("from", po::value<std::string>(), "solve from this position instead of the start")
      ("history", po::value<std::string>(), "moves played from the start (or --from) first")
      ("threads", po::value<int>()->default_value(0), "worker threads (0: all cores)")
      ("max-states", po::value<std::uint64_t>()->default_value(0), "stop with an error past this many states (0: no limit)")
      ("engine", po::value<std::string>()->default_value("auto"),
       "dense (no keys or edges stored), graph (hash store and stored edges), or auto (dense where it applies)")
      ("verify", "re-derive every value from its successors with a separate routine")
      ("json", "print one JSON object")
      ("out", po::value<std::string>(), "write the solved states to this table file (see gonu query)")
      ("quiet", "no progress on stderr");
  add_superko_options(opts);
  po::variables_map vm;
  const std::string usage =
      "gonu solve [--rules NAME | --capture .. --corner .. --repetition .. --board RxC --first ..] "
      "[--from POSITION [--history MOVES]] [--threads N] [--engine auto|dense|graph] [--verify] [--json] [--quiet] "
      "[--out FILE]";
  if (!parse_options(argc, argv, usage, opts, {}, vm)) return 0;
  const int threads = vm["threads"].as<int>();
  if (threads < 0) throw UsageError("--threads must be >= 0\nusage: " + usage);
  std::optional<tbb::global_control> limit;
  if (threads > 0) limit.emplace(tbb::global_control::max_allowed_parallelism, std::size_t(threads));

  std::optional<std::string> from;
  if (vm.count("from")) from = vm["from"].as<std::string>();
  const Rules rules = rules_from_options(vm, from);
  const Board board = make_board(rules.rows, rules.cols);
  const Position start = from ? parse_position(board, *from) : start_position(board, rules.first);
  Game game = new_game(rules, start);
  if (vm.count("history")) play_history(game, vm["history"].as<std::string>());
  if (rules.repetition == Repetition::superko) {
    if (vm.count("out")) throw GonuError("--out: superko has no finite state set to write as a table");
    return run_superko_solve(vm, game);
  }

  if (vm.count("out")) check_table_writable(vm["out"].as<std::string>());
  const bool quiet = vm.count("quiet") > 0;
  const auto t0 = std::chrono::steady_clock::now();
  SolveOptions options;
  options.progress = make_progress(quiet);
  options.max_states = vm["max-states"].as<std::uint64_t>();
  const std::string engine = vm["engine"].as<std::string>();
  if (engine == "dense") options.engine = Engine::dense;
  else if (engine == "graph") options.engine = Engine::graph;
  else if (engine != "auto") throw UsageError("--engine must be auto, dense or graph\nusage: " + usage);
  const Solution s = solve(game, options);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (options.progress) std::cerr << "\r" << std::string(60, ' ') << "\r";

  const std::size_t root = *find_state(s, s.root_key);
  Successor succ[kMaxMoves];
  const int k = expand_key(s.codec, s.root_key, succ);

  std::optional<VerifyResult> verified;
  if (vm.count("verify"))
    verified = verify_values(s.codec, s.keys.data(), s.value.data(), s.dist.data(), s.keys.size(), options.progress);

  std::uint64_t table_bytes = 0;
  if (vm.count("out")) table_bytes = write_table(vm["out"].as<std::string>(), s);

  if (vm.count("json")) {
    nlohmann::ordered_json j;
    j["rules"] = {{"name", rules.name}, {"board", std::to_string(rules.rows) + "x" + std::to_string(rules.cols)},
                  {"capture", to_string(rules.capture)}, {"corner", rules.corner},
                  {"repetition", to_string(rules.repetition)}, {"first", to_string(rules.first)}};
    j["root"] = format_position(board, s.root);
    if (vm.count("history")) j["history"] = vm["history"].as<std::string>();
    j["states"] = s.keys.size();
    j["edges"] = s.edges;
    j["wins"] = s.wins;
    j["losses"] = s.losses;
    j["draws"] = s.draws;
    j["max_distance"] = s.max_dist;
    j["value"] = to_string(s.value[root]);
    j["distance"] = s.dist[root];
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (int i = 0; i < k; ++i) {
      const std::size_t t = *find_state(s, succ[i].key);
      const Value v = s.value[t] == Value::win ? Value::loss : s.value[t] == Value::loss ? Value::win : Value::draw;
      moves.push_back({{"move", format_move(board, rules, succ[i].move)},
                       {"value", to_string(v)},
                       {"distance", v == Value::draw ? 0 : s.dist[t] + 1}});
    }
    j["moves"] = moves;
    if (verified) j["verified"] = verified->ok;
    if (vm.count("out")) j["table"] = {{"file", vm["out"].as<std::string>()}, {"bytes", table_bytes}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "rules:            " << describe(rules) << "\n";
    std::cout << "root:             " << format_position(board, s.root);
    if (vm.count("history")) std::cout << "  after " << vm["history"].as<std::string>();
    std::cout << "\n";
    std::cout << "reachable states: " << with_commas(s.keys.size()) << "\n";
    std::cout << "move edges:       " << with_commas(s.edges) << "\n";
    std::cout << "values (side to move): WIN " << with_commas(s.wins) << " / LOSS " << with_commas(s.losses)
              << " / DRAW " << with_commas(s.draws) << "\n";
    std::cout << "largest distance: " << s.max_dist << " plies\n";
    std::cout << "root value:       " << value_text(s.value[root], s.dist[root]) << " for "
              << to_string(s.root.to_move) << " (side to move)\n";
    std::cout << "moves from the root (value for the mover):\n";
    for (int i = 0; i < k; ++i) {
      const std::size_t t = *find_state(s, succ[i].key);
      const Value v = s.value[t] == Value::win ? Value::loss : s.value[t] == Value::loss ? Value::win : Value::draw;
      std::cout << "  " << format_move(board, rules, succ[i].move) << "  " << value_text(v, s.dist[t] + 1) << "\n";
    }
    if (verified)
      std::cout << "verify:           " << (verified->ok ? "OK, " + with_commas(verified->checked) + " states re-derived"
                                                            : "FAILED: " + verified->first_error) << "\n";
    if (vm.count("out"))
      std::cout << "table:            " << vm["out"].as<std::string>() << " (" << with_commas(table_bytes) << " bytes)\n";
  }
  if (!quiet)
    std::cerr << "solved in " << secs << " s, about " << (s.peak_bytes >> 20) << " MiB at peak, " << s.levels
              << " levels\n";
  return verified && !verified->ok ? 1 : 0;
}

}  // namespace gonu::cli
