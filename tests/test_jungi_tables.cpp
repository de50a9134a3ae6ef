// Jungi's endgame tables (solver/jungi/generator/): material signatures, indexing (every valid index decodes
// and re-encodes to itself; positions encode to their own index or their mirror's; moving one
// piece moves the index by its group's step), and the generator against the plain reference
// solver (tests/reference/jungi_endgame_plain.hpp) position by position, positions with an
// en-passant field included, and the same tables for one thread and two.
#include <tbb/global_control.h>

#include <catch2/catch.hpp>
#include <random>

#include "core/error.hpp"
#include "solver/jungi/generator/generator.hpp"
#include "tests/jungi_support.hpp"
#include "tests/table_test_util.hpp"
#include "tests/reference/jungi_endgame_plain.hpp"

using namespace gonu;
using jungi::Material;

namespace {

std::string canonical(const std::string& text) { return jungi::material_text(jungi::parse_material(text)); }

plain_jungi_endgame::Value as_plain(const jungi::Value& v) {
  switch (v.result) {
    case jungi::Result::win: return {'W', v.dist};
    case jungi::Result::loss: return {'L', v.dist};
    case jungi::Result::draw: return {'D', 0};
    default: return {'?', 0};
  }
}

// The reference solves `materials` together, reading every other position from `set` (solved by
// the generator), and the generator's value of each of its records must be the reference's.
void compare_with_reference(const jungi::TableSet& set, const std::vector<std::string>& materials, std::size_t& fields) {
  const jungi::Rules& r = set.rules();
  const plain_jungi_endgame::Solver reference(r, materials, [&](const jungi::Position& p) {
    const jungi::Value v = set.probe(p);
    REQUIRE(v.result != jungi::Result::invalid);
    return as_plain(v);
  });
  std::size_t mismatches = 0;
  for (const auto& [text, value] : reference.values()) {
    const jungi::Position p = jungi::parse_position(r, text);
    fields += p.passed ? 1 : 0;
    const auto got = as_plain(set.probe(p));
    if (!(got == value) && ++mismatches <= 5)
      FAIL_CHECK(text << ": generator " << got.result << got.dist << ", reference " << value.result << value.dist);
  }
  REQUIRE(mismatches == 0);
  // Every valid index of the generator is a record of the reference (and the same value): the
  // kept materials' tables (the others are read through the colour flip above).
  for (const std::string& m : materials) {
    const jungi::Table* t = set.find(jungi::parse_material(m));
    if (!jungi::is_canonical(jungi::parse_material(m))) {
      CHECK(t == nullptr);
      continue;
    }
    REQUIRE(t);
    const auto values = reference.values();
    jungi::Position p;
    for (std::uint64_t i = 0; i < t->indexer.size(); ++i) {
      if (!t->indexer.decode(i, p)) continue;
      const auto it = values.find(jungi::format_position(p));
      REQUIRE(it != values.end());
      REQUIRE(as_plain(t->value(i)) == it->second);
    }
    // The counts of the whole board are the reference's records of the material without a field,
    // each a distinct position of the whole board.
    jungi::TableStats board;
    for (const auto& [text, value] : values) {
      const jungi::Position q = jungi::parse_position(r, text);
      if (q.passed || jungi::material_of(q) != t->indexer.material()) continue;
      const std::size_t side = q.to_move == jungi::Side::south ? 0 : 1;
      ++board.board_positions;
      ++(value.result == 'W' ? board.board_wins : value.result == 'L' ? board.board_losses : board.board_draws)[side];
    }
    CHECK(t->stats.board_positions == board.board_positions);
    CHECK(t->stats.board_wins == board.board_wins);
    CHECK(t->stats.board_losses == board.board_losses);
    CHECK(t->stats.board_draws == board.board_draws);
  }
}

}  // namespace

