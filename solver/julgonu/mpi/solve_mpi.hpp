// The solver over many processes (Open MPI): `gonu solve --mpi` run under mpirun. For the
// untagged rule sets each process owns an equal range of the compact engine's dense id space (solver/julgonu/dense/untagged_space.hpp) and
// keeps only that range's bitmap, cells and lists (part.hpp); the engine's level-synchronous passes
// run on each process with its threads, and between the levels the states each process found for
// the others' ranges go to their owners in one all-to-all exchange (comm.hpp):
//   reach:       each process expands its frontier; the successors' canonical boards, bucketed
//                by owner, are exchanged; each owner claims them in its bitmap, and the new ones
//                are its next frontier.
//   count:       each process counts its own states' moves into its cells (no messages).
//   retrograde:  each process lists the predecessors of its states decided at distance d; the
//                predecessors' ids go to their owners, who count down or decide them (unreached
//                ones are dropped there: only the owner knows).
//   result:      each canonical state's value and distance go to the owner of its mirror image;
//                each process then has its range's states in id order, that is key order, and
//                keeps them there (table_mpi.hpp): the counts are summed, the root's and its
//                moves' states sent to process 0 for the report, and the table written in parts
//                by every process, the single-process table byte for byte. Only a caller that
//                reads the arrays (--verify, --stats) has them gathered on process 0.
// At the end of each level every process can write a restart point (checkpoint.hpp).
// The tagged rule sets (repetition immediate, undo) go the same way over ranges of board ids, each
// process holding every tag slot of its boards (solve_mpi_tagged.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/mpi/session.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::mpi {

struct MpiOptions {
  std::string checkpoint_dir;          // restart points there, and resume from them; empty: none
  std::int64_t stop_after_step = -1;   // abort the run once this restart point is written (tests)
  bool report = false;                 // process 0 says each level's traffic and the peaks on stderr
  std::string table;                   // write the table here, every process its part; empty: none
  // States of a level expanded per exchange; the tagged retrograde's boards per exchange and the
  // mirror images' ids per round follow from it (steps.hpp). Tests make it small, so that their
  // small boards run many batches and rounds.
  std::size_t batch = std::size_t(1) << 19;
};

// The repetition-none rule sets on up to 32 points, as solve_compact solves them, and the tagged
// ones (repetition immediate, undo) on up to 27, as the compact tagged engine does
// (solve_mpi_tagged). Every process gets the counts. Process 0 gets, with
// options.compact_result, a source holding only the root's and its moves' states (what the
// report reads; no process holds more than its range), else the whole Solution with its arrays
// (11 bytes a state there). With mpi.table, *table_bytes (when given) is the table's size.
// Throws GonuError for other rule sets.
Solution solve_mpi(const Game& from, const SolveOptions& options, const MpiOptions& mpi,
                   std::uint64_t* table_bytes = nullptr);

// The tagged rule sets (solve_mpi_tagged.cpp), as solve_mpi.
Solution solve_mpi_tagged(const Game& from, const SolveOptions& options, const MpiOptions& mpi,
                          std::uint64_t* table_bytes = nullptr);

}  // namespace gonu::mpi
