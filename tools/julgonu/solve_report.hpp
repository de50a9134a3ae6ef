// What `gonu solve` reports: the gonu-solve/1 object of --json for an exact solve (built here
// only, so that the Python module's solve() gives it too), and what both branches of the command
// (the exact solve and the superko one) report the same way: the rule set as JSON, the first lines
// of the text report, time and memory for people, the process's peak memory, and the
// per-distance/material/level statistics (--stats, --stats-csv); time and memory for people are
// tools/report/units.hpp's. Part of the library gonu_report.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/state/solution.hpp"
#include "solver/julgonu/state/solution_stats.hpp"
#include "solver/julgonu/verify.hpp"

namespace gonu::cli {

// {name, board, capture, corner, repetition, first} (no rules id, unlike a table's report).
nlohmann::ordered_json solve_rules_json(const Rules& r);

// A first move from the root and its value for the mover (distance 0 for a draw).
struct RootMove {
  std::string move;
  Value value;
  int dist;
};
// The root's moves best first (best_first; a solution in either form: arrays or compact).
std::vector<RootMove> root_moves(const Solution& s, const Rules& rules, const Board& board);

// The names `gonu solve --engine` and the Python module's solve(engine=) take: auto, dense,
// graph, compact.
const char* engine_name(Engine e);
std::optional<Engine> engine_by_name(const std::string& name);

// "estimated peak memory: 12.3 GiB (compact engine; 3204289362 dense ids, about 2467302808
// reachable states expected); limit 23.6 GiB": what gonu solve says on stderr before solving.
std::string memory_estimate_line(const MemoryEstimate& e, std::uint64_t limit);
// Throws GonuError, before anything large is allocated, when the estimate passes the limit: both
// figures, what set the limit (`limit_source`), and `raise` (how to raise it) in one line.
void check_memory_estimate(const MemoryEstimate& e, std::uint64_t limit, const std::string& limit_source,
                           const std::string& raise);

// What an exact solve's report holds besides the solution itself.
struct SolveExtras {
  std::optional<std::string> history;
  std::optional<VerifyResult> verified;
  std::optional<std::string> table;  // the --out file
  std::uint64_t table_bytes = 0;
  std::optional<SolutionStats> stats;  // --stats or --stats-csv
  bool stats_shown = false;            // --stats (else only the CSV)
  double seconds = 0;                  // the solve's wall time
  MemoryEstimate estimate;             // what the solve was expected to need (estimate_memory)
};

// The gonu-solve/1 object of `gonu solve --json` for solution `s` (either form) of `game`:
// "engine" and "estimated_peak_bytes" from x.estimate; "peak_bytes" is the process's peak so far
// (peak_resident_bytes), "bytes_per_state" that peak over the states.
nlohmann::ordered_json solve_json(const Solution& s, const Game& game, const SolveExtras& x);

// "rules: ..." and "root: ...", the root followed by "after HISTORY" when one was played.
void print_rules_and_root(const Rules& r, const Board& b, const Position& root,
                          const std::optional<std::string>& history);

// {"by_distance": [...], "by_material": [...], "by_level": [...]}: each row the counts with its
// distance, "black"/"white" piece counts, or level.
nlohmann::ordered_json stats_json(const SolutionStats& st);
// Three tables for people.
void print_stats_text(const SolutionStats& st);
// One CSV: kind,key,states,wins,losses,draws (kind distance|material|level; material's key is
// BLACK-WHITE pieces), written atomically; throws GonuError if it cannot be written.
void write_stats_csv(const std::string& path, const SolutionStats& st);

}  // namespace gonu::cli
