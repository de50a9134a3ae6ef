// Jungi tables solved one material at a time (gonu solve --game jungi --dir, TableSet::solve_alone):
// jungi::materials_read names every table a solve reads (a solve with only those held gives the
// closure solve's entries, and one without them refuses); the files a streamed run writes are byte
// for byte those of the in-memory solve; a run resumes from the files there (some removed) with
// the same bytes and the same stdout; a step past --max-memory is refused in one line with nothing
// written. The whole of --all 3, under a limit tight enough to release tables for room, is the
// slower case: run with gonu_tests "[.jungi_stream_slow]" (some six minutes on this shared machine).
// One process's order: each table read before its reader, a family's tables side by side. The
// schedule of a run over processes: every table a material reads is in an earlier dependency
// wave, and a wave's tables are dealt largest first to the least loaded process.
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "solver/jungi/generator/generator.hpp"
#include "solver/jungi/generator/schedule.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using jungi::Material;
using table_test::contains;
using table_test::run_gonu;
using table_test::slurp;
using table_test::TempDir;

namespace {

const jungi::Rules kRules;

std::string shell_quoted(const std::string& s) { return "'" + s + "'"; }

// A copy of a solved table, for another TableSet.
std::unique_ptr<jungi::Table> copy_of(const jungi::Table& t) {
  auto c = std::make_unique<jungi::Table>(kRules, t.indexer.material());
  c->entries = t.entries;
  c->stats = t.stats;
  return c;
}

// x solved alone, with only the tables materials_read names held (copies from `whole`, which
// solved x's closure), must give whole's entries and counts; without one of them the solve is
// refused.
void check_solved_alone(const jungi::TableSet& whole, const Material& x) {
  INFO(jungi::material_text(x));
  const std::vector<Material> reads = jungi::materials_read(x);
  CHECK(std::find(reads.begin(), reads.end(), x) == reads.end());
  for (const Material& n : jungi::next_materials(x)) CHECK(std::count(reads.begin(), reads.end(), jungi::canonical(n)) == 1);
  jungi::TableSet alone{kRules};
  std::uint64_t bytes = 0;
  for (const Material& r : reads) bytes += alone.adopt(copy_of(*whole.find(r))).entries.size() * sizeof(std::uint16_t);
  const jungi::Table& t = alone.solve_alone(x);
  CHECK(t.entries == whole.find(x)->entries);
  CHECK(t.stats.wins == whole.find(x)->stats.wins);
  CHECK(t.stats.longest_win_index == whole.find(x)->stats.longest_win_index);
  CHECK(t.stats.sweeps == whole.find(x)->stats.sweeps);
  CHECK(alone.held_bytes() == bytes + t.entries.size() * sizeof(std::uint16_t));
  if (!reads.empty()) {
    alone.release(reads.front());
    alone.release(x);
    CHECK(alone.find(x) == nullptr);
    CHECK_THROWS_WITH(alone.solve_alone(x), Catch::Contains("reads the table of " + jungi::material_text(reads.front())));
  }
}

// The files the in-memory solve writes (TableSet::solve, then write_table_file, as --out does)
// for each material of `whole`, against those in `dir`.
void check_same_files(const jungi::TableSet& whole, const std::vector<Material>& materials, const TempDir& dir, const TempDir& scratch) {
  for (const Material& x : materials) {
    INFO(jungi::material_text(x));
    const std::string name = jungi::table_file_name(x, kRules);
    jungi::write_table_file(scratch.file(name), *whole.find(x), kRules);
    CHECK(slurp(dir.file(name)) == slurp(scratch.file(name)));
  }
}

}  // namespace

TEST_CASE("jungi stream: a material solved with only the tables materials_read names is the closure solve's", "[jungi_stream]") {
  jungi::TableSet whole{kRules};
  // +KPv+K: a Pawn that promotes, captures and passes squares (its 2-step), and the royals'.
  for (const char* m : {"KvK", "+KPv+K"}) {
    whole.solve(jungi::parse_material(m));
    for (const Material& x : jungi::kept_closure(jungi::parse_material(m))) check_solved_alone(whole, x);
  }
  CHECK(jungi::materials_read(jungi::parse_material("+Kv+K")).empty());
  // KvK leads to +KvK and Kv+K, one table (kept as Kv+K).
  CHECK(jungi::materials_read(jungi::parse_material("KvK")) == std::vector<Material>{jungi::parse_material("Kv+K")});
}

