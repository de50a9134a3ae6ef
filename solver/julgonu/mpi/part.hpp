// One process's share of a distributed solve (solve_mpi.hpp): the ids [lo, hi) of the dense space
// (solver/julgonu/dense/untagged_space.hpp; for the tagged rule sets the tag slots of a range of boards,
// solve_mpi_tagged.cpp, whose lists hold ids rather than boards) and everything the passes keep
// for them. It is exactly what a restart point holds (checkpoint.hpp): the passes are
// level-synchronous, so between two levels nothing else is in flight.
#pragma once
#include <cstdint>
#include <vector>

#include "core/julgonu/position.hpp"
#include "solver/julgonu/dense/compact_store.hpp"

namespace gonu::mpi {

using Boards = std::vector<std::uint64_t>;  // packed boards (dense::pack), a side given apart

// Where a run stands: in the breadth-first reach, or in the retrograde analysis (the counts of
// successors done, the terminal states decided).
enum class Stage : std::uint32_t { reach = 0, retrograde = 1 };

struct Part {
  std::uint64_t lo = 0, hi = 0;
  dense::RankedBits bits{0};     // the reached canonical states, by id - lo
  dense::CompactCells cells{0};  // by rank in bits (from the retrograde stage on)
  Boards frontier;               // reach: this level's canonical states, `side` to move
  Boards terminal[2];            // reach: reached canonical states with no move, by side to move
  Boards level[2][2];            // retrograde: decided at distance d, [side][lost]
  Stage stage = Stage::reach;
  Side side = Side::black;
  std::uint32_t step = 0;        // levels finished, of both stages (a restart point's number)
  std::uint32_t levels = 0;      // breadth-first levels
  std::uint32_t d = 0;           // the retrograde's next distance
  std::uint64_t states = 0;      // reached by every process, mirror images counted
  std::uint64_t edges = 0;       // moves of this process's states, mirror images counted
};

}  // namespace gonu::mpi
