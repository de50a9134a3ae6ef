// Table lookups on the 4x4 `free` table: a value lookup of a random state (target < 1 us) and a
// full query of one position - every move looked up, the best marked, the principal variation
// followed to the end (target < 1 ms). The table is solved and written once, to
// $GONU_BENCH_TABLE if that names an existing table (reused), else to a temporary file.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zdict.h>
#include <zstd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/table.hpp"
#include "solver/julgonu/table/query.hpp"

namespace {

using namespace gonu;

struct Fixture {
  std::string path;
  bool remove = false;
  std::unique_ptr<Table> table;
  std::vector<Key> keys;        // every state of the table
  std::vector<Key> decided;     // states with a win or loss, for the query benchmark
  ~Fixture() {
    if (remove) std::remove(path.c_str());
  }
};

Fixture& fixture() {
  static const std::unique_ptr<Fixture> shared = [] {
    auto fp = std::make_unique<Fixture>();
    Fixture& f = *fp;
    const char* env = std::getenv("GONU_BENCH_TABLE");
    f.path = env && *env ? env : "/tmp/gonu-bench-lookup-" + std::to_string(::getpid()) + ".gtb";
    bool have = false;
    if (env && *env) {
      try {
        Table t = Table::open(f.path);
        have = rules_id(t.rules()) == rules_id(rules_by_name("free")) && t.header().root == start_position(t.board(), Side::black);
      } catch (const std::exception&) {
      }
    }
    if (!have) {
      const Rules r = rules_by_name("free");
      const Board b = make_board(r.rows, r.cols);
      const Solution s = solve(new_game(r, start_position(b, r.first)));
      write_table(f.path, s);
      f.remove = !(env && *env);
    }
    f.table = std::make_unique<Table>(Table::open(f.path));
    std::vector<Value> value;
    std::vector<std::uint16_t> dist;
    f.table->decode_all(f.keys, value, dist);
    for (std::size_t i = 0; i < f.keys.size(); ++i)
      if (value[i] != Value::draw && dist[i] >= 20) f.decided.push_back(f.keys[i]);
    return fp;
  }();
  return *shared;
}

// Random states of the table, in a fixed pseudo-random order.
void BM_LookupRandomState(benchmark::State& state) {
  Fixture& f = fixture();
  std::mt19937_64 rng(12345);
  std::vector<Key> probe(1 << 16);
  for (Key& k : probe) k = f.keys[rng() % f.keys.size()];
  std::size_t i = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    const auto e = f.table->find(probe[i++ & (probe.size() - 1)]);
    sum += e->dist;
  }
  benchmark::DoNotOptimize(sum);
  state.counters["states"] = double(f.keys.size());
  state.counters["bytes_per_state"] = double(f.table->header().file_size) / double(f.keys.size());
}
BENCHMARK(BM_LookupRandomState);

// Keys that are not in the table (a negative answer walks the same path).
void BM_LookupAbsentKey(benchmark::State& state) {
  Fixture& f = fixture();
  std::mt19937_64 rng(777);
  std::vector<Key> probe;
  while (probe.size() < (1u << 14)) {
    const Key k = f.keys[rng() % f.keys.size()] + 1;
    if (!std::binary_search(f.keys.begin(), f.keys.end(), k)) probe.push_back(k);
  }
  std::size_t i = 0, found = 0;
  for (auto _ : state) found += f.table->find(probe[i++ & (probe.size() - 1)]).has_value();
  benchmark::DoNotOptimize(found);
}
BENCHMARK(BM_LookupAbsentKey);

