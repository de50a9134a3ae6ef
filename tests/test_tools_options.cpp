// The option values gonu solve refuses before any work, run as a process: counts must be whole
// numbers >= 0 (--strategy-layers >= -1), time budgets finite numbers >= 0, whatever the rule
// set (a usage error, exit 2, as --threads -1 always was); --certificate needs a superko rule
// set (bad input, exit 1); --threads above the machine's cores runs and says so once;
// --max-memory takes a byte size (parse_byte_size), and a solve whose estimated peak passes it is
// refused before it starts. The progress line's text (format_progress) is checked here too, as
// the pure function it is (no clock). Under superko --max-seconds bounds the whole run.
#include <catch2/catch.hpp>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/table_test_util.hpp"
#include "tools/report/units.hpp"

namespace {

using table_test::contains;
using table_test::lines;
using table_test::require_one_line_error;
using table_test::Result;
using table_test::run_gonu;
using table_test::without_run_fields;

// A usage error of gonu solve: exit 2, nothing on stdout, "gonu solve: MESSAGE" then the usage.
void require_solve_usage_error(const std::string& args, const std::string& message) {
  const Result r = run_gonu("solve " + args);
  INFO("gonu solve " << args << "\nstdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 2);
  REQUIRE(r.out.empty());
  const std::vector<std::string> err = lines(r.err);
  REQUIRE(err.size() == 2);
  REQUIRE(err[0] == "gonu solve: " + message);
  REQUIRE(err[1].rfind("usage: gonu solve ", 0) == 0);
}

}  // namespace

TEST_CASE("gonu solve refuses a negative count, under every rule set", "[cli][options]") {
  for (const char* rules : {"free", "soldiers"}) {
    for (const char* option : {"threads", "max-states", "max-nodes", "table-entries", "relevant-boards",
                               "strategy-depth"}) {
      const std::string args = std::string("--board 3x3 --quiet --rules ") + rules + " --" + option;
      require_solve_usage_error(args + " -1", std::string("--") + option + " must be >= 0");
      require_solve_usage_error(args + " -100000", std::string("--") + option + " must be >= 0");
    }
  }
  // -1 means "no limit" here; below that is refused.
  require_solve_usage_error("--board 3x3 --rules soldiers --strategy-layers -2", "--strategy-layers must be >= -1");
}

TEST_CASE("gonu solve refuses a count that is not a whole number", "[cli][options]") {
  for (const char* option : {"threads", "max-states", "max-nodes", "table-entries", "relevant-boards",
                             "strategy-depth", "strategy-layers"}) {
    for (const char* value : {"abc", "12x", "1.5", "''"}) {
      const Result r = run_gonu(std::string("solve --board 3x3 --quiet --") + option + " " + value);
      INFO(option << " " << value << "\nstdout: " << r.out << "\nstderr: " << r.err);
      REQUIRE(r.code == 2);
      REQUIRE(r.out.empty());
      REQUIRE(contains(r.err, std::string("for option '--") + option + "' is invalid"));
      REQUIRE(contains(r.err, "usage: gonu solve "));
    }
  }
}

TEST_CASE("gonu solve --max-states -1 no longer means no limit", "[cli][options]") {
  // Before, -1 wrapped to the largest count and the solve ran; 0 is the way to say no limit.
  require_solve_usage_error("--board 3x3 --quiet --max-states -1", "--max-states must be >= 0");
  const Result none = run_gonu("solve --board 3x3 --quiet --max-states 0");
  REQUIRE(none.code == 0);
  REQUIRE(contains(none.out, "reachable states: 8,184"));
  const Result capped = run_gonu("solve --board 3x3 --quiet --max-states 5");
  require_one_line_error(capped, "--max-states");
}

TEST_CASE("gonu solve refuses a time budget that is not a finite number >= 0", "[cli][options]") {
  for (const char* rules : {"free", "soldiers"}) {
    for (const char* option : {"strategy-seconds", "max-seconds"}) {
      for (const char* value : {"nan", "NaN", "-nan", "inf", "infinity", "-inf", "-1", "-0.5"}) {
        const std::string args =
            std::string("--board 3x3 --quiet --rules ") + rules + " --" + option + " " + value;
        require_solve_usage_error(args, std::string("--") + option + " must be a finite number of seconds >= 0");
      }
      const Result bad = run_gonu(std::string("solve --board 3x3 --quiet --") + option + " soon");
      REQUIRE(bad.code == 2);
      REQUIRE(contains(bad.err, std::string("for option '--") + option + "' is invalid"));
    }
  }
  // Finite budgets still run: 0 (none) and a fraction of a second.
  for (const char* budget : {"--max-seconds 0", "--max-seconds 0.5 --strategy-seconds 2.5", "--max-seconds -0"}) {
    const Result r = run_gonu(std::string("solve --board 3x3 --rules soldiers --quiet --json ") + budget);
    INFO(budget << "\n" << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "\"proven\""));
  }
}