TEST_CASE("jungi stream: gonu solve --dir writes the in-memory solve's files, resumes with the same bytes and stdout", "[jungi_stream]") {
  TempDir dir, scratch;
  const auto first = run_gonu("solve --game jungi --all 2 --dir " + shell_quoted(dir.path));
  INFO(first.out << first.err);
  REQUIRE(first.code == 0);
  // stdout: the in-memory run's, table for table.
  const auto in_memory = run_gonu("solve --game jungi --all 2 --quiet");
  CHECK(first.out == in_memory.out);
  CHECK(contains(first.err, "memory estimate: 3 materials, one at a time (0 already in "));
  CHECK(contains(first.err, "KvK solved in "));
  CHECK(contains(first.err, "; 3 of 3 materials, "));
  CHECK(contains(first.err, "3 materials: 3 solved and written into "));
  jungi::TableSet whole{kRules};
  std::vector<Material> all2;  // the kept ones: +KvK is Kv+K's table
  for (const Material& m : jungi::materials_of_size(2))
    if (jungi::is_canonical(m)) all2.push_back(m);
  for (const Material& m : all2) whole.solve(m);
  check_same_files(whole, all2, dir, scratch);
  // --out of the in-memory run: the same bytes as the streamed file.
  const auto out = run_gonu("solve --game jungi --material KvK --quiet --out " + shell_quoted(scratch.file("kvk.gonu")));
  REQUIRE(out.code == 0);
  CHECK(slurp(scratch.file("kvk.gonu")) == slurp(dir.file(jungi::table_file_name(jungi::parse_material("KvK"), kRules))));

  // Resumed after two tables were lost (one read by a later one): the same bytes, the same stdout
  // (the blocks of the tables already there printed from their headers).
  for (const char* m : {"Kv+K", "KvK"}) REQUIRE(std::remove(dir.file(jungi::table_file_name(jungi::parse_material(m), kRules)).c_str()) == 0);
  const auto again = run_gonu("solve --game jungi --all 2 --dir " + shell_quoted(dir.path));
  INFO(again.err);
  REQUIRE(again.code == 0);
  CHECK(again.out == first.out);
  CHECK(contains(again.err, "(1 already in "));
  CHECK(contains(again.err, "+Kv+K already in " + dir.path + "/"));
  CHECK(contains(again.err, "3 materials: 2 solved and written into "));
  check_same_files(whole, all2, dir, scratch);
  CHECK(dir.list().size() == 3);  // no temporary file left
  // Nothing left to solve: nothing is loaded, the files stay as they were.
  const auto done = run_gonu("solve --game jungi --all 2 --dir " + shell_quoted(dir.path));
  CHECK(done.out == first.out);
  CHECK(contains(done.err, "0 solved and written into " + dir.path + ", 3 already there; 0 tables loaded from it"));

  // A 3-piece closure, streamed with --out besides: the in-memory solve's files.
  TempDir three;
  const auto kp = run_gonu("solve --game jungi --material +KPv+K --quiet --dir " + shell_quoted(three.path) + " --out " + shell_quoted(scratch.file("kp.gonu")));
  REQUIRE(kp.code == 0);
  const Material kpk = jungi::parse_material("+KPv+K");
  whole.solve(kpk);
  check_same_files(whole, jungi::kept_closure(kpk), three, scratch);
  CHECK(slurp(scratch.file("kp.gonu")) == slurp(three.file(jungi::table_file_name(kpk, kRules))));
}

TEST_CASE("jungi stream: a file that cannot be written, while the next table is solved, ends the run in one line", "[jungi_stream]") {
  // A directory where a table's file goes: its writing fails (the rename onto it), and the run
  // ends with that error, whichever of the three tables it is (each file is written while the
  // next table is solved, and the last one's after the loop); stdout has the blocks of the
  // tables written before it, not its own; what DIR holds is that directory and whole files
  // only, no temporary one.
  for (const char* blocked : {"KvK", "Kv+K", "+Kv+K"}) {
    TempDir dir;
    const std::string name = jungi::table_file_name(jungi::parse_material(blocked), kRules);
    REQUIRE(mkdir(dir.file(name).c_str(), 0755) == 0);
    std::ofstream(dir.file(name) + "/x") << "not a table\n";  // not empty: no rename replaces it
    INFO(blocked);
    const auto r = run_gonu("solve --game jungi --all 2 --quiet --dir " + shell_quoted(dir.path));
    INFO(r.out << r.err);
    CHECK(r.code == 1);
    CHECK(table_test::lines(r.err).size() == 1);
    CHECK(contains(r.err, "gonu: error: cannot write table " + dir.file(name) + ": "));
    const auto block_of = [](const std::string& material) {  // a table's first stdout line
      std::string head = "\n";
      head += material;
      head += ": ";
      return head;
    };
    CHECK_FALSE(contains(r.out, block_of(blocked)));
    std::size_t tables = 0;
    for (const std::string& f : dir.list()) {
      if (f == name) continue;
      CHECK(contains(r.out, block_of(jungi::material_text(jungi::TableFile::open(dir.file(f), kRules).material()))));
      ++tables;
      CHECK(jungi::is_jungi_table_file(dir.file(f)));
      CHECK(jungi::TableFile::open(dir.file(f), kRules).payload_checksum_ok());
    }
    CHECK(table_test::lines(r.out).size() == 1 + 4 * tables);  // the rules' line, each written table's block
  }
}

