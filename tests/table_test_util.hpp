// Helpers of the table tests (test_table_*.cpp): small solves, temporary files, running the gonu
// binary with stdin from a string (or under a file-size limit, or to be killed), reading and
// patching file bytes, resealing a crafted header.
#pragma once
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/table.hpp"

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

// gonu solve --json without the top-level fields named (each on a line of its own in the
// two-space indented output), for comparing reports that must otherwise be equal byte for byte.
// Requires every one to be there.
inline std::string without_fields(const std::string& json_text, const std::vector<std::string>& names) {
  std::istringstream in(json_text);
  std::string out, line;
  std::size_t removed = 0;
  while (std::getline(in, line)) {
    bool named = false;
    for (const std::string& name : names) named = named || line.rfind("  \"" + name + "\": ", 0) == 0;
    if (named) {
      ++removed;
      continue;
    }
    out += line + "\n";
  }
  REQUIRE(removed == names.size());
  return out;
}

// Without the three fields that vary from run to run: "seconds", "peak_bytes" and
// "bytes_per_state" (the last three).
inline std::string without_run_fields(const std::string& json_text) {
  return without_fields(json_text, {"seconds", "peak_bytes", "bytes_per_state"});
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

// Solves with the CLI into d/name (`gonu solve SOLVE_ARGS --quiet --out`); returns the path.
inline std::string cli_table(const TempDir& d, const std::string& name, const std::string& solve_args) {
  const std::string path = d.file(name);
  const Result r = run_gonu("solve " + solve_args + " --quiet --out '" + path + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "table:"));
  return path;
}

// Reads a possibly damaged table every way a reader can (open, a lookup of every `stride`-th key
// of `keys` and of the key after it, verify_table), accepting a GonuError at any step: what a
// hostile-file test needs is that nothing crashes, hangs or reads out of bounds.
inline void read_tolerating_errors(const std::string& path, const gonu::HugeVector<gonu::Key>& keys, std::size_t stride) {
  try {
    const gonu::Table t = gonu::Table::open(path);
    for (std::size_t i = 0; i < keys.size(); i += stride) {
      try {
        t.find(keys[i]);
        t.find(keys[i] + 1);
      } catch (const gonu::GonuError&) {
      }
    }
    try {
      gonu::verify_table(t);
    } catch (const gonu::GonuError&) {
    }
  } catch (const gonu::GonuError&) {
  }
}

// The output with wrapped sentences joined again (a continuation line starts with two spaces).
inline std::string flat(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "\n  ") == 0) {
      out += ' ';
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
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

// Little-endian field at `at` of a byte string.
inline void put_le(std::string& b, std::size_t at, std::uint64_t v, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) b[at + i] = char((v >> (8 * i)) & 0xff);
}
inline std::uint64_t get_le(const std::string& b, std::size_t at, std::size_t bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = bytes; i-- > 0;) v = v << 8 | std::uint8_t(b[at + i]);
  return v;
}

// Recomputes a table's payload checksum (offset 24), index checksum (offset 32) and header
// checksum (offset 312) as FORMAT.md documents them, so that a crafted field gets past every
// checksum to the reader's other checks.
inline void reseal(std::string& b) {
  put_le(b, 24, XXH3_64bits(b.data() + 320, b.size() - 320), 8);
  const std::uint64_t index_offset = get_le(b, 232, 8), index_size = get_le(b, 240, 8);
  if (index_offset <= b.size() && index_size <= b.size() - index_offset)
    put_le(b, 32, XXH3_64bits(b.data() + index_offset, std::size_t(index_size)), 8);
  put_le(b, 312, XXH3_64bits(b.data(), 312), 8);
}

// argv for gonu from words (no shell).
inline std::vector<std::string> gonu_argv(const std::vector<std::string>& args) {
  std::vector<std::string> v{std::string(GONU_BIN_DIR) + "/gonu"};
  v.insert(v.end(), args.begin(), args.end());
  return v;
}

// Starts gonu ARGS as a child with stdin, stdout and stderr on /dev/null, or stderr into the
// descriptor `err_fd` when it is >= 0. With max_file_bytes > 0 the child may write at most that
// many bytes to any regular file, with SIGXFSZ ignored: a longer write fails with EFBIG, as on a
// full disk (pipes and /dev/null are not limited). Returns the child's pid.
inline pid_t spawn_gonu(const std::vector<std::string>& args, int err_fd = -1, rlim_t max_file_bytes = 0) {
  const std::vector<std::string> argv = gonu_argv(args);
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(err_fd >= 0 ? err_fd : null, 2);
    if (max_file_bytes > 0) {
      signal(SIGXFSZ, SIG_IGN);
      const struct rlimit lim{max_file_bytes, max_file_bytes};
      setrlimit(RLIMIT_FSIZE, &lim);
    }
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  return pid;
}

// Runs gonu ARGS under a file-size limit (see spawn_gonu); stderr is read through a pipe.
inline Result run_gonu_file_limit(const std::vector<std::string>& args, rlim_t max_file_bytes) {
  int p[2];
  REQUIRE(pipe(p) == 0);
  const pid_t pid = spawn_gonu(args, p[1], max_file_bytes);
  close(p[1]);
  Result r;
  char buf[4096];
  for (ssize_t n; (n = read(p[0], buf, sizeof buf)) > 0;) r.err.append(buf, std::size_t(n));
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace table_test