TEST_CASE("jungi tables: materials are read, written canonically and flipped", "[jungi_tables]") {
  CHECK(canonical("KRvK") == "KRvK");
  CHECK(canonical("K+RvKP") == "K+RvKP");
  CHECK(canonical("KRPv+K") == "KPRv+K");
  CHECK(canonical("+KvK") == "+KvK");
  CHECK(jungi::material_text(jungi::flipped(jungi::parse_material("KRvKP"))) == "KPvKR");
  CHECK(jungi::parse_material("K+RvKP").pieces() == 4);
  for (const char* bad : {"KRK", "KvKvK", "RvK", "KRv", "KvRK", "KKvK", "KXvK", "K+vK", "KrvK", "Kv+K+K"}) {
    INFO(bad);
    CHECK_THROWS_AS(jungi::parse_material(bad), GonuError);
  }
  CHECK_THROWS_WITH(jungi::parse_material("KXvK"), Catch::Contains("not a piece letter"));
  std::vector<std::string> next;
  for (const Material& m : jungi::next_materials(jungi::parse_material("KRvK"))) next.push_back(jungi::material_text(m));
  std::sort(next.begin(), next.end());
  CHECK(next == std::vector<std::string>{"+KRvK", "K+RvK", "KRv+K", "KvK"});
  // The closure lists each material after every material it leads to.
  const auto closure = jungi::material_closure(jungi::parse_material("KPvK"));
  CHECK(closure.size() == 12);  // 8 of three pieces (each may promote), 4 of two
  for (std::size_t i = 0; i < closure.size(); ++i)
    for (const Material& n : jungi::next_materials(closure[i]))
      CHECK(std::find(closure.begin(), closure.begin() + long(i), n) != closure.begin() + long(i));
  CHECK(jungi::materials_of_size(2).size() == 4);
  CHECK(jungi::materials_of_size(3).size() == 2 * 2 * 2 * 20);  // royals 2x2, the side, 20 types
}

TEST_CASE("jungi tables: every valid index decodes and encodes to itself", "[jungi_tables]") {
  const jungi::Rules r;
  for (const char* text : {"KvK", "+Kv+K", "KRvK", "KPPvK", "+KvKEE"}) {
    const jungi::Indexer ix(r, jungi::parse_material(text));
    std::uint64_t valid = 0;
    jungi::Position p;
    for (std::uint64_t i = 0; i < ix.size(); ++i) {
      if (!ix.decode(i, p)) continue;
      ++valid;
      REQUIRE(jungi::material_of(p) == ix.material());
      REQUIRE(ix.encode(p) == i);
      REQUIRE(jungi::file_of(p.royal[0]) <= 4);
      REQUIRE(ix.south_royal_square(i) == p.royal[0]);
    }
    INFO(text);
    // Only squares a piece can stand on are counted: the invalid indices are overlaps alone.
    CHECK(valid * 10 > ix.size() * 9);
  }
  // KvK counted by hand: South's K on ranks 1-6 of files a-e (30 squares), North's on ranks 4-9
  // (54); the two overlap when South's stands on ranks 4-6 (15 pairs); both sides to move.
  const jungi::Indexer kvk(r, jungi::parse_material("KvK"));
  std::uint64_t valid = 0;
  jungi::Position p;
  for (std::uint64_t i = 0; i < kvk.size(); ++i) valid += kvk.decode(i, p) ? 1 : 0;
  CHECK(kvk.size() == 2 * 30 * 54);
  CHECK(valid == 2 * (30 * 54 - 15));
}

