// libFuzzer target: the table reader (Table::open, Table::find, query_state, verify_table) on
// arbitrary file bytes. Each input is tried twice: as given, and "restamped" - its block checks,
// index, payload and header checksums recomputed by the layout of solver/julgonu/table/FORMAT.md and
// file_size set to the real size - because a random mutation almost never survives the XXH3
// checks, and the reader's range checks, Elias-Fano decoding and verification lie behind them.
// Only GonuError is an accepted outcome; any other exception, a sanitizer report, or a lookup
// that disagrees with decode_all on a table that passed verify_table is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tbb/global_control.h>
#include <xxhash.h>

#include "core/error.hpp"
#include "solver/julgonu/table/query.hpp"
#include "solver/julgonu/table/table.hpp"

namespace {

std::uint64_t load(const std::vector<unsigned char>& f, std::size_t off, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(f[off + std::size_t(i)]) << (8 * i);
  return v;
}

void store(std::vector<unsigned char>& f, std::size_t off, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) f[off + std::size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
}

// [off, off + len) lies inside a file of `size` bytes.
bool inside(std::uint64_t off, std::uint64_t len, std::uint64_t size) { return off <= size && len <= size - off; }

// Recomputes every block check the header's layout names (blocks whose bounds are out of the
// file are left alone: the reader must refuse them anyway).
void restamp_blocks(std::vector<unsigned char>& f) {
  const std::uint64_t size = f.size();
  const std::uint64_t states = load(f, 176, 8), block_size = load(f, 220, 4), blocks = load(f, 224, 8);
  const std::uint64_t value_bits = f[218];
  const std::uint64_t index_off = load(f, 232, 8), index_size = load(f, 240, 8);
  const std::uint64_t keys_off = load(f, 248, 8), keys_size = load(f, 256, 8);
  const std::uint64_t values_off = load(f, 264, 8), values_size = load(f, 272, 8);
  if (!inside(index_off, index_size, size) || !inside(keys_off, keys_size, size) ||
      !inside(values_off, values_size, size) || keys_size < 16 || block_size == 0 || blocks > index_size / 16)
    return;
  for (std::uint64_t b = 0; b < blocks && b * block_size < states; ++b) {
    const std::uint64_t off = load(f, std::size_t(index_off + 16 * b + 8), 8);
    const std::uint64_t end = b + 1 < blocks ? load(f, std::size_t(index_off + 16 * (b + 1) + 8), 8) : keys_size - 16;
    if (off > end || end > keys_size - 16 || end - off < 4) continue;
    const std::uint64_t m = std::min(states, (b + 1) * block_size) - b * block_size;
    const std::uint64_t vstart = b * block_size * value_bits / 8, vlen = (m * value_bits + 7) / 8;
    if (!inside(vstart, vlen, values_size)) continue;
    const unsigned char* keys = f.data() + keys_off + off;
    const std::uint64_t h1 = XXH3_64bits_withSeed(keys + 4, std::size_t(end - off - 4), b);
    const std::uint64_t h2 = XXH3_64bits_withSeed(f.data() + values_off + vstart, std::size_t(vlen), h1);
    store(f, std::size_t(keys_off + off), h2, 4);
  }
}

// Makes the file's checksums and size field agree with its bytes. Returns false if it is too
// short to have a header.
bool restamp(std::vector<unsigned char>& f) {
  if (f.size() < 320) return false;
  restamp_blocks(f);
  const std::uint64_t index_off = load(f, 232, 8), index_size = load(f, 240, 8);
  if (inside(index_off, index_size, f.size()))
    store(f, 32, XXH3_64bits(f.data() + index_off, std::size_t(index_size)), 8);
  store(f, 16, f.size(), 8);
  store(f, 24, XXH3_64bits(f.data() + 320, f.size() - 320), 8);
  store(f, 312, XXH3_64bits(f.data(), 312), 8);
  return true;
}

// A table that passed verify_table must answer every lookup as decode_all reads it.
void check_lookups_agree(const gonu::Table& t) {
  std::vector<gonu::Key> keys;
  std::vector<gonu::Value> value;
  std::vector<std::uint16_t> dist;
  t.decode_all(keys, value, dist);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto e = t.find(keys[i]);
    if (!e || e->index != i || e->value != value[i] || e->dist != dist[i]) {
      std::fprintf(stderr, "fuzz_table: verified table, find(key of state %zu) disagrees with decode_all\n", i);
      std::abort();
    }
  }
}

void exercise(const std::string& path) {
  try {
    const gonu::Table t = gonu::Table::open(path);
    const gonu::TableHeader& h = t.header();
    (void)t.find(h.root_key);
    (void)t.find(h.root_key + 1);
    (void)t.find(0);
    (void)t.find(~gonu::Key{0});
    (void)gonu::query_state(t, h.root, h.root_tag, true);
    const gonu::TableVerifyResult v = gonu::verify_table(t);
    if (v.ok) check_lookups_agree(t);
  } catch (const gonu::GonuError&) {
    // a refused file or a damaged block: the expected outcome for most inputs
  }
}

void write_file(const std::string& path, const unsigned char* data, std::size_t size) {
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) std::abort();
  if (size && std::fwrite(data, 1, size, out) != size) std::abort();
  std::fclose(out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // One thread: verify_table's parallel loops then run the same way for every input, as
  // libFuzzer's coverage feedback assumes.
  static const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/gonu-fuzz-table-" + std::to_string(getpid()) + ".gonu";
  }();
  write_file(path, data, size);
  exercise(path);
  std::vector<unsigned char> f(data, data + size);
  if (restamp(f) && !std::equal(f.begin(), f.end(), data)) {
    write_file(path, f.data(), f.size());
    exercise(path);
  }
  return 0;
}
