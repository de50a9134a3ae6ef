// The superko solver's front door: the value of a position under positional superko (no move
// may recreate any board that stood earlier in the game), with its full history.
//
// Under superko every game ends, so the value is WIN or LOSS for the side to move; a budget may
// leave it unknown. The method (proofs in solver/julgonu/superko/SUPERKO.md):
//   - only the boards since the last capture matter (a board recurs only after a multiple of four
//     plies and never across a capture), so a state entered by a capture (or a root with no
//     earlier board) has a value that depends on the state alone: memoized by key;
//   - a ban-free WIN/LOSS state at distance d keeps its value when no board since the last
//     capture is a ban-free decided state at distance <= d: the search stops there (a leaf);
//   - each material layer's attractor (retrograde analysis with the captures' fresh values fixed)
//     decides more fresh-entry states the same way (layers.hpp);
//   - a memoryless strategy for either side, found by a SAT solver: paired replies that never
//     repeat on the layers' residuals, the attractors elsewhere (strategy.hpp, strategy_cnf.hpp);
//     failing that, a shallow game tree with strategies at its leaves (strategy_tree.hpp; or, with
//     the option cube, the same tree level by level, its searches in parallel and resumable: cube.hpp);
//   - failing that, a depth-first search that carries the visited boards, with move ordering and a
//     transposition table keyed by (state, hash of the visited set) (search.hpp), or instead df-pn
//     over the full history with proofs shared under their history condition (dfpn.hpp); df-pn
//     can also run over one material layer's open capture-entry states first.
// Files of solver/julgonu/superko/: types.hpp (what the modules below share), banfree (the ban-free
// oracle), layers, strategy_cnf and strategy, strategy_tree, cube and cube_resume, search, certificate (the search's
// proof written out for `gonu check-certificate`), superko.cpp (this: the order of the methods and
// the per-layer report). The modules below include types.hpp, never this header: only
// superko.cpp and callers outside solver/julgonu/superko/ (the tools, the tests) include the front door.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/common/value.hpp"
#include "solver/julgonu/superko/dfpn.hpp"
#include "solver/julgonu/superko/entry_layers.hpp"
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

// The result types: built by solve_superko alone, so they stay with it, not in types.hpp.

// What one material layer (black pieces, white pieces) holds, as far as the run got.
struct SuperkoLayer {
  int black = 0, white = 0;
  std::uint64_t banfree_states = 0, banfree_draws = 0;  // ban-free reachable states of the layer
  std::uint64_t entries_win = 0, entries_loss = 0;       // capture-entry states proven by search
  std::uint64_t entries_banfree = 0;                     // capture targets decided by the ban-free value
  std::uint64_t entries_unknown = 0;                     // capture targets met but not proven
  std::uint64_t nodes = 0;                               // search nodes spent in the layer
  // The layer's attractor (layers.hpp): fresh-entry states it decides, and those it leaves open.
  std::uint64_t attractor_win = 0, attractor_loss = 0, attractor_open = 0;
};

// One winner's strategy search (strategy.hpp), as reported.
struct SuperkoStrategyReport {
  std::string winner;              // black / white
  std::string status;              // found / none exists / budget / not applicable
  std::string note;
  std::uint64_t variables = 0, clauses = 0, reach = 0, paired = 0, ranked = 0;
  double seconds = 0;
  bool lazy = false;  // the lazy method (F9): its rounds, S3 violations, blocking clauses, last model's parts
  std::uint64_t rounds = 0, violations = 0, blocking = 0, parts = 0, largest_part = 0, restricted = 0;
  std::string solver = "SAT";  // SAT, or ILP (CBC): then the last root LP's value, its fractional
  bool ilp = false;            // variables, the model's objective and the branch-and-bound nodes
  bool root_lp = false;
  double lp_bound = 0;
  std::uint64_t lp_fractional = 0;
  double objective = 0;
  std::uint64_t nodes = 0;
  // A strategy with memory (F11): the label's range (0: memoryless), the (state, label) nodes given
  // variables and those reached.
  int memory = 0;
  std::uint64_t product_nodes = 0, product_reach = 0;
  std::uint64_t exits = 0;  // found: capture edges of its reach onto proven entry states (F10)
};

// Cube and conquer (cube.hpp), when it ran: the tree's nodes per depth, its searches by origin and
// status, the largest instance, and the searches' summed seconds.
struct SuperkoCubeReport {
  bool ran = false;
  std::vector<std::uint64_t> nodes_per_depth;
  std::uint64_t run = 0, resumed = 0, found = 0, none = 0, budget = 0, not_applicable = 0;
  std::uint64_t largest_variables = 0, largest_clauses = 0;
  double search_seconds = 0;
  bool stopped = false;  // by the search limit (max_searches)
};

struct SuperkoResult {
  SkValue value = SkValue::unknown;  // for the side to move at the root
  std::string method;                // "strategy", "strategy tree" or "search" when proven
  int certificate_version = 0;       // of the certificate written (1 to 8), when there is one
  // search: plies of the longest line of the proof found (not the shortest win); strategy: a bound
  // on the game's length under the strategy (its reachable states less one)
  std::uint32_t depth = 0;
  std::vector<SuperkoStrategyReport> strategies;  // at the root, in the order tried
  std::uint64_t tree_nodes = 0, tree_searches = 0, tree_leaves = 0;  // the strategy tree, if it ran
  SuperkoCubeReport cube;
  std::string stop_reason;           // why it is unknown ("node budget", "time budget"), else empty
  std::uint64_t nodes = 0;
  double seconds = 0, banfree_seconds = 0;
  bool banfree_solved = false;        // false: the run's deadline came first (stop_reason "time budget")
  Value banfree_value = Value::draw;  // the root's ban-free value and distance
  std::uint16_t banfree_dist = 0;
  std::uint64_t banfree_states = 0;
  std::uint64_t table_entries = 0, table_clears = 0, memo_entries = 0;
  std::vector<SuperkoLayer> layers;  // by descending material
  // The layer-by-layer pass (SuperkoOptions::entry_layers), ascending material; empty when off.
  std::vector<EntryLayer> entry_layers;
  double entry_seconds = 0;
  bool entry_budget_out = false;
  // With the pass: the certificate (format 6) holds its table even when the root is not proven.
  // df-pn (SearchMethod::dfpn): its table at the end; the layer pass (dfpn_layer_black >= 0).
  bool dfpn_ran = false;
  DfpnStats dfpn;
  bool dfpn_layer_ran = false;
  DfpnLayerReport dfpn_layer;
  std::string certificate;           // when asked for and proven
  std::string certificate_error;     // why no certificate was written (too large), else empty
  std::uint64_t certificate_nodes = 0;
};

// Solves the game's current state under its rules (repetition must be superko), with the game's
// boards since the last capture as the history. Throws GonuError for other repetition rules.
SuperkoResult solve_superko(const Game& g, const SuperkoOptions& o = {});

}  // namespace gonu
