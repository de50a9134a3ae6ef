// Whole solves at a given thread count (the benchmark argument): 4x4 `free` (3,412,738 states),
// 3x4 `encyclopedia` (7,117,189 states) and 4x4 `encyclopedia` (195,991,573 states) with the
// dense engine (what gonu solve uses), the first two also with the state-graph engine, and the
// graph engine's two phases (enumeration, retrograde analysis) on 4x4 `free`. peak_GiB is the
// solver's estimate of its largest memory use (Solution::peak_bytes).
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/graph/enumerate.hpp"
#include "solver/julgonu/graph/retrograde.hpp"
#include "solver/julgonu/solve.hpp"

using namespace gonu;

namespace {

Rules named_on(const char* name, int rows, int cols) {
  Rules r = rules_by_name(name);
  r.rows = rows;
  r.cols = cols;
  return r;
}

void run_solve(benchmark::State& state, const Rules& r, Engine engine = Engine::automatic) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, std::size_t(state.range(0)));
  const Board b = make_board(r.rows, r.cols);
  const Game g = new_game(r, start_position(b, r.first));
  std::size_t states = 0, peak = 0;
  for (auto _ : state) {
    SolveOptions options;
    options.engine = engine;
    const Solution s = solve(g, options);
    states = s.keys.size();
    peak = s.peak_bytes;
    benchmark::DoNotOptimize(s.value.data());
  }
  state.counters["states"] = double(states);
  state.counters["peak_GiB"] = double(peak) / double(1 << 30);
  state.counters["states/s"] = benchmark::Counter(double(states), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_solve_free_4x4(benchmark::State& state) { run_solve(state, rules_by_name("free")); }
BENCHMARK(BM_solve_free_4x4)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(10)->UseRealTime();

void BM_solve_free_4x4_graph(benchmark::State& state) { run_solve(state, rules_by_name("free"), Engine::graph); }
BENCHMARK(BM_solve_free_4x4_graph)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();

void BM_solve_single_corner_4x4(benchmark::State& state) {
  Rules r = rules_by_name("free");
  r.capture = Capture::single;
  r.corner = true;
  run_solve(state, r);
}
BENCHMARK(BM_solve_single_corner_4x4)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();

void BM_solve_encyclopedia_3x4(benchmark::State& state) { run_solve(state, named_on("encyclopedia", 3, 4)); }
BENCHMARK(BM_solve_encyclopedia_3x4)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();

// The target: under 30 s and 8 GB on this 2-core machine.
void BM_solve_encyclopedia_4x4(benchmark::State& state) { run_solve(state, rules_by_name("encyclopedia")); }
BENCHMARK(BM_solve_encyclopedia_4x4)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

void BM_solve_encyclopedia_3x4_graph(benchmark::State& state) {
  run_solve(state, named_on("encyclopedia", 3, 4), Engine::graph);
}
BENCHMARK(BM_solve_encyclopedia_3x4_graph)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();

void BM_enumerate_free_4x4(benchmark::State& state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, std::size_t(state.range(0)));
  const Rules r = rules_by_name("free");
  const KeyCodec c = make_key_codec(r);
  const Key root = encode_key(c, start_position(c.board, r.first), Tag{});
  for (auto _ : state) benchmark::DoNotOptimize(enumerate_states(c, root).keys.size());
}
BENCHMARK(BM_enumerate_free_4x4)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_retrograde_free_4x4(benchmark::State& state) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, std::size_t(state.range(0)));
  const Rules r = rules_by_name("free");
  const KeyCodec c = make_key_codec(r);
  const Key root = encode_key(c, start_position(c.board, r.first), Tag{});
  for (auto _ : state) {
    state.PauseTiming();
    StateGraph g = enumerate_states(c, root);  // retrograde consumes its successor rows
    state.ResumeTiming();
    benchmark::DoNotOptimize(retrograde(g).value.data());
  }
}
BENCHMARK(BM_retrograde_free_4x4)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
