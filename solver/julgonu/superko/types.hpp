// The types the superko modules share: the superko value of a state and the solver's options.
// Below the front door (superko.hpp): the layers, the search, the strategies and the certificate
// writer include this, never superko.hpp, so that the includes inside solver/julgonu/superko/ form no
// cycle. Depends on core/ and util/ only.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "util/progress.hpp"

namespace gonu {

// The value of a state under superko for the side to move: every superko game ends, so WIN or
// LOSS when proven; unknown when a budget stopped the work first.
enum class SkValue : std::uint8_t { unknown = 0, win = 1, loss = 2 };
const char* to_string(SkValue v);  // "WIN" / "LOSS" / "UNKNOWN"

// How a memoryless strategy is sought (SUPERKO.md): injective (F7, one SAT instance, certificate
// format 2) or lazy (F9: closure alone, then the strongly connected parts' condition S3 added as
// blocking clauses until a model meets it; format 4), or lazy_local (lazy, and a target violated in
// a second round is made injective on its own: F7's condition for that state; stronger clauses,
// but "none" then only means none within those restrictions).
enum class StrategyMethod : std::uint8_t { injective, lazy, lazy_local };

// What solves the strategy instance (strategy_solver.hpp): CaDiCaL (SAT), or CBC on the same
// instance as a 0-1 program, minimizing the states of the reach (ilp) or any feasible point
// (ilp_feasible).
enum class StrategySolverKind : std::uint8_t { sat, ilp, ilp_feasible };

// The whole run's deadline (SuperkoOptions::max_seconds), for the phases that take no budget of
// their own (the ban-free solve, the layers' attractors): they look at it every few thousand
// states and throw OutOfTime once it has passed; solve_superko then reports the run as stopped by
// the time budget, as when a later phase runs out.
struct OutOfTime {};
struct RunDeadline {
  std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max();
  void check() const {
    if (until != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > until)
      throw OutOfTime{};
  }
};

// The last phase, when no strategy settles the root: the depth-first search (search.hpp, with a
// certificate) or df-pn over the full history (dfpn.hpp; certificate format 8, dfpn_certificate.hpp).
enum class SearchMethod : std::uint8_t { depth_first, dfpn };

struct SuperkoOptions {
  bool strategy = true;              // first look for a memoryless strategy (SAT), per winner
  double strategy_seconds = 0;       // its budget per winner; 0: none
  int strategy_depth = 2;            // if none: plies of game tree with strategies tried at every node
  int strategy_layers = -1;          // >= 0: strategies confined to material this far below the node's (-1: all)
  StrategyMethod strategy_method = StrategyMethod::injective;
  // Cube and conquer (cube.hpp): the tree level by level, its searches in parallel, the root's
  // included; every finished search in the resume file (if named); stop after max_searches run.
  bool cube = false;
  std::string resume;
  std::uint64_t max_searches = 0;    // 0: no limit
  int strategy_memory = 0;           // >= 1: the root's strategy may depend on a label mod this (F11, format 7); 0: memoryless
  bool entry_layers = false;         // first prove capture-entry values layer by layer (entry_layers.hpp, F10)
  double entry_seconds = 5;          // its budget per SAT search (0: none)
  double entry_budget = 600;         // its budget in all (0: none)
  StrategySolverKind strategy_solver = StrategySolverKind::sat;
  bool search = true;                // then the depth-first search, if no strategy was found
  SearchMethod search_method = SearchMethod::depth_first;
  // >= 0: df-pn over this material layer's capture-entry states left open by the attractors, one
  // search per symmetry class within max_nodes (dfpn.hpp), before the strategies.
  int dfpn_layer_black = -1, dfpn_layer_white = -1;
  // df-pn's proofs file, loaded at the start and saved (dfpn_table.hpp); "": none. With it the
  // root's df-pn walks its proof, as with `certificate`: what the file holds is a hint.
  std::string dfpn_table;
  std::uint64_t max_nodes = 0;       // 0: no limit
  // The whole run's time budget (0: no limit): the strategy searches (their encoding too), the
  // strategy tree, the entry layers and the search each get at most what is left of it; the
  // ban-free solve and the layers' attractors stop at its deadline (RunDeadline above).
  double max_seconds = 0;
  std::uint64_t max_memory = 0;      // the search stops once the process's peak resident bytes pass this; 0: none
  bool banfree_leaves = true;        // stop at ban-free decided states where that is sound
  bool symmetric_proofs = true;      // df-pn: conditional proofs kept as their image under the symmetries
  std::size_t subset_boards = 0;     // df-pn: the exact subset search's largest region (0: off)
  bool transpositions = true;        // (state, visited-set hash) table
  bool relevance = true;             // proofs kept with the boards they relied on, reused under other histories
  std::size_t max_relevant_boards = 96;  // larger proofs are not kept that way
  bool mobility_order = true;        // among equal children, the one leaving the fewest replies first
  std::size_t max_table_entries = std::size_t(1) << 22;  // the table is cleared when full
  bool certificate = false;          // write the proof (text) into the result
  bool dfpn_layer_certificate = false;  // --dfpn-layer's decided classes proven again for a certificate (format 8)
  std::uint64_t max_certificate_nodes = 50'000'000;
  ProgressFn progress;
};

}  // namespace gonu
