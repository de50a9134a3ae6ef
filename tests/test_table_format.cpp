// Table files through the library: write and read back every state, identical bytes for any
// thread count, lookups and queries that agree with the in-memory solver, and damage detected.
#include <tbb/global_control.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <xxhash.h>

#include "core/error.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/julgonu/table/table.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using namespace table_test;

namespace {

// Every state of the solution is found with its number, value and distance; keys between states
// and past the ends are not found; decode_all gives the arrays back.
void require_round_trip(const Solution& s, const Table& t) {
  const TableHeader& h = t.header();
  REQUIRE(h.format_version == kTableFormatVersion);
  REQUIRE(h.states == s.keys.size());
  REQUIRE(h.edges == s.edges);
  REQUIRE(h.wins == s.wins);
  REQUIRE(h.losses == s.losses);
  REQUIRE(h.draws == s.draws);
  REQUIRE(h.max_dist == s.max_dist);
  REQUIRE(h.root == s.root);
  REQUIRE(h.root_tag == s.root_tag);
  REQUIRE(h.root_key == s.root_key);
  REQUIRE(h.rules == s.codec.rules);
  REQUIRE(h.rules.name == s.codec.rules.name);
  REQUIRE(h.rules_id == rules_id(s.codec.rules));
  for (std::size_t i = 0; i < s.keys.size(); ++i) {
    const auto e = t.find(s.keys[i]);
    INFO("state " << i);
    REQUIRE(e);
    REQUIRE(e->index == i);
    REQUIRE(e->value == s.value[i]);
    REQUIRE(e->dist == s.dist[i]);
    if (i + 1 < s.keys.size() && s.keys[i] + 1 < s.keys[i + 1]) REQUIRE(!t.find(s.keys[i] + 1));
  }
  if (s.keys.front() > 0) REQUIRE(!t.find(s.keys.front() - 1));
  REQUIRE(!t.find(s.keys.back() + 1));
  REQUIRE(!t.find(~Key(0)));
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  t.decode_all(keys, value, dist);
  REQUIRE(std::equal(keys.begin(), keys.end(), s.keys.begin(), s.keys.end()));
  REQUIRE(std::equal(value.begin(), value.end(), s.value.begin(), s.value.end()));
  REQUIRE(std::equal(dist.begin(), dist.end(), s.dist.begin(), s.dist.end()));
  REQUIRE(t.payload_checksum_ok());
  const TableVerifyResult v = verify_table(t);
  INFO(v.first_error);
  REQUIRE(v.ok);
  REQUIRE(v.edges == s.edges);
}

// The query of every state agrees with the solution: the state's value, and each legal move's
// value and distance from the successor's entry in the solution; the best move by the rule.
void require_queries_agree(const Solution& s, const Table& t, std::size_t pv_every) {
  Successor succ[kMaxMoves];
  for (std::size_t i = 0; i < s.keys.size(); ++i) {
    Position p;
    Tag tag;
    decode_key(s.codec, s.keys[i], p, tag);
    const bool with_pv = i % pv_every == 0;
    const QueryAnswer a = query_state(t, p, tag, with_pv);
    INFO("state " << i << " " << format_position(s.codec.board, p));
    REQUIRE(a.index == i);
    REQUIRE(a.value == s.value[i]);
    REQUIRE(a.dist == s.dist[i]);
    const int k = expand_key(s.codec, s.keys[i], succ);
    REQUIRE(int(a.moves.size()) == k);
    long long best_score = -1'000'000'000;
    for (int j = 0; j < k; ++j) {
      const std::size_t n = *find_state(s, succ[j].key);
      const MoveAnswer& m = a.moves[std::size_t(j)];
      REQUIRE(m.move == succ[j].move);
      REQUIRE(m.value == mover_value(s.value[n]));
      REQUIRE(m.dist == (m.value == Value::draw ? 0 : s.dist[n] + 1));
      const long long sc = m.value == Value::win ? 1'000'000 - m.dist : m.value == Value::draw ? 0 : -1'000'000 + m.dist;
      best_score = std::max(best_score, sc);
    }
    if (k == 0) {
      REQUIRE(a.best == -1);
      REQUIRE(a.pv.empty());
      continue;
    }
    // The engine's move is the first of the best, and the best are exactly those of best score.
    for (int j = 0; j < k; ++j) {
      const MoveAnswer& m = a.moves[std::size_t(j)];
      const long long sc = m.value == Value::win ? 1'000'000 - m.dist : m.value == Value::draw ? 0 : -1'000'000 + m.dist;
      REQUIRE(m.best == (sc == best_score));
      if (j < a.best) REQUIRE(!m.best);
    }
    REQUIRE(a.moves[std::size_t(a.best)].best);
    if (with_pv) {
      // The principal variation is as long as the distance and ends the game.
      if (a.value == Value::draw) {
        REQUIRE(a.pv.empty());
      } else {
        REQUIRE(a.pv.size() == a.dist);
        Position q = p;
        Tag qt = tag;
        for (const Move& m : a.pv) {
          if (s.codec.tagged) qt = next_tag(s.codec.board, s.codec.rules, q, qt, m);
          q = apply_move(q, m);
        }
        REQUIRE(expand_state(s.codec, q, qt, succ) == 0);
      }
    }
  }
}

std::string write_to_string(const Solution& s, const TempDir& d, const std::string& name) {
  write_table(d.file(name), s);
  return slurp(d.file(name));
}

}  // namespace

