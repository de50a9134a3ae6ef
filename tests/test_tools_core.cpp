// The gonu command's core subcommands (rules, show, moves), run as a process: output, exit codes
// (0 success, 1 bad input with one line "gonu: error: ...", 2 usage errors with the usage).
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/table_test_util.hpp"

namespace {

using table_test::contains;
using table_test::lines;
using table_test::require_one_line_error;
using table_test::Result;
using table_test::run_gonu;

// The moves `gonu moves` lists: the first word of each indented line after "N legal moves:".
std::vector<std::string> listed_moves(const std::string& out) {
  std::vector<std::string> moves;
  bool in_list = false;
  for (const std::string& line : lines(out)) {
    if (contains(line, "legal move")) {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (line.rfind("  ", 0) != 0 || line.rfind("  (", 0) == 0) continue;  // banned moves are in ()
    std::istringstream w(line);
    std::string first;
    w >> first;
    moves.push_back(first);
  }
  return moves;
}

void require_usage_error(const Result& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 2);
  REQUIRE(contains(r.err, "usage"));
}

}  // namespace

TEST_CASE("gonu moves lists the four opening moves", "[cli]") {
  const Result r = run_gonu("moves 'xxxx/4/4/wwww x'");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "4 legal moves"));
  std::vector<std::string> moves = listed_moves(r.out);
  std::sort(moves.begin(), moves.end());
  REQUIRE(moves == std::vector<std::string>{"a4-a3", "b4-b3", "c4-c3", "d4-d3"});
  REQUIRE(contains(r.out, "xxxx/4/4/wwww x"));
}

TEST_CASE("gonu moves shows captures, named choices, and the history's position", "[cli]") {
  {
    const Result r = run_gonu("moves '.w../w.xw/xx../..w. w' --rules soldiers");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "b4-b3  captures c3"));
  }
  {
    const Result r = run_gonu("moves 'xw.x/.x../..xw/.w.. w' --capture single");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> moves = listed_moves(r.out);
    REQUIRE(std::count(moves.begin(), moves.end(), "b1-b2xb3") == 1);
    REQUIRE(std::count(moves.begin(), moves.end(), "b1-b2xc2") == 1);
  }
  {
    // After the Games of Soldiers line, Black has two moves.
    const Result r = run_gonu("moves '.w../w.xw/xx../..w. w' --rules soldiers --history 'b4-b3 b2-b1 b3-b2'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> moves = listed_moves(r.out);
    std::sort(moves.begin(), moves.end());
    REQUIRE(moves == std::vector<std::string>{"a2-a1", "b1-a1"});
  }
  {
    // A banned move is not listed as legal.
    const Result r = run_gonu("moves 'xxxx/4/4/wwww x' --rules encyclopedia --history 'a4-a3 a1-a2 a3-a4'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> moves = listed_moves(r.out);
    REQUIRE(std::count(moves.begin(), moves.end(), "a2-a1") == 0);
    REQUIRE(std::count(moves.begin(), moves.end(), "b1-b2") == 1);
  }
}

TEST_CASE("gonu rules lists the named rule sets", "[cli]") {
  const Result r = run_gonu("rules");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  for (const char* name : {"free", "encyclopedia", "undo", "soldiers", "corner"}) {
    bool found = false;
    for (const std::string& line : lines(r.out)) found |= line.rfind(std::string(name) + ":", 0) == 0;
    INFO(name);
    REQUIRE(found);
  }
}

TEST_CASE("gonu: unknown subcommands and options are usage errors (exit 2)", "[cli]") {
  require_usage_error(run_gonu("frobnicate"));
  REQUIRE(contains(run_gonu("frobnicate").err, "frobnicate"));
  require_usage_error(run_gonu(""));
  require_usage_error(run_gonu("moves --bogus 'xxxx/4/4/wwww x'"));
  require_usage_error(run_gonu("rules --bogus"));
  require_usage_error(run_gonu("show --bogus 'xxxx/4/4/wwww x'"));
  const Result help = run_gonu("--help");
  REQUIRE(help.code == 0);
  for (const char* c : {"rules", "show", "moves"}) REQUIRE(contains(help.out, c));
  for (const char* c : {"rules", "show", "moves"}) {
    const Result h = run_gonu(std::string(c) + " --help");
    INFO(c);
    REQUIRE(h.code == 0);
    REQUIRE(contains(h.out, "usage"));
  }
}

TEST_CASE("gonu: bad input exits 1 with a one-line error", "[cli]") {
  require_one_line_error(run_gonu("moves 'xxxx/4/4/wwwq x'"), "unknown character 'q'");
  require_one_line_error(run_gonu("moves 'xxx/4/4/wwww x'"), "rank 3 has 4 points");
  require_one_line_error(run_gonu("moves 'xxxx/4/4/wwww'"), "missing the side to move");
  require_one_line_error(run_gonu("show 'xxxx/4/4/wwww b'"), "side to move must be");
  require_one_line_error(run_gonu("show '8/8/8/8/8/8/8/8/8 x'"), "at most 64");
  require_one_line_error(run_gonu("moves 'xxxx/4/4/wwww x' --rules bogus"), "unknown rule set 'bogus'");
  require_one_line_error(run_gonu("moves 'xxxx/4/4/wwww x' --board 3x3"), "3x3");
  require_one_line_error(run_gonu("moves 'xxxx/4/4/wwww x' --capture double"), "unknown capture rule");
}

TEST_CASE("gonu show and moves read positions with blanks around and between the parts", "[cli]") {
  for (const char* cmd : {"show '   xxxx/4/4/wwww    x '", "show 'xxxx/4/4/wwww x '", "show \"$(printf 'xxxx/4/4/wwww\\tx')\"",
                          "moves 'xxxx/4/4/wwww  x'", "moves \"$(printf '\\txxxx/4/4/wwww x\\t')\""}) {
    const Result r = run_gonu(cmd);
    INFO(cmd << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "xxxx/4/4/wwww x\n"));
  }
}

