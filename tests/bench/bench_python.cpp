// The Python module's Jungi probes (python/gonu_module.cpp's gonu.Tables), timed by Google
// Benchmark from an embedded interpreter: the module is imported from the build's python/ folder,
// as PYTHONPATH=build/python would, and each timed call goes through Python as a script's would
// (argument conversion, the call, the tuple made), over the random 4-piece positions the C++
// query benchmarks ask (jungi_bench_tables.hpp).
#include <benchmark/benchmark.h>
#include <pybind11/embed.h>

#include <string>
#include <vector>

#include "tests/bench/jungi_bench_tables.hpp"

namespace py = pybind11;
using namespace gonu;

namespace {

// The interpreter, started once for every benchmark, with the module imported.
py::module_& gonu_module() {
  static py::scoped_interpreter interpreter;
  static py::module_ m = [] {
    py::module_::import("sys").attr("path").attr("insert")(0, bench::program_dir() + "/../python");
    return py::module_::import("gonu");
  }();
  return m;
}

// The positions, as text.
std::vector<py::str> position_texts(std::size_t n) {
  const jungi::Tables t({bench::tables_dir()});
  std::vector<py::str> out;
  for (const jungi::Position& p : bench::random_positions(t, n)) out.emplace_back(jungi::format_position(p));
  return out;
}

// tables.value(position) of a random 4-piece position, every block it reads already decoded.
void BM_PythonTablesWarmProbe(benchmark::State& state) {
  py::module_& m = gonu_module();
  const std::vector<py::str> positions = position_texts(4096);
  py::object tables = m.attr("Tables")(bench::tables_dir());
  const py::object value = tables.attr("value");
  for (const py::str& p : positions) benchmark::DoNotOptimize(value(p));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(value(positions[i]));
    i = (i + 1) % positions.size();
  }
  state.counters["held_MiB"] = tables.attr("held_bytes").cast<double>() / (1 << 20);
}
BENCHMARK(BM_PythonTablesWarmProbe);

// A table's first probe: gonu.Tables(DIR) made (untimed), then one position's value: its table's
// header and index read and checked, one block read and decoded.
void BM_PythonTablesFirstProbe(benchmark::State& state) {
  py::module_& m = gonu_module();
  const std::vector<py::str> positions = position_texts(256);
  std::size_t i = 0;
  for (auto _ : state) {
    state.PauseTiming();
    py::object tables = m.attr("Tables")(bench::tables_dir());
    const py::object value = tables.attr("value");
    state.ResumeTiming();
    benchmark::DoNotOptimize(value(positions[i++ % positions.size()]));
    state.PauseTiming();
    tables = py::none();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_PythonTablesFirstProbe)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
