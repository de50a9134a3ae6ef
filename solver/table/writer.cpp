// The table writer, streaming: a solution of either form (arrays or a StateSource) is read a chunk
// of blocks at a time, never whole, so its memory is a few buffers a thread plus the index (16
// bytes a block of 256 states). Two passes over the states, each in parallel over chunks:
//   1. check and count: order, values, the counts and the largest code, and each block's key
//      bytes (their size needs only the block's count and span), which the index records;
//   2. encode: each chunk's blocks (check, Elias-Fano keys) and value codes, written in place at
//      the offsets the prefix sums of pass 1 gave (util/atomic_file's AtomicFileWriter).
// Then the index and the paddings, the payload checksum read back from the file in order, the
// header last, and the atomic commit. The bytes depend only on the solution (FORMAT.md).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/error.hpp"
#include "solver/table/bits.hpp"
#include "solver/table/block.hpp"
#include "solver/table/elias_fano.hpp"
#include "solver/table/header.hpp"
#include "solver/table/table.hpp"
#include "util/atomic_file.hpp"
#include "util/version.hpp"

namespace gonu {

using namespace table_bits;
using table_header::kSectionPad;

namespace {

// Blocks a task reads at once: 16384 states (180 KB of buffers), few enough pieces to spread
// over the threads, large enough that a task's two writes cost little.
constexpr std::uint64_t kChunkBlocks = 64;

struct SolutionCounts {
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  std::uint32_t max_code = 0;
};

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

// The index: block b's first key at [16 b], where its key bytes start at [16 b + 8]; pass 1
// stores each block's key byte count there, and the prefix sums turn the counts into offsets.
struct Index {
  std::vector<unsigned char> bytes;
  std::uint64_t key_data = 0;  // the key bytes of all blocks, without the padding
  std::uint64_t blocks() const { return bytes.size() / 16; }
  std::uint64_t offset(std::uint64_t b) const { return b < blocks() ? load64(&bytes[b * 16 + 8]) : key_data; }
};

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
SolutionCounts check_chunk(const Solution& s, const Chunk& ch, StateBuffer& buf, Index& index, FirstRefusal& refused) {
  const std::uint64_t from = ch.lo > 0 ? ch.lo - 1 : 0;
  buf.read(s, from, ch.hi);
  SolutionCounts c;
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
    store_le(&index.bytes[b * 16], first, 8);
    store_le(&index.bytes[b * 16 + 8], table_block::kCheckBytes + ef::encoded_size(hi - lo - 1, buf.key(hi - 1) - first), 8);
  }
  return c;
}

SolutionCounts add(SolutionCounts a, const SolutionCounts& b) {
  a.wins += b.wins;
  a.losses += b.losses;
  a.draws += b.draws;
  a.max_dist = std::max(a.max_dist, b.max_dist);
  a.max_code = std::max(a.max_code, b.max_code);
  return a;
}

// Pass 1 (see the top of this file); throws GonuError with the array writer's refusals and
// messages (the lowest-numbered state's, for any thread count), then checks that the root is a
// state. The index's offsets are filled.
SolutionCounts check_solution(const Solution& s, Index& index) {
  const std::uint64_t n = state_count(s);
  if (n == 0) throw GonuError("cannot write an empty table");
  if (!s.source && (s.value.size() != n || s.dist.size() != n))
    throw GonuError("cannot write table: solution arrays differ in size");
  if (uses_tag(s.codec.rules) != s.codec.tagged || s.codec.rules.repetition == Repetition::superko)
    throw GonuError("cannot write a table for repetition " + to_string(s.codec.rules.repetition));
  const std::uint64_t blocks = ceil_div(n, kTableBlockSize);
  index.bytes.assign(std::size_t(blocks * 16), 0);
  tbb::enumerable_thread_specific<StateBuffer> buffers;
  tbb::enumerable_thread_specific<SolutionCounts> counts;
  FirstRefusal refused;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, blocks, kChunkBlocks), [&](const auto& r) {
    counts.local() = add(counts.local(), check_chunk(s, chunk_of(r, n), buffers.local(), index, refused));
  });
  if (refused.state < n) throw GonuError(refused.why);
  SolutionCounts c;
  for (const SolutionCounts& x : counts) c = add(c, x);
  std::uint64_t at = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t len = load64(&index.bytes[b * 16 + 8]);
    store_le(&index.bytes[b * 16 + 8], at, 8);
    at += len;
  }
  index.key_data = at;
  if (!find_state(s, s.root_key)) throw GonuError("cannot write table: the root is not among the states");
  return c;
}

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