TEST_CASE("jungi stream: a step past --max-memory is refused in one line with nothing written", "[jungi_stream]") {
  TempDir dir;
  // The largest step, Kv+K's: its table and working array (4,860 indices at 4 bytes) and the one
  // table it reads (+Kv+K, 7,290 indices) at 2 bytes: 34,020 bytes.
  table_test::require_one_line_error(run_gonu("solve --game jungi --all 2 --quiet --max-memory 34019 --dir " + shell_quoted(dir.path)),
                                     "solving Kv+K needs 34,020 bytes (0.0 MiB: its table, the tables it reads and the solver's "
                                     "working array), more than the limit of 34,019 bytes (--max-memory; --plan lists the materials)");
  CHECK(dir.list().empty());
  const auto said = run_gonu("solve --game jungi --all 2 --max-memory 34019 --dir " + shell_quoted(dir.path));
  CHECK(said.code == 1);
  CHECK(said.out.empty());
  CHECK(table_test::lines(said.err).size() == 2);
  CHECK(contains(said.err, "memory estimate: 3 materials, one at a time (0 already in "));
  CHECK(dir.list().empty());
  const auto fits = run_gonu("solve --game jungi --all 2 --quiet --max-memory 34020 --dir " + shell_quoted(dir.path));
  CHECK(fits.code == 0);
  CHECK(dir.list().size() == 3);
  // Over MPI processes the tables go through DIR: --mpi without --dir is refused before MPI starts.
  const auto no_dir = run_gonu("solve --game jungi --all 2 --mpi");
  CHECK(no_dir.code == 2);  // a usage error
  CHECK(contains(no_dir.err, "--mpi goes with --dir DIR under --game jungi"));
  // The in-memory run (no --dir) keeps its estimate: every table of the run at once.
  const auto whole = run_gonu("solve --game jungi --all 2 --max-memory 34020");
  CHECK(whole.code == 1);
  CHECK(contains(whole.err, "gonu: error: the tables of 3 materials need "));
}

// Every material of up to three pieces streamed under a limit just above the largest step, so
// that tables are released for room and loaded again: the files are those of the in-memory solve,
// and of a streamed run without a tight limit; and each material solved with only its reads held.
TEST_CASE("jungi stream: --all 3 streamed under a tight limit writes the in-memory solve's files", "[.jungi_stream_slow]") {
  TempDir tight, roomy, scratch;
  const auto plan = run_gonu("solve --game jungi --all 3 --quiet --max-memory 1 --dir " + shell_quoted(tight.path));
  REQUIRE(plan.code == 1);
  // The largest step of --all 3 (a 3-piece table, its working array and what it reads).
  std::uint64_t largest = 0;
  for (int pieces = 2; pieces <= 3; ++pieces)
    for (const Material& m : jungi::materials_of_size(pieces)) {
      if (!jungi::is_canonical(m)) continue;
      std::uint64_t b = jungi::Indexer(kRules, m).size() * 4;
      for (const Material& x : jungi::materials_read(m)) b += jungi::Indexer(kRules, x).size() * 2;
      largest = std::max(largest, b);
    }
  const auto a = run_gonu("solve --game jungi --all 3 --max-memory " + std::to_string(largest) + " --dir " + shell_quoted(tight.path));
  INFO(a.err);
  REQUIRE(a.code == 0);
  const auto b = run_gonu("solve --game jungi --all 3 --dir " + shell_quoted(roomy.path));
  REQUIRE(b.code == 0);
  CHECK(a.out == b.out);
  // Under the tight limit tables were released for room and loaded again; with room, none was.
  CHECK(contains(b.err, "83 materials: 83 solved and written into " + roomy.path + ", 0 already there; 0 tables loaded from it"));
  CHECK_FALSE(contains(a.err, "; 0 tables loaded from it"));
  jungi::TableSet whole{kRules};
  std::vector<Material> all;
  for (int pieces = 2; pieces <= 3; ++pieces)
    for (const Material& m : jungi::materials_of_size(pieces)) {
      whole.solve(m);
      for (const Material& x : jungi::kept_closure(m))
        if (std::find(all.begin(), all.end(), x) == all.end()) all.push_back(x);
    }
  check_same_files(whole, all, tight, scratch);
  check_same_files(whole, all, roomy, scratch);
  for (const Material& x : all) check_solved_alone(whole, x);
}