// The retrograde generator's un-moves move one piece by its group's step instead of encoding
// again (Indexer::square_step): for a piece alone and for one of a group of two or three, each
// piece of random placements moved to each square it can stand on, the index by the step is the
// plain encode's.
TEST_CASE("jungi tables: moving one piece changes the index by its group's step times the change of rank, or mirror_base's", "[jungi_tables]") {
  const jungi::Rules r;
  std::mt19937_64 rng(11);
  std::uint64_t checked = 0, in_groups = 0, mirrors = 0;
  for (const char* text : {"KRvKO", "KPPvK", "+K+L+Lv+K", "KvKEE", "+KRRRv+K"}) {
    INFO(text);
    const jungi::Indexer ix(r, jungi::parse_material(text));
    jungi::Position p;
    jungi::Placement pl;
    for (int n = 0; n < 200; ++n) {
      const std::uint64_t i = rng() % ix.size();
      if (!ix.decode(i, p, pl)) continue;
      for (int slot = 0; slot < pl.n; ++slot) {
        const jungi::Indexer::SquareStep s = ix.square_step(pl.piece[std::size_t(slot)]);
        REQUIRE(s.count >= 1);
        auto rank = [&](const jungi::Placement& q) {
          std::array<int, jungi::kMaxTablePieces> ordinals{};
          int k = 0;
          for (int j = 0; j < q.n; ++j)
            if (q.piece[std::size_t(j)] == pl.piece[std::size_t(slot)]) ordinals[std::size_t(k++)] = (*s.ordinal)[std::size_t(q.square[std::size_t(j)])];
          REQUIRE(k == s.count);
          return jungi::Indexer::group_rank(ordinals, k);
        };
        const bool south_royal = pl.square[std::size_t(slot)] == p.royal[0];
        for (int to = 0; to < jungi::kSquares; ++to) {
          if (p.cell[std::size_t(to)] != jungi::kEmpty || (*s.ordinal)[std::size_t(to)] < 0) continue;
          jungi::Placement q = pl;
          q.square[std::size_t(slot)] = std::int8_t(to);
          // South's royal moved to files f-i: the board is mirrored first, its index mirror_base's
          // plus the royal's term on its mirrored square (and on the e-file, both images are).
          if (south_royal && jungi::file_of(to) >= 4) {
            const int image = jungi::mirror_square(to);
            const std::uint64_t mirrored = ix.mirror_base(pl, p.to_move) + s.step * std::uint64_t((*s.ordinal)[std::size_t(image)]);
            REQUIRE(ix.encode(jungi::mirror_placement(q), p.to_move) == mirrored);
            if (jungi::file_of(to) > 4) REQUIRE(ix.encode(q, p.to_move) == mirrored);
            ++mirrors;
            if (jungi::file_of(to) > 4) continue;
          }
          REQUIRE(ix.encode(q, p.to_move) == i + s.step * rank(q) - s.step * rank(pl));
          ++checked;
          in_groups += s.count > 1 ? 1 : 0;
        }
      }
    }
  }
  CHECK(in_groups > 10000);
  CHECK(checked > in_groups);
  CHECK(mirrors > 1000);
}

TEST_CASE("jungi tables: a position encodes to its own index or its mirror's", "[jungi_tables]") {
  const jungi::Rules r;
  std::mt19937_64 rng(5);
  int mirrored = 0;
  for (int n = 0; n < 3000; ++n) {
    const jungi::Position p = test::random_position(rng, r, 2 + int(rng() % 5), int(rng() % 2));
    if (p.royal[0] < 0 || p.royal[1] < 0) continue;
    const jungi::Indexer ix(r, jungi::material_of(p));
    const std::uint64_t i = ix.encode(p);
    REQUIRE(i < ix.size());
    jungi::Position q;
    REQUIRE(ix.decode(i, q));
    jungi::Position plain = p;
    plain.passed = 0, plain.passed_end = jungi::kNoSquare;
    INFO(jungi::format_position(p) << " decodes as " << jungi::format_position(q));
    const bool same = q == plain;
    REQUIRE((same || q == jungi::mirror_position(plain)));
    mirrored += same ? 0 : 1;
    // The mirror image has the same index, except with South's royal on the e-file (both stored).
    if (jungi::file_of(p.royal[0]) != 4) REQUIRE(ix.encode(jungi::mirror_position(p)) == i);
    // The colour flip's index, built or read through the flip.
    jungi::Placement pl;
    REQUIRE(jungi::placement_of(p, pl));
    const jungi::Placement f = jungi::flip_placement(pl);
    const jungi::Indexer flipped(r, f.material);
    for (const jungi::Side s : {jungi::Side::south, jungi::Side::north})
      REQUIRE(flipped.encode_flipped(pl, s) == flipped.encode(f, s));
  }
  CHECK(mirrored > 500);
}

