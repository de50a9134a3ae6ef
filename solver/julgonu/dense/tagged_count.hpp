// The successor counts of a tagged run's reached states, set once its reach is over and its
// cells allocated: the compact tagged engine's (compact_tagged.cpp) over every board, the
// distributed one's (solver/julgonu/mpi/) over a process's boards.
#pragma once
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>

#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu::dense {

// Each canonical reached state's successor count (its legal moves, as the reach counted them)
// into its cell, for the board ids [first_board, end_board) in order. Mirror images keep theirs
// at zero: never used.
template <class Store>
void count_successors(TaggedRunOf<Store>& t, std::uint64_t first_board, std::uint64_t end_board) {
  constexpr std::uint64_t kCountBlock = 1 << 14;  // boards per task
  const TaggedSpace& space = t.space;
  Store& store = t.store;
  const std::uint64_t blocks = (end_board - first_board + kCountBlock - 1) / kCountBlock;
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    Move moves[kMaxMoves];
    std::uint32_t back[kMaxMoves];  // the step code each move reverses
    space.walk(first_board + blk * kCountBlock,
               std::min(end_board, first_board + (blk + 1) * kCountBlock), [&](std::uint64_t bid, const Position& p) {
      const std::uint64_t w = pack(p), mw = space.mirror_board(w), first = space.base(bid), last = space.base(bid + 1);
      if (w > mw || !store.any_reached(first, last)) return;  // no canonical state here
      const BoardSteps steps(t.b, p);
      const int k = lost_by_material(p) ? 0 : generate_moves_any_order(t.b, t.rules, p, moves);
      for (int j = 0; j < k; ++j) back[j] = step_code(t.b, moves[j].to, moves[j].from);
      store.for_each_state(first, last, [&](std::uint64_t id, std::uint64_t cell) {
        const std::uint32_t code = steps.code(std::uint32_t(id - first)), mine = code & 511u;
        if (!space.canonical(w, mw, code).kept) return;
        int legal = 0;
        for (int j = 0; j < k; ++j) legal += !tag_forbids(t.undo, mine && back[j] == mine, code >> 18, moves[j]);
        store.cells.set_pending(cell, legal);
      });
    });
  });
}

}  // namespace gonu::dense