TEST_CASE("table: a 3x4 free table round-trips every state", "[table]") {
  const Solution s = solve_named("free", 3, 4);
  TempDir d;
  const std::uint64_t bytes = write_table(d.file("t.gtb"), s);
  REQUIRE(bytes == slurp(d.file("t.gtb")).size());
  REQUIRE(d.list() == std::vector<std::string>{"t.gtb"});  // no temporary file left behind
  const Table t = Table::open(d.file("t.gtb"));
  require_round_trip(s, t);
  // Compact: under 2 bytes a state.
  REQUIRE(double(bytes) / double(s.keys.size()) < 2.0);
}

TEST_CASE("table: a 3x3 encyclopedia table (tagged states) round-trips every state", "[table]") {
  const Solution s = solve_named("encyclopedia", 3, 3);
  REQUIRE(s.codec.tagged);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const Table t = Table::open(d.file("t.gtb"));
  REQUIRE(t.header().tagged);
  require_round_trip(s, t);
}

TEST_CASE("table: a table solved from a position with a history keeps its root tag", "[table]") {
  Rules r = rules_by_name("undo");
  r.rows = 3;
  r.cols = 3;
  const Board b = make_board(3, 3);
  Game g = new_game(r, start_position(b, r.first));
  play_history(g, "a3-a2 c1-c2");  // Black's a3-a2 is in the tag: a2 may not go straight back
  const Solution s = solve(g);
  REQUIRE(!s.root_tag.empty());
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const Table t = Table::open(d.file("t.gtb"));
  REQUIRE(t.header().root_tag == s.root_tag);
  require_round_trip(s, t);
}

TEST_CASE("table: a one-state table (the root is already lost)", "[table]") {
  Rules r = rules_by_name("free");
  r.rows = 3;
  r.cols = 3;
  const Board b = make_board(3, 3);
  const Solution s = solve(new_game(r, parse_position(b, "x2/3/ww1 x")));
  REQUIRE(s.keys.size() == 1);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const Table t = Table::open(d.file("t.gtb"));
  require_round_trip(s, t);
  const QueryAnswer a = query_state(t, s.root, Tag{}, true);
  REQUIRE(a.value == Value::loss);
  REQUIRE(a.dist == 0);
  REQUIRE(a.moves.empty());
}

TEST_CASE("table: identical bytes with 1 and 2 threads", "[table]") {
  TempDir d;
  for (const auto& [name, rows, cols] : {std::tuple{"free", 3, 4}, std::tuple{"encyclopedia", 3, 3}}) {
    std::string one, two;
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
      one = write_to_string(solve_named(name, rows, cols), d, "one.gtb");
    }
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
      two = write_to_string(solve_named(name, rows, cols), d, "two.gtb");
    }
    INFO(name);
    REQUIRE(one.size() > kTableHeaderSize);
    REQUIRE(one == two);
  }
}

TEST_CASE("table: every state of a 3x4 free table queries as the in-memory solver says", "[table]") {
  const Solution s = solve_named("free", 3, 4);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const Table t = Table::open(d.file("t.gtb"));
  require_queries_agree(s, t, 7);
}

TEST_CASE("table: every state of a 3x3 encyclopedia table queries as the in-memory solver says", "[table]") {
  const Solution s = solve_named("encyclopedia", 3, 3);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const Table t = Table::open(d.file("t.gtb"));
  require_queries_agree(s, t, 1);
}

TEST_CASE("table: verify finds a wrong value and names the state", "[table]") {
  Solution s = solve_named("free", 3, 4);
  // Make one decided state claim a distance one ply longer than the truth.
  std::size_t wrong = s.keys.size();
  for (std::size_t i = s.keys.size() / 2; i < s.keys.size(); ++i)
    if (s.value[i] == Value::win) {
      wrong = i;
      break;
    }
  REQUIRE(wrong < s.keys.size());
  s.dist[wrong] += 2;
  s.max_dist = std::max(s.max_dist, s.dist[wrong]);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const Table t = Table::open(d.file("t.gtb"));
  const TableVerifyResult v = verify_table(t);
  REQUIRE(!v.ok);
  INFO(v.first_error);
  // The first wrong state is the changed one or a predecessor that relied on it; either way a
  // state is named with what was expected.
  REQUIRE(contains(v.first_error, "state "));
  REQUIRE(contains(v.first_error, "expected"));
}