TEST_CASE("jungi tables: the generator agrees with the plain reference on every 2-piece material", "[jungi_tables]") {
  jungi::TableSet set{jungi::Rules{}};
  for (const char* m : {"KvK", "+KvK", "Kv+K", "+Kv+K"}) set.solve(jungi::parse_material(m));
  std::size_t fields = 0;
  compare_with_reference(set, {"KvK", "+KvK", "Kv+K", "+Kv+K"}, fields);
  CHECK(fields > 100);  // Emperors' two-steps leave fields that the other royal can take
  const jungi::TableStats& s = set.find(jungi::parse_material("KvK"))->stats;
  CHECK(s.positions == 2 * (30 * 54 - 15));
}

// KPvK: a Pawn's 2-step leaves a field that the King may take, and every promotion's table is
// solved first (each of the three pieces promotes: 8 tables of three pieces).
TEST_CASE("jungi tables: the generator agrees with the plain reference on KPvK", "[jungi_tables]") {
  jungi::TableSet set{jungi::Rules{}};
  std::size_t fields = 0;
  set.solve(jungi::parse_material("KPvK"));
  compare_with_reference(set, {"KPvK"}, fields);
  CHECK(fields > 100);
}

// Slower (some two minutes on this 2-core machine): run with gonu_tests "[jungi_tables_slow]".
TEST_CASE("jungi tables: the generator agrees with the plain reference on KRvK, KNvK and +KvKE", "[.][jungi_tables_slow]") {
  jungi::TableSet set{jungi::Rules{}};
  std::size_t fields = 0;
  for (const char* m : {"KRvK", "KNvK", "+KvKE"}) {
    INFO(m);
    set.solve(jungi::parse_material(m));
    compare_with_reference(set, {m}, fields);
  }
  CHECK(fields > 100);
}

namespace {

// The tables of m's closure, solved with `threads` threads by `method`.
std::vector<std::vector<std::uint16_t>> closure_entries(const Material& m, int threads, jungi::SweepMethod method) {
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  jungi::TableSet set{jungi::Rules{}};
  jungi::TableOptions o;
  o.sweeps = method;
  set.solve(m, o);
  std::vector<std::vector<std::uint16_t>> out;
  for (const Material& x : jungi::kept_closure(m)) {
    CHECK(set.find(x)->stats.child_lists == (method == jungi::SweepMethod::lists));
    out.push_back(set.find(x)->entries);
  }
  return out;
}

}  // namespace

namespace {

// The statistics two ways of solving must share (all but the time and the method).
void check_same_stats(const jungi::TableStats& a, const jungi::TableStats& b) {
  CHECK(a.indices == b.indices);
  CHECK(a.positions == b.positions);
  CHECK(a.wins == b.wins);
  CHECK(a.losses == b.losses);
  CHECK(a.draws == b.draws);
  CHECK(a.longest_win == b.longest_win);
  CHECK(a.longest_win_index == b.longest_win_index);
  CHECK(a.longest_loss == b.longest_loss);
  CHECK(a.sweeps == b.sweeps);
}

// m's table solved by the retrograde generator and by the level sweeps (child lists), the smaller
// tables of its closure solved by the retrograde generator for both (and compared too when
// `whole_closure`): entries and statistics must be the same.
void compare_retrograde_with_sweeps(const jungi::Rules& r, const char* text, bool whole_closure) {
  INFO(text << " under " << jungi::describe(r));
  const Material m = jungi::parse_material(text);
  jungi::TableSet retro{r}, sweeps{r};
  jungi::TableOptions by_unmoves, by_lists;
  by_unmoves.sweeps = jungi::SweepMethod::retrograde;
  by_lists.sweeps = jungi::SweepMethod::lists;
  retro.solve(m, by_unmoves);
  for (const Material& x : jungi::kept_closure(m)) {
    const bool compared = x == jungi::canonical(m) || whole_closure;
    sweeps.solve(x, compared ? by_lists : by_unmoves);
    const jungi::Table& a = *retro.find(x);
    const jungi::Table& b = *sweeps.find(x);
    CHECK(a.stats.retrograde);
    if (!compared) continue;
    INFO(jungi::material_text(x));
    CHECK(b.stats.child_lists);
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < a.entries.size(); ++i) differ += a.entries[i] != b.entries[i] ? 1 : 0;
    CHECK(differ == 0);
    check_same_stats(a.stats, b.stats);
  }
}

