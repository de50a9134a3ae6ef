// The table writer's phases (writer.cpp), for write_table and for writers that hold only some of
// the blocks (each process of an MPI solve, solver/julgonu/mpi/table_mpi.hpp). A part of the table is a
// run of whole blocks [b0, b1); its writer reads, through read_states, the states of those blocks
// and the one before the first (for the order check), with the table's state numbers. The phases:
//   1. check_blocks: the part's states checked and counted, its index entries made with each
//      block's key byte count; place() turns the counts into offsets from where the part's keys
//      start (0 for the whole table; the sum of the earlier parts' key bytes otherwise);
//   2. encode_blocks: the part's blocks encoded and written at their place in the file;
//   3. with the whole index and the summed counts, on the one writer of the file: finish_file
//      (index, paddings, payload checksum read back, header); the caller commits.
// Every part's bytes are the single-process table's at the same offsets (FORMAT.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "solver/julgonu/state/solution.hpp"
#include "solver/julgonu/table/table.hpp"
#include "util/atomic_file.hpp"

namespace gonu::table_write {

// What the header counts, summed (max for the last two) over the parts.
struct Counts {
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  std::uint32_t max_code = 0;  // the largest value code
};
Counts add(Counts a, const Counts& b);

// The index entries of blocks [b0, b0 + blocks()): block b's first key at [16 (b - b0)], where its
// key bytes start (in the keys section) at [16 (b - b0) + 8]; `key_end` is where the key bytes
// after the last block start.
struct Index {
  std::uint64_t b0 = 0;
  std::vector<unsigned char> bytes;
  std::uint64_t key_end = 0;
  std::uint64_t blocks() const { return bytes.size() / 16; }
  std::uint64_t offset(std::uint64_t b) const;
};

// Where the sections are in the file.
struct Layout {
  std::uint64_t keys_offset, keys_size, values_offset, values_size, file_size;
};

// The blocks of a table of n states.
std::uint64_t block_count(std::uint64_t n);

// The refusals that read no state: an empty set, arrays of different sizes, a rule set that has
// no tables. Throws GonuError.
void check_writable(const Solution& s);

// Phase 1 on blocks [b0, b1) of s (state_count(s) is the table's): throws GonuError with the
// lowest-numbered refused state's reason; fills `index` (b0, first keys, key byte counts).
Counts check_blocks(const Solution& s, std::uint64_t b0, std::uint64_t b1, Index& index);
// The part's key bytes, from phase 1's counts (before place).
std::uint64_t key_bytes(const Index& index);
// The key byte counts of phase 1 turned into offsets from `key_base`; returns the part's bytes.
std::uint64_t place(Index& index, std::uint64_t key_base);

// The value code width for the largest code, and the sections of a table of n states.
unsigned value_bits(std::uint32_t max_code);
Layout layout_of(std::uint64_t n, std::uint64_t key_data, unsigned vb);

// Phase 2: the index's blocks of s encoded and written through `write` (file offset, bytes),
// called from many threads at once on disjoint ranges.
using WriteAt = std::function<void(std::uint64_t offset, const void* data, std::size_t size)>;
void encode_blocks(const Solution& s, const Index& index, unsigned vb, const Layout& l, const WriteAt& write);

// The header of the table (all but the payload checksum) from the whole index; throws GonuError
// for a text field too long, before anything is written.
TableHeader make_header(const Solution& s, const Counts& c, unsigned vb, const Index& whole, const Layout& l);
// Phase 3: the whole index and the paddings written, the payload checksum read back from the
// file, then the header. The blocks must all be written (phase 2 of every part).
void finish_file(const AtomicFileWriter& out, const Solution& s, TableHeader& h, const Index& whole, const Layout& l);

}  // namespace gonu::table_write
