// gonu solve for Jul-gonu (julgonu_cli.hpp): an exact solve of a rule set from the start (or
// --from a position), its counts, the value of the start and of every first move, or one JSON
// object; over the processes of an MPI run with --mpi; under superko a proof (superko_solve.hpp).
// stdout depends only on the input (never on time or threads) except the JSON's "seconds",
// "peak_bytes" and "bytes_per_state"; the text report's timing line goes to stderr, and so does
// the memory estimate, said before the solve (refused at once when it passes the limit). --stats
// adds the counts per distance, material and BFS level (solver/julgonu/state/solution_stats.hpp).
// The command line, both games' options, is tools/cli/cmd_solve.cpp's.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/container/file.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/state/solution_stats.hpp"
#include "solver/julgonu/table/table.hpp"
#include "solver/julgonu/verify.hpp"
#include "tools/cli/progress_display.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/julgonu/solve_report.hpp"
#include "tools/julgonu/superko_solve.hpp"
#include "tools/report/format_number.hpp"
#include "tools/report/units.hpp"
#include "util/atomic_file.hpp"
#ifdef GONU_MPI
#include "solver/julgonu/mpi/memory_mpi.hpp"
#include "solver/julgonu/mpi/solve_mpi.hpp"
#include "solver/mpi/session.hpp"
#endif

