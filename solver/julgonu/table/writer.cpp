// The table writer, streaming: a solution of either form (arrays or a StateSource) is read a chunk
// of blocks at a time, never whole, so its memory is a few buffers a thread plus the index (16
// bytes a block of 256 states). Two passes over the states, each in parallel over chunks:
//   1. check and count: order, values, the counts and the largest code, and each block's key
//      bytes (their size needs only the block's count and span), which the index records;
//   2. encode: each chunk's blocks (check, Elias-Fano keys) and value codes, written in place at
//      the offsets the prefix sums of pass 1 gave (util/atomic_file's AtomicFileWriter).
// Then the index and the paddings, the payload checksum read back from the file in order (the
// shared container's xxh3_of_range), the header last, and the atomic commit. The bytes depend only on the solution (FORMAT.md).
// The passes work on a run of blocks (write_phases.hpp), so that the processes of an MPI solve
// write a table in parts with the same code; write_table is the one part of all blocks.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/error.hpp"
#include "solver/common/bits.hpp"
#include "solver/container/file.hpp"
#include "solver/julgonu/table/block.hpp"
#include "solver/julgonu/table/elias_fano.hpp"
#include "solver/julgonu/table/header.hpp"
#include "solver/julgonu/table/table.hpp"
#include "solver/julgonu/table/write_phases.hpp"
#include "util/atomic_file.hpp"
#include "util/version.hpp"

namespace gonu {

using namespace table_bits;
using namespace table_write;
using table_header::kSectionPad;

namespace {

// Blocks a task reads at once: 16384 states (180 KB of buffers), few enough pieces to spread
// over the threads, large enough that a task's two writes cost little.
constexpr std::uint64_t kChunkBlocks = 64;

// A run of states read from the solution; state `first` is at [0].
struct StateBuffer {
  std::uint64_t first = 0;
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  void read(const Solution& s, std::uint64_t lo, std::uint64_t hi) {
    first = lo;
    keys.resize(hi - lo);
    value.resize(hi - lo);
    dist.resize(hi - lo);
    read_states(s, lo, hi, keys.data(), value.data(), dist.data());
  }
  Key key(std::uint64_t i) const { return keys[i - first]; }
};

// The chunk [b0, b1) of blocks: its states [lo, hi).
struct Chunk {
  std::uint64_t b0, b1, lo, hi;
};
Chunk chunk_of(const tbb::blocked_range<std::uint64_t>& r, std::uint64_t n) {
  return {r.begin(), r.end(), r.begin() * kTableBlockSize, std::min(n, r.end() * kTableBlockSize)};
}

// The lowest-numbered state a table cannot hold, and why; kept across threads.
struct FirstRefusal {
  std::mutex m;
  std::uint64_t state = ~std::uint64_t(0);
  std::string why;
  void offer(std::uint64_t i, const char* what) {
    std::lock_guard<std::mutex> lock(m);
    if (i < state) state = i, why = what;
  }
};

// Null if state i (at [j] of the buffer, which holds state i - 1 too) may be written, else why
// not: the refusals of check_solution, in the order of their checks.
const char* refusal(const StateBuffer& buf, std::uint64_t i, std::uint64_t j) {
  if (i > 0 && buf.keys[j - 1] >= buf.keys[j]) return "cannot write table: keys are not strictly ascending";
  if (buf.value[j] == Value::draw && buf.dist[j] != 0) return "cannot write table: a draw with a distance";
  if (buf.value[j] != Value::draw && buf.value[j] != Value::win && buf.value[j] != Value::loss)
    return "cannot write table: an unknown value";
  return nullptr;
}

// Pass 1 on one chunk: the states checked (up to the first refusal) and counted, and each
// block's first key and key byte count into the index. The buffer starts one state early, so
// that the first state's order is checked against the chunk before.
Counts check_chunk(const Solution& s, const Chunk& ch, StateBuffer& buf, Index& index, FirstRefusal& refused) {
  const std::uint64_t from = ch.lo > 0 ? ch.lo - 1 : 0;
  buf.read(s, from, ch.hi);
  Counts c;
  for (std::uint64_t i = ch.lo; i < ch.hi; ++i) {
    const std::uint64_t j = i - from;
    if (const char* why = refusal(buf, i, j)) {
      refused.offer(i, why);
      return c;
    }
    c.max_code = std::max(c.max_code, value_code(buf.value[j], buf.dist[j]));
    c.max_dist = std::max(c.max_dist, buf.dist[j]);
    (buf.value[j] == Value::win ? c.wins : buf.value[j] == Value::loss ? c.losses : c.draws) += 1;
  }
  for (std::uint64_t b = ch.b0; b < ch.b1; ++b) {
    const std::uint64_t lo = b * kTableBlockSize, hi = std::min(ch.hi, lo + kTableBlockSize);
    const Key first = buf.key(lo);
    unsigned char* entry = &index.bytes[(b - index.b0) * 16];
    store_le(entry, first, 8);
    store_le(entry + 8, table_block::kCheckBytes + ef::encoded_size(hi - lo - 1, buf.key(hi - 1) - first), 8);
  }
  return c;
}

}  // namespace

namespace table_write {

Counts add(Counts a, const Counts& b) {
  a.wins += b.wins;
  a.losses += b.losses;
  a.draws += b.draws;
  a.max_dist = std::max(a.max_dist, b.max_dist);
  a.max_code = std::max(a.max_code, b.max_code);
  return a;
}

std::uint64_t Index::offset(std::uint64_t b) const {
  return b - b0 < blocks() ? load64(&bytes[(b - b0) * 16 + 8]) : key_end;
}

std::uint64_t block_count(std::uint64_t n) { return ceil_div(n, kTableBlockSize); }

void check_writable(const Solution& s) {
  const std::uint64_t n = state_count(s);
  if (n == 0) throw GonuError("cannot write an empty table");
  if (!s.source && (s.value.size() != n || s.dist.size() != n))
    throw GonuError("cannot write table: solution arrays differ in size");
  if (uses_tag(s.codec.rules) != s.codec.tagged || s.codec.rules.repetition == Repetition::superko)
    throw GonuError("cannot write a table for repetition " + to_string(s.codec.rules.repetition));
}

// Pass 1 (see the top of this file): the array writer's refusals and messages (the
// lowest-numbered state's, for any thread count).
Counts check_blocks(const Solution& s, std::uint64_t b0, std::uint64_t b1, Index& index) {
  const std::uint64_t n = state_count(s);
  index.b0 = b0;
  index.bytes.assign(std::size_t((b1 - b0) * 16), 0);
  tbb::enumerable_thread_specific<StateBuffer> buffers;
  tbb::enumerable_thread_specific<Counts> counts;
  FirstRefusal refused;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(b0, b1, kChunkBlocks), [&](const auto& r) {
    counts.local() = add(counts.local(), check_chunk(s, chunk_of(r, n), buffers.local(), index, refused));
  });
  if (refused.state < n) throw GonuError(refused.why);
  Counts c;
  for (const Counts& x : counts) c = add(c, x);
  return c;
}

std::uint64_t key_bytes(const Index& index) {
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < index.blocks(); ++i) sum += load64(&index.bytes[i * 16 + 8]);
  return sum;
}

