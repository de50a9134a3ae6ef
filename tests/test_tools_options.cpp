// The option values gonu solve refuses before any work, run as a process: counts must be whole
// numbers >= 0 (--strategy-layers >= -1), time budgets finite numbers >= 0, whatever the rule
// set (a usage error, exit 2, as --threads -1 always was); --certificate needs a superko rule
// set (bad input, exit 1); --threads above the machine's cores runs and says so once.
#include <catch2/catch.hpp>

#include <string>

#include "tests/table_test_util.hpp"

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
  const Result one = run_gonu(base + " --quiet --threads 1");
  const Result many = run_gonu(base + " --threads 100000");
  INFO(many.err);
  REQUIRE(one.code == 0);
  REQUIRE(many.code == 0);
  // stdout never depends on threads (but for the run's time and memory)
  REQUIRE(without_run_fields(many.out) == without_run_fields(one.out));
  std::size_t warnings = 0;
  for (const std::string& line : lines(many.err))
    if (line.rfind("gonu: warning: --threads 100000 is more than the ", 0) == 0) ++warnings;
  REQUIRE(warnings == 1);
  const Result quiet = run_gonu(base + " --quiet --threads 100000");
  REQUIRE(quiet.code == 0);
  REQUIRE(quiet.err.empty());
  REQUIRE(without_run_fields(quiet.out) == without_run_fields(one.out));
  // Under superko too (the limit is set before the branch).
  const Result sk = run_gonu("solve --board 3x2 --rules corner --no-strategy --threads 100000");
  REQUIRE(sk.code == 0);
  REQUIRE(contains(sk.err, "gonu: warning: --threads 100000"));
  // Within the cores: no warning.
  const Result fine = run_gonu(base + " --threads 1");
  REQUIRE(fine.code == 0);
  REQUIRE_FALSE(contains(fine.err, "warning"));
}
