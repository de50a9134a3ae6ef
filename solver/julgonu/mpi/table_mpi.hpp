// The result of a distributed solve without gathering it (solve_mpi.hpp): each process keeps its
// range's states, in key order, numbered from the sum of the earlier processes' counts (ids follow
// key order, so the processes' ranges follow each other in the table). From them:
//   - the report's counts, summed over the processes, and the root's and its moves' states, which
//     their owners send to process 0 (a few words);
//   - the table, written in parts (solver/julgonu/table/write_phases.hpp): a block belongs to the process
//     holding its first state, which gets the block's other states (fewer than 256) and the state
//     before the block (for the order check) from their owners; the key bytes' offsets come from
//     a prefix sum over the processes; each process writes its blocks into the one temporary file
//     that process 0 made (a shared file system when the processes are on several nodes);
//     process 0 gathers the index (16 bytes a block), writes it, the checksum and the header, and
//     commits. The bytes are the single-process table's; on any failure nothing is left but the
//     temporary file's removal (or, if a process is killed, a stale one the next write removes).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "solver/mpi/comm.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::mpi {

// One process's states: its source's state i (in key order) is state number first + i of the
// whole set, for i < count. The source is read by many threads at once; it may hold the states
// as records (record_range) or read them from an engine's own form (solve_mpi.cpp).
struct RangeStates {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  std::shared_ptr<const StateSource> states;  // numbered from 0, not from first
  std::uint64_t size() const { return count; }
  std::uint64_t end() const { return first + count; }
};

// A range's states as records, in key order.
struct RangeRecords {
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  std::uint64_t size() const { return keys.size(); }
};

// The records as a range (first still to be numbered).
RangeStates record_range(RangeRecords records);

// The states [lo, hi) of a range (its own numbers) read into records, in parallel chunks.
RangeRecords read_records(const RangeStates& mine, std::uint64_t lo, std::uint64_t hi);

// Every process's `first`, from the counts of the processes before it.
void number_ranges(Comm& comm, RangeStates& mine);

// s's states, wins, losses, draws and max_dist over every process's states, on every process.
void count_ranges(Comm& comm, const RangeStates& mine, Solution& s);

// On process 0, s.source becomes a set holding only the root's and its moves' states, with their
// numbers, from their owners: what the report reads (solver/julgonu/state/solution.hpp's find_state and
// state_value). Throws GonuError on process 0 if the root is not among the states.
void pick_report_states(Comm& comm, const RangeStates& mine, Solution& s);

// The table of every process's states at `path`, written as described above; `head` gives the
// codec, root, counts and edges (as count_ranges and the solve left them). Returns the file size
// on every process; throws GonuError (on every process when a write fails on any).
std::uint64_t write_table_parts(Comm& comm, const std::string& path, const Solution& head, const RangeStates& mine);

}  // namespace gonu::mpi