TEST_CASE("gonu solve under superko: --max-seconds bounds the whole run, the memory estimate comes first",
          "[cli][options][superko]") {
  // 4x3 soldiers takes about 9 s (no strategy at the root, then a tree of searches); 2 s stop it.
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = run_gonu("solve --board 4x3 --rules soldiers --max-seconds 2");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(r.out << r.err);
  REQUIRE(r.code == 3);
  REQUIRE(contains(r.out, "NOT PROVEN (stopped by the time budget)"));
  REQUIRE(seconds < 2.0 * 1.1 + 0.4);  // the bound within 10%, and the process and ban-free solve
  REQUIRE(r.err.rfind("estimated peak memory: about ", 0) == 0);  // the first line on stderr
}

TEST_CASE("gonu solve under superko: --max-seconds stops the ban-free solve and the attractors too",
          "[cli][options][superko]") {
  // 4x4 soldiers: the ban-free solve (3.4 million states) takes about 0.5 s and the layers'
  // attractors about 2 s more, neither with a budget of its own; 0.3 s stops the first, 1 s the
  // second (or the strategy's encoding after it on a fast machine). The bound asserted, 1.5 times
  // the budget and 0.3 s for the process, is looser than the 10% the run keeps to, so that a loaded
  // 2-core machine does not make it flake.
  for (const double budget : {0.3, 1.0}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = run_gonu("solve --board 4x4 --rules soldiers --quiet --max-seconds " + std::to_string(budget));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(budget << " s: " << seconds << " s\n" << r.out << r.err);
    REQUIRE(r.code == 3);
    REQUIRE(contains(r.out, "NOT PROVEN (stopped by the time budget)"));
    REQUIRE(seconds < 1.5 * budget + 0.3);
  }
  const Result j = run_gonu("solve --board 4x4 --rules soldiers --quiet --json --max-seconds 0.05");
  REQUIRE(j.code == 3);
  const nlohmann::json out = nlohmann::json::parse(j.out);
  REQUIRE(out["stopped_by"] == "time budget");
  REQUIRE(out["banfree_value"].is_null());  // the ban-free solve itself was stopped
}

TEST_CASE("gonu solve --certificate needs a superko rule set", "[cli][options][certificate]") {
  table_test::TempDir d;
  const std::string file = d.file("x.cert");
  for (const char* rules : {"free", "encyclopedia", "undo"}) {
    const Result r = run_gonu(std::string("solve --board 3x3 --quiet --rules ") + rules + " --certificate '" + file + "'");
    INFO(rules);
    require_one_line_error(r, "--certificate: only superko rule sets have certificates");
    REQUIRE(contains(r.err, "repetition"));
    REQUIRE(d.list().empty());  // nothing written, not even a temporary file
  }
  // The same option under superko writes the proof.
  const Result ok = run_gonu("solve --board 3x2 --rules corner --quiet --no-strategy --certificate '" + file + "'");
  INFO(ok.out << ok.err);
  REQUIRE(ok.code == 0);
  REQUIRE(d.list() == std::vector<std::string>{"x.cert"});
}

TEST_CASE("gonu solve --threads above the cores runs, and says so once unless --quiet", "[cli][options]") {
  const std::string base = "solve --board 3x3 --json";
  // The refusal of a count far past the cores names the cores.
  const Result refused = run_gonu(base + " --threads 100000000");
  const auto at = refused.err.find(" times the ");
  REQUIRE(at != std::string::npos);
  const std::string above = std::to_string(std::stoi(refused.err.substr(at + 11)) + 1);
  const Result one = run_gonu(base + " --quiet --threads 1");
  const Result many = run_gonu(base + " --threads " + above);
  INFO(many.err);
  REQUIRE(one.code == 0);
  REQUIRE(many.code == 0);
  // stdout never depends on threads (but for the run's time and memory)
  REQUIRE(without_run_fields(many.out) == without_run_fields(one.out));
  std::size_t warnings = 0;
  for (const std::string& line : lines(many.err))
    if (line.rfind("gonu: warning: --threads " + above + " is more than the ", 0) == 0) ++warnings;
  REQUIRE(warnings == 1);
  const Result quiet = run_gonu(base + " --quiet --threads " + above);
  REQUIRE(quiet.code == 0);
  REQUIRE(quiet.err.empty());
  REQUIRE(without_run_fields(quiet.out) == without_run_fields(one.out));
  // Under superko too (the limit is set before the branch).
  const Result sk = run_gonu("solve --board 3x2 --rules corner --no-strategy --threads " + above);
  REQUIRE(sk.code == 0);
  REQUIRE(contains(sk.err, "gonu: warning: --threads " + above));
  // Within the cores: no warning.
  const Result fine = run_gonu(base + " --threads 1");
  REQUIRE(fine.code == 0);
  REQUIRE_FALSE(contains(fine.err, "warning"));
}

