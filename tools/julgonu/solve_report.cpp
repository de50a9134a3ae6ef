// The report lines shared by the two branches of gonu solve, and the statistics' three forms.
#include "tools/julgonu/solve_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "core/error.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/report/format_number.hpp"
#include "tools/report/units.hpp"
#include "util/atomic_file.hpp"

namespace gonu::cli {

nlohmann::ordered_json solve_rules_json(const Rules& r) {
  return {{"name", r.name}, {"board", std::to_string(r.rows) + "x" + std::to_string(r.cols)},
          {"capture", to_string(r.capture)}, {"corner", r.corner},
          {"repetition", to_string(r.repetition)}, {"first", to_string(r.first)}};
}

std::vector<RootMove> root_moves(const Solution& s, const Rules& rules, const Board& board) {
  Successor succ[kMaxMoves];
  const int k = expand_key(s.codec, s.root_key, succ);
  std::vector<RootMove> moves;
  for (int i = 0; i < k; ++i) {
    const StateValue t = state_value(s, *find_state(s, succ[i].key));
    const Value v = t.value == Value::win ? Value::loss : t.value == Value::loss ? Value::win : Value::draw;
    moves.push_back({format_move(board, rules, succ[i].move), v, v == Value::draw ? 0 : t.dist + 1});
  }
  std::vector<RootMove> sorted;
  for (const std::size_t i : best_first(moves)) sorted.push_back(moves[i]);
  return sorted;
}

const char* engine_name(Engine e) {
  switch (e) {
    case Engine::automatic: return "auto";
    case Engine::dense: return "dense";
    case Engine::graph: return "graph";
    case Engine::compact: return "compact";
  }
  return "?";
}

std::optional<Engine> engine_by_name(const std::string& name) {
  for (Engine e : {Engine::automatic, Engine::dense, Engine::graph, Engine::compact})
    if (name == engine_name(e)) return e;
  return std::nullopt;
}

namespace {
std::string estimate_text(const MemoryEstimate& e) {
  return bytes_text(e.bytes) + " (" + engine_name(e.engine) + " engine; " + e.basis + ")";
}
}  // namespace

std::string memory_estimate_line(const MemoryEstimate& e, std::uint64_t limit) {
  return "estimated peak memory: " + estimate_text(e) + "; limit " + bytes_text(limit);
}

void check_memory_estimate(const MemoryEstimate& e, std::uint64_t limit, const std::string& limit_source,
                           const std::string& raise) {
  if (e.bytes <= limit) return;
  throw GonuError("this solve would need about " + estimate_text(e) + ", more than the limit of " +
                  bytes_text(limit) + " (" + limit_source + "); " + raise);
}

nlohmann::ordered_json solve_json(const Solution& s, const Game& game, const SolveExtras& x) {
  const StateValue root = state_value(s, *find_state(s, s.root_key));
  const std::uint64_t states = state_count(s), peak = peak_resident_bytes();
  nlohmann::ordered_json j;
  j["schema"] = "gonu-solve/1";
  j["rules"] = solve_rules_json(game.rules);
  j["root"] = format_position(game.board, s.root);
  if (x.history) j["history"] = *x.history;
  j["states"] = states;
  j["edges"] = s.edges;
  j["wins"] = s.wins;
  j["losses"] = s.losses;
  j["draws"] = s.draws;
  j["max_distance"] = s.max_dist;
  j["value"] = to_string(root.value);
  j["distance"] = root.dist;
  nlohmann::ordered_json moves = nlohmann::ordered_json::array();
  for (const RootMove& m : root_moves(s, game.rules, game.board))
    moves.push_back({{"move", m.move}, {"value", to_string(m.value)}, {"distance", m.dist}});
  j["moves"] = moves;
  if (x.verified) j["verified"] = x.verified->ok;
  if (x.table) j["table"] = {{"file", *x.table}, {"bytes", x.table_bytes}};
  if (x.stats && x.stats_shown) j["stats"] = stats_json(*x.stats);
  j["engine"] = engine_name(x.estimate.engine);
  j["estimated_peak_bytes"] = x.estimate.bytes;
  j["seconds"] = x.seconds;
  j["peak_bytes"] = peak;
  j["bytes_per_state"] = std::round(100.0 * double(peak) / double(std::max<std::uint64_t>(states, 1))) / 100;
  return j;
}

void print_rules_and_root(const Rules& r, const Board& b, const Position& root,
                          const std::optional<std::string>& history) {
  std::cout << "rules:            " << describe(r) << "\n";
  std::cout << "root:             " << format_position(b, root);
  if (history) std::cout << "  after " << *history;
  std::cout << "\n";
}

namespace {

nlohmann::ordered_json counts_json(const char* key_name, std::uint64_t key, const ValueCounts& c) {
  return {{key_name, key}, {"states", c.states}, {"wins", c.wins}, {"losses", c.losses}, {"draws", c.draws}};
}

std::string counts_row(const std::string& key, const ValueCounts& c) {
  std::ostringstream o;
  const auto cell = [&](const std::string& s, std::size_t width) {
    o << std::string(s.size() < width ? width - s.size() : 1, ' ') << s;
  };
  cell(key, 8);
  cell(with_commas(c.states), 14);
  cell(with_commas(c.wins), 14);
  cell(with_commas(c.losses), 14);
  cell(with_commas(c.draws), 14);
  return o.str() + "\n";
}

}  // namespace

nlohmann::ordered_json stats_json(const SolutionStats& st) {
  nlohmann::ordered_json j, dist = nlohmann::ordered_json::array(), mat = nlohmann::ordered_json::array(),
                            lev = nlohmann::ordered_json::array();
  for (std::size_t d = 0; d < st.by_distance.size(); ++d)
    if (st.by_distance[d].states) dist.push_back(counts_json("distance", d, st.by_distance[d]));
  for (const MaterialCounts& m : st.by_material) {
    const ValueCounts& c = m.counts;
    mat.push_back({{"black", m.black}, {"white", m.white}, {"states", c.states}, {"wins", c.wins},
                   {"losses", c.losses}, {"draws", c.draws}});
  }
  for (std::size_t l = 0; l < st.by_level.size(); ++l) lev.push_back(counts_json("level", l, st.by_level[l]));
  j["by_distance"] = dist;
  j["by_material"] = mat;
  j["by_level"] = lev;
  return j;
}

void print_stats_text(const SolutionStats& st) {
  const std::string head = "      states          WIN          LOSS          DRAW\n";
  std::cout << "by distance (plies to the end with best play; W/L/D for the side to move):\n"
            << "distance" << head;
  for (std::size_t d = 0; d < st.by_distance.size(); ++d)
    if (st.by_distance[d].states) std::cout << counts_row(std::to_string(d), st.by_distance[d]);
  std::cout << "by material (black-white pieces):\n"
            << "   x - w" << head;
  for (const MaterialCounts& m : st.by_material)
    std::cout << counts_row(std::to_string(m.black) + "-" + std::to_string(m.white), m.counts);
  if (st.by_level.empty()) return;
  std::cout << "by level (plies from the root by the shortest route):\n"
            << "   level" << head;
  for (std::size_t l = 0; l < st.by_level.size(); ++l) std::cout << counts_row(std::to_string(l), st.by_level[l]);
}

void write_stats_csv(const std::string& path, const SolutionStats& st) {
  std::ostringstream o;
  const auto row = [&](const char* kind, const std::string& key, const ValueCounts& c) {
    o << kind << ',' << key << ',' << c.states << ',' << c.wins << ',' << c.losses << ',' << c.draws << '\n';
  };
  o << "kind,key,states,wins,losses,draws\n";
  for (std::size_t d = 0; d < st.by_distance.size(); ++d)
    if (st.by_distance[d].states) row("distance", std::to_string(d), st.by_distance[d]);
  for (const MaterialCounts& m : st.by_material)
    row("material", std::to_string(m.black) + "-" + std::to_string(m.white), m.counts);
  for (std::size_t l = 0; l < st.by_level.size(); ++l) row("level", std::to_string(l), st.by_level[l]);
  const std::string text = o.str();
  try {
    write_file_atomically(path, {{text.data(), text.size()}});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write statistics " + path + ": " + e.what());
  }
}

}  // namespace gonu::cli
