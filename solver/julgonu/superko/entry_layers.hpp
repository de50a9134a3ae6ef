// Capture-entry values, layer by layer, bottom up (solver/julgonu/superko/SUPERKO.md, F10; certificate
// format 6).
//
// A state entered by a capture has a value that depends on the state alone (F2). The pass runs the
// layers' attractors (layers.hpp) in ascending material and, after each layer's attractor, looks
// for a memoryless strategy (strategy.hpp) from every capture-entry state the attractor left open:
// the state as a root with no history, the strategy confined to the open states its layer reaches
// by non-capturing moves (captures leave the layer, into states whose entry value is proven, or
// else count as lost for the strategy's winner). The side to move first, then the other side, each
// within a per-instance budget. A strategy found proves the state's fresh-entry value; the layers
// above take it as an exit: their attractors see more captures decided, and so do their
// strategies. Those values hold for the state entered by a capture (or as a root without
// history), not for the state reached inside its layer: they live in FreshValues::entry, read at
// capture edges only (StrategyStates::fixed_capture, FreshValues::exit_value).
// A state and its file-mirror image have the same value: one is searched, both are set (the
// image's certificate block is the mirror image of the block). States in id order, moves in
// generate_moves order: the same input gives the same output (unless a time budget cuts a search).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

struct EntryOptions {
  double instance_seconds = 5;   // per SAT search (one winner, one state); 0: none
  double budget_seconds = 600;   // the whole pass's searches; 0: none
  StrategyMethod method = StrategyMethod::injective;
  bool certificate = false;      // keep each proven state's strategy block
  RunDeadline deadline;             // the whole run's: the attractors stop there (OutOfTime)
};

// One material layer, as far as the pass got.
struct EntryLayer {
  int black = 0, white = 0;
  std::uint64_t capture_entry = 0;  // states of the layer that some capture of the solution enters
  std::uint64_t open = 0;           // of them, left open by the attractor (with the proven exits below)
  std::uint64_t win = 0, loss = 0;  // proven by a strategy, for the side to move (mirror images counted)
  std::uint64_t none = 0;           // no strategy of the kind sought for either side
  std::uint64_t still_open = 0;     // open after the pass (none, budget, or not tried)
  std::uint64_t searches = 0;       // SAT searches run
  std::uint64_t largest_variables = 0;  // the largest instance tried, and its time
  double largest_seconds = 0;
  std::uint64_t attractor_win = 0, attractor_loss = 0, attractor_open = 0;  // the layer's attractor
  double seconds = 0;               // the layer's searches
  std::uint64_t exits = 0;          // capture edges of its strategies onto proven entry states below (mirror images counted)
  bool complete = true;             // every open capture-entry state tried (not cut by the overall budget)
};

// A proven entry state's strategy: the "strategy ... ranked ..." lines of format 2 (injective) or 4.
struct EntryBlock {
  std::size_t id = 0;
  Side winner = Side::black;
  int version = 2;
  std::string block;
};

struct EntryPass {
  FreshValues fresh;               // the attractors with the proven exits; fresh.entry the proven values
  std::vector<EntryLayer> layers;  // ascending material
  std::vector<EntryBlock> blocks;  // certificate: by state id, ascending
  double seconds = 0;
  bool budget_out = false;         // the overall budget stopped the pass
};

EntryPass solve_entry_layers(const BanFreeOracle& oracle, const EntryOptions& opt, const ProgressFn& progress = {});

// Certificate format 6 (SUPERKO.md): every proven entry state's block, then the root's strategy
// (`root_block` with its format version 2 or 4) or "root none". `game` gives the header (rules,
// start, history); winner is the root's winner when root_block is not empty.
std::string entry_certificate(const BanFreeOracle& oracle, const EntryPass& pass, const Game& game, Side winner,
                              const std::string& root_block, int root_version);

}  // namespace gonu