namespace gonu::cli {

namespace {

std::string value_text(Value v, int dist) {
  return v == Value::draw ? "DRAW" : std::string(to_string(v)) + " in " + std::to_string(dist);
}

SolveOptions solve_options(const CommandLine& cl) {
  SolveOptions options;
  options.progress = make_progress(cl.has("quiet"));
  options.max_states = std::uint64_t(cl.count_value("max-states"));
  options.max_memory = cl.byte_size_value("max-memory");
  const std::optional<Engine> engine = engine_by_name(cl.text("engine"));
  if (!engine) cl.usage_error("--engine must be auto, dense, compact or graph");
  options.engine = *engine;
  // Verifying and counting read the arrays; a report and a table stream from either form.
  options.compact_result = !cl.has("verify") && !cl.has("stats") && !cl.has("stats-csv");
  return options;
}

// Says what the solve will need (unless quiet) and refuses it at once if that passes the limit.
MemoryEstimate check_memory(const CommandLine& cl, const Game& game, const SolveOptions& options) {
  const MemoryEstimate e = estimate_memory(game, options);
  const std::uint64_t limit = memory_limit(options);
  if (!cl.has("quiet")) std::cerr << memory_estimate_line(e, limit) << "\n";
  check_memory_estimate(e, limit, options.max_memory ? "--max-memory" : "this machine's physical memory",
                        "--max-memory SIZE sets the limit (e.g. --max-memory " +
                            std::to_string((e.bytes >> 30) + 1) + "G)");
  return e;
}

void print_json(const Solution& s, const Game& game, const SolveExtras& x) {
  std::cout << json_text(solve_json(s, game, x)) << "\n";
}

void print_text(const Solution& s, const Game& game, const SolveExtras& x) {
  const StateValue root = state_value(s, *find_state(s, s.root_key));
  print_rules_and_root(game.rules, game.board, s.root, x.history);
  std::cout << "reachable states: " << with_commas(state_count(s)) << "\n";
  std::cout << "move edges:       " << with_commas(s.edges) << "\n";
  std::cout << "values (side to move): WIN " << with_commas(s.wins) << " / LOSS " << with_commas(s.losses)
            << " / DRAW " << with_commas(s.draws) << "\n";
  std::cout << "largest distance: " << s.max_dist << " plies\n";
  std::cout << "root value:       " << value_text(root.value, root.dist) << " for "
            << to_string(s.root.to_move) << " (side to move)\n";
  std::cout << "moves from the root (value for the mover):\n";
  for (const RootMove& m : root_moves(s, game.rules, game.board))
    std::cout << "  " << m.move << "  " << value_text(m.value, m.dist) << "\n";
  if (x.verified)
    std::cout << "verify:           " << (x.verified->ok ? "OK, " + with_commas(x.verified->checked) + " states re-derived"
                                                         : "FAILED: " + x.verified->first_error) << "\n";
  if (x.table) std::cout << "table:            " << *x.table << " (" << with_commas(x.table_bytes) << " bytes)\n";
  if (x.stats && x.stats_shown) print_stats_text(*x.stats);
}

void check_stats_target(const std::string& path) {
  try {
    check_atomic_target(path);
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write statistics " + path + ": " + e.what());
  }
}

// --out onto an existing file: checked writable now; said on stderr, since it will be replaced.
void check_out(const std::string& path, bool quiet) {
  table_container::check_writable(path);
  if (!quiet && access(path.c_str(), F_OK) == 0) std::cerr << "gonu: note: replacing the existing file " << path << "\n";
}

// What follows a solve: verified, counted and written when asked, then reported.
int report_solution(const CommandLine& cl, const Game& game, const Solution& s, const SolveOptions& options,
                    SolveExtras& x) {
  if (cl.has("verify")) {
    x.verified = verify_values(s.codec, s.keys.data(), s.value.data(), s.dist.data(), s.keys.size(), options.progress);
    end_progress(options.progress);
  }
  x.stats_shown = cl.has("stats");
  if (x.stats_shown || cl.has("stats-csv")) x.stats = solution_stats(s, cl.has("levels"));
  if (cl.has("stats-csv")) write_stats_csv(cl.text("stats-csv"), *x.stats);
  if (x.table && x.table_bytes == 0) x.table_bytes = write_table(*x.table, s);  // else written (--mpi)
  if (cl.has("json"))
    print_json(s, game, x);
  else
    print_text(s, game, x);
  if (!cl.has("quiet"))
    std::cerr << "solved in " << seconds_text(x.seconds) << ", " << bytes_text(peak_resident_bytes())
              << " at peak (resident), " << s.levels << " levels\n";
  return x.verified && !x.verified->ok ? 1 : 0;
}

// The output files named on the command line, checked before the solve.
SolveExtras check_targets(const CommandLine& cl) {
  SolveExtras x;
  x.history = cl.optional_text("history");
  x.table = cl.optional_text("out");
  if (x.table) check_out(*x.table, cl.has("quiet"));
  if (cl.has("stats-csv")) check_stats_target(cl.text("stats-csv"));
  return x;
}

// The finite rule sets: every reachable state solved, then verified, counted and written when asked.
int solve_exact(const CommandLine& cl, const Game& game) {
  SolveExtras x = check_targets(cl);
  const SolveOptions options = solve_options(cl);
  x.estimate = check_memory(cl, game, options);
  const auto t0 = std::chrono::steady_clock::now();
  const Solution s = solve(game, options);
  x.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  end_progress(options.progress);
  return report_solution(cl, game, s, options, x);
}

#ifdef GONU_MPI
// --mpi: every process of the run solves its part and writes its part of the table
// (solver/julgonu/mpi/solve_mpi.hpp); process 0 gets the counts and the root's moves' states (the whole
// arrays only for --verify and --stats) and reports as a single process would, so its output and
// table are the same. An error on any process ends them all (the others would wait for it forever).
// GONU_MPI_STOP_AFTER=K (for the restart tests) aborts the run once restart point K is written;
// GONU_MPI_BATCH=N (for the tests too) expands N states of a level per exchange (MpiOptions::batch).
// Each process's estimate against its limit (--max-memory per process, else its node's memory
// shared by the processes there), said by process 0; false on every process when one is over,
// which says why in one line (nothing is allocated yet, so the run ends cleanly).
bool mpi_memory_fits(const CommandLine& cl, const MemoryEstimate& e, const SolveOptions& options,
                     const mpi::MpiSession& session) {
  const int on_node = mpi::processes_on_node();
  const std::uint64_t limit = mpi::process_memory_limit(options, on_node);
  if (session.rank() == 0 && !cl.has("quiet")) std::cerr << memory_estimate_line(e, limit) << "\n";
  const bool over = limit && e.bytes > limit;
  const int first = mpi::first_process_where(over);
  if (first < 0) return true;
  if (first == session.rank()) {
    try {
      check_memory_estimate(e, limit,
                            options.max_memory ? "--max-memory, per process"
                                               : "this node's physical memory shared by its " +
                                                     std::to_string(on_node) + " processes",
                            "--max-memory SIZE sets the limit per process (e.g. --max-memory " +
                                std::to_string((e.bytes >> 30) + 1) + "G), or run it on more processes");
    } catch (const GonuError& error) {
      std::cerr << "gonu: error: " << error.what() << "\n";
    }
  }
  return false;
}

int solve_mpi_run(const CommandLine& cl, const Game& game) {
  const mpi::MpiSession session(nullptr, nullptr);
  try {
    const bool root = session.rank() == 0;
    SolveExtras x = root ? check_targets(cl) : SolveExtras{};
    SolveOptions options = solve_options(cl);
    if (!root) options.progress = {};
    x.estimate = mpi::estimate_process_memory(game, options, session.size(), session.rank());
    if (!mpi_memory_fits(cl, x.estimate, options, session)) return 1;
    mpi::MpiOptions m;
    m.checkpoint_dir = cl.text_or_empty("checkpoint");
    if (const char* stop = std::getenv("GONU_MPI_STOP_AFTER")) m.stop_after_step = std::atoll(stop);
    if (const char* batch = std::getenv("GONU_MPI_BATCH")) m.batch = std::size_t(std::max(1ll, std::atoll(batch)));
    m.report = !cl.has("quiet");
    m.table = cl.text_or_empty("out");
    const auto t0 = std::chrono::steady_clock::now();
    const Solution s = mpi::solve_mpi(game, options, m, &x.table_bytes);
    x.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    end_progress(options.progress);
    return root ? report_solution(cl, game, s, options, x) : 0;
  } catch (const std::exception& e) {
    std::cerr << "gonu: error: " << e.what() << "\n";
    mpi::abort_run(1);
  }
}
#endif

}  // namespace

int julgonu_solve(const CommandLine& cl) {
  if (cl.has("material") || cl.has("all") || cl.has("plan")) cl.usage_error("--material, --all and --plan go with --game jungi");
  const Game game = game_from_options(cl, cl.optional_text("from"));
  if (game.rules.repetition == Repetition::superko) {
    if (cl.has("out")) throw GonuError("--out: superko has no finite state set to write as a table");
    if (cl.has("stats-csv") || cl.has("levels"))
      throw GonuError("--stats-csv, --levels: superko has no finite state set to count (--stats lists its layers)");
    return run_superko_solve(cl, game);
  }
  if (cl.has("certificate"))
    throw GonuError("--certificate: only superko rule sets have certificates (this one has repetition " +
                    to_string(game.rules.repetition) + "; --out FILE writes a table)");
  if (cl.has("levels") && !cl.has("stats") && !cl.has("stats-csv")) cl.usage_error("--levels goes with --stats or --stats-csv");
  if (cl.has("checkpoint") && !cl.has("mpi")) cl.usage_error("--checkpoint goes with --mpi");
  if (cl.has("mpi")) {
#ifdef GONU_MPI
    return solve_mpi_run(cl, game);
#else
    throw GonuError("--mpi: this gonu was built without MPI (install Debian's libopenmpi-dev and rebuild)");
#endif
  }
  return solve_exact(cl, game);
}

}  // namespace gonu::cli
