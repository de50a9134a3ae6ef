// Fresh-entry superko values, material layer by material layer.
//
// A state "entered fresh" has no earlier board that matters: it was entered by a capture, or it is
// a root without history (SUPERKO.md, F2). Its value is a function of the state. This file computes
// it for every state of the ban-free solution, bottom-up over material layers (black count, white
// count): inside a layer every move is non-capturing or leaves the layer by a capture into a state
// whose fresh value is already known (or unknown). The method is the attractor: the layer's
// retrograde analysis with the capture exits as fixed values. The winner's moves strictly lower a
// rank, so no board repeats (the argument of F3 in SUPERKO.md, F6 there). What the attractors leave
// open is the layer's residual: a race to run out of unvisited boards, where values depend on the
// history; strategy.hpp looks for winning strategies there, per root.
// Single-threaded and deterministic: states in id order, moves in generate_moves order.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "util/progress.hpp"
#include "solver/julgonu/superko/types.hpp"
#include "solver/julgonu/superko/banfree.hpp"

namespace gonu {

enum class FreshMethod : std::uint8_t { none = 0, terminal, attractor };

struct FreshLayer {
  int black = 0, white = 0;
  std::uint64_t states = 0, banfree_draws = 0;
  std::uint64_t attractor_win = 0, attractor_loss = 0;  // includes terminal losses
  std::uint64_t open = 0;  // left to the residual
  double seconds = 0;
};

struct FreshValues {
  // By ban-free state id (the index in oracle.solution.keys):
  std::vector<SkValue> value;        // fresh-entry value for the side to move
  std::vector<FreshMethod> method;
  std::vector<std::uint32_t> rank;   // attractor: the strategy's rank (0: terminal); else 0
  std::vector<std::int16_t> reply;   // the side to move wins: its move (index in generate_moves order); else -1
  std::vector<FreshLayer> layers;    // ascending material
  // Proven values of states entered by a capture (entry_layers.hpp, F10), by id; empty when that
  // pass did not run. Valid only when the state is entered by a capture (or is a root without
  // history), never when a non-capturing move reaches it: read them at capture edges only.
  std::vector<SkValue> entry;

  // The fresh value a capture into `id` leads to: the attractor's, else the proven entry value.
  SkValue exit_value(std::size_t id) const {
    return value[id] != SkValue::unknown || entry.empty() ? value[id] : entry[id];
  }
};

// Called after each layer's attractor, before the next layer (ascending material): the layer's
// state ids, ascending. It may set fresh.entry for the layer's open states (sized by the caller);
// the layers above then take them as exits.
using FreshLayerHook = std::function<void(FreshValues& fresh, const std::vector<std::uint32_t>& ids)>;

// Throws GonuError if the solution is too large to hold here (more than 2^31 states), and
// OutOfTime once `deadline` has passed (looked at every few thousand states).
FreshValues solve_fresh_values(const BanFreeOracle& oracle, const ProgressFn& progress = {},
                               const FreshLayerHook& after_layer = {}, const RunDeadline& deadline = {});

}  // namespace gonu
