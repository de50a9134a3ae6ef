// Writing tables and certificates atomically (util/atomic_file): targets that are not writable
// regular files are refused up front and leave the target as it was; a full disk (simulated by a
// file-size limit) leaves no file; a kill -9 at any moment of `gonu solve --out` leaves the old
// table or the new one and nothing else; temporaries of dead writers are swept.
#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "core/error.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tests/table_test_util.hpp"
#include "util/atomic_file.hpp"

using namespace gonu;
using namespace table_test;

namespace {

// `gonu solve` with --out that a tiny --max-states would stop: an --out error coming first shows
// that the target was checked before the solve.
Result solve_out(const std::string& out) {
  return run_gonu("solve --rules free --board 4x5 --max-states 10 --quiet --out '" + out + "'");
}

// The pid of a process that has exited (a reaped child), for a dead writer's temporary file.
pid_t dead_pid() {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) _exit(0);
  int status = 0;
  waitpid(pid, &status, 0);
  return pid;
}

}  // namespace

TEST_CASE("atomic write: --out onto a FIFO, a symlink, a directory, a read-only file or '' is refused up front",
          "[table][atomic]") {
  TempDir d;
  REQUIRE(mkfifo(d.file("fifo").c_str(), 0644) == 0);
  spit(d.file("target"), "precious");
  REQUIRE(symlink(d.file("target").c_str(), d.file("link").c_str()) == 0);
  REQUIRE(mkdir(d.file("dir").c_str(), 0755) == 0);
  spit(d.file("ro.gtb"), "old table");
  REQUIRE(chmod(d.file("ro.gtb").c_str(), 0444) == 0);
  require_one_line_error(solve_out(d.file("fifo")), "it is a FIFO, not a regular file; refusing to replace it");
  require_one_line_error(solve_out(d.file("link")), "it is a symbolic link");
  require_one_line_error(solve_out(d.file("dir")), "it is a directory");
  require_one_line_error(solve_out(d.file("ro.gtb")), "it is read-only");
  require_one_line_error(run_gonu("solve --rules free --board 4x5 --max-states 10 --quiet --out ''"),
                         "cannot write table : the file name is empty");
  // Nothing was touched or left behind.
  struct stat st {};
  REQUIRE(lstat(d.file("fifo").c_str(), &st) == 0);
  REQUIRE(S_ISFIFO(st.st_mode));
  REQUIRE(lstat(d.file("link").c_str(), &st) == 0);
  REQUIRE(S_ISLNK(st.st_mode));
  REQUIRE(slurp(d.file("target")) == "precious");
  REQUIRE(slurp(d.file("ro.gtb")) == "old table");
  std::vector<std::string> names = d.list();
  std::sort(names.begin(), names.end());
  REQUIRE(names == std::vector<std::string>{"dir", "fifo", "link", "ro.gtb", "target"});
  // A device node: only when not root, since a broken check would let root replace /dev/null.
  // (The FIFO above goes through the same test of the file type.)
  if (geteuid() != 0) require_one_line_error(solve_out("/dev/null"), "it is a device node");
}

TEST_CASE("atomic write: write_table refuses the same targets after the solve", "[table][atomic]") {
  const Solution s = solve_named("free", 3, 3);
  TempDir d;
  REQUIRE(mkfifo(d.file("fifo").c_str(), 0644) == 0);
  spit(d.file("target"), "precious");
  REQUIRE(symlink(d.file("target").c_str(), d.file("link").c_str()) == 0);
  for (const char* name : {"fifo", "link"}) {
    try {
      write_table(d.file(name), s);
      FAIL("written over " << name);
    } catch (const GonuError& e) {
      REQUIRE(contains(e.what(), "not a regular file; refusing to replace it"));
    }
  }
  REQUIRE(slurp(d.file("target")) == "precious");
  REQUIRE(d.list().size() == 3);
}

TEST_CASE("atomic write: a full disk during a table write leaves no file, or the old one", "[table][atomic]") {
  TempDir d;
  const std::vector<std::string> solve = {"solve", "--rules", "free", "--board", "3x3", "--quiet", "--out"};
  auto limited = [&](const std::string& out) {
    std::vector<std::string> args = solve;
    args.push_back(out);
    return run_gonu_file_limit(args, 4096);  // the 3x3 table has about 11 KB
  };
  {
    const Result r = limited(d.file("new.gtb"));
    INFO(r.err);
    REQUIRE(r.code == 1);
    REQUIRE(contains(r.err, "gonu: error: cannot write table " + d.file("new.gtb") + ": write: File too large"));
    REQUIRE(d.list().empty());
  }
  {
    spit(d.file("old.gtb"), "the old table");
    const Result r = limited(d.file("old.gtb"));
    INFO(r.err);
    REQUIRE(r.code == 1);
    REQUIRE(slurp(d.file("old.gtb")) == "the old table");
    REQUIRE(d.list() == std::vector<std::string>{"old.gtb"});
  }
  // Without the limit the same command writes the table.
  std::vector<std::string> args = solve;
  args.push_back(d.file("old.gtb"));
  REQUIRE(run_gonu_file_limit(args, 0).code == 0);
  REQUIRE(Table::open(d.file("old.gtb")).size() > 0);
}