TEST_CASE("jungi schedule: every table a material of up to four pieces reads is in an earlier wave", "[jungi_stream]") {
  std::set<Material> all;
  for (int pieces = 2; pieces <= 4; ++pieces)
    for (const Material& m : jungi::materials_of_size(pieces))
      if (jungi::is_canonical(m)) all.insert(m);
  const std::map<Material, int> wave = jungi::dependency_waves(all);
  REQUIRE(wave.size() == all.size());
  for (const Material& m : all) {
    INFO(jungi::material_text(m));
    const std::vector<Material> reads = jungi::materials_read(m);
    for (const Material& x : reads) CHECK(wave.at(x) < wave.at(m));
    // The wave is the longest chain of moves below m: one more than the highest of what it reads.
    int highest = -1;
    for (const Material& x : reads) highest = std::max(highest, wave.at(x));
    CHECK(wave.at(m) == highest + 1);
  }
  CHECK(wave.at(jungi::parse_material("+Kv+K")) == 0);
  CHECK(wave.at(jungi::parse_material("Kv+K")) == 1);  // it leads to +Kv+K only
  CHECK(wave.at(jungi::parse_material("KvK")) == 2);   // it leads to Kv+K (and +KvK, the same table)
}

// A material's family as text, written apart from the schedule's: its text without the '+' of
// promotions, the lesser of it and its colour flip's.
std::string family_text(const Material& m) {
  auto bare = [](std::string t) {
    t.erase(std::remove(t.begin(), t.end(), '+'), t.end());
    return t;
  };
  return std::min(bare(jungi::material_text(m)), bare(jungi::material_text(jungi::flipped(m))));
}

TEST_CASE("jungi schedule: one process's order reads each table before it, a family's tables side by side", "[jungi_stream]") {
  std::vector<Material> targets;
  std::set<Material> all;
  for (int pieces = 2; pieces <= 4; ++pieces)
    for (const Material& m : jungi::materials_of_size(pieces))
      if (jungi::is_canonical(m)) targets.push_back(m), all.insert(m);
  const std::vector<Material> order = jungi::run_order(targets);
  REQUIRE(order.size() == 1743);
  CHECK(std::set<Material>(order.begin(), order.end()) == all);
  std::map<Material, std::size_t> place;
  for (std::size_t k = 0; k < order.size(); ++k) place[order[k]] = k;
  std::set<std::string> families_done;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Material& m = order[k];
    INFO(jungi::material_text(m));
    for (const Material& x : jungi::materials_read(m)) {
      CHECK(place.at(x) < k);
      // What it reads of as many pieces is a promotion: its own family.
      if (x.pieces() == m.pieces()) CHECK(family_text(x) == family_text(m));
    }
    if (k > 0) CHECK(order[k - 1].pieces() <= m.pieces());
    // A family, once left, never comes back.
    if (k > 0 && family_text(order[k - 1]) != family_text(m)) {
      CHECK(families_done.insert(family_text(order[k - 1])).second);
      CHECK(!families_done.count(family_text(m)));
    }
  }
  // KRvKO's family: each of its four pieces promoted or not, 16 tables (a material and its
  // flip one table), from +K+Rv+K+O's to KRvKO's.
  std::size_t members = 0;
  for (const Material& m : order) members += family_text(m) == family_text(jungi::parse_material("KRvKO"));
  CHECK(members == 16);
  const Material krko = jungi::canonical(jungi::parse_material("KRvKO"));
  CHECK(place.at(jungi::canonical(jungi::parse_material("+K+Rv+K+O"))) < place.at(krko));
  // One target: its closure, regrouped the same way.
  const std::vector<Material> one = jungi::run_order({krko});
  const std::vector<Material> closure = jungi::kept_closure(krko);
  CHECK(std::set<Material>(one.begin(), one.end()) == std::set<Material>(closure.begin(), closure.end()));
  CHECK(one.size() == closure.size());
  CHECK(one.back() == krko);
}

TEST_CASE("jungi schedule: a wave's tables go largest first to the least loaded process", "[jungi_stream]") {
  // 8 to process 0, 5 to 1, the first 3 to 1 (5 < 8), the second 3 to 0 (8 = 8: the lower rank),
  // 1 to 1 (9 < 11).
  CHECK(jungi::deal_by_size({5, 3, 8, 3, 1}, 2) == std::vector<int>{1, 1, 0, 0, 1});
  CHECK(jungi::deal_by_size({5, 3, 8, 3, 1}, 1) == std::vector<int>{0, 0, 0, 0, 0});
  CHECK(jungi::deal_by_size({2, 7}, 4) == std::vector<int>{1, 0});
  CHECK(jungi::deal_by_size({}, 3).empty());
  // Equal sizes in their order, round the processes.
  CHECK(jungi::deal_by_size({4, 4, 4, 4, 4}, 3) == std::vector<int>{0, 1, 2, 0, 1});
}