TEST_CASE("table: a flipped byte in the payload never gives a wrong answer", "[table]") {
  const Solution s = solve_named("free", 3, 4);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  std::string bytes = slurp(d.file("t.gtb"));
  const TableHeader h = Table::open(d.file("t.gtb")).header();
  // One byte in the middle of the keys, one in the middle of the values, one in the middle of
  // the whole payload: each found by the lookups that read it, and by the payload checksum.
  for (const std::uint64_t at : {h.keys_offset + h.keys_size / 2, h.values_offset + h.values_size / 2,
                                 kTableHeaderSize + (h.file_size - kTableHeaderSize) / 2}) {
    std::string bad = bytes;
    bad[at] = char(bad[at] ^ 0x10);
    spit(d.file("bad.gtb"), bad);
    const Table t = Table::open(d.file("bad.gtb"));  // header and index are intact
    REQUIRE(!t.payload_checksum_ok());
    const TableVerifyResult v = verify_table(t);
    REQUIRE(!v.ok);
    REQUIRE(contains(v.first_error, "checksum"));
    std::size_t refused = 0;
    for (std::size_t i = 0; i < s.keys.size(); ++i) {
      try {
        const auto e = t.find(s.keys[i]);
        REQUIRE(e);
        REQUIRE(e->value == s.value[i]);
        REQUIRE(e->dist == s.dist[i]);
      } catch (const GonuError& e) {
        REQUIRE(contains(e.what(), "failed its check"));
        ++refused;
      }
    }
    INFO("flipped byte at " << at);
    REQUIRE(refused > 0);
    REQUIRE(refused <= kTableBlockSize);
  }
}

TEST_CASE("table: a format 1 table with tagged keys is refused, saying to solve again", "[table]") {
  TempDir d;
  for (const char* name : {"encyclopedia", "free"}) {
    const Solution s = solve_named(name, 3, 3);
    write_table(d.file("t.gtb"), s);
    std::string bytes = slurp(d.file("t.gtb"));
    bytes[8] = 1;  // the version, outside the header checksum's reach for this check
    spit(d.file("old.gtb"), bytes);
    if (std::string(name) == "encyclopedia") {
      REQUIRE_THROWS_WITH(Table::open(d.file("old.gtb")), Catch::Contains("format version 1 keeps tagged state keys"));
    } else {
      // Untagged keys did not change; only the header checksum now disagrees with the edited byte.
      REQUIRE_THROWS_WITH(Table::open(d.file("old.gtb")), !Catch::Contains("format version 1 keeps"));
    }
  }
}

TEST_CASE("table: damaged headers and indexes are refused at open", "[table]") {
  const Solution s = solve_named("free", 3, 3);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const std::string bytes = slurp(d.file("t.gtb"));
  const TableHeader h = Table::open(d.file("t.gtb")).header();
  auto open_error = [&](const std::string& content) -> std::string {
    spit(d.file("bad.gtb"), content);
    try {
      Table::open(d.file("bad.gtb"));
    } catch (const GonuError& e) {
      return e.what();
    }
    return "";
  };
  for (std::size_t at = 16; at < kTableHeaderSize; ++at) {  // every header byte past magic and version
    std::string bad = bytes;
    bad[at] = char(bad[at] ^ 0x01);
    INFO("header byte " << at);
    REQUIRE(!open_error(bad).empty());
  }
  {
    std::string bad = bytes;
    bad[h.index_offset + 3] = char(bad[h.index_offset + 3] ^ 0x40);
    REQUIRE(contains(open_error(bad), "index checksum mismatch"));
  }
  REQUIRE(contains(open_error(bytes.substr(0, bytes.size() - 1)), "truncated"));
  REQUIRE(contains(open_error(bytes.substr(0, 100)), "truncated"));
  REQUIRE(contains(open_error(bytes + "x"), "past the end"));
  REQUIRE(contains(open_error("hello\n"), "not a gonu table"));
  REQUIRE(contains(open_error(""), "not a gonu table"));
  REQUIRE(contains(open_error(std::string(1000, '\0')), "not a gonu table"));
  {
    std::string newer = bytes;
    newer[8] = 3;
    REQUIRE(contains(open_error(newer), "format version 3 is newer"));
  }
}