// Where the sections are in the file.
struct Layout {
  std::uint64_t keys_offset, keys_size, values_offset, values_size, file_size;
};

Layout layout_of(const Index& index, std::uint64_t n, unsigned vb) {
  Layout l;
  l.keys_offset = kTableHeaderSize + index.bytes.size();
  l.keys_size = index.key_data + kSectionPad;
  l.values_offset = l.keys_offset + l.keys_size;
  l.values_size = ceil_div(n * vb, 8) + kSectionPad;
  l.file_size = l.values_offset + l.values_size;
  return l;
}

// A chunk's key bytes and value bytes, each one piece of its section.
struct ChunkBytes {
  StateBuffer states;
  std::vector<unsigned char> keys, values;
};

// Pass 2 on one chunk: its blocks encoded and sealed with their checks, and written in place.
void encode_chunk(const Solution& s, const Chunk& ch, const Index& index, unsigned vb, const Layout& l,
                  const AtomicFileWriter& out, ChunkBytes& bytes) {
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
  out.write_at(l.keys_offset + key_base, bytes.keys.data(), bytes.keys.size());
  out.write_at(l.values_offset + value_base, bytes.values.data(), bytes.values.size());
}

// XXH3 of the file's bytes [from, to), read back in order.
std::uint64_t hash_written(const AtomicFileWriter& out, std::uint64_t from, std::uint64_t to) {
  XXH3_state_t* st = XXH3_createState();
  if (!st) throw std::bad_alloc();
  XXH3_64bits_reset(st);
  std::vector<unsigned char> buf(std::size_t(1) << 22);
  try {
    for (std::uint64_t at = from; at < to;) {
      const std::size_t len = std::size_t(std::min<std::uint64_t>(buf.size(), to - at));
      out.read_at(at, buf.data(), len);
      XXH3_64bits_update(st, buf.data(), len);
      at += len;
    }
  } catch (...) {
    XXH3_freeState(st);
    throw;
  }
  const std::uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return h;
}

TableHeader make_header(const Solution& s, const SolutionCounts& c, unsigned vb, const Index& index, const Layout& l) {
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
  return h;
}

// Everything but the header: the index, pass 2, the paddings.
void write_payload(const Solution& s, const Index& index, unsigned vb, const Layout& l, const AtomicFileWriter& out) {
  out.write_at(kTableHeaderSize, index.bytes.data(), index.bytes.size());
  tbb::enumerable_thread_specific<ChunkBytes> bytes;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, index.blocks(), kChunkBlocks), [&](const auto& r) {
    encode_chunk(s, chunk_of(r, state_count(s)), index, vb, l, out, bytes.local());
  });
  const unsigned char pad[kSectionPad] = {};
  out.write_at(l.values_offset - kSectionPad, pad, kSectionPad);
  out.write_at(l.file_size - kSectionPad, pad, kSectionPad);
}

}  // namespace

void check_table_writable(const std::string& path) {
  try {
    check_atomic_target(path);
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write table " + path + ": " + e.what());
  }
}

std::uint64_t write_table(const std::string& path, const Solution& s) {
  Index index;
  const SolutionCounts c = check_solution(s, index);
  const unsigned vb = std::max(1u, bit_length(c.max_code));
  const Layout l = layout_of(index, state_count(s), vb);
  TableHeader h = make_header(s, c, vb, index, l);
  table_header::encode(h, s.codec.board);  // refuses a text field too long before any writing
  try {
    AtomicFileWriter out(path);
    write_payload(s, index, vb, l, out);
    h.payload_xxh3 = hash_written(out, kTableHeaderSize, l.file_size);
    const auto head = table_header::encode(h, s.codec.board);
    out.write_at(0, head.data(), head.size());
    out.commit();
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write table " + path + ": " + e.what());
  }
  return h.file_size;
}

}  // namespace gonu