TEST_CASE("gonu show and moves without a position take the start of the rule set", "[cli]") {
  const Result show = run_gonu("show");
  INFO("stdout: " << show.out << "\nstderr: " << show.err);
  REQUIRE(show.code == 0);
  REQUIRE(contains(show.out, "xxxx/4/4/wwww x\n"));
  REQUIRE(contains(show.out, "Black (x) to move"));
  const Result small = run_gonu("show --board 3x4 --first white");
  REQUIRE(small.code == 0);
  REQUIRE(contains(small.out, "xxxx/4/wwww w\n"));
  const Result moves = run_gonu("moves --rules soldiers");
  REQUIRE(moves.code == 0);
  REQUIRE(contains(moves.out, "4 legal moves"));
  const Result after = run_gonu("moves --history b4-b3");
  REQUIRE(after.code == 0);
  REQUIRE(contains(after.out, "x1xx/1x2/4/wwww w"));
  // A position and rule flags must agree on the board, as for every command.
  require_one_line_error(run_gonu("show 'xxx/3/www x' --board 4x4"), "3x3");
}

TEST_CASE("gonu moves --history: an illegal move exits 1 naming its number", "[cli]") {
  {
    const Result r = run_gonu("moves 'xxxx/4/4/wwww x' --history 'a4-a3 a4-a2'");
    require_one_line_error(r, "history move 2");
    REQUIRE(contains(r.err, "a4-a2"));
  }
  {
    const Result r = run_gonu("moves 'xxxx/4/4/wwww x' --rules encyclopedia --history 'a4-a3 a1-a2 a3-a4 a2-a1'");
    require_one_line_error(r, "history move 4");
    REQUIRE(contains(r.err, "a2-a1"));
  }
  {
    const Result r = run_gonu("moves 'xxxx/4/4/wwww x' --history 'a4-a3 zz'");
    require_one_line_error(r, "history move 2");
  }
}

namespace {
// A report without what depends on the engine and the run: the engine's name, its estimate, time
// and memory.
std::string solved_values(const std::string& json_text) {
  return table_test::without_fields(json_text,
                                    {"engine", "estimated_peak_bytes", "seconds", "peak_bytes", "bytes_per_state"});
}
}  // namespace

TEST_CASE("gonu solve: every engine prints the same report, and --engine is checked", "[cli]") {
  for (const char* rules : {"free", "encyclopedia", "undo"}) {
    const std::string base = std::string("solve --rules ") + rules + " --board 3x3 --json --quiet";
    const Result dense = run_gonu(base + " --engine dense"), graph = run_gonu(base + " --engine graph");
    INFO(rules);
    REQUIRE(dense.code == 0);
    REQUIRE(graph.code == 0);
    REQUIRE(solved_values(dense.out) == solved_values(graph.out));
    REQUIRE(contains(dense.out, "\"states\""));
    REQUIRE(contains(dense.out, "\"engine\": \"dense\""));
    REQUIRE(contains(graph.out, "\"engine\": \"graph\""));
  }
  // The compact engine: the rule sets without a repetition rule.
  const std::string base = "solve --rules free --board 3x4 --json --quiet";
  const Result dense = run_gonu(base + " --engine dense"), compact = run_gonu(base + " --engine compact");
  INFO(compact.err);
  REQUIRE(compact.code == 0);
  REQUIRE(solved_values(compact.out) == solved_values(dense.out));
  REQUIRE(contains(compact.out, "\"engine\": \"compact\""));
  require_usage_error(run_gonu("solve --board 3x3 --engine bogus"));
}
