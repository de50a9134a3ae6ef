// gonu query's move order and labels: best first for the mover (wins by increasing distance,
// draws, losses by decreasing distance; ties in move order), "winning/drawing/losing moves:",
// the JSON "rank" of each move (moves stay in move order), and --json errors as a JSON object.
#include <nlohmann/json.hpp>

#include "tests/table_test_util.hpp"

using namespace table_test;
using json = nlohmann::json;

namespace {

// The plain rule: a smaller score is a better move for the mover.
int score(const json& m) {
  const int d = m["distance"];
  return m["value"] == "WIN" ? d : m["value"] == "DRAW" ? 1000 : 2000 - d;
}

// The moves of a text report, in the order printed (lines "    NAME ..." or "  * NAME ...").
std::vector<std::string> printed_moves(const std::string& out) {
  std::vector<std::string> v;
  bool in = false;
  for (const std::string& line : lines(out)) {
    if (line.rfind("moves, best first", 0) == 0) in = true;
    else if (line.rfind("best:", 0) == 0) in = false;
    else if (in && line.rfind("  ", 0) == 0) {
      const std::string rest = line.substr(line[2] == '*' ? 4 : 4);
      v.push_back(rest.substr(0, rest.find(' ')));
    }
  }
  return v;
}

}  // namespace

TEST_CASE("gonu query lists moves best first under value labels", "[query][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--board 3x4");
  const Result r = run_gonu("query '" + t + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const std::size_t draws = r.out.find("drawing moves:\n"), losses = r.out.find("losing moves:\n");
  REQUIRE(draws != std::string::npos);
  REQUIRE(losses != std::string::npos);
  REQUIRE(draws < losses);
  REQUIRE(r.out.find("winning moves:") == std::string::npos);
  REQUIRE(printed_moves(r.out) == std::vector<std::string>{"a3-a2", "d3-d2", "b3-b2", "c3-c2"});
  // The Games of Soldiers example: every White move wins, fastest first, ties in move order.
  const std::string s = cli_table(d, "soldiers.gtb", "--from '.w../w.xw/xx../..w. w'");
  const Result q = run_gonu("query '" + s + "'");
  INFO(q.out);
  REQUIRE(contains(q.out, "winning moves:\n  * b4-b3     x c3        WIN in 5\n    c1-b1                 WIN in 7\n"));
  REQUIRE(printed_moves(q.out).back() == "d3-d4");  // WIN in 19
}

TEST_CASE("gonu query --json: each move's rank follows the order rule on sampled states", "[query][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--board 3x4");
  const std::vector<std::string> histories = {"", "b3-b2", "b3-b2 a1-a2", "a3-a2 b1-b2", "c3-c2 d1-d2 b3-b2"};
  for (const std::string& h : histories) {
    const Result r = run_gonu("query '" + t + "' --json" + (h.empty() ? "" : " --history '" + h + "'"));
    INFO(h << "\n" << r.out << r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    const json& moves = j["moves"];
    std::vector<const json*> by_rank(moves.size());
    for (const json& m : moves) {
      const std::size_t rank = m["rank"];
      REQUIRE(rank >= 1);
      REQUIRE(rank <= moves.size());
      REQUIRE(by_rank[rank - 1] == nullptr);
      by_rank[rank - 1] = &m;
    }
    for (std::size_t k = 1; k < by_rank.size(); ++k) REQUIRE(score(*by_rank[k - 1]) <= score(*by_rank[k]));
    if (!moves.empty()) REQUIRE((*by_rank[0])["best"] == true);
  }
}

TEST_CASE("gonu query --json: bad input is a JSON object with the error, exit 1", "[query][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f33.gtb", "--board 3x3");
  for (const std::string& args : {"'" + t + "' 'xxxx/4/4/wwww x'", "'" + t + "' --history 'a1-a2'",
                                  "'" + d.file("missing.gtb") + "'"}) {
    const Result r = run_gonu("query " + args + " --json");
    INFO(args << "\n" << r.out << r.err);
    REQUIRE(r.code == 1);
    REQUIRE(r.err.empty());
    const json j = json::parse(r.out);
    REQUIRE(j["schema"] == "gonu-query/1");
    REQUIRE(j["error"].is_string());
    REQUIRE(!std::string(j["error"]).empty());
    // Without --json: the usual one-line error on stderr.
    require_one_line_error(run_gonu("query " + args), std::string(j["error"]).substr(0, 20));
  }
}
