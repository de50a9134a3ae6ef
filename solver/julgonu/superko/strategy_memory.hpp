// A superko strategy with a little memory (SUPERKO.md, F11; certificate format 7): the winner's
// move may depend on the state and a label, the number of the winner's moves since the last
// capture (or since the root) mod m. Such a strategy is a memoryless one on the product graph of
// (state, label) from (root, 0): a non-capturing winner move goes from label c to c + 1 mod m, a
// capture (by either side) to label 0, the loser's non-capturing moves keep the label. The SAT
// search is F7's on that graph with one difference that the proof allows: paired moves into one
// target must come from one BOARD (a board stands at most once per segment), not from one product
// node, so the same board may aim at one target under several labels. The mirror pairing of F7 is
// not used. With m = 1 the search is F7's without the mirror (a test of the encoding).
// Labels beyond 1 carry little within the root's segment: a winner's move flips the parity of its
// pieces on dark points (F1), so the label mod 2 is a function of the board there; m = 2 tells
// apart the segments after captures, m >= 3 the plays within one segment as well.
#pragma once
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/strategy.hpp"
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

// The label kind's name, as the certificate and the report give it.
inline constexpr const char* kMemoryLabel = "winner-moves";

// The label after a move from label c: 0 after a capture, c + 1 mod m after the winner's
// non-capturing move, c after the loser's.
inline int next_label(int c, int m, bool winner_moved, bool captured) {
  return captured ? 0 : winner_moved ? (c + 1) % m : c;
}

// Looks for a strategy with memory m (>= 1) by which `winner` wins from the game's current state
// with its history since the last capture; max_seconds and layers as in find_strategy. The result's
// version is 7, `reach` counts the states reached (a bound on the game length), `product_reach`
// the (state, label) nodes, `paired` the winner's paired nodes (the certificate's entries), and
// `product_nodes` the nodes given a variable (those the root can reach in the product graph).
StrategySearch find_memory_strategy(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, Side winner,
                                    double max_seconds, bool certificate, int layers, int memory);

}  // namespace gonu
