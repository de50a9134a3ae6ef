// A memoryless winning strategy under superko, found by a SAT solver (CaDiCaL), and written out as
// a certificate of format version 2 (solver/julgonu/superko/SUPERKO.md, F7; the checker is
// checker/certificate_check.cpp).
//
// The strategy of the winner W has two parts:
//   - ranked: W's attractor of each material layer (layers.hpp), its moves lowering a rank;
//   - paired: on the rest, one move sigma(s) per W-to-move state s, injective among its non-capturing
//     moves, never aimed at the state that opened a segment (the root, or a state entered by a
//     capture) nor at an earlier board of the root's history.
// The set of states the play can reach (W follows the strategy, the opponent plays any ban-free
// move) must be closed: every opponent move lands on a state the strategy covers, no opponent
// state of it can capture into a state W has not won, and W is never without a move. Then every
// move of W is new under superko (the paired targets are distinct and the opponent never repeats;
// ranks fall), so W never runs out of moves and wins, as every game ends.
// The encoding (strategy_cnf.hpp): one variable per state the attractors leave open (is it in the
// reach of the strategy?), one per W move from such a state (is it sigma?), one per opponent state
// (is it a segment's first state?), with clauses for closure, at-most-one sigma into each state, and no
// sigma into a segment's first state. Satisfiable exactly when such a strategy exists with those
// attractors; unsatisfiable says that no memoryless injective strategy of this kind wins, not that
// W loses.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/types.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/strategy_solver.hpp"

namespace CaDiCaL {
class Solver;
}

namespace gonu {

enum class StrategyStatus : std::uint8_t { found, none, budget, not_applicable };
const char* to_string(StrategyStatus s);

struct StrategySearch {
  StrategyStatus status = StrategyStatus::not_applicable;
  Side winner = Side::black;
  std::string note;                        // why not applicable, when it is not
  bool mirrored = false;                   // the strategy commutes with the file mirror (searched first when the root is its own image)
  std::uint64_t variables = 0, clauses = 0;
  double seconds = 0;                      // encoding and solving
  std::uint64_t reach = 0;                 // states the play can reach under the strategy (found)
  std::uint64_t paired = 0, ranked = 0;    // of them: winner-to-move states by part, and ranked states
  // Capture edges of the reach onto proven entry states (F10, exits: that state's own strategy goes
  // on), the loser's and the winner's; of them, the winner's own moves (always ranked ones: a capture
  // onto a state proven lost for the side to move puts the capturing state in the attractor).
  std::uint64_t exits = 0, exits_winner = 0;
  std::string block;                       // the "strategy ... ranked ..." lines (found, when asked for)
  int version = 2;                         // the certificate format of the block: 2 (injective) or 4 (lazy)
  // The lazy search (F9): models read, S3 violations found in them, blocking clauses added, and the
  // last model's strongly connected parts (nontrivial ones, and the largest's states).
  std::uint64_t rounds = 0, violations = 0, blocking = 0, parts = 0, largest_part = 0;
  std::uint64_t restricted = 0;            // lazy_local: targets made injective
  // A strategy with memory (strategy_memory.hpp, format 7): the label's range m (0: memoryless), the
  // (state, label) nodes given variables, and those the play can reach.
  int memory = 0;
  std::uint64_t product_nodes = 0, product_reach = 0;
  std::string solver = "SAT";              // what solved it (strategy_solver.hpp)
  SolverStats ilp;                         // the ILP's root LP and nodes (solver ILP)
};

// The format-2 (or 4, lazy) certificate of a strategy found for the game's current state.
std::string strategy_certificate(const Game& g, const StrategySearch& s);

// Looks for a strategy by which `winner` wins from the game's current state with its history since
// the last capture. max_seconds > 0 bounds the SAT solver (status budget when it runs out). When
// the root is its own file-mirror image with no earlier board, a strategy that commutes with the
// mirror is sought first (one variable per mirror pair); "none" is only said after the search of
// any shape says so too. layers >= 0 confines the open states the strategy may reach to those with
// at least the root's pieces less `layers` (smaller instances; "none" then means none so confined).
// method lazy: the instance without injectivity, S3 checked on each model's graph and its
// violations blocked until a model meets it (F9). solver: CaDiCaL, or CBC on the same instance.
// `until` (a run's deadline, SuperkoOptions::max_seconds) also bounds the encoding and the solve:
// past it the search stops with status budget.
StrategySearch find_strategy(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, Side winner,
                             double max_seconds, bool certificate, int layers = -1,
                             StrategyMethod method = StrategyMethod::injective,
                             StrategySolverKind solver = StrategySolverKind::sat,
                             std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
                             const ProgressFn& progress = {});

// Shared with the search with memory (strategy_memory.cpp). Where the attractors answer before any
// encoding: true (with out's status and note set) when a board of the root's history is a state W's
// attractor has won, or the attractor has lost the root.
struct StrategyStates;
bool answered_without_sat(const StrategyStates& st, StrategySearch& out);
// CaDiCaL's answer (10 satisfiable, 20 unsatisfiable, else stopped), within max_seconds if > 0.
int solve_within(CaDiCaL::Solver& sat, double max_seconds);

// The same search with the states already prepared (strategy_cnf.hpp: strategy_states, then the
// root, winner, history or `within` set as wanted), for many searches over one oracle (the
// layer-by-layer pass, entry_layers.hpp). `layers` only names the confinement in the note.
StrategySearch find_strategy_in(StrategyStates& st, double max_seconds, bool certificate, StrategyMethod method,
                                int layers = -1, StrategySolverKind solver = StrategySolverKind::sat,
                                std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
                                const ProgressFn& progress = {});

}  // namespace gonu