TEST_CASE("atomic write: a full disk during a certificate write leaves no file", "[table][atomic]") {
  TempDir d;
  const std::string cert = d.file("c.cert");
  const std::vector<std::string> args = {"solve", "--rules", "soldiers", "--board", "3x3", "--quiet", "--certificate", cert};
  const Result r = run_gonu_file_limit(args, 256);  // the certificate has about 800 bytes
  INFO(r.err);
  REQUIRE(r.code == 1);
  REQUIRE(contains(r.err, "gonu: error: cannot write certificate " + cert + ": write: File too large"));
  REQUIRE(d.list().empty());
  REQUIRE(run_gonu_file_limit(args, 0).code == 0);
  REQUIRE(slurp(cert).size() > 256);
  REQUIRE(d.list() == std::vector<std::string>{"c.cert"});
}

TEST_CASE("atomic write: named temporaries are removed on errors and swept when their writer died",
          "[table][atomic]") {
  TempDir d;
  const std::string target = d.file("t.gtb");
  const std::string data(100000, 'x');
  // A full disk with a named temporary: the child writes under a file-size limit.
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    const struct rlimit lim{1000, 1000};
    setrlimit(RLIMIT_FSIZE, &lim);
    try {
      write_file_atomically(target, {{data.data(), data.size()}}, TempFileKind::named);
    } catch (const FileWriteError& e) {
      _exit(std::string(e.what()) == "write: File too large" ? 0 : 2);
    }
    _exit(3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(d.list().empty());
  // Stale temporaries: a dead writer's is removed, a live one's and another target's are kept.
  const std::string prefix = temp_file_prefix("t.gtb");
  const std::string dead = prefix + std::to_string(dead_pid()) + "-0123456789abcdef";
  const std::string alive = prefix + std::to_string(getpid()) + "-0123456789abcdef";
  const std::string other = temp_file_prefix("u.gtb") + std::to_string(dead_pid()) + "-0";
  for (const std::string& name : {dead, alive, other}) spit(d.file(name), "partial");
  write_file_atomically(target, {{data.data(), data.size()}}, TempFileKind::named);
  std::vector<std::string> names = d.list();
  std::sort(names.begin(), names.end());
  std::vector<std::string> want = {alive, "t.gtb", other};
  std::sort(want.begin(), want.end());
  REQUIRE(names == want);
  REQUIRE(slurp(target) == data);
  // Both kinds of temporary replace an existing file whole.
  for (const TempFileKind kind : {TempFileKind::any, TempFileKind::named}) {
    const std::string text = kind == TempFileKind::any ? "unnamed" : "named";
    write_file_atomically(target, {{text.data(), 3}, {text.data() + 3, text.size() - 3}}, kind);
    REQUIRE(slurp(target) == text);
  }
}

TEST_CASE("atomic write: SIGTERM, SIGINT or SIGHUP to a writer of a named temporary (as gonu solve --mpi's) "
          "removes it", "[table][atomic]") {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    TempDir d;
    const std::string target = d.file("t.gonu");
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      for (const int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, SIG_DFL);  // as a program starts
      try {
        AtomicFileWriter w(target, TempFileKind::named);
        w.write_at(0, "partial", 7);
        (void)!write(ready[1], "r", 1);
        for (;;) pause();
      } catch (...) {
        _exit(2);
      }
    }
    close(ready[1]);
    char c = 0;
    REQUIRE(read(ready[0], &c, 1) == 1);
    close(ready[0]);
    REQUIRE(d.list().size() == 1);
    REQUIRE(d.list()[0].rfind(temp_file_prefix("t.gonu"), 0) == 0);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFSIGNALED(status));  // ended by the signal, as without the handler
    REQUIRE(WTERMSIG(status) == sig);
    REQUIRE(d.list().empty());
  }
}

TEST_CASE("atomic write: kill -9 during gonu solve --out leaves the old table or the new one, nothing else",
          "[table][atomic]") {
  TempDir d;
  const std::string target = d.file("T");
  const std::vector<std::string> args = {"solve", "--board", "3x4", "--rules", "encyclopedia", "--quiet", "--out", target};
  // The new table, and how long a whole run takes.
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  waitpid(spawn_gonu(args), &status, 0);
  const double full = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const std::string new_bytes = slurp(target);
  write_table(target, solve_named("free", 3, 3));
  const std::string old_bytes = slurp(target);
  REQUIRE(old_bytes != new_bytes);
  // Ten kills: five at any moment of a run, five around its end, where the table is written
  // (a run's length varies with the machine's load, so some of these land after it).
  std::mt19937_64 rng(9);
  int old_seen = 0, new_seen = 0;
  for (int k = 0; k < 10; ++k) {
    spit(target, old_bytes);
    const double u = double(rng() % 1000) / 1000, at = k < 5 ? full * u : full * (0.75 + 0.6 * u);
    const pid_t pid = spawn_gonu(args);
    std::this_thread::sleep_for(std::chrono::duration<double>(at));
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    INFO("kill " << k << " after " << at << " s of " << full << " s");
    REQUIRE(d.list() == std::vector<std::string>{"T"});
    const std::string now = slurp(target);
    REQUIRE((now == old_bytes || now == new_bytes));
    (now == old_bytes ? old_seen : new_seen) += 1;
  }
  INFO("old " << old_seen << ", new " << new_seen);
  SUCCEED();
}