// A full query of a decided position (distance >= 20): the moves ranked and the principal
// variation to the end of the game, as gonu query computes it.
void BM_QueryPosition(benchmark::State& state) {
  Fixture& f = fixture();
  std::mt19937_64 rng(99);
  std::vector<std::pair<Position, Tag>> probe(256);
  for (auto& pt : probe) decode_key(f.table->codec(), f.decided[rng() % f.decided.size()], pt.first, pt.second);
  std::size_t i = 0, plies = 0;
  for (auto _ : state) {
    const auto& [p, t] = probe[i++ & 255];
    const QueryAnswer a = query_state(*f.table, p, t, true);
    plies += a.pv.size();
  }
  state.counters["pv_plies"] = benchmark::Counter(double(plies), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_QueryPosition)->Unit(benchmark::kMicrosecond);

// Opening a table: header and index checks (the index is hashed and scanned).
void BM_OpenTable(benchmark::State& state) {
  Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(Table::open(f.path).size());
}
BENCHMARK(BM_OpenTable)->Unit(benchmark::kMicrosecond);

// What zstd would cost a lookup: the table's blocks (a block's key bytes and its value bytes, as
// stored) compressed one by one at level 19, alone (range(0) == 0) or with a 64 KiB dictionary
// trained on them (range(0) == 1); the benchmark decompresses a random block, which a lookup in
// a zstd-compressed table would have to do before its search. Counter: the table's bytes a state
// with blocks compressed this way (index and header included; the dictionary too).
void BM_ZstdBlockDecompress(benchmark::State& state) {
  Fixture& f = fixture();
  const TableHeader& h = f.table->header();
  std::ifstream in(f.path, std::ios::binary);
  const std::vector<unsigned char> d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto load64 = [&](std::uint64_t at) {
    std::uint64_t v;
    std::memcpy(&v, &d[at], 8);
    return v;
  };
  std::vector<unsigned char> samples;
  std::vector<std::size_t> sizes;
  for (std::uint64_t b = 0; b < h.blocks; ++b) {
    const std::uint64_t off = load64(h.index_offset + 16 * b + 8);
    const std::uint64_t end = b + 1 < h.blocks ? load64(h.index_offset + 16 * (b + 1) + 8) : h.keys_size - 16;
    const std::uint64_t m = std::min<std::uint64_t>(h.states, (b + 1) * h.block_size) - b * h.block_size;
    const std::uint64_t v0 = b * h.block_size * h.value_bits / 8, vlen = (m * h.value_bits + 7) / 8;
    samples.insert(samples.end(), d.begin() + std::ptrdiff_t(h.keys_offset + off), d.begin() + std::ptrdiff_t(h.keys_offset + end));
    samples.insert(samples.end(), d.begin() + std::ptrdiff_t(h.values_offset + v0),
                   d.begin() + std::ptrdiff_t(h.values_offset + v0 + vlen));
    sizes.push_back(std::size_t(end - off + vlen));
  }
  const bool with_dict = state.range(0) == 1;
  std::vector<unsigned char> dict(with_dict ? 65536 : 0);
  std::size_t dict_size = 0;
  if (with_dict) {
    dict_size = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(), sizes.data(), unsigned(sizes.size()));
    if (ZDICT_isError(dict_size)) {
      state.SkipWithError("dictionary training failed");
      return;
    }
  }
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ZSTD_CDict* cdict = with_dict ? ZSTD_createCDict(dict.data(), dict_size, 19) : nullptr;
  ZSTD_DDict* ddict = with_dict ? ZSTD_createDDict(dict.data(), dict_size) : nullptr;
  std::vector<std::vector<unsigned char>> blocks;
  std::size_t compressed = 0, at = 0;
  for (const std::size_t n : sizes) {
    std::vector<unsigned char> out(ZSTD_compressBound(n));
    const std::size_t r = with_dict ? ZSTD_compress_usingCDict(cctx, out.data(), out.size(), &samples[at], n, cdict)
                                    : ZSTD_compressCCtx(cctx, out.data(), out.size(), &samples[at], n, 19);
    out.resize(r);
    compressed += r;
    at += n;
    blocks.push_back(std::move(out));
  }
  std::vector<unsigned char> buf(1 << 16);
  std::mt19937_64 rng(4242);
  std::size_t sum = 0;
  for (auto _ : state) {
    const auto& c = blocks[rng() % blocks.size()];
    sum += with_dict ? ZSTD_decompress_usingDDict(dctx, buf.data(), buf.size(), c.data(), c.size(), ddict)
                     : ZSTD_decompressDCtx(dctx, buf.data(), buf.size(), c.data(), c.size());
  }
  benchmark::DoNotOptimize(sum);
  // Each compressed block would also need its 8-byte length in the index.
  const double bytes = double(kTableHeaderSize + h.index_size + 8 * h.blocks + compressed + dict_size);
  state.counters["bytes_per_state"] = bytes / double(h.states);
  ZSTD_freeCDict(cdict);
  ZSTD_freeDDict(ddict);
  ZSTD_freeCCtx(cctx);
  ZSTD_freeDCtx(dctx);
}
BENCHMARK(BM_ZstdBlockDecompress)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
