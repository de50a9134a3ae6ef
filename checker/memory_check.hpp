// The check of a strategy with memory (certificate format 7; solver/julgonu/superko/SUPERKO.md, F11). The
// winner's paired moves are listed by (state, label), the label being the number of the winner's
// moves since the last capture (or since the root) mod m: 0 at the root and after any capture,
// one more after the winner's non-capturing move, unchanged by the loser's. The ranked part is
// format 2's (one move per state, whatever the label). From the root with label 0 the checker walks
// every (state, label) the play can reach when the winner follows the block and the loser plays
// any ban-free move, and checks F11's conditions: a listed move at every winner node, legal ban-free,
// the winner with a move and two pieces (S1); no non-capturing move to a board of the history; the
// ranked part closed with falling ranks; paired non-capturing moves into one target only from one
// board (under any labels), and none into a segment's first state (the root, or a capture's target).
// Like the whole checker it uses only core/ and util/.
#pragma once
#include <cstdint>
#include <unordered_map>

#include "core/julgonu/game.hpp"
#include "checker/certificate_read.hpp"

namespace gonu::checker {

// "memory winner-moves M", then "strategy K" with K lines POSITION LABEL MOVE, then format 2's
// "ranked J" lines.
struct MemoryBlock {
  StrategyBlock ranked;  // rules, board, winner, and the ranked entries
  int m = 0;
  struct Key {
    Position pos;
    int label;
    bool operator==(const Key& o) const { return pos == o.pos && label == o.label; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return PosHash()(k.pos) * 31 + std::size_t(k.label); }
  };
  std::unordered_map<Key, std::string, KeyHash> paired;  // the winner's move by (state, label)
};

// Reads the block after the header (up to, not including, end-certificate) into b (whose ranked
// part has its rules, board and winner set).
void read_memory_block(Reader& rd, MemoryBlock& b);

// Throws Flaw at the first condition that fails; counts what it walked.
struct MemoryCheck {
  std::uint64_t reached = 0, states = 0, paired = 0, ranked = 0;  // product nodes, states, winner nodes by part
};
MemoryCheck check_memory_strategy(const MemoryBlock& b, const Game& g);

}  // namespace gonu::checker