std::uint64_t place(Index& index, std::uint64_t key_base) {
  std::uint64_t at = key_base;
  for (std::uint64_t i = 0; i < index.blocks(); ++i) {
    const std::uint64_t len = load64(&index.bytes[i * 16 + 8]);
    store_le(&index.bytes[i * 16 + 8], at, 8);
    at += len;
  }
  index.key_end = at;
  return at - key_base;
}

unsigned value_bits(std::uint32_t max_code) { return std::max(1u, bit_length(max_code)); }

}  // namespace table_write

namespace {

// Packs `n` codes of `vb` bits from bit 0 of `out` (zeroed), low bits first.
void pack_codes(const StateBuffer& buf, std::uint64_t n, unsigned vb, unsigned char* out) {
  std::uint64_t acc = 0;
  unsigned have = 0;
  for (std::uint64_t j = 0; j < n; ++j) {
    acc |= std::uint64_t(value_code(buf.value[j], buf.dist[j])) << have;
    for (have += vb; have >= 8; have -= 8, acc >>= 8) *out++ = static_cast<unsigned char>(acc);
  }
  if (have > 0) *out = static_cast<unsigned char>(acc);
}

}  // namespace

Layout table_write::layout_of(std::uint64_t n, std::uint64_t key_data, unsigned vb) {
  Layout l;
  l.keys_offset = kTableHeaderSize + block_count(n) * 16;
  l.keys_size = key_data + kSectionPad;
  l.values_offset = l.keys_offset + l.keys_size;
  l.values_size = ceil_div(n * vb, 8) + kSectionPad;
  l.file_size = l.values_offset + l.values_size;
  return l;
}

