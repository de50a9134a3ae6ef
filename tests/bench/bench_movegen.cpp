// Move generation speed: generate_moves (and the solver's expand_state, which adds successor
// keys), for_each_unmove (the dense engine's predecessors) and BoardRank::rank (its ids), over a
// fixed sample of positions reached by random play on 4x4.
#include <benchmark/benchmark.h>

#include <random>

#include "core/julgonu/game.hpp"
#include "core/julgonu/unmoves.hpp"
#include "solver/julgonu/dense/board_rank.hpp"
#include "solver/julgonu/state/successors.hpp"

using namespace gonu;

namespace {

std::vector<Position> sample_positions(const Rules& r, int count) {
  const Board b = make_board(r.rows, r.cols);
  std::mt19937_64 rng(7);
  std::vector<Position> out;
  while (int(out.size()) < count) {
    Game g = new_game(r, start_position(b, r.first));
    for (int ply = 0; ply < 40; ++ply) {
      const auto legal = legal_moves(g);
      if (legal.empty()) break;
      out.push_back(current(g));
      play(g, legal[rng() % legal.size()]);
    }
  }
  out.resize(std::size_t(count));
  return out;
}

void BM_generate_moves(benchmark::State& state) {
  Rules r = rules_by_name("free");
  r.capture = state.range(0) ? Capture::single : Capture::line;
  const Board b = make_board(r.rows, r.cols);
  const auto positions = sample_positions(r, 4096);
  Move moves[kMaxMoves];
  std::size_t i = 0, total = 0;
  for (auto _ : state) {
    total += std::size_t(generate_moves(b, r, positions[i++ & 4095], moves));
    benchmark::DoNotOptimize(moves);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
  state.counters["moves/pos"] = double(total) / double(state.iterations());
}
BENCHMARK(BM_generate_moves)->Arg(0)->Arg(1)->ArgName("single");

void BM_expand_state(benchmark::State& state) {
  const Rules r = rules_by_name(state.range(0) ? "encyclopedia" : "free");
  const KeyCodec c = make_key_codec(r);
  const auto positions = sample_positions(rules_by_name("free"), 4096);
  Successor succ[kMaxMoves];
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(expand_state(c, positions[i++ & 4095], Tag{}, succ));
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
}
BENCHMARK(BM_expand_state)->Arg(0)->Arg(1)->ArgName("tagged");

void BM_unmoves(benchmark::State& state) {
  Rules r = rules_by_name("free");
  r.capture = state.range(0) ? Capture::single : Capture::line;
  const Board b = make_board(r.rows, r.cols);
  const auto positions = sample_positions(r, 4096);
  std::size_t i = 0, total = 0;
  for (auto _ : state) {
    for_each_unmove(b, r, positions[i++ & 4095], [&](const Position& before, const Move&) {
      benchmark::DoNotOptimize(before);
      ++total;
    });
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
  state.counters["unmoves/pos"] = double(total) / double(state.iterations());
}
BENCHMARK(BM_unmoves)->Arg(0)->Arg(1)->ArgName("single");

void BM_board_rank(benchmark::State& state) {
  const Rules r = rules_by_name("free");
  const BoardRank rank(16, 4, 4);
  const auto positions = sample_positions(r, 4096);
  std::size_t i = 0;
  for (auto _ : state) {
    const Position& p = positions[i++ & 4095];
    benchmark::DoNotOptimize(rank.rank(p.black, p.white));
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
}
BENCHMARK(BM_board_rank);

}  // namespace

BENCHMARK_MAIN();
