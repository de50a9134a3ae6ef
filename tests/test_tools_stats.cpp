// gonu solve's reporting: --stats (text, JSON "stats", --stats-csv) against plain counts of an
// in-memory solve (a sequential BFS with a std::map for the levels); the JSON schema name,
// seconds and peak_bytes; superko's exit status 3 when not proven; gonu help COMMAND, the short
// flags, "did you mean", and the note when --out replaces a file.
#include <nlohmann/json.hpp>

#include <deque>
#include <map>

#include "solver/julgonu/state/solution_stats.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using namespace table_test;
using json = nlohmann::json;

namespace {

// Plain per-level counts: a sequential BFS from the root with a std::map of levels.
std::vector<ValueCounts> plain_levels(const Solution& s) {
  std::map<Key, int> level{{s.root_key, 0}};
  std::deque<Key> queue{s.root_key};
  std::vector<ValueCounts> out;
  Successor succ[kMaxMoves];
  while (!queue.empty()) {
    const Key k = queue.front();
    queue.pop_front();
    const int l = level[k];
    if (out.size() <= std::size_t(l)) out.resize(std::size_t(l) + 1);
    out[std::size_t(l)].add(s.value[*find_state(s, k)]);
    const int n = expand_key(s.codec, k, succ);
    for (int i = 0; i < n; ++i)
      if (level.emplace(succ[i].key, l + 1).second) queue.push_back(succ[i].key);
  }
  return out;
}

}  // namespace

TEST_CASE("solution_stats against plain counts (3x4 free, 3x3 encyclopedia)", "[stats]") {
  for (const auto& [name, rows, cols] : {std::tuple{"free", 3, 4}, std::tuple{"encyclopedia", 3, 3}}) {
    const Solution s = solve_named(name, rows, cols);
    const SolutionStats st = solution_stats(s, true);
    std::vector<ValueCounts> dist(std::size_t(s.max_dist) + 1);
    std::map<std::pair<int, int>, ValueCounts> material;
    for (std::size_t i = 0; i < s.keys.size(); ++i) {
      Position p;
      Tag tag;
      decode_key(s.codec, s.keys[i], p, tag);
      dist[s.dist[i]].add(s.value[i]);
      material[{popcount(p.black), popcount(p.white)}].add(s.value[i]);
    }
    REQUIRE(st.by_distance.size() == dist.size());
    for (std::size_t d = 0; d < dist.size(); ++d) {
      REQUIRE(st.by_distance[d].states == dist[d].states);
      REQUIRE(st.by_distance[d].wins == dist[d].wins);
      REQUIRE(st.by_distance[d].losses == dist[d].losses);
      REQUIRE(st.by_distance[d].draws == dist[d].draws);
    }
    REQUIRE(st.by_material.size() == material.size());
    for (const MaterialCounts& m : st.by_material) {
      const ValueCounts& c = material.at({m.black, m.white});
      REQUIRE(m.counts.states == c.states);
      REQUIRE(m.counts.wins == c.wins);
      REQUIRE(m.counts.draws == c.draws);
    }
    const std::vector<ValueCounts> levels = plain_levels(s);
    REQUIRE(st.by_level.size() == levels.size());
    std::uint64_t total = 0;
    for (std::size_t l = 0; l < levels.size(); ++l) {
      REQUIRE(st.by_level[l].states == levels[l].states);
      REQUIRE(st.by_level[l].wins == levels[l].wins);
      REQUIRE(st.by_level[l].losses == levels[l].losses);
      total += levels[l].states;
    }
    REQUIRE(total == s.keys.size());
  }
}

TEST_CASE("gonu solve --stats: JSON, text and CSV agree and sum to the totals", "[stats][cli]") {
  TempDir d;
  const std::string csv = d.file("stats.csv");
  const Result r = run_gonu("solve -b 3x4 -q --json --stats --levels --stats-csv '" + csv + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["schema"] == "gonu-solve/1");
  REQUIRE(j["seconds"].is_number());
  REQUIRE(j["peak_bytes"] > 0);
  const json& st = j["stats"];
  for (const char* part : {"by_distance", "by_material", "by_level"}) {
    INFO(part);
    std::uint64_t states = 0, wins = 0, losses = 0, draws = 0;
    for (const json& row : st[part]) {
      states += std::uint64_t(row["states"]);
      wins += std::uint64_t(row["wins"]);
      losses += std::uint64_t(row["losses"]);
      draws += std::uint64_t(row["draws"]);
    }
    REQUIRE(states == j["states"]);
    REQUIRE(wins == j["wins"]);
    REQUIRE(losses == j["losses"]);
    REQUIRE(draws == j["draws"]);
  }
  REQUIRE(st["by_distance"].back()["distance"] == j["max_distance"]);
  REQUIRE(st["by_level"][0]["states"] == 1);
  // The CSV: a header, then one row per JSON row, the same numbers.
  const std::vector<std::string> rows = lines(slurp(csv));
  REQUIRE(rows[0] == "kind,key,states,wins,losses,draws");
  REQUIRE(rows.size() == 1 + st["by_distance"].size() + st["by_material"].size() + st["by_level"].size());
  const json& m0 = st["by_material"][0];
  REQUIRE(contains(slurp(csv), "\nmaterial," + std::to_string(int(m0["black"])) + "-" +
                                   std::to_string(int(m0["white"])) + "," + std::to_string(std::uint64_t(m0["states"])) + ","));
  // The text report has the three tables; without --stats none, and the JSON has no "stats".
  const Result text = run_gonu("solve -b 3x4 -q --stats --levels");
  REQUIRE(contains(text.out, "by distance (plies to the end"));
  REQUIRE(contains(text.out, "by material (black-white pieces):"));
  REQUIRE(contains(text.out, "by level (plies from the root"));
  REQUIRE(!contains(run_gonu("solve -b 3x4 -q").out, "by distance"));
  const Result no_levels = run_gonu("solve -b 3x4 -q --stats --json");
  REQUIRE(json::parse(no_levels.out)["stats"]["by_level"].empty());
  REQUIRE(run_gonu("solve -b 3x4 -q --levels").code == 2);  // --levels alone
  REQUIRE(!json::parse(run_gonu("solve -b 3x4 -q --json").out).contains("stats"));
  // Superko has no finite state set to count: --stats there adds the material layers' account.
  require_one_line_error(run_gonu("solve -r soldiers -b 3x3 -q --stats-csv x.csv"), "--stats-csv");
}