jungi::Rules with_option(const std::string& flag) {
  jungi::Rules r;
  r.hobbling = flag == "hobbling";
  r.optional_promotion = flag == "promotion";
  r.stalemate_draw = flag == "stalemate";
  r.lancer_queen = flag == "lancer";
  return r;
}

}  // namespace

// The sweeps take a second or so on a 3-piece table with Kings (fewer positions than with
// Emperors): one a test case, its smaller tables by the retrograde generator alone. A Dragon (its
// slides past the other King leave fields that King may take, and it steps), a Pawn (2-steps,
// promotion to a Veteran), a Lancer under --lancer queen. Emperors (two-steps) are compared in
// the slower cases below, and with the plain reference on every 2-piece material above.
TEST_CASE("jungi tables: the retrograde generator gives the sweeps' table of K+RvK", "[jungi_tables]") {
  compare_retrograde_with_sweeps(jungi::Rules{}, "K+RvK", false);
}

TEST_CASE("jungi tables: the retrograde generator gives the sweeps' table of KvKP", "[jungi_tables]") {
  compare_retrograde_with_sweeps(jungi::Rules{}, "KvKP", false);
}

TEST_CASE("jungi tables: the retrograde generator gives the sweeps' table of K+SvK under --lancer queen", "[jungi_tables]") {
  compare_retrograde_with_sweeps(with_option("lancer"), "K+SvK", false);
}

// Slower (ten minutes on this shared machine): run with gonu_tests "[jungi_tables_slow]".
// Unpromoted sliders and a Queen (it captures what passed by too), with their closures, and every
// option.
TEST_CASE("jungi tables: the retrograde generator gives the sweeps' tables on whole closures", "[.][jungi_tables_slow]") {
  compare_retrograde_with_sweeps(jungi::Rules{}, "KRvK", true);
  compare_retrograde_with_sweeps(jungi::Rules{}, "KQvK", true);
  compare_retrograde_with_sweeps(jungi::Rules{}, "KvKC", true);
  compare_retrograde_with_sweeps(jungi::Rules{}, "KPvK", true);
  compare_retrograde_with_sweeps(with_option("promotion"), "KPvK", true);
  compare_retrograde_with_sweeps(with_option("stalemate"), "KSvK", true);
  compare_retrograde_with_sweeps(with_option("stalemate"), "+K+Rv+K", true);
  compare_retrograde_with_sweeps(with_option("hobbling"), "+KEvK", true);
  compare_retrograde_with_sweeps(with_option("hobbling"), "+K+Nv+K", true);
  compare_retrograde_with_sweeps(with_option("lancer"), "KSvK", true);
  compare_retrograde_with_sweeps(jungi::Rules{}, "+K+Rv+K", true);
  compare_retrograde_with_sweeps(jungi::Rules{}, "+Kv+KP", true);
  compare_retrograde_with_sweeps(with_option("lancer"), "+K+Sv+K", true);
}

TEST_CASE("jungi tables: the retrograde generator gives the same tables for one thread and two", "[jungi_tables]") {
  for (const char* text : {"+Kv+K+R"}) {
    INFO(text);
    const Material m = jungi::parse_material(text);
    CHECK(closure_entries(m, 1, jungi::SweepMethod::retrograde) == closure_entries(m, 2, jungi::SweepMethod::retrograde));
  }
}

TEST_CASE("jungi tables: one thread or two and forward sweeps or child lists give the same tables", "[jungi_tables]") {
  const Material kvk = jungi::parse_material("Kv+K");
  const auto forward = closure_entries(kvk, 1, jungi::SweepMethod::forward);
  CHECK(closure_entries(kvk, 2, jungi::SweepMethod::forward) == forward);
  CHECK(closure_entries(kvk, 2, jungi::SweepMethod::lists) == forward);
  const Material m = jungi::parse_material("+Kv+K+P");  // one table of three pieces
  CHECK(closure_entries(m, 1, jungi::SweepMethod::lists) == closure_entries(m, 2, jungi::SweepMethod::lists));
}