TEST_CASE("table: keys of the file are checked before they are decoded", "[table]") {
  const KeyCodec c = make_key_codec(rules_by_name("encyclopedia"));  // 4x4, tagged
  const Board& b = c.board;
  const Position p = start_position(b, Side::black);
  REQUIRE(key_is_well_formed(c, encode_key(c, p, Tag{})));
  Key all_twos = 0;
  for (int i = 0; i < b.n; ++i) all_twos = all_twos * 3 + 2;
  REQUIRE(key_is_well_formed(c, all_twos << c.tag_bits));
  REQUIRE(!key_is_well_formed(c, (all_twos + 1) << c.tag_bits));  // board digits past 3^n
  REQUIRE(!key_is_well_formed(c, Key(511)));  // a step to square 127
  REQUIRE(!key_is_well_formed(c, Key(1) << 63));
  const KeyCodec plain = make_key_codec(rules_by_name("free"));
  REQUIRE(!key_is_well_formed(plain, Key(1) << (plain.board_bits + 1)));  // no tag under free
}

TEST_CASE("table: a failed write leaves no file behind", "[table]") {
  const Solution s = solve_named("free", 3, 3);
  TempDir d;
  REQUIRE_THROWS_AS(write_table(d.file("missing/t.gtb"), s), GonuError);
  // The target is a directory: the rename fails after the data was written.
  REQUIRE(mkdir(d.file("dir").c_str(), 0755) == 0);
  REQUIRE_THROWS_AS(write_table(d.file("dir"), s), GonuError);
  REQUIRE(d.list() == std::vector<std::string>{"dir"});
  // Overwriting an existing table replaces it whole.
  write_table(d.file("t.gtb"), s);
  write_table(d.file("t.gtb"), s);
  REQUIRE(Table::open(d.file("t.gtb")).size() == s.keys.size());
}

TEST_CASE("table: random damage never crashes a reader or changes an answer", "[table]") {
  const Solution s = solve_named("free", 3, 3);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const std::string bytes = slurp(d.file("t.gtb"));
  std::mt19937_64 rng(2024);
  // Probes: every state, plus keys next to them that are not states.
  auto check_answers = [&](const Table& t) {
    for (std::size_t i = 0; i < s.keys.size(); ++i) {
      try {
        const auto e = t.find(s.keys[i]);
        REQUIRE(e);
        REQUIRE(e->value == s.value[i]);
        REQUIRE(e->dist == s.dist[i]);
        if (!std::binary_search(s.keys.begin(), s.keys.end(), s.keys[i] + 1)) REQUIRE(!t.find(s.keys[i] + 1));
      } catch (const GonuError&) {
      }
    }
  };
  // Random bytes flipped anywhere (checksums as written).
  for (int trial = 0; trial < 300; ++trial) {
    std::string bad = bytes;
    const int flips = 1 + int(rng() % 3);
    for (int f = 0; f < flips; ++f) bad[rng() % bad.size()] ^= char(1 + rng() % 255);
    spit(d.file("bad.gtb"), bad);
    try {
      const Table t = Table::open(d.file("bad.gtb"));
      check_answers(t);
      if (bad != bytes) REQUIRE(!verify_table(t).ok);
    } catch (const GonuError&) {
    }
  }
  // Random truncations and extensions.
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t len = rng() % (bytes.size() + 64);
    std::string bad = len <= bytes.size() ? bytes.substr(0, len) : bytes + std::string(len - bytes.size(), 'z');
    spit(d.file("bad.gtb"), bad);
    if (len == bytes.size()) continue;
    REQUIRE_THROWS_AS(Table::open(d.file("bad.gtb")), GonuError);
  }
}

TEST_CASE("table: crafted headers and indexes (checksums recomputed) never crash a reader", "[table]") {
  const Solution s = solve_named("free", 3, 3);
  TempDir d;
  write_table(d.file("t.gtb"), s);
  const std::string bytes = slurp(d.file("t.gtb"));
  const TableHeader h = Table::open(d.file("t.gtb")).header();
  auto put64 = [](std::string& b, std::size_t at, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b[at + std::size_t(i)] = char((v >> (8 * i)) & 0xff);
  };
  auto reseal = [&](std::string& b) {
    put64(b, 32, XXH3_64bits(b.data() + h.index_offset, std::size_t(h.index_size)));
    put64(b, 312, XXH3_64bits(b.data(), 312));
  };
  auto exercise = [&](const std::string& b) {
    spit(d.file("bad.gtb"), b);
    read_tolerating_errors(d.file("bad.gtb"), s.keys, 3);
  };
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 400; ++trial) {
    std::string b = bytes;
    const std::size_t at = 16 + rng() % (312 - 16);
    b[at] = char(rng() & 0xff);
    reseal(b);
    exercise(b);
  }
  for (int trial = 0; trial < 200; ++trial) {
    std::string b = bytes;
    const std::size_t at = std::size_t(h.index_offset + rng() % h.index_size);
    b[at] = char(rng() & 0xff);
    reseal(b);
    exercise(b);
  }
}