TEST_CASE("gonu solve: timing line, superko exit status 3 and schema, --out replacing a file", "[stats][cli]") {
  TempDir d;
  const Result r = run_gonu("solve -b 3x3");
  INFO(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.err, "solved in "));
  REQUIRE(contains(r.err, " MiB at peak"));
  const Result open = run_gonu("solve -r soldiers -b 5x2 -q --no-strategy --max-nodes 2000 --json");
  INFO(open.out);
  REQUIRE(open.code == 3);
  const json j = json::parse(open.out);
  REQUIRE(j["schema"] == "gonu-superko/1");
  REQUIRE(j["proven"] == false);
  REQUIRE(j["seconds"].is_number());
  REQUIRE(run_gonu("solve -r soldiers -b 3x3 -q").code == 0);
  REQUIRE(contains(run_gonu("solve --help").out, "3 superko value NOT PROVEN"));
  // --out onto an existing file: replaced, and said on stderr unless quiet.
  const std::string t = d.file("t.gonu");
  REQUIRE(run_gonu("solve -b 3x3 -q -o '" + t + "'").code == 0);
  const Result again = run_gonu("solve -b 3x3 -o '" + t + "'");
  REQUIRE(again.code == 0);
  REQUIRE(contains(again.err, "replacing the existing file"));
  REQUIRE(!contains(run_gonu("solve -b 3x3 -q -o '" + t + "'").err, "replacing"));
}

TEST_CASE("gonu help solve: the options in groups, superko's last, then examples", "[cli]") {
  const std::string out = run_gonu("help solve").out;
  const std::vector<std::string> headings = {"\ncommon options:\n", "\nmemory options:\n", "\noutput options:\n",
                                             "\nMPI options", "\nsuperko options", "\nexamples:\n"};
  std::size_t at = 0;
  for (const std::string& h : headings) {
    INFO(h << "\n" << out);
    const std::size_t here = out.find(h);
    REQUIRE(here != std::string::npos);
    REQUIRE(here >= at);
    at = here;
  }
  // Each option under its group: --rules and --out common, --max-memory memory, --json output;
  // every option whose help says "superko:" after the superko heading, and none before it.
  const std::size_t memory = out.find("\nmemory options:"), output = out.find("\noutput options:");
  const std::size_t superko = out.find("\nsuperko options");
  const auto line = [&](const char* option) { return out.find(std::string("\n  ") + option); };  // not the usage
  REQUIRE(line("-r [ --rules ]") < memory);
  REQUIRE(line("-o [ --out ]") < memory);
  REQUIRE(line("--max-memory") > memory);
  REQUIRE(line("--max-memory") < output);
  REQUIRE(line("--json") > output);
  REQUIRE(line("--json") < superko);
  REQUIRE(out.find("superko: ") > superko);
  REQUIRE(line("--strategy-seconds") > superko);
  REQUIRE(line("--certificate") > superko);
  REQUIRE(line("--certificate") != std::string::npos);
  // The examples run: the first two here, as written.
  REQUIRE(contains(out, "  gonu solve                "));
  REQUIRE(contains(out, "  gonu solve --board 3x4 --json"));
  REQUIRE(run_gonu("solve --board 3x4 --json --quiet").code == 0);
}

TEST_CASE("gonu help COMMAND, short flags, did you mean", "[cli]") {
  const Result h = run_gonu("help solve");
  REQUIRE(h.code == 0);
  REQUIRE(h.out == run_gonu("solve --help").out);
  REQUIRE(contains(h.out, "usage: gonu solve"));
  REQUIRE(contains(h.out, "-q [ --quiet ]"));
  REQUIRE(contains(h.out, "-j [ --threads ]"));
  REQUIRE(contains(h.out, "-r [ --rules ]"));
  REQUIRE(contains(h.out, "-b [ --board ]"));
  REQUIRE(contains(h.out, "-o [ --out ]"));
  REQUIRE(run_gonu("solve -r free -b 3x3 -j 1 -q").out == run_gonu("solve --rules free --board 3x3 --threads 1 --quiet").out);
  require_one_line_error(run_gonu("solve --rules Free"), "did you mean 'free'?");
  require_one_line_error(run_gonu("solve --rules encyclopaedia"), "did you mean 'encyclopedia'?");
  const Result c = run_gonu("solv");
  REQUIRE(c.code == 2);
  REQUIRE(contains(c.err, "unknown command 'solv'; did you mean 'solve'?"));
  const Result hc = run_gonu("help quary");
  REQUIRE(hc.code == 2);
  REQUIRE(contains(hc.err, "did you mean 'query'?"));
}