TEST_CASE("options: parse_byte_size reads bytes, K/M/G/T (1024) and KB/MB/GB/TB (1000)", "[cli][options]") {
  using gonu::cli::parse_byte_size;
  const std::uint64_t KiB = 1024, MiB = KiB << 10, GiB = MiB << 10, TiB = GiB << 10;
  const std::pair<const char*, std::uint64_t> good[] = {
      {"0", 0}, {"1", 1}, {"1048576", MiB}, {"12B", 12}, {"512M", 512 * MiB}, {"512m", 512 * MiB},
      {"512MiB", 512 * MiB}, {"512mib", 512 * MiB}, {"20G", 20 * GiB}, {"1.5GiB", GiB + GiB / 2},
      {"1.5g", GiB + GiB / 2}, {"0.5K", 512}, {"2T", 2 * TiB}, {"1KB", 1000}, {"3MB", 3000000},
      {"20GB", 20000000000}, {"1.25TB", 1250000000000}, {"18446744073709551615", ~std::uint64_t(0)},
      {"16777215.5T", 16777215 * TiB + TiB / 2}};
  for (const auto& [text, bytes] : good) {
    INFO(text);
    REQUIRE(parse_byte_size(text) == bytes);
  }
  for (const char* text : {"", "M", "-1", "-1G", "+1G", " 1G", "1G ", "1 G", "1.5", "1.", ".5G", "1.G", "1..5G",
                           "1e9", "0x10", "1Q", "1GiBs", "1Gb2", "1iB", "1bb", "1P", "abc", "18446744073709551616",
                           "16777216T", "17179869184G"}) {
    INFO("'" << text << "'");
    REQUIRE_FALSE(parse_byte_size(text));
  }
}

TEST_CASE("options: format_progress gives percent, rate and time left, or count and rate", "[cli][options]") {
  using gonu::cli::format_progress;
  // Known total: 432 of 1000 in 2 s is 216 a second, 568 left: 2.6 s.
  REQUIRE(format_progress("retrograde", 432, 1000, 2.0) == "retrograde  43.2%  216 states/s  ETA 3s");
  // 43.2 million of 100 million at 1.9 million a second: 56.8 M / 1.9 M/s = 29.9 s.
  REQUIRE(format_progress("retrograde", 43200000, 100000000, 43200000 / 1.9e6) ==
          "retrograde  43.2%  1.9M states/s  ETA 30s");
  // Minutes, hours and days.
  REQUIRE(format_progress("verify", 1000, 131000, 1.0) == "verify       0.8%  1.0k states/s  ETA 2m10s");
  REQUIRE(format_progress("verify", 1000, 3901000, 1.0) == "verify       0.0%  1.0k states/s  ETA 1h05m");
  REQUIRE(format_progress("verify", 1, 100001, 1.0) == "verify       0.0%  1 states/s  ETA 1d03h");
  // Done: no time left; no time yet: no rate and no estimate.
  REQUIRE(format_progress("decode", 500, 500, 4.0) == "decode     100.0%  125 states/s");
  REQUIRE(format_progress("retrograde", 0, 1000, 0.0) == "retrograde   0.0%");
  REQUIRE(format_progress("retrograde", 10, 1000, 0.0) == "retrograde   1.0%");
  // No total: the count so far and the rate.
  REQUIRE(format_progress("enumerate", 12345678, 0, 6.5) == "enumerate  12.3M states  1.9M states/s");
  REQUIRE(format_progress("superko search", 2500000000, 0, 10.0) == "superko search 2.5G nodes  250M nodes/s");
  REQUIRE(format_progress("strategy tree", 0, 0, 3.0) == "strategy tree");
  // Superko's strategy phases: the tree's searches so far, an instance's encoding by states.
  REQUIRE(format_progress("strategy tree (searches)", 12, 0, 4.0) == "strategy tree (searches) 12 searches  3 searches/s");
  REQUIRE(format_progress("encoding for black", 500, 1000, 5.0) == "encoding for black  50.0%  100 states/s  ETA 5s");
  // The compact engine's passes over the dense space count ids.
  REQUIRE(format_progress("mark reached", 500, 1000, 5.0) == "mark reached  50.0%  100 ids/s  ETA 5s");
}

