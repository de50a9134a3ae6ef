// The SAT encoding of a memoryless superko strategy (the strategy and why it wins: strategy.hpp;
// proof: solver/julgonu/superko/SUPERKO.md, F7). Two parts: the ban-free states seen from the winner W (what
// the attractors fix, the root and its history, the optional file-mirror pairing), and the clauses
// over them, added to a solver (strategy_solver.hpp: CaDiCaL or CBC) in a fixed order (the same
// instance, variable for variable, on every run). Internal to the strategy search: strategy.cpp solves the instance and reads the
// strategy back off the model.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/julgonu/game.hpp"
#include "util/progress.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/strategy_solver.hpp"

namespace gonu {

// The ban-free states by id (the index in oracle.solution.keys), as the encoding sees them.
struct StrategyStates {
  const BanFreeOracle* oracle = nullptr;
  const FreshValues* fresh = nullptr;
  Side winner = Side::black;
  Board board;
  std::vector<Position> pos;         // by id
  int least = 0;                     // open states with fewer pieces are left out (as if lost for W)
  std::size_t root = 0;
  std::vector<std::size_t> history;  // earlier boards of the root's segment (those in the solution)
  bool mirrored = false;             // set by pair_mirror_images
  std::vector<std::size_t> mirror_of;  // mirrored: the id of each state's file-mirror image
  bool mirror_closed = false;        // with mirror_of: every state's image is in the solution (not so when
                                     // the oracle's root is not its own image: the pairing is then not used)
  std::vector<std::uint8_t> within;    // by id, when not empty: open states outside it count as lost for W

  // The id of a position; throws GonuError for one missing from the ban-free solution.
  std::size_t id_of(const Position& p) const;
  // The same, nullopt for a position missing from it (a state's mirror image may be).
  std::optional<std::size_t> find_id(const Position& p) const;
  // What the attractors say of state v, from W's side: +1 W has won it (ranked), -1 W has lost it
  // (or it is left out by `least`), 0 open (a SAT variable).
  int fixed(std::size_t v) const {
    const FreshMethod m = fresh->method[v];
    int f = 0;
    if (m == FreshMethod::attractor || m == FreshMethod::terminal)
      f = ((pos[v].to_move == winner) == (fresh->value[v] == SkValue::win)) ? 1 : -1;
    if (f == 0 && !within.empty() && !within[v]) return -1;
    return f == 0 && popcount(pos[v].black | pos[v].white) < least ? -1 : f;
  }
  // The same for v as the target of a capture: a proven entry value (F10, fresh->entry) counts
  // there, and only there (it holds for v entered fresh, not for v reached inside its layer).
  int fixed_capture(std::size_t v) const {
    const FreshMethod m = fresh->method[v];
    if (m == FreshMethod::none && !fresh->entry.empty() && fresh->entry[v] != SkValue::unknown)
      return ((pos[v].to_move == winner) == (fresh->entry[v] == SkValue::win)) ? 1 : -1;
    return fixed(v);
  }
  // An exit: a capture target that W has won by a proven entry value, not by an attractor. The
  // strategy stops there (the play continues under that state's own strategy, F10).
  bool entry_exit(std::size_t v) const { return fixed(v) != 1 && fixed_capture(v) == 1; }
  // The state whose variables v shares (its mirror pair's smaller id when mirrored).
  std::size_t rep(std::size_t v) const { return mirrored ? std::min(v, mirror_of[v]) : v; }
  bool self_mirrored(std::size_t v) const { return mirrored && mirror_of[v] == v; }
};

// The states for winner W from the game's current state; layers >= 0 leaves out open states with
// fewer pieces than the root's less `layers`.
StrategyStates strategy_states(const BanFreeOracle& o, const FreshValues& fresh, const Game& game, Side W,
                               int layers);

// When use_mirror is set, the root is its own file-mirror image and has no earlier board, only
// strategies that commute with the mirror (sigma(m(s)) = m(sigma(s))) are sought, with one set of
// variables per mirror pair. Such a strategy is injective if no two states of a pair aim at one
// self-mirrored state and a self-mirrored state aims only at one: encode_strategy excludes both.
// Returns whether the states were paired.
bool pair_mirror_images(StrategyStates& st, bool use_mirror);

// A candidate move of sigma at a W-to-move state: its variable, its index in generate_moves order,
// and the state it leads to.
struct StrategyChoice {
  int var;
  std::int16_t move;
  std::size_t to;
};

struct StrategyCnf {
  int vars = 0;  // literals are 1..vars
  std::uint64_t clauses = 0;  // clauses (SAT) or rows (ILP: an at-most-one group is one row)
  std::vector<int> inc;    // by state: "in the reach of the strategy" (0: no variable; fixed or not a rep)
  std::vector<int> entry;  // by opponent state: "a segment's first state" (0: none)
  std::vector<std::vector<StrategyChoice>> choices;  // by W-to-move rep: its candidate moves
};

// Adds the instance to `sat` (empty on entry; at-most-one groups as such): closure of the reach, a sigma move at every W state
// of it, and the root in the reach. injective (F7): at most one non-capturing sigma into each
// state, none into a segment's first state, the root (with its history) as first states of their
// segment. Not injective (the lazy search, F9): only no non-capturing sigma into a board of the
// history (S2); S3 is left to the blocking clauses of strategy_lazy.hpp, and with the mirror
// pairing, sigma may lead a self-mirrored state anywhere (that restriction served injectivity).
// Past `until` the encoding stops by throwing EncodingOutOfTime; `progress` is told the states
// encoded ("encoding for black" / "encoding for white").
struct EncodingOutOfTime {};
StrategyCnf encode_strategy(const StrategyStates& st, StrategySolver& sat, bool injective = true,
                            std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
                            const ProgressFn& progress = {});

}  // namespace gonu
