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

namespace {

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `gonu ARGS` (ARGS as shell words) with stdout and stderr captured separately.
Result gonu(const std::string& args) {
  char dir_template[] = "/tmp/gonu-cli-test-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  REQUIRE(dir != nullptr);
  const std::string out = std::string(dir) + "/out", err = std::string(dir) + "/err";
  const std::string cmd = std::string("'") + GONU_BIN_DIR + "/gonu' " + args + " >'" + out + "' 2>'" + err + "' </dev/null";
  const int status = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  rmdir(dir);
  return r;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

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

// A bad-input failure: exit 1, nothing on stdout, one line on stderr starting "gonu: error:".
void require_one_line_error(const Result& r, const std::string& part) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 1);
  REQUIRE(r.out.empty());
  REQUIRE(lines(r.err).size() == 1);
  REQUIRE(r.err.rfind("gonu: error: ", 0) == 0);
  REQUIRE(contains(r.err, part));
}

void require_usage_error(const Result& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 2);
  REQUIRE(contains(r.err, "usage"));
}

}  // namespace

TEST_CASE("gonu moves lists the four opening moves", "[cli]") {
  const Result r = gonu("moves 'xxxx/4/4/wwww x'");
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
    const Result r = gonu("moves '.w../w.xw/xx../..w. w' --rules soldiers");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "b4-b3  captures c3"));
  }
  {
    const Result r = gonu("moves 'xw.x/.x../..xw/.w.. w' --capture single");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> moves = listed_moves(r.out);
    REQUIRE(std::count(moves.begin(), moves.end(), "b1-b2xb3") == 1);
    REQUIRE(std::count(moves.begin(), moves.end(), "b1-b2xc2") == 1);
  }
  {
    // After the Games of Soldiers line, Black has two moves.
    const Result r = gonu("moves '.w../w.xw/xx../..w. w' --rules soldiers --history 'b4-b3 b2-b1 b3-b2'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> moves = listed_moves(r.out);
    std::sort(moves.begin(), moves.end());
    REQUIRE(moves == std::vector<std::string>{"a2-a1", "b1-a1"});
  }
  {
    // A banned move is not listed as legal.
    const Result r = gonu("moves 'xxxx/4/4/wwww x' --rules encyclopedia --history 'a4-a3 a1-a2 a3-a4'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> moves = listed_moves(r.out);
    REQUIRE(std::count(moves.begin(), moves.end(), "a2-a1") == 0);
    REQUIRE(std::count(moves.begin(), moves.end(), "b1-b2") == 1);
  }
}

TEST_CASE("gonu rules lists the named rule sets", "[cli]") {
  const Result r = gonu("rules");
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
  require_usage_error(gonu("frobnicate"));
  REQUIRE(contains(gonu("frobnicate").err, "frobnicate"));
  require_usage_error(gonu(""));
  require_usage_error(gonu("moves --bogus 'xxxx/4/4/wwww x'"));
  require_usage_error(gonu("rules --bogus"));
  require_usage_error(gonu("show --bogus 'xxxx/4/4/wwww x'"));
  require_usage_error(gonu("moves"));  // missing POSITION
  const Result help = gonu("--help");
  REQUIRE(help.code == 0);
  for (const char* c : {"rules", "show", "moves"}) REQUIRE(contains(help.out, c));
  for (const char* c : {"rules", "show", "moves"}) {
    const Result h = gonu(std::string(c) + " --help");
    INFO(c);
    REQUIRE(h.code == 0);
    REQUIRE(contains(h.out, "usage"));
  }
}

TEST_CASE("gonu: bad input exits 1 with a one-line error", "[cli]") {
  require_one_line_error(gonu("moves 'xxxx/4/4/wwwq x'"), "unknown character 'q'");
  require_one_line_error(gonu("moves 'xxx/4/4/wwww x'"), "rank 3 has 4 points");
  require_one_line_error(gonu("moves 'xxxx/4/4/wwww'"), "missing the side to move");
  require_one_line_error(gonu("show 'xxxx/4/4/wwww b'"), "side to move must be");
  require_one_line_error(gonu("show '8/8/8/8/8/8/8/8/8 x'"), "at most 64");
  require_one_line_error(gonu("moves 'xxxx/4/4/wwww x' --rules bogus"), "unknown rule set 'bogus'");
  require_one_line_error(gonu("moves 'xxxx/4/4/wwww x' --board 3x3"), "3x3");
  require_one_line_error(gonu("moves 'xxxx/4/4/wwww x' --capture double"), "unknown capture rule");
}

TEST_CASE("gonu moves --history: an illegal move exits 1 naming its number", "[cli]") {
  {
    const Result r = gonu("moves 'xxxx/4/4/wwww x' --history 'a4-a3 a4-a2'");
    require_one_line_error(r, "history move 2");
    REQUIRE(contains(r.err, "a4-a2"));
  }
  {
    const Result r = gonu("moves 'xxxx/4/4/wwww x' --rules encyclopedia --history 'a4-a3 a1-a2 a3-a4 a2-a1'");
    require_one_line_error(r, "history move 4");
    REQUIRE(contains(r.err, "a2-a1"));
  }
  {
    const Result r = gonu("moves 'xxxx/4/4/wwww x' --history 'a4-a3 zz'");
    require_one_line_error(r, "history move 2");
  }
}
