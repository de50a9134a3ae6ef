// Jungi's move generator: perft from the provisional start (bulk counting at the last ply: the
// last ply's moves are generated and counted, not played), move generation over random positions
// of a few pieces (the endgame tables' diet), un-moves, one endgame table of four pieces solved by
// the retrograde generator and its file written; and the probe of a Jungi table file
// (solver/jungi/table/): random positions of a warm table, the blocks they read already decoded in
// the reader's cache. The table is GONU_BENCH_JUNGI_TABLE (a file written by gonu solve --game
// jungi --out), else +K+Rv+K (590,490 indices, the size of KRvK) solved and written first.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/jungi/unmoves.hpp"
#include "solver/jungi/generator/generator.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tests/jungi_support.hpp"

using namespace gonu;

namespace {

void BM_JungiPerftStart(benchmark::State& state) {
  const jungi::Rules r;
  const jungi::Position start = jungi::start_position();
  const int depth = static_cast<int>(state.range(0));
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = jungi::perft(r, start, depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["leaves_per_second"] = benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_JungiPerftStart)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);

std::vector<jungi::Position> endings(int pieces, int count) {
  std::mt19937_64 rng(5);
  const jungi::Rules r;
  std::vector<jungi::Position> out;
  while (static_cast<int>(out.size()) < count) {
    const jungi::Position p = test::random_position(rng, r, pieces);
    if (jungi::outcome(r, p) == jungi::Outcome::ongoing) out.push_back(p);
  }
  return out;
}

void BM_JungiGenerateEndings(benchmark::State& state) {
  const jungi::Rules r;
  const auto positions = endings(static_cast<int>(state.range(0)), 4096);
  jungi::MoveList list;
  std::size_t i = 0, moves = 0;
  for (auto _ : state) {
    jungi::generate_moves(r, positions[i++ & 4095], list);
    moves += static_cast<std::size_t>(list.size);
    benchmark::DoNotOptimize(list.size);
  }
  state.counters["moves/pos"] = static_cast<double>(moves) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_JungiGenerateEndings)->ArgName("pieces")->Arg(3)->Arg(4)->Arg(5);

void BM_JungiPredecessors(benchmark::State& state) {
  const jungi::Rules r;
  const auto positions = endings(static_cast<int>(state.range(0)), 1024);
  std::size_t i = 0, found = 0;
  for (auto _ : state) {
    const auto preds = jungi::predecessors(r, positions[i++ & 1023]);
    found += preds.size();
    benchmark::DoNotOptimize(preds.data());
  }
  state.counters["preds/pos"] = static_cast<double>(found) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_JungiPredecessors)->ArgName("pieces")->Arg(3)->Arg(4);

// +K+Rv+K+N: 47.8 million indices (44.4 million positions), all promoted so that its moves lead
// only to the tables of its captures (three of them, solved first and not timed). The time is that
// of the 4-piece table alone, with the threads TBB gives (both cores here).
void BM_JungiSolveFourPieces(benchmark::State& state) {
  const jungi::Material m = jungi::parse_material("+K+Rv+K+N");
  std::uint64_t positions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    jungi::TableSet set{jungi::Rules{}};
    for (const jungi::Material& x : jungi::material_closure(m))
      if (!(x == m)) set.solve(x);
    state.ResumeTiming();
    positions = set.solve(m).stats.positions;
  }
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions_per_second"] = benchmark::Counter(static_cast<double>(positions), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_JungiSolveFourPieces)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// The file of a 4-piece table written: the writer's pass over every index, then its blocks
// compressed on every core (LZMA2 as the format has it) and the file written atomically. Arg 1 as
// `gonu solve --dir` writes each table, the derived indices (a royal taken, a mirror image) from
// the solver's bits (TableOptions::keep_derived); arg 0 as a table read from a file is written
// again, each derived index found from its placement and checked. The table is +K+E+Cv+K's (47.8
// million indices, all promoted: its closure is small), solved once, not timed: of the tables of
// promoted royals the one whose file was largest in format 3 (5.4 MB), so that the compressor has
// work (+K+Rv+K+N's file, above, is 50 kB of almost nothing but don't-cares).
void BM_JungiTableWrite(benchmark::State& state) {
  const jungi::Material m = jungi::parse_material("+K+E+Cv+K");
  jungi::TableSet set{jungi::Rules{}};
  jungi::TableOptions options;
  options.keep_derived = state.range(0) == 1;
  const jungi::Table& t = set.solve(m, options);
  const std::string path = "/tmp/gonu-bench-jungi-write-" + std::to_string(getpid()) + ".gonu";
  std::uint64_t bytes = 0;
  for (auto _ : state) bytes = jungi::write_table_file(path, t, set.rules());
  std::remove(path.c_str());
  state.counters["indices"] = double(t.indexer.size());
  state.counters["bytes"] = double(bytes);
  state.counters["format"] = double(jungi::kJungiTableFormatVersion);
  state.counters["indices_per_second"] = benchmark::Counter(double(t.indexer.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_JungiTableWrite)->Arg(0)->Arg(1)->Iterations(3)->Unit(benchmark::kSecond)->UseRealTime();

// A 4-piece table read from its file: arg 0 whole (TableFile::load: every index decoded and each
// derived one given its value, as a solve over tables on disk and gonu verify read one), arg 1 as
// stored (load_stored: the derived ones derived as TableSet::entry reads them, as a query, gonu
// play, the explorer and Python read one). The table is +K+E+Cv+K's (above), solved and written
// once, not timed.
struct TempTableFile {
  std::string path;
  ~TempTableFile() { std::remove(path.c_str()); }
};
void BM_JungiTableLoad(benchmark::State& state) {
  static const TempTableFile file{[] {
    jungi::TableSet set{jungi::Rules{}};
    const std::string out = "/tmp/gonu-bench-jungi-load-" + std::to_string(getpid()) + ".gonu";
    jungi::write_table_file(out, set.solve(jungi::parse_material("+K+E+Cv+K")), set.rules());
    return out;
  }()};
  const jungi::TableFile f = jungi::TableFile::open(file.path);
  for (auto _ : state) benchmark::DoNotOptimize(state.range(0) == 1 ? f.load_stored() : f.load());
  state.counters["indices"] = double(f.header().indices);
  state.counters["indices_per_second"] = benchmark::Counter(double(f.header().indices), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_JungiTableLoad)->Arg(0)->Arg(1)->Iterations(3)->Unit(benchmark::kSecond)->UseRealTime();

const jungi::TableFile& bench_table() {
  // The file stays while the program runs: a reader reads a block from it when one is asked for.
  static const TempTableFile file{[] {
    jungi::TableSet set{jungi::Rules{}};
    const jungi::Material m = jungi::parse_material("+K+Rv+K");
    set.solve(m);
    const std::string path = "/tmp/gonu-bench-jungi-" + std::to_string(getpid()) + ".gonu";
    jungi::write_table_file(path, *set.find(m), set.rules());
    return path;
  }()};
  static const jungi::TableFile t = [] {
    if (const char* path = std::getenv("GONU_BENCH_JUNGI_TABLE")) return jungi::TableFile::open(path);
    return jungi::TableFile::open(file.path);
  }();
  return t;
}

// The value of a random valid position of the table (its en-passant field none), warm.
void BM_JungiTableProbe(benchmark::State& state) {
  const jungi::TableFile& t = bench_table();
  std::mt19937_64 rng(5);
  std::vector<jungi::Position> positions;
  while (positions.size() < 4096) {
    jungi::Position p;
    if (t.indexer().decode(rng() % t.header().indices, p)) positions.push_back(p);
  }
  for (const jungi::Position& p : positions) benchmark::DoNotOptimize(t.value(p));  // warm the cache
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(t.value(positions[i]));
    i = (i + 1) % positions.size();
  }
  state.counters["indices"] = double(t.header().indices);
  state.counters["bytes"] = double(t.header().file_size);
}
BENCHMARK(BM_JungiTableProbe);

// A probe whose block is not cached: the block's stream decoded and checked (an .xz stream from
// format 3), its codes unshuffled.
void BM_JungiTableBlockDecode(benchmark::State& state) {
  const jungi::TableFile& t = bench_table();
  std::size_t codes = 0;
  for (auto _ : state) {
    const std::vector<std::uint16_t> block = t.block_codes(0);
    codes = block.size();
    benchmark::DoNotOptimize(block.data());
  }
  state.counters["codes"] = double(codes);
  state.counters["codes_per_second"] = benchmark::Counter(double(codes), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["format"] = double(t.header().format_version);
}
BENCHMARK(BM_JungiTableBlockDecode)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
