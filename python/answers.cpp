// The module's answers: the rule choice and the solve's checks as the gonu program makes them
// (tools/julgonu/julgonu_cli.cpp, tools/julgonu/julgonu_solve.cpp), the reports from the program's
// own builders (gonu_report and each game's part of it), the move list as julgonu_cli.cpp's;
// python/tests/test_gonu.py checks that both give the same fields for the same input.
#include "python/answers.hpp"

#include <filesystem>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "solver/container/file.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/query.hpp"
#include "solver/julgonu/verify.hpp"
#include "tools/jungi/jungi_query_json.hpp"
#include "tools/julgonu/query_json.hpp"
#include "tools/julgonu/solve_report.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::pymod {

namespace {

std::string board_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

std::vector<std::string> square_list(const Board& b, Bits squares) {
  std::vector<std::string> names;
  for (Bits s = squares; s; s &= s - 1) names.push_back(square_name(b, lowest(s)));
  return names;
}

}  // namespace

Rules choose_rules(const RuleChoice& c, const std::optional<std::string>& position) {
  return with_parts(rules_by_name(c.name), RuleParts{c.capture, c.repetition, c.first, c.board, c.corner}, position);
}

std::string board_text(const Rules& r) { return board_text(r.rows, r.cols); }

std::vector<MoveInfo> legal_move_list(const RuleChoice& choice, const std::string& position,
                                      const std::string& history) {
  const Rules rules = choose_rules(choice, position);
  const Board board = make_board(rules.rows, rules.cols);
  Game g = new_game(rules, parse_position(board, position));
  play_history(g, history);
  std::vector<MoveInfo> moves;
  for (const Move& m : legal_moves(g)) {
    const std::string text = format_move(board, rules, m);
    moves.push_back({text, text, square_list(board, m.captured)});
  }
  return moves;
}

jungi::Rules choose_reading(const JungiReading& c) {
  jungi::Rules r;
  if (c.hobbling) r.hobbling = *c.hobbling;
  if (c.promotion) r.optional_promotion = jungi::parse_promotion(*c.promotion);
  if (c.stalemate) r.stalemate_draw = jungi::parse_stalemate(*c.stalemate);
  if (c.lancer) r.lancer_queen = jungi::parse_lancer(*c.lancer);
  return r;
}

std::vector<MoveInfo> jungi_move_list(const JungiReading& reading, const std::string& position, const std::string& history) {
  const jungi::Rules r = choose_reading(reading);
  const jungi::Position p = jungi::play_history(r, jungi::parse_position(r, position), history, "history");
  std::vector<MoveInfo> moves;
  for (const jungi::Move& m : jungi::legal_moves(r, p)) {
    std::vector<std::string> taken;
    for (const int sq : jungi::captured_squares(p, m)) taken.push_back(jungi::square_name(sq));
    moves.push_back({jungi::format_move(r, p, m), jungi::format_move_san(r, p, m), taken});
  }
  return moves;
}

ProbeAnswer probe(const Table& t, const std::optional<std::string>& position, const std::string& history) {
  const Game g = cli::game_for_query(t, position, history);
  return {cli::query_json(t, g, query_game(t, g), position.has_value())};
}

jungi::Rules jungi_reading(const jungi::Tables& t, const std::string& rules_id) {
  if (rules_id.empty()) return t.only_reading();
  for (const jungi::Rules& x : t.readings())
    if (jungi::rules_id(x) == rules_id) return x;
  throw GonuError("no table of the reading " + rules_id + " in the set");
}

std::shared_ptr<JungiFile> open_jungi_file(const std::string& path) {
  jungi::TableFile file = jungi::TableFile::open(path);
  const std::string dir = std::filesystem::path(path).parent_path().string();
  auto tables = std::make_shared<const jungi::Tables>(std::vector<std::string>{path, dir.empty() ? "." : dir});
  return std::make_shared<JungiFile>(JungiFile{std::move(file), std::move(tables)});
}

ProbeAnswer jungi_probe(const JungiFile& f, const std::string& position, const std::string& history) {
  const jungi::Rules& r = f.file.rules();
  const jungi::Position p = jungi::play_history(r, jungi::parse_position(r, position), history, "history");
  if (history.empty() && jungi::canonical(jungi::material_of(p)) != f.file.material())
    throw GonuError("the position is of " + jungi::material_text(jungi::material_of(p)) + ", the table of " +
                    f.file.header().material_text + " (and of its colour flip)");
  const jungi::PositionAnswer a = f.tables->query(r, p);
  return {cli::jungi_query_json(*f.tables->table(r, jungi::canonical(jungi::material_of(p))), a)};
}

