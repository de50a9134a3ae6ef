// The table writer: a solution checked and counted, its keys Elias-Fano coded in blocks, its
// values packed, each block sealed with its check, the index and the header built, and the whole
// written atomically (util/atomic_file). The bytes depend only on the solution.
#include <algorithm>
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

struct SolutionCounts {
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  std::uint32_t max_code = 0;
};

// Refuses what a table cannot hold (keys out of order, unknown values, superko), and counts.
SolutionCounts check_solution(const Solution& s) {
  const std::uint64_t n = s.keys.size();
  if (n == 0) throw GonuError("cannot write an empty table");
  if (s.value.size() != n || s.dist.size() != n) throw GonuError("cannot write table: solution arrays differ in size");
  if (uses_tag(s.codec.rules) != s.codec.tagged || s.codec.rules.repetition == Repetition::superko)
    throw GonuError("cannot write a table for repetition " + to_string(s.codec.rules.repetition));
  SolutionCounts c;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i > 0 && s.keys[i - 1] >= s.keys[i]) throw GonuError("cannot write table: keys are not strictly ascending");
    if (s.value[i] == Value::draw && s.dist[i] != 0) throw GonuError("cannot write table: a draw with a distance");
    if (s.value[i] != Value::draw && s.value[i] != Value::win && s.value[i] != Value::loss)
      throw GonuError("cannot write table: an unknown value");
    c.max_code = std::max(c.max_code, value_code(s.value[i], s.dist[i]));
    c.max_dist = std::max(c.max_dist, s.dist[i]);
    (s.value[i] == Value::win ? c.wins : s.value[i] == Value::loss ? c.losses : c.draws) += 1;
  }
  if (!std::binary_search(s.keys.begin(), s.keys.end(), s.root_key))
    throw GonuError("cannot write table: the root is not among the states");
  return c;
}

// The keys section: each block's 4-byte check (filled by seal_blocks) and Elias-Fano list, then
// the padding; where each block starts.
struct KeySection {
  std::vector<unsigned char> bytes;
  std::vector<std::uint64_t> block_offset;
  std::uint64_t data_size = 0;  // without the padding
};

KeySection encode_keys(const HugeVector<Key>& keys) {
  const std::uint64_t n = keys.size(), blocks = ceil_div(n, kTableBlockSize);
  KeySection k;
  k.block_offset.resize(blocks);
  k.bytes.reserve(std::size_t(n * 2));
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t lo = b * kTableBlockSize, hi = std::min<std::uint64_t>(n, lo + kTableBlockSize);
    const Key first = keys[lo];
    const std::size_t at = k.bytes.size();
    k.block_offset[b] = at;
    k.bytes.resize(at + table_block::kCheckBytes + ef::encoded_size(hi - lo - 1, keys[hi - 1] - first), 0);
    ef::encode(keys.data() + lo + 1, std::size_t(hi - lo - 1), first, &k.bytes[at + table_block::kCheckBytes]);
  }
  k.data_size = k.bytes.size();
  k.bytes.resize(k.bytes.size() + kSectionPad, 0);
  return k;
}

// The values section: one `vb`-bit code a state, then the padding.
std::vector<unsigned char> encode_values(const Solution& s, unsigned vb) {
  const std::uint64_t n = s.keys.size();
  std::vector<unsigned char> values(std::size_t(ceil_div(n * vb, 8) + kSectionPad), 0);
  for (std::uint64_t i = 0; i < n; ++i) put_bits(values.data(), i * vb, value_code(s.value[i], s.dist[i]), vb);
  return values;
}

// Writes each block's check over its key bytes and its value bytes.
void seal_blocks(KeySection& k, const std::vector<unsigned char>& values, std::uint64_t n, unsigned vb) {
  const std::uint64_t blocks = k.block_offset.size();
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t start = k.block_offset[b], end = b + 1 < blocks ? k.block_offset[b + 1] : k.data_size;
    const table_block::Geometry g = table_block::geometry(b, n, kTableBlockSize, vb);
    const std::size_t c = table_block::kCheckBytes;
    store_le(&k.bytes[start], table_block::check(b, &k.bytes[start + c], end - start - c, &values[g.value_start], g.value_len), c);
  }
}

// The index: a block's first key and where its key bytes start.
std::vector<unsigned char> encode_index(const HugeVector<Key>& keys, const KeySection& k) {
  std::vector<unsigned char> index(k.block_offset.size() * 16);
  for (std::size_t b = 0; b < k.block_offset.size(); ++b) {
    store_le(&index[b * 16], keys[b * kTableBlockSize], 8);
    store_le(&index[b * 16 + 8], k.block_offset[b], 8);
  }
  return index;
}

std::uint64_t payload_hash(const std::vector<unsigned char>& index, const KeySection& k,
                           const std::vector<unsigned char>& values) {
  XXH3_state_t* st = XXH3_createState();
  if (!st) throw std::bad_alloc();
  XXH3_64bits_reset(st);
  XXH3_64bits_update(st, index.data(), index.size());
  XXH3_64bits_update(st, k.bytes.data(), k.bytes.size());
  XXH3_64bits_update(st, values.data(), values.size());
  const std::uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return h;
}

TableHeader make_header(const Solution& s, const SolutionCounts& c, unsigned vb, const std::vector<unsigned char>& index,
                        const KeySection& k, const std::vector<unsigned char>& values) {
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
  h.states = s.keys.size();
  h.edges = s.edges;
  h.wins = c.wins;
  h.losses = c.losses;
  h.draws = c.draws;
  h.max_dist = c.max_dist;
  h.value_bits = static_cast<std::uint8_t>(vb);
  h.block_size = kTableBlockSize;
  h.blocks = k.block_offset.size();
  h.index_offset = kTableHeaderSize;
  h.index_size = index.size();
  h.keys_offset = h.index_offset + h.index_size;
  h.keys_size = k.bytes.size();
  h.values_offset = h.keys_offset + h.keys_size;
  h.values_size = values.size();
  h.file_size = h.values_offset + h.values_size;
  h.index_xxh3 = XXH3_64bits(index.data(), index.size());
  h.payload_xxh3 = payload_hash(index, k, values);
  return h;
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
  const SolutionCounts c = check_solution(s);
  const unsigned vb = std::max(1u, bit_length(c.max_code));
  KeySection keys = encode_keys(s.keys);
  const std::vector<unsigned char> values = encode_values(s, vb);
  seal_blocks(keys, values, s.keys.size(), vb);
  const std::vector<unsigned char> index = encode_index(s.keys, keys);
  const TableHeader h = make_header(s, c, vb, index, keys, values);
  const auto head = table_header::encode(h, s.codec.board);
  try {
    write_file_atomically(path, {{head.data(), head.size()},
                                 {index.data(), index.size()},
                                 {keys.bytes.data(), keys.bytes.size()},
                                 {values.data(), values.size()}});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write table " + path + ": " + e.what());
  }
  return h.file_size;
}

}  // namespace gonu