namespace {

// A chunk's key bytes and value bytes, each one piece of its section.
struct ChunkBytes {
  StateBuffer states;
  std::vector<unsigned char> keys, values;
};

// Pass 2 on one chunk: its blocks encoded and sealed with their checks, and written in place.
void encode_chunk(const Solution& s, const Chunk& ch, const Index& index, unsigned vb, const Layout& l,
                  const WriteAt& write, ChunkBytes& bytes) {
  const std::uint64_t n = state_count(s);
  bytes.states.read(s, ch.lo, ch.hi);
  const std::uint64_t key_base = index.offset(ch.b0);
  bytes.keys.assign(std::size_t(index.offset(ch.b1) - key_base), 0);
  const std::uint64_t value_base = table_block::geometry(ch.b0, n, kTableBlockSize, vb).value_start;
  bytes.values.assign(std::size_t(ceil_div((ch.hi - ch.lo) * vb, 8)), 0);
  pack_codes(bytes.states, ch.hi - ch.lo, vb, bytes.values.data());
  for (std::uint64_t b = ch.b0; b < ch.b1; ++b) {
    const table_block::Geometry g = table_block::geometry(b, n, kTableBlockSize, vb);
    unsigned char* block = &bytes.keys[index.offset(b) - key_base];
    const std::size_t c = table_block::kCheckBytes, len = std::size_t(index.offset(b + 1) - index.offset(b));
    const Key* keys = &bytes.states.keys[g.first_state - ch.lo];
    ef::encode(keys + 1, std::size_t(g.states - 1), keys[0], block + c);
    store_le(block, table_block::check(b, block + c, len - c, &bytes.values[g.value_start - value_base], g.value_len), c);
  }
  write(l.keys_offset + key_base, bytes.keys.data(), bytes.keys.size());
  write(l.values_offset + value_base, bytes.values.data(), bytes.values.size());
}

}  // namespace

TableHeader table_write::make_header(const Solution& s, const Counts& c, unsigned vb, const Index& index,
                                     const Layout& l) {
  TableHeader h;
  h.format_version = kTableFormatVersion;
  h.rules = s.codec.rules;
  h.rules_id = rules_id(s.codec.rules);
  h.gonu_version = kVersion;
  h.tagged = s.codec.tagged;
  h.key_board_bits = static_cast<std::uint8_t>(s.codec.board_bits);
  h.root = s.root;
  h.root_tag = s.root_tag;
  h.root_key = s.root_key;
  h.states = state_count(s);
  h.edges = s.edges;
  h.wins = c.wins;
  h.losses = c.losses;
  h.draws = c.draws;
  h.max_dist = c.max_dist;
  h.value_bits = static_cast<std::uint8_t>(vb);
  h.block_size = kTableBlockSize;
  h.blocks = index.blocks();
  h.index_offset = kTableHeaderSize;
  h.index_size = index.bytes.size();
  h.keys_offset = l.keys_offset;
  h.keys_size = l.keys_size;
  h.values_offset = l.values_offset;
  h.values_size = l.values_size;
  h.file_size = l.file_size;
  h.index_xxh3 = XXH3_64bits(index.bytes.data(), index.bytes.size());
  table_header::encode(h, s.codec.board);  // refuses a text field too long before any writing
  return h;
}

void table_write::encode_blocks(const Solution& s, const Index& index, unsigned vb, const Layout& l,
                                const WriteAt& write) {
  tbb::enumerable_thread_specific<ChunkBytes> bytes;
  const std::uint64_t b0 = index.b0, b1 = b0 + index.blocks();
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(b0, b1, kChunkBlocks), [&](const auto& r) {
    encode_chunk(s, chunk_of(r, state_count(s)), index, vb, l, write, bytes.local());
  });
}

void table_write::finish_file(const AtomicFileWriter& out, const Solution& s, TableHeader& h, const Index& whole,
                              const Layout& l) {
  out.write_at(kTableHeaderSize, whole.bytes.data(), whole.bytes.size());
  const unsigned char pad[kSectionPad] = {};
  out.write_at(l.values_offset - kSectionPad, pad, kSectionPad);
  out.write_at(l.file_size - kSectionPad, pad, kSectionPad);
  // The payload as it lies in the file, read back, not as it was meant to be written.
  h.payload_xxh3 = table_container::xxh3_of_range(kTableHeaderSize, l.file_size, [&](std::uint64_t at, unsigned char* buf,
                                                                                     std::size_t len) { out.read_at(at, buf, len); });
  const auto head = table_header::encode(h, s.codec.board);
  out.write_at(0, head.data(), head.size());
}

// The one part of all blocks, then the root checked, the header made and the file written.
std::uint64_t write_table(const std::string& path, const Solution& s) {
  check_writable(s);
  const std::uint64_t n = state_count(s);
  Index index;
  const Counts c = check_blocks(s, 0, block_count(n), index);
  const std::uint64_t key_data = place(index, 0);
  if (!find_state(s, s.root_key)) throw GonuError("cannot write table: the root is not among the states");
  const unsigned vb = value_bits(c.max_code);
  const Layout l = layout_of(n, key_data, vb);
  TableHeader h = make_header(s, c, vb, index, l);
  table_container::writing(path, [&] {
    AtomicFileWriter out(path);
    encode_blocks(s, index, vb, l, [&](std::uint64_t at, const void* data, std::size_t size) {
      out.write_at(at, data, size);
    });
    finish_file(out, s, h, index, l);
    out.commit();
  });
  return h.file_size;
}

}  // namespace gonu