// A table solved in one set and adopted by another (as gonu reads tables from disk) answers the
// same, and the set then solves a larger material from it without solving it again.
TEST_CASE("jungi tables: an adopted table probes and is built on as a solved one", "[jungi_tables]") {
  const jungi::Rules r;
  const Material emperors = jungi::parse_material("+Kv+K");  // leads to no other material
  jungi::TableSet solved{r};
  solved.solve(jungi::parse_material("Kv+K"));
  jungi::TableSet set{r};
  auto t = std::make_unique<jungi::Table>(r, emperors);
  t->entries = solved.find(emperors)->entries;
  set.adopt(std::move(t));
  CHECK_THROWS_WITH(set.adopt(std::make_unique<jungi::Table>(r, emperors)), Catch::Contains("held already"));
  CHECK_THROWS_WITH(set.adopt(std::make_unique<jungi::Table>(r, jungi::parse_material("KvK"))),
                    Catch::Contains("0 entries for 3240 indices"));
  for (const char* text : {"4+k4/9/9/9/9/9/9/9/4+K4 s -", "9/9/9/9/3+k5/4+K4/9/9/9 n -"}) {
    const jungi::Position p = jungi::parse_position(r, text);
    CHECK(set.probe(p) == solved.probe(p));
  }
  std::vector<std::string> solved_now;
  jungi::TableOptions o;
  o.on_solved = [&](const jungi::Table& x) { solved_now.push_back(jungi::material_text(x.indexer.material())); };
  set.solve(jungi::parse_material("Kv+K"), o);
  CHECK(solved_now == std::vector<std::string>{"Kv+K"});
  CHECK(set.find(jungi::parse_material("Kv+K"))->entries == solved.find(jungi::parse_material("Kv+K"))->entries);
}

TEST_CASE("jungi tables: a material too large for the memory limit is refused", "[jungi_tables]") {
  jungi::TableSet set{jungi::Rules{}};
  jungi::TableOptions o;
  o.max_memory = 1 << 20;
  CHECK_THROWS_WITH(set.solve(jungi::parse_material("KRvK"), o), Catch::Contains("past the memory limit"));
  CHECK(set.find(jungi::parse_material("KvK")) == nullptr);
}

TEST_CASE("jungi tables: gonu solve --game jungi reports every table it solves", "[jungi_tables]") {
  using table_test::run_gonu;
  const auto r = run_gonu("solve --game jungi --material Kv+K --quiet");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  // Kv+K leads to +Kv+K (its King promotes), solved first; not to KvK.
  CHECK(r.out.find("+Kv+K: 12,960 positions (7,290 indices)") != std::string::npos);
  CHECK(r.out.find("Kv+K: 8,640 positions") != std::string::npos);
  CHECK(r.out.find("KvK:") == std::string::npos);
  CHECK(r.out.find("+Kv+K:") < r.out.find("\nKv+K:"));
  CHECK(r.out.find("  North to move: WIN 3,600 / LOSS 0 / DRAW 720") != std::string::npos);
  CHECK(r.out.find("  longest win: 17 plies, ") != std::string::npos);
  const auto all = run_gonu("solve --game jungi --all 2");
  CHECK(all.code == 0);
  // +KvK is kept as its colour flip Kv+K: three tables.
  for (const char* m : {"\nKvK: 5,778 positions", "\nKv+K: 8,640", "\n+Kv+K: 12,960"}) CHECK(all.out.find(m) != std::string::npos);
  CHECK(all.out.find("\n+KvK:") == std::string::npos);
  const auto flip = run_gonu("solve --game jungi --material +KvK --quiet");
  CHECK(flip.code == 0);
  CHECK(flip.out.find("+KvK is kept as its colour flip, Kv+K (sides swapped, the other side to move)\n") != std::string::npos);
  CHECK(flip.out.find("\nKv+K: 8,640 positions") != std::string::npos);
  CHECK(all.err.find("solved in") != std::string::npos);
  CHECK(all.err.find("at peak (resident)") != std::string::npos);
  const auto bad = run_gonu("solve --game jungi --material KvKK");
  CHECK(bad.code == 1);
  CHECK(bad.err == "gonu: error: material: North (after 'v') has two royals (one K or +K a side)\n");
  CHECK(bad.out.empty());
  const auto big = run_gonu("solve --game jungi --material KRRvKR --max-memory 10M");
  CHECK(big.code == 1);
  CHECK(big.err.find("more than the limit of 10 MiB") != std::string::npos);
  CHECK(run_gonu("solve --material KvK").code == 2);
  CHECK(run_gonu("solve --game jungi --all 2 --out x").code == 2);  // --out is one material's table
}

