// Helpers of the table tests (test_table_*.cpp): small solves, temporary files, running the gonu
// binary with stdin from a string, reading and patching file bytes.
#pragma once
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "solver/solve.hpp"

namespace table_test {

inline gonu::Solution solve_named(const std::string& name, int rows, int cols) {
  gonu::Rules r = gonu::rules_by_name(name);
  r.rows = rows;
  r.cols = cols;
  const gonu::Board b = gonu::make_board(rows, cols);
  return gonu::solve(gonu::new_game(r, gonu::start_position(b, r.first)));
}

// A fresh directory under /tmp, removed with its files at the end of the scope.
struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/gonu-table-test-XXXXXX";
    const char* d = mkdtemp(t);
    REQUIRE(d != nullptr);
    path = d;
  }
  ~TempDir() {
    const std::string cmd = "rm -rf '" + path + "'";
    [[maybe_unused]] const int rc = std::system(cmd.c_str());
  }
  std::string file(const std::string& name) const { return path + "/" + name; }
  // Names in the directory (for checking that no temporary file is left).
  std::vector<std::string> list() const {
    std::vector<std::string> v;
    const std::string cmd = "ls -A '" + path + "'";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) {
      std::string s = buf;
      if (!s.empty() && s.back() == '\n') s.pop_back();
      v.push_back(s);
    }
    if (p) pclose(p);
    return v;
  }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void spit(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

struct Result {
  int code = -1;
  std::string out, err;
};

// Runs `gonu ARGS` (ARGS as shell words), stdin from `input`, stdout and stderr captured.
inline Result run_gonu(const std::string& args, const std::string& input = "") {
  TempDir d;
  const std::string in = d.file("in"), out = d.file("out"), err = d.file("err");
  spit(in, input);
  const std::string cmd =
      std::string("'") + GONU_BIN_DIR + "/gonu' " + args + " >'" + out + "' 2>'" + err + "' <'" + in + "'";
  const int status = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

// A bad-input failure: exit 1, nothing on stdout, one line on stderr "gonu: error: ...".
inline void require_one_line_error(const Result& r, const std::string& part) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 1);
  REQUIRE(r.out.empty());
  REQUIRE(lines(r.err).size() == 1);
  REQUIRE(r.err.rfind("gonu: error: ", 0) == 0);
  REQUIRE(contains(r.err, part));
}

}  // namespace table_test
