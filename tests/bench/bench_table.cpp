// Writing and verifying the 4x4 `free` table (3.4 million states): write_table from the solution's
// arrays and from a StateSource over them (the compact engines' form), and verify_table's two
// ways (indexed by the dense ids; arrays, the reference). The solution is solved once; the table
// goes to a temporary file, removed at the end. Counters: states a second.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/table.hpp"

namespace {

using namespace gonu;

struct ArraySource : StateSource {
  const Solution& s;
  explicit ArraySource(const Solution& solution) : s(solution) {}
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    read_states(s, lo, hi, keys, value, dist);  // s holds arrays: their copy
  }
  std::optional<std::uint64_t> find(Key k) const override { return find_state(s, k); }
};

struct Fixture {
  Solution arrays, source;
  std::string path = "/tmp/gonu-bench-table-" + std::to_string(::getpid()) + ".gtb";
  ~Fixture() { std::remove(path.c_str()); }
};

Fixture& fixture() {
  static const std::unique_ptr<Fixture> shared = [] {
    auto f = std::make_unique<Fixture>();
    const Rules r = rules_by_name("free");
    const Board b = make_board(r.rows, r.cols);
    f->arrays = solve(new_game(r, start_position(b, r.first)));
    const Solution& a = f->arrays;
    Solution& s = f->source;
    s.codec = a.codec;
    s.root = a.root;
    s.root_tag = a.root_tag;
    s.root_key = a.root_key;
    s.source = std::make_shared<ArraySource>(a);
    s.states = a.keys.size();
    s.edges = a.edges;
    write_table(f->path, a);
    return f;
  }();
  return *shared;
}

void states_per_second(benchmark::State& state) {
  state.counters["states/s"] =
      benchmark::Counter(double(fixture().arrays.keys.size()), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_WriteTableArrays(benchmark::State& state) {
  Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(write_table(f.path, f.arrays));
  states_per_second(state);
}
BENCHMARK(BM_WriteTableArrays)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteTableSource(benchmark::State& state) {
  Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(write_table(f.path, f.source));
  states_per_second(state);
}
BENCHMARK(BM_WriteTableSource)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_VerifyTable(benchmark::State& state) {
  Fixture& f = fixture();
  const Table t = Table::open(f.path);
  const auto method = state.range(0) == 0 ? TableVerifyMethod::indexed : TableVerifyMethod::arrays;
  for (auto _ : state) {
    const TableVerifyResult r = verify_table(t, {}, method);
    if (!r.ok) state.SkipWithError(r.first_error.c_str());
  }
  states_per_second(state);
}
// range(0): 0 indexed, 1 arrays.
BENCHMARK(BM_VerifyTable)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
