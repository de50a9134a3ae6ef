// A shallow game tree whose leaves are memoryless strategies (strategy.hpp): where no single
// strategy wins from the root, one may win after each of the first few moves, with the history of
// those moves. Node by node, both sides' strategies are tried first; then, while depth is left,
// every legal move (superko applied to the full history) is expanded. A node is won for its side
// to move if some child is lost for its own; lost if every child is won. Certificate: format 3 (the
// tree of format 1 with `S i` leaves, "from here the winner follows strategy i", and the strategies
// as format-2 blocks; SUPERKO.md). With the lazy method the leaves are checked under S3: format 5.
#pragma once
#include <cstdint>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/types.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/layers.hpp"

namespace gonu {

struct StrategyTree {
  SkValue value = SkValue::unknown;  // for the side to move at the root
  std::uint64_t nodes = 0;           // tree nodes visited
  std::uint64_t sat_calls = 0;       // strategy searches run
  std::uint64_t leaves = 0;          // strategies in the proof
  std::uint32_t depth = 0;           // plies of the tree part of the proof
  bool out_of_time = false;          // max_seconds ran out before the tree was settled
  std::string certificate;           // format 3 (proven, when asked for)
};

// Depth: plies of tree above the strategy leaves (0: the root's strategies alone). root_tried: the
// root's own strategies were searched already (none found), so the root is expanded at once.
// max_seconds (0: none) bounds the whole tree: each search gets at most what is left of it, and
// none starts after it (the tree is then unproven). progress is told the searches run so far.
StrategyTree prove_by_strategy_tree(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g,
                                    int depth, double seconds_per_search, bool certificate, bool root_tried,
                                    int layers = -1, StrategyMethod method = StrategyMethod::injective,
                                    StrategySolverKind solver = StrategySolverKind::sat, double max_seconds = 0,
                                    const ProgressFn& progress = {});

}  // namespace gonu