TEST_CASE("jungi tables: a 5-piece material past the memory limit is refused before solving, and --plan lists a run", "[jungi_tables]") {
  using table_test::run_gonu;
  // KRRvKR's closure: 57 kept materials (promotions lead to other 5-piece ones; 72 before colour
  // flips), 46.8 GiB at 2 bytes an index and 4.8 GiB of working memory for the largest (+KR+Rv+K+R,
  // 2,582,803,260 indices); the
  // estimate is said, then one line refuses it before any table is allocated.
  const auto big = run_gonu("solve --game jungi --material KRRvKR --max-memory 20G");
  INFO(big.out << big.err);
  CHECK(big.code == 1);
  CHECK(big.out.empty());
  CHECK(big.err ==
        "memory estimate: the tables of 57 materials need 51.7 GiB (2 bytes an index, 2 more for the largest while it "
        "is solved); limit 20.0 GiB (--max-memory)\n"
        "gonu: error: the tables of 57 materials need 51.7 GiB, more than the limit of 20.0 GiB (--max-memory; --plan "
        "lists the materials)\n");
  // --plan: each material of the run with its wave (after every material it leads to), indices,
  // closure's indices and the largest table of its closure; Kv+K leads only to +Kv+K (its King
  // promotes).
  const auto plan = run_gonu("solve --game jungi --material Kv+K --plan");
  CHECK(plan.code == 0);
  CHECK(plan.out == "wave\tmaterial\tpieces\tindices\tclosure_indices\tclosure_largest\n0\t+Kv+K\t2\t7290\t7290\t7290\n"
                    "1\tKv+K\t2\t4860\t12150\t7290\n"
                    "total\t2 materials\t2 waves\t12150\n");
  const auto five = run_gonu("solve --game jungi --material KRRvKR --plan");
  CHECK(five.code == 0);
  CHECK(five.out.find("\tKRRvKR\t5\t") != std::string::npos);
  CHECK(five.out.find("total\t57 materials\t") != std::string::npos);
  CHECK(run_gonu("solve --game jungi --all 2 --plan --dir .").code == 2);
  CHECK(run_gonu("solve --plan").code == 2);
}

// A material and its colour flip share one table, kept for the one whose South has more pieces
// (on a tie, the greater in Material's order); the other's positions are read flipped. That the
// flip keeps values is checked against the plain reference, which solves both (above).
TEST_CASE("jungi tables: a material and its colour flip share one table", "[jungi_tables]") {
  for (const auto& [kept, other] : std::vector<std::pair<std::string, std::string>>{
           {"KRvK", "KvKR"}, {"Kv+K", "+KvK"}, {"KNvKR", "KRvKN"}, {"KPvK+R", "K+RvKP"}}) {
    INFO(kept);
    CHECK(jungi::is_canonical(jungi::parse_material(kept)));
    CHECK(!jungi::is_canonical(jungi::parse_material(other)));
    CHECK(jungi::canonical(jungi::parse_material(other)) == jungi::parse_material(kept));
  }
  CHECK(jungi::is_canonical(jungi::parse_material("KRvKR")));
  jungi::TableSet set{jungi::Rules{}};
  const jungi::Table& solved = set.solve(jungi::parse_material("+KvK"));
  CHECK(solved.indexer.material() == jungi::parse_material("Kv+K"));
  CHECK(set.find(jungi::parse_material("+KvK")) == nullptr);
  const jungi::Table& t = *set.find(jungi::parse_material("Kv+K"));
  jungi::Position p;
  std::uint64_t checked = 0;
  for (std::uint64_t i = 0; i < t.indexer.size(); ++i) {
    if (!t.indexer.decode(i, p)) continue;
    const jungi::Position q = jungi::flip_position(p);
    REQUIRE(jungi::flip_position(q) == p);
    REQUIRE(set.probe(q) == t.value(i));
    ++checked;
  }
  CHECK(checked == t.stats.positions);
}
