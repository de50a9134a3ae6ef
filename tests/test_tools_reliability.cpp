// gonu under hostile input and starved resources, as a user sees it: text that is not UTF-8 (or
// whose characters take several bytes) quoted whole or escaped, in one line or in valid JSON; a
// FIFO named as a table or certificate refused at once; a table file truncated while open; a
// file-size limit; a small stack limit; --threads far past the cores; gonu solve under mpirun
// without --mpi.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tests/table_test_util.hpp"
#include "tests/test_support.hpp"

using namespace table_test;
using json = nlohmann::json;

namespace {

// json::parse throws on invalid UTF-8, so a parse that succeeds proves the text is valid.
json parse_json(const std::string& text) {
  INFO(text);
  REQUIRE(json::accept(text));
  return json::parse(text);
}

// gonu ARGS with the environment assignment `env` (VAR=VALUE) added.
Result run_gonu_with(const std::string& env, const std::string& args) {
  TempDir d;
  const std::string cmd = env + " '" GONU_BIN_DIR "/gonu' " + args + " >'" + d.file("out") + "' 2>'" + d.file("err") + "'";
  const int status = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(d.file("out"));
  r.err = slurp(d.file("err"));
  return r;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

TEST_CASE("printable keeps valid UTF-8 whole and escapes every other byte", "[core][reliability]") {
  using gonu::printable;
  REQUIRE(printable("xéx/3/www x") == "xéx/3/www x");
  REQUIRE(printable("\xE2\x80\x8B") == "\xE2\x80\x8B");   // a zero-width space, three bytes
  REQUIRE(printable("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");  // four bytes
  REQUIRE(printable("a\xFF" "b") == "a\\xFFb");
  REQUIRE(printable("\xC3") == "\\xC3");                    // a character cut short
  REQUIRE(printable("\xC0\xAF") == "\\xC0\\xAF");          // an overlong '/'
  REQUIRE(printable("\xED\xB3\xBF") == "\\xED\\xB3\\xBF"); // a lone surrogate
  REQUIRE(printable("\xF4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // past U+10FFFF
  REQUIRE(printable("a\nb\x1B[2J\tc") == "a\\x0Ab\\x1B[2J\tc");
  // Every GonuError's message is printable, whatever it quotes.
  REQUIRE(std::string(gonu::GonuError("move '\xFF'").what()) == "move '\\xFF'");
}

TEST_CASE("gonu: a non-ASCII or invalid byte in a position or move is named whole, in one line or valid JSON",
          "[cli][reliability]") {
  TempDir d;
  const std::string t = cli_table(d, "t.gonu", "--board 3x4");
  // A character of two bytes: the message quotes it whole.
  const Result utf = run_gonu("query '" + t + "' 'xéx/3/www x' --json");
  REQUIRE(utf.code == 1);
  const json j = parse_json(utf.out);
  REQUIRE(j["error"] == "position 'xéx/3/www x': unknown character 'é' at column 2 (expected x, w, ., a digit or /)");
  // A zero-width space (three bytes) first.
  const Result zw = run_gonu("query '" + t + "' '\xE2\x80\x8Bxxx/4/wwww x' --json");
  REQUIRE(zw.code == 1);
  REQUIRE(contains(parse_json(zw.out)["error"].get<std::string>(), "unknown character '\xE2\x80\x8B' at column 1"));
  // A byte that starts no character: escaped, in the JSON and on stderr.
  const Result ff = run_gonu("query '" + t + "' --history " + shell_quote("\xFF") + " --json");
  REQUIRE(ff.code == 1);
  REQUIRE(contains(parse_json(ff.out)["error"].get<std::string>(), "move '\\xFF'"));
  require_one_line_error(run_gonu("query '" + t + "' " + shell_quote("x\xFFx/4/wwww x")),
                         "unknown character '\\xFF' at column 2");
  require_one_line_error(run_gonu("moves " + shell_quote("xx\x1B[2Jx/4/wwww x")), "'\\x1B' at column 3");
  // A table path that is not UTF-8 still gives valid JSON.
  const std::string odd = d.file("t\xFF.gonu");
  REQUIRE(std::rename(t.c_str(), odd.c_str()) == 0);
  const Result path = run_gonu("query " + shell_quote(odd) + " --json");
  REQUIRE(path.code == 0);
  REQUIRE(parse_json(path.out)["value"] == "DRAW");
  // An unknown command or option of such bytes: one line, escaped.
  const Result cmd = run_gonu(shell_quote("\xFF"));
  REQUIRE(cmd.code == 2);
  REQUIRE(contains(cmd.err, "gonu: unknown command '\\xFF'"));
}

TEST_CASE("gonu: a FIFO named as a table or certificate is refused at once, not waited on", "[cli][reliability]") {
  TempDir d;
  const std::string fifo = d.file("f");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string cmd : {"info", "query", "verify", "play"})
    require_one_line_error(run_gonu(cmd + " '" + fifo + "'"), fifo + " is not a gonu table: not a regular file (a FIFO)");
  require_one_line_error(run_gonu("serve '" + fifo + "' --port 0"), "not a regular file (a FIFO)");
  const Result cert = run_gonu("check-certificate '" + fifo + "'");
  INFO(cert.out << cert.err);
  REQUIRE(cert.code == 1);
  REQUIRE(contains(cert.out + cert.err, "not a regular file (a FIFO)"));
  REQUIRE(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
}

TEST_CASE("a table file truncated while open: every read says so, other tables go on", "[table][reliability]") {
  TempDir d;
  const std::string a = cli_table(d, "a.gonu", "--board 3x4"), b = cli_table(d, "b.gonu", "--board 3x4");
  const gonu::Table ta = gonu::Table::open(a), tb = gonu::Table::open(b);
  const gonu::Key root = ta.header().root_key;
  REQUIRE(ta.find(root));
  REQUIRE(truncate(a.c_str(), 1000) == 0);
  // Every block is read in turn, so one of them lies past the new end.
  std::vector<gonu::Key> keys(ta.header().block_size);
  std::vector<gonu::Value> values(keys.size());
  std::vector<std::uint16_t> dist(keys.size());
  const auto read_all = [&] {
    for (std::uint64_t blk = 0; blk < ta.header().blocks; ++blk) ta.decode_block(blk, keys.data(), values.data(), dist.data());
  };
  REQUIRE_THROWS_WITH(read_all(), Catch::Contains("the table file changed while open"));
  REQUIRE(ta.file_changed());
  REQUIRE_THROWS_WITH(ta.find(root), Catch::Contains(a + ": the table file changed while open"));
  REQUIRE_THROWS_WITH(ta.payload_checksum_ok(), Catch::Contains("changed while open"));
  REQUIRE_FALSE(tb.file_changed());
  REQUIRE(tb.find(tb.header().root_key));
  REQUIRE(tb.payload_checksum_ok());
  // A table opened after is guarded as well (the slot is reused).
  const std::string c = cli_table(d, "c.gonu", "--board 3x3");
  const gonu::Table tc = gonu::Table::open(c);
  REQUIRE(tc.find(tc.header().root_key));
  REQUIRE(truncate(c.c_str(), 0) == 0);
  REQUIRE_THROWS_WITH(tc.find(tc.header().root_key), Catch::Contains("changed while open"));
}

TEST_CASE("gonu solve under a file-size limit says so in one line", "[cli][reliability]") {
  TempDir d;
  // ulimit -f counts 1024-byte blocks here (bash, dash); the 3x4 table is about 380 KB.
  const Result r = run_gonu("solve --board 3x4 --quiet --out '" + d.file("f.gonu") + "'");
  REQUIRE(r.code == 0);
  const std::string cmd = "sh -c \"ulimit -f 100; exec '" GONU_BIN_DIR "/gonu' solve --board 3x4 --quiet --out '" +
                          d.file("g.gonu") + "'\" 2>'" + d.file("err") + "'";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 1);
  const std::string err = slurp(d.file("err"));
  REQUIRE(lines(err).size() == 1);
  REQUIRE(contains(err, "gonu: error: cannot write table " + d.file("g.gonu") + ": "));
  REQUIRE(contains(err, "File too large"));
  REQUIRE(d.list() == std::vector<std::string>{"err", "f.gonu"});
}

TEST_CASE("gonu solve --threads far past the cores is refused at once", "[cli][options][reliability]") {
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = run_gonu("solve --board 3x3 --threads 100000000");
  INFO(r.err);
  REQUIRE(r.code == 2);
  REQUIRE(contains(r.err, "--threads 100000000 is more than 16 times the "));
  REQUIRE(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  REQUIRE(run_gonu("solve --board 3x3 --threads 2147483647").code == 2);
}

// Found by fuzz_cli: boost's option-error messages replaced their %name% placeholders until none
// was left, so an argument holding one never got its message ("gonu show -x%original_token%" hung).
TEST_CASE("gonu: an option or value holding a %placeholder% of boost's messages is a usage error at once", "[cli][options][reliability]") {
  const std::pair<const char*, const char*> cases[] = {
      {"show '-x%original_token%'", "gonu show: unrecognised option '-x%original_token%'"},
      {"show '--%prefix%'", "gonu show: unrecognised option '--%prefix%'"},
      {"query --json '--%canonical_option%'", "gonu query: unrecognised option '--%canonical_option%'"},
      {"perft 2 --game jungi '-%option%'", "gonu perft: unrecognised option '-%option%'"},
      {"solve --max-states '%value%'", "gonu solve: the argument ('%value%') for option '--max-states' is invalid"},
      {"show --r x", "gonu show: option '--r' is ambiguous and matches '--repetition', and '--rules'"},
  };
  for (const auto& [args, message] : cases) {
    const Result r = run_gonu_with("timeout 10", args);
    INFO(args << "\n" << r.err);
    REQUIRE(r.code == 2);  // 124: timeout stopped it
    REQUIRE(r.err.substr(0, r.err.find('\n')) == message);
  }
}

TEST_CASE("gonu solve under mpirun without --mpi stops at once with a hint", "[cli][reliability]") {
  for (const std::string var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const Result r = run_gonu_with(var + "=2", "solve --board 2x3");
    require_one_line_error(r, "this is one of 2 processes of an MPI run, but without --mpi");
    REQUIRE(contains(r.err, "add --mpi"));
  }
  // One process of a run (mpirun -np 1) is an ordinary solve.
  REQUIRE(run_gonu_with("OMPI_COMM_WORLD_SIZE=1", "solve --board 2x3 --quiet").code == 0);
}

TEST_CASE("gonu solve runs under a 256 KiB stack limit", "[cli][reliability]") {
  for (const std::string args : {"--board 2x3", "--board 3x4 --engine compact", "--board 3x4 --engine graph",
                                 "--board 3x2 --rules corner --no-strategy", "--board 3x3 --json"}) {
    const Result r = run_gonu_with("ulimit -s 256;", "solve " + args + " --quiet");
    INFO(args << ": " << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(r.err.empty());
  }
  // And says so in one line where no thread with a larger stack can start either.
  const Result r = run_gonu_with("ulimit -s 256; ulimit -v 60000;", "solve --board 2x3 --quiet");
  INFO(r.err);
  REQUIRE((r.code == 0 || (r.code == 1 && lines(r.err).size() == 1)));
}

TEST_CASE("gonu solve under superko applies --max-memory: to its ban-free solve before it starts, then to the search", "[cli][reliability]") {
  require_one_line_error(run_gonu("solve --board 3x4 --rules soldiers --max-memory 1"),
                         "more than the limit of 0.0 MiB (--max-memory); the ban-free solve comes first");
  require_one_line_error(run_gonu("solve --board 3x2 --rules corner --no-strategy --max-memory 1M"),
                         "the ban-free solve comes first");
  // Past the ban-free estimate (14 MiB) but below what the process holds once it has run (about
  // 27 MiB): the search stops at its first check (65,536 nodes), NOT PROVEN (exit 3).
  const Result stopped = run_gonu("solve --board 3x4 --rules soldiers --no-strategy --max-memory 15M --quiet");
  INFO(stopped.out << stopped.err);
  REQUIRE(stopped.code == 3);
  REQUIRE(contains(stopped.out, "superko value:    NOT PROVEN (stopped by the memory limit)"));
  REQUIRE(contains(stopped.out, "search:           65,536 nodes"));
  // Within the limit it runs as before.
  const Result r = run_gonu("solve --board 3x2 --rules corner --no-strategy --max-memory 1G --quiet");
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "superko value:    LOSS for black"));
}

TEST_CASE("gonu verify: a file that is no table is the same one-line error with --sample or --max-memory", "[cli][reliability]") {
  TempDir d;
  const std::string junk = d.file("junk");
  spit(junk, "not a table at all\n");
  const Result plain = run_gonu("verify '" + junk + "'");
  require_one_line_error(plain, junk + " is not a gonu table");
  for (const std::string opts : {"--sample 5", "--max-memory 1G", "--sample 3 --max-memory 1G"}) {
    const Result r = run_gonu("verify " + opts + " '" + junk + "'");
    INFO(opts);
    require_one_line_error(r, junk + " is not a gonu table");
    REQUIRE(r.err == plain.err);
  }
  // On a table of the other game the option is still a usage error (exit 2).
  const std::string table = d.file("t.gonu");
  REQUIRE(run_gonu("solve --board 2x3 --quiet --out '" + table + "'").code == 0);
  const Result r = run_gonu("verify --sample 5 '" + table + "'");
  REQUIRE(r.code == 2);
  REQUIRE(contains(r.err, "--sample goes with a Jungi table"));
}
