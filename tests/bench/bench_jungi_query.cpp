// Questions to a directory of Jungi endgame tables (solver/jungi/table/tables.hpp), over random
// positions of its 4-piece tables: `gonu query DIR POSITION` in a fresh process (every move valued
// and the principal variation; its wall time and peak resident memory, the files in the page
// cache), a warm probe (the blocks it reads cached), and a table's first probe in a set just
// opened (its header and index read, one block decoded).
// The directory and its positions: jungi_bench_tables.hpp.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "tests/bench/jungi_bench_tables.hpp"

extern char** environ;

using namespace gonu;
using bench::program_dir;
using bench::random_positions;
using bench::tables_dir;

namespace {

// One `gonu query DIR POSITION` run, its output thrown away: wall seconds and the child's peak
// resident KiB.
std::pair<double, long> run_query(const std::string& position) {
  const std::string gonu = program_dir() + "/gonu";
  std::vector<std::string> args{gonu, "query", tables_dir(), position};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, gonu.c_str(), &actions, nullptr, argv.data(), environ) != 0) throw std::runtime_error("cannot run " + gonu);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  posix_spawn_file_actions_destroy(&actions);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("gonu query failed on " + position);
  return {seconds, usage.ru_maxrss};
}

// gonu query DIR POSITION in a fresh process: manual time is the child's wall time; the counter
// peak_rss_MiB the largest peak of the runs.
void BM_JungiQueryFreshProcess(benchmark::State& state) {
  const jungi::Tables t({tables_dir()});
  const std::vector<jungi::Position> positions = random_positions(t, 64);
  for (const jungi::Position& p : positions) run_query(jungi::format_position(p));  // the files into the page cache
  long peak = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto [seconds, kib] = run_query(jungi::format_position(positions[i++ % positions.size()]));
    state.SetIterationTime(seconds);
    peak = std::max(peak, kib);
  }
  state.counters["peak_rss_MiB"] = double(peak) / 1024;
  state.counters["positions"] = double(positions.size());
}
BENCHMARK(BM_JungiQueryFreshProcess)->UseManualTime()->Iterations(64)->Unit(benchmark::kMillisecond);

// A probe of a random 4-piece position, every block it reads already decoded.
void BM_JungiTablesWarmProbe(benchmark::State& state) {
  const jungi::Tables t({tables_dir()});
  const std::vector<jungi::Position> positions = random_positions(t, 4096);
  const jungi::Rules r = t.only_reading();
  for (const jungi::Position& p : positions) benchmark::DoNotOptimize(t.probe(r, p));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(t.probe(r, positions[i]));
    i = (i + 1) % positions.size();
  }
  state.counters["held_MiB"] = double(t.held_bytes()) / (1 << 20);
}
BENCHMARK(BM_JungiTablesWarmProbe);

// A table's first probe: a set of the directory opened (untimed), then one random 4-piece
// position probed: its table's header and index read and checked, one block read and decoded.
void BM_JungiTablesFirstProbe(benchmark::State& state) {
  std::vector<jungi::Position> positions;
  {
    const jungi::Tables t({tables_dir()});
    positions = random_positions(t, 256);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto t = std::make_unique<jungi::Tables>(std::vector<std::string>{tables_dir()});
    const jungi::Rules r = t->only_reading();
    state.ResumeTiming();
    benchmark::DoNotOptimize(t->probe(r, positions[i++ % positions.size()]));
    state.PauseTiming();
    t.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_JungiTablesFirstProbe)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
