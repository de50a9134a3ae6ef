// A set of Jungi table files opened once (solver/jungi/table/tables.hpp): every value it reads
// block by block from the files is the solver's own (the tables solved in memory, which
// tests/test_jungi_tables.cpp checks against the plain reference), for positions with and without
// en-passant fields; a missing table makes unknown only the moves that need it, and the answer
// says so; a file's header, not its name, says what it holds; a hostile file is refused alone;
// and the decoded blocks stay within the bound.
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "core/error.hpp"
#include "solver/jungi/table/tables.hpp"
#include "solver/common/move_order.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using table_test::contains;
using table_test::TempDir;

namespace {

const jungi::Rules kRules;

// KRvK and every table it leads to, solved in memory and written into one directory.
struct Closure {
  jungi::TableSet set{kRules};
  TempDir dir;
  Closure() {
    set.solve(jungi::parse_material("KRvK"));
    for (const jungi::Material& m : set.held())
      jungi::write_table_file(dir.file(jungi::table_file_name(m, kRules)), *set.find(m), kRules);
  }
  std::string file(const char* m) const { return dir.file(jungi::table_file_name(jungi::parse_material(m), kRules)); }
};
const Closure& closure() {
  static const Closure c;
  return c;
}

// Positions of KRvK (every 97th valid index) and every position one move away from them (those
// with an en-passant field among them: a Rook's slide passes squares).
std::vector<jungi::Position> sample_positions() {
  const jungi::Table& t = *closure().set.find(jungi::parse_material("KRvK"));
  std::vector<jungi::Position> out;
  jungi::Position p;
  for (std::uint64_t i = 0; i < t.indexer.size(); i += 97) {
    if (!t.indexer.decode(i, p)) continue;
    out.push_back(p);
    for (const jungi::Move& m : jungi::legal_moves(kRules, p)) {
      const jungi::Position q = jungi::apply_move(p, m);
      if (q.royal[0] >= 0 && q.royal[1] >= 0) out.push_back(q);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("jungi table set: every probe from the files is the solver's value, fields included", "[jungi_set]") {
  const jungi::Tables tables({closure().dir.path}, std::uint64_t{4} << 20);
  CHECK(tables.entries().size() == closure().set.held().size());
  REQUIRE(tables.readings().size() == 1);
  std::size_t fields = 0, compared = 0;
  for (const jungi::Position& p : sample_positions()) {
    const auto v = tables.probe(kRules, p);
    REQUIRE(v);
    REQUIRE(*v == closure().set.probe(p));
    fields += p.passed ? 1 : 0;
    ++compared;
  }
  CHECK(compared > 10000);
  CHECK(fields > 100);
  CHECK(jungi::block_cache_bytes() <= std::uint64_t{4} << 20);
}

TEST_CASE("jungi table set: a query's moves, order and line agree with the solver's", "[jungi_set]") {
  const jungi::Tables tables({closure().dir.path});
  std::size_t decided = 0;
  const auto positions = sample_positions();
  for (std::size_t k = 0; k < positions.size(); k += 41) {
    const jungi::Position& p = positions[k];
    if (p.first_move) continue;
    const jungi::PositionAnswer a = tables.query(kRules, p);
    REQUIRE(a.value == jungi::game_value(closure().set.probe(p).result));
    for (const jungi::MoveValue& m : a.moves) {
      REQUIRE(m.known);
      const jungi::Position q = jungi::apply_move(p, m.move);
      const jungi::Value after = q.royal[std::size_t(jungi::index(q.to_move))] < 0 ? jungi::Value{jungi::Result::loss, 0} : closure().set.probe(q);
      REQUIRE(m.value == mover_value(jungi::game_value(after.result)));
    }
    if (!a.moves.empty() && a.value != Value::draw) {
      CHECK(jungi::is_best(a, a.moves[a.order.front()]));
      // The line is as long as the distance and each of its moves keeps the value.
      REQUIRE(a.pv_end.empty());
      REQUIRE(a.pv.size() == a.dist);
      jungi::Position at = p;
      for (const std::string& text : a.pv) at = jungi::apply_move(at, jungi::parse_move(kRules, at, text));
      const bool royal_taken = at.royal[0] < 0 || at.royal[1] < 0;
      CHECK((royal_taken || jungi::legal_moves(kRules, at).empty()));
      ++decided;
    }
  }
  CHECK(decided > 20);
}

TEST_CASE("jungi table set: without a neighbour's table only the moves that need it are unknown", "[jungi_set]") {
  TempDir d;
  for (const jungi::Material& m : closure().set.held())
    if (jungi::material_text(m) != "K+RvK") std::filesystem::copy_file(closure().file(jungi::material_text(m).c_str()), d.file(jungi::table_file_name(m, kRules)));
  const jungi::Tables tables({d.path});
  // The Rook on the sixth rank promotes on its way up into the zone: those moves need K+RvK; the
  // King's and the Rook's other moves do not.
  const jungi::Position p = jungi::parse_position(kRules, "9/9/9/3R5/k8/9/9/9/4K4 s -");
  const jungi::PositionAnswer a = tables.query(kRules, p);
  std::size_t unknown = 0, known = 0;
  for (const jungi::MoveValue& m : a.moves) {
    const bool promotes = m.move.promotes;
    CHECK(m.known == !promotes);
    if (!m.known) CHECK(m.unknown_material == "K+RvK");
    (m.known ? known : unknown) += 1;
    // No move is starred unless it holds the position's own value.
    if (jungi::is_best(a, m)) CHECK((m.value == a.value && m.dist == a.dist));
  }
  CHECK(unknown > 0);
  CHECK(known > unknown);
  // A position whose best line promotes: the line stops where it would leave the tables, and
  // says which table it needs.
  std::size_t stopped = 0;
  const jungi::Table& t = *closure().set.find(jungi::parse_material("KRvK"));
  jungi::Position q;
  for (std::uint64_t i = 0; i < t.indexer.size() && stopped < 3; i += 31) {
    if (!t.indexer.decode(i, q) || t.value(i).result != jungi::Result::win) continue;
    const jungi::PositionAnswer b = tables.query(kRules, q);
    if (b.pv_end.empty()) continue;
    CHECK(contains(b.pv_end, "needs the table of K+RvK"));
    CHECK(b.pv.size() < b.dist);
    ++stopped;
  }
  CHECK(stopped == 3);
  CHECK_THROWS_WITH(tables.query(kRules, jungi::parse_position(kRules, "9/9/9/9/k8/9/9/3+R5/4K4 s -")),
                    Catch::Contains("no table of K+RvK for jungi:") && Catch::Contains("make it with: gonu solve --game jungi --material K+RvK --dir " + d.path));
}

TEST_CASE("jungi table set: a file's header says what it holds, and a hostile file is refused alone", "[jungi_set]") {
  TempDir d;
  for (const jungi::Material& m : closure().set.held())
    std::filesystem::copy_file(closure().file(jungi::material_text(m).c_str()), d.file(jungi::table_file_name(m, kRules)));
  // KvK's table under stalemate=draw, named as the default reading's: refused where it is read.
  jungi::Rules draw;
  draw.stalemate_draw = true;
  jungi::TableSet other(draw);
  other.solve(jungi::parse_material("KvK"));
  const std::string kvk = d.file(jungi::table_file_name(jungi::parse_material("KvK"), kRules));
  std::filesystem::remove(kvk);
  jungi::write_table_file(kvk, *other.find(jungi::parse_material("KvK")), draw);
  // And K+RvK's file replaced by junk.
  table_test::spit(d.file(jungi::table_file_name(jungi::parse_material("K+RvK"), kRules)), "GONU-JNG and nothing else");
  const jungi::Tables tables({d.path});
  CHECK_THROWS_WITH(tables.probe(kRules, jungi::parse_position(kRules, "9/9/9/9/k8/9/9/9/4K4 s -")),
                    Catch::Contains("a table of the reading jungi/nohobble/compulsory/stalemate-draw/lancer-standard, not"));
  CHECK_THROWS_WITH(tables.query(kRules, jungi::parse_position(kRules, "9/9/9/9/k8/9/9/3+R5/4K4 s -")),
                    Catch::Contains(jungi::table_file_name(jungi::parse_material("K+RvK"), kRules) + ": Jungi table format version"));
  // KRvK's own positions that neither capture nor promote are still answered.
  const jungi::Position p = jungi::parse_position(kRules, "9/9/9/9/k8/9/9/5R3/4K4 s -");
  const auto v = tables.probe(kRules, p);
  REQUIRE(v);
  CHECK(*v == closure().set.probe(p));
}

TEST_CASE("jungi table set: a huge sparse file named as a table costs its header to refuse", "[jungi_set]") {
  TempDir d;
  std::string good = table_test::slurp(closure().file("KRvK"));
  const std::string path = d.file(jungi::table_file_name(jungi::parse_material("KRvK"), kRules));
  table_test::spit(path, good);
  REQUIRE(truncate(path.c_str(), off_t{2} << 30) == 0);  // 2 GiB, a few KiB on disk
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  try {
    jungi::TableFile::open(path);
    FAIL("a 2 GiB file was opened");
  } catch (const GonuError& e) {
    CHECK(contains(e.what(), "bytes past the end"));
  }
  getrusage(RUSAGE_SELF, &after);
  CHECK(after.ru_maxrss - before.ru_maxrss < 64 * 1024);  // KiB: nothing of the 2 GiB was read
  const jungi::Tables tables({d.path});
  CHECK_THROWS_WITH(tables.probe(kRules, jungi::parse_position(kRules, "9/9/9/9/k8/9/9/5R3/4K4 s -")), Catch::Contains("bytes past the end"));
}

TEST_CASE("jungi table set: what is neither a directory nor a table is refused with one line", "[jungi_set]") {
  TempDir d;
  CHECK_THROWS_WITH(jungi::Tables({d.path}), Catch::Contains("no Jungi table in " + d.path));
  CHECK_THROWS_WITH(jungi::Tables({d.file("missing")}), Catch::Contains("no such file or directory"));
  table_test::spit(d.file("x.txt"), "hello");
  CHECK_THROWS_WITH(jungi::Tables({d.file("x.txt")}), Catch::Contains("neither a directory nor a Jungi table file"));
  // Two readings: the set holds both, and asks which one a question is of.
  jungi::Rules draw;
  draw.stalemate_draw = true;
  jungi::TableSet other(draw);
  other.solve(jungi::parse_material("KvK"));
  jungi::write_table_file(d.file(jungi::table_file_name(jungi::parse_material("KvK"), draw)), *other.find(jungi::parse_material("KvK")), draw);
  const jungi::Tables both({d.path, closure().dir.path});
  CHECK(both.readings().size() == 2);
  CHECK_THROWS_WITH(both.only_reading(), Catch::Contains("the tables are of 2 readings"));
  const jungi::Position p = jungi::parse_position(kRules, "9/9/9/9/k8/9/9/9/4K4 s -");
  CHECK(both.probe(draw, p) == other.probe(p));
  CHECK(both.probe(kRules, p) == closure().set.probe(p));
}