ProbeAnswer jungi_probe(const jungi::Tables& t, const std::string& rules_id, const std::string& position, const std::string& history) {
  const jungi::Rules r = jungi_reading(t, rules_id);
  const jungi::Position p = jungi::play_history(r, jungi::parse_position(r, position), history, "history");
  const jungi::PositionAnswer a = t.query(r, p);
  return {cli::jungi_query_json(*t.table(r, jungi::canonical(jungi::material_of(p))), a)};
}

namespace {

Engine engine_named(const std::string& name) {
  if (const std::optional<Engine> e = cli::engine_by_name(name)) return *e;
  throw GonuError("engine must be auto, dense, compact or graph, not '" + name + "'");
}

// Read in blocks, so that a solution in the compact form is counted without its arrays.
void count_by_distance(const Solution& s, SolveAnswer& a) {
  a.wins_by_distance.assign(std::size_t(s.max_dist) + 1, 0);
  a.losses_by_distance.assign(std::size_t(s.max_dist) + 1, 0);
  constexpr std::uint64_t kBlock = 1 << 16;
  std::vector<Key> keys(kBlock);
  std::vector<Value> value(kBlock);
  std::vector<std::uint16_t> dist(kBlock);
  const std::uint64_t n = state_count(s);
  for (std::uint64_t lo = 0; lo < n; lo += kBlock) {
    const std::uint64_t hi = std::min(n, lo + kBlock);
    read_states(s, lo, hi, keys.data(), value.data(), dist.data());
    for (std::uint64_t i = 0; i < hi - lo; ++i) {
      if (value[i] == Value::win) ++a.wins_by_distance[dist[i]];
      else if (value[i] == Value::loss) ++a.losses_by_distance[dist[i]];
    }
  }
}

}  // namespace

// threads= past this many times the cores is refused, as gonu solve --threads (tools/cli/options.hpp).
constexpr int kThreadsPerCoreLimit = 16;

SolveAnswer solve_rules(const SolveRequest& q) {
  if (q.threads < 0) throw GonuError("threads must be >= 0");
  const Rules rules = choose_rules(q.rules, q.from);
  const Board board = make_board(rules.rows, rules.cols);
  Game game = new_game(rules, q.from ? parse_position(board, *q.from) : start_position(board, rules.first));
  if (q.history) play_history(game, *q.history);
  if (rules.repetition == Repetition::superko)
    throw GonuError("superko rule sets have no finite state set; solve them with the gonu program (gonu solve)");
  SolveOptions options;
  options.engine = engine_named(q.engine);
  options.max_states = q.max_states;
  options.max_memory = q.max_memory;
  options.compact_result = !q.verify;  // verifying reads the arrays; the rest streams from either form
  if (q.out) table_container::check_writable(*q.out);
  std::unique_ptr<tbb::global_control> limit;
  if (q.threads > 0) {  // as gonu solve --threads: the cores are the limit, far past them is refused
    const int cores = tbb::info::default_concurrency();
    if (q.threads > std::int64_t(kThreadsPerCoreLimit) * cores)
      throw GonuError("threads=" + std::to_string(q.threads) + " is more than " +
                      std::to_string(kThreadsPerCoreLimit) + " times the " + std::to_string(cores) +
                      " cores here (0 takes every core)");
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  std::size_t(std::min<std::int64_t>(q.threads, cores)));
  }
  cli::SolveExtras x;
  x.estimate = estimate_memory(game, options);
  cli::check_memory_estimate(x.estimate, memory_limit(options),
                             q.max_memory ? "max_memory" : "this machine's physical memory",
                             "max_memory=BYTES sets the limit");
  const auto t0 = std::chrono::steady_clock::now();
  const Solution s = solve(game, options);
  x.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  x.history = q.history;
  if (q.verify) x.verified = verify_values(s.codec, s.keys.data(), s.value.data(), s.dist.data(), s.keys.size());
  x.table = q.out;
  if (q.out) x.table_bytes = write_table(*q.out, s);
  SolveAnswer a;
  a.json = cli::solve_json(s, game, x);
  count_by_distance(s, a);
  return a;
}

std::string value_text(const std::string& value, int distance) {
  return value == "DRAW" ? value : value + " in " + std::to_string(distance);
}

}  // namespace gonu::pymod