TEST_CASE("options: short_count and duration_text round as said", "[cli][options]") {
  using gonu::cli::duration_text;
  using gonu::cli::short_count;
  REQUIRE(short_count(0) == "0");
  REQUIRE(short_count(999) == "999");
  REQUIRE(short_count(999.6) == "1.0k");
  REQUIRE(short_count(12345) == "12.3k");
  REQUIRE(short_count(99960) == "100k");
  REQUIRE(short_count(245e6) == "245M");
  REQUIRE(short_count(2.47e9) == "2.5G");
  REQUIRE(duration_text(0) == "0s");
  REQUIRE(duration_text(59.4) == "59s");
  REQUIRE(duration_text(59.6) == "1m00s");
  REQUIRE(duration_text(3599) == "59m59s");
  REQUIRE(duration_text(3600) == "1h00m");
  REQUIRE(duration_text(90061) == "1d01h");
  REQUIRE(duration_text(-3) == "0s");
  REQUIRE(duration_text(1e300) == "?");
}

TEST_CASE("options: gonu solve --max-memory takes a size, else a usage error", "[cli][options]") {
  for (const char* value : {"lots", "20X", "-1G", "1.5", "1e9", "99999999999999999999"})
    require_solve_usage_error(std::string("--board 3x3 --quiet --max-memory ") + value,
                              std::string("--max-memory takes a size such as 512M, 20G, 1.5GiB or a whole number of "
                                          "bytes, not '") + value + "'");
  const Result ok = run_gonu("solve --board 3x3 --max-memory 1.5GiB");
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  REQUIRE(contains(ok.out, "reachable states: 8,184"));
  // Said before the solve: the estimate, the engine, what it counted, and the limit.
  const std::vector<std::string> err = lines(ok.err);
  REQUIRE(err.size() == 2);
  REQUIRE(err[0].rfind("estimated peak memory: ", 0) == 0);
  REQUIRE(contains(err[0], " MiB (dense engine; "));
  REQUIRE(contains(err[0], " dense ids, about "));
  REQUIRE(contains(err[0], "; limit 1.5 GiB"));
  REQUIRE(err[1].rfind("solved in ", 0) == 0);
  // Without --max-memory the limit is the machine's memory; --quiet says nothing.
  REQUIRE(contains(run_gonu("solve --board 3x3").err, "; limit "));
  REQUIRE(run_gonu("solve --board 3x3 --quiet --max-memory 1G").err.empty());
}

TEST_CASE("options: gonu solve refuses at once a solve whose estimate passes --max-memory", "[cli][options]") {
  for (const char* rules : {"free", "undo"}) {
    const Result r = run_gonu(std::string("solve --board 3x3 --quiet --rules ") + rules + " --max-memory 1M");
    require_one_line_error(r, "this solve would need about ");
    REQUIRE(contains(r.err, "more than the limit of 1.0 MiB (--max-memory); --max-memory SIZE sets the limit"));
  }
  // Refused before the table is written: no file left.
  table_test::TempDir d;
  const std::string file = d.file("t.gonu");
  require_one_line_error(run_gonu("solve --board 3x3 --quiet --max-memory 1000 --out '" + file + "'"),
                         "more than the limit");
  REQUIRE(d.list().empty());
}

TEST_CASE("options: gonu solve --json names the engine, its estimate and the bytes a state", "[cli][options]") {
  const Result r = run_gonu("solve --board 3x4 --quiet --json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["engine"] == "dense");
  REQUIRE(j["estimated_peak_bytes"].get<std::uint64_t>() > 0);
  const double per_state = double(j["peak_bytes"].get<std::uint64_t>()) / j["states"].get<double>();
  REQUIRE(j["bytes_per_state"].get<double>() == Approx(per_state).margin(0.006));
  REQUIRE(run_gonu("solve --board 3x4 --quiet --json --engine graph").out.find("\"engine\": \"graph\"") !=
          std::string::npos);
}
