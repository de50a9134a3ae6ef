// The streaming table writer and the indexed verifier against their plain forms: a solution given
// as a StateSource (arrays empty) writes the same bytes as its arrays, for any thread count, and
// is refused with the same messages; verify_table's indexed way (a bitmap over the dense ids)
// gives the same result and the same first error as the arrays way on good tables and on tables
// damaged behind resealed checks.
#include <tbb/global_control.h>

#include <algorithm>
#include <functional>
#include <random>

#include "core/error.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/common/bits.hpp"
#include "solver/julgonu/table/block.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using namespace table_test;

namespace {

// A StateSource reading another solution's arrays (which must outlive it): the compact engines'
// form, with the arrays as the truth to compare with.
struct ArraySource : StateSource {
  const Solution& s;
  explicit ArraySource(const Solution& solution) : s(solution) {}
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    REQUIRE(lo <= hi);
    REQUIRE(hi <= s.keys.size());
    read_states(s, lo, hi, keys, value, dist);  // s holds arrays: their copy
  }
  std::optional<std::uint64_t> find(Key k) const override { return find_state(s, k); }
};

// The same solution with `source` set over `arrays` and its own arrays empty.
Solution as_source(const Solution& arrays) {
  Solution s;
  s.codec = arrays.codec;
  s.root = arrays.root;
  s.root_tag = arrays.root_tag;
  s.root_key = arrays.root_key;
  s.source = std::make_shared<ArraySource>(arrays);
  s.states = arrays.keys.size();
  s.edges = arrays.edges;
  s.wins = arrays.wins;
  s.losses = arrays.losses;
  s.draws = arrays.draws;
  s.max_dist = arrays.max_dist;
  s.levels = arrays.levels;
  return s;
}

std::string write_bytes(const Solution& s, const TempDir& d) {
  write_table(d.file("t.gtb"), s);
  return slurp(d.file("t.gtb"));
}

std::string write_error(const Solution& s, const TempDir& d) {
  try {
    write_table(d.file("refused.gtb"), s);
  } catch (const GonuError& e) {
    return e.what();
  }
  return "";
}

// verify_table's outcome in one line: the counts if it passed, else the error, returned or thrown.
std::string outcome(const Table& t, TableVerifyMethod m) {
  try {
    const TableVerifyResult r = verify_table(t, {}, m);
    if (!r.ok) return "failed: " + r.first_error;
    return "ok " + std::to_string(r.states) + " " + std::to_string(r.edges) + " " + std::to_string(r.wins) + " " +
           std::to_string(r.losses) + " " + std::to_string(r.draws) + " " + std::to_string(r.max_dist);
  } catch (const GonuError& e) {
    return std::string("threw: ") + e.what();
  }
}

// Recomputes every block's check of a table's bytes (FORMAT.md, "Block check"), then the
// checksums (reseal): damage behind it reaches verify's own checks.
void reseal_blocks(std::string& b) {
  using table_bits::load64;
  auto at = [&](std::size_t off) { return load64(reinterpret_cast<const unsigned char*>(b.data()) + off); };
  const std::uint64_t states = at(176), blocks = at(224), index = at(232), keys = at(248), keys_size = at(256),
                      values = at(264);
  const unsigned vb = std::uint8_t(b[218]), block_size = unsigned(get_le(b, 220, 4));
  auto* d = reinterpret_cast<unsigned char*>(b.data());
  for (std::uint64_t k = 0; k < blocks; ++k) {
    const std::uint64_t off = at(index + 16 * k + 8), end = k + 1 < blocks ? at(index + 16 * (k + 1) + 8) : keys_size - 16;
    const table_block::Geometry g = table_block::geometry(k, states, block_size, vb);
    const std::uint32_t check = table_block::check(k, d + keys + off + 4, std::size_t(end - off - 4), d + values + g.value_start,
                                                   std::size_t(g.value_len));
    put_le(b, std::size_t(keys + off), check, 4);
  }
  reseal(b);
}

// Sets the header's counts (wins, losses, draws, largest distance) to the states' as decoded, so
// that changed values reach the check of each value against its successors; false if the table
// cannot be decoded.
bool recount(std::string& b, const TempDir& d) {
  spit(d.file("recount.gtb"), b);
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  try {
    Table::open(d.file("recount.gtb")).decode_all(keys, value, dist);
  } catch (const GonuError&) {
    return false;
  }
  std::uint64_t by_value[3] = {0, 0, 0};
  for (const Value v : value) ++by_value[int(v)];
  put_le(b, 192, by_value[int(Value::win)], 8);
  put_le(b, 200, by_value[int(Value::loss)], 8);
  put_le(b, 208, by_value[int(Value::draw)], 8);
  put_le(b, 216, *std::max_element(dist.begin(), dist.end()), 2);
  reseal(b);
  return true;
}

// Rule sets by name: the named ones as named; "single" (single capture), "single+corner" and
// "single-immediate" (single capture, the immediate ban) as custom.
Solution solve_rules(const std::string& name, int rows, int cols) {
  if (name.rfind("single", 0) != 0) return solve_named(name, rows, cols);
  Rules r = rules_by_name("free");
  r.name = "custom";
  r.capture = Capture::single;
  r.corner = name == "single+corner";
  if (name == "single-immediate") r.repetition = Repetition::immediate;
  r.rows = rows;
  r.cols = cols;
  const Board b = make_board(rows, cols);
  return solve(new_game(r, start_position(b, r.first)));
}

const std::tuple<const char*, int, int> kUntagged[] = {{"free", 3, 3}, {"free", 3, 4}, {"free", 4, 3}, {"single", 3, 4},
                                                       {"single+corner", 4, 3}};
const std::tuple<const char*, int, int> kTagged[] = {
    {"encyclopedia", 3, 3}, {"undo", 3, 3}, {"single-immediate", 3, 3}};

// Both lists.
std::vector<std::tuple<const char*, int, int>> all_rule_sets() {
  std::vector<std::tuple<const char*, int, int>> v(std::begin(kUntagged), std::end(kUntagged));
  v.insert(v.end(), std::begin(kTagged), std::end(kTagged));
  return v;
}

}  // namespace

TEST_CASE("table stream: a solution given as a StateSource writes the bytes of its arrays", "[table][stream]") {
  TempDir d;
  for (const auto& [name, rows, cols] : {std::tuple{"free", 3, 4}, std::tuple{"encyclopedia", 3, 3},
                                         std::tuple{"undo", 3, 3}, std::tuple{"free", 2, 3}}) {
    INFO(name << " " << rows << "x" << cols);
    const Solution arrays = solve_named(name, rows, cols);
    const Solution source = as_source(arrays);
    REQUIRE(source.keys.empty());
    REQUIRE(state_count(source) == arrays.keys.size());
    const std::string want = write_bytes(arrays, d);
    REQUIRE(want.size() > kTableHeaderSize);
    for (const int threads : {1, 2}) {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
      INFO(threads << " threads");
      REQUIRE(write_bytes(source, d) == want);
      REQUIRE(write_bytes(arrays, d) == want);
    }
    REQUIRE(d.list() == std::vector<std::string>{"t.gtb"});
  }
}

TEST_CASE("table stream: a StateSource is refused with the messages of the arrays", "[table][stream]") {
  TempDir d;
  const Solution good = solve_named("free", 3, 4);
  const std::size_t n = good.keys.size();
  // Each damage twice: early in the states and past the first chunk of blocks (16384 states),
  // with a second one later, so the first must be the one reported.
  auto damaged = [&](auto&& spoil, std::size_t at) {
    Solution s = solve_named("free", 3, 4);
    spoil(s, at);
    spoil(s, n - 7);
    return s;
  };
  const std::function<void(Solution&, std::size_t)> spoils[] = {
      [](Solution& s, std::size_t i) { std::swap(s.keys[i], s.keys[i + 1]); },
      [](Solution& s, std::size_t i) { s.keys[i + 1] = s.keys[i]; },
      [](Solution& s, std::size_t i) {
        s.value[i] = Value::draw;
        s.dist[i] = 3;
      },
      [](Solution& s, std::size_t i) { s.value[i] = Value(3); },
  };
  for (const std::size_t at : {std::size_t(5), std::size_t(40000)}) {
    for (const auto& spoil : spoils) {
      const Solution arrays = damaged(spoil, at);
      const std::string why = write_error(arrays, d);
      REQUIRE(contains(why, "cannot write table: "));
      for (const int threads : {1, 2}) {
        tbb::global_control c(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
        REQUIRE(write_error(as_source(arrays), d) == why);
      }
    }
  }
  {
    Solution s = solve_named("free", 3, 4);
    s.root_key += 1;  // between two states or past them: not among the states
    if (find_state(s, s.root_key)) s.root_key = s.keys.back() + 1;
    REQUIRE(write_error(s, d) == "cannot write table: the root is not among the states");
    REQUIRE(write_error(as_source(s), d) == "cannot write table: the root is not among the states");
  }
  {
    Solution s = solve_named("free", 3, 4);
    Solution empty = as_source(s);
    empty.states = 0;
    REQUIRE(write_error(empty, d) == "cannot write an empty table");
  }
  REQUIRE(d.list().empty());
}

TEST_CASE("table stream: the indexed verify agrees with the arrays on good tables", "[table][stream]") {
  TempDir d;
  std::vector<std::tuple<const char*, int, int>> boards = all_rule_sets();
  boards.emplace_back("free", 4, 4);
  boards.emplace_back("encyclopedia", 3, 4);
  for (const auto& [name, rows, cols] : boards) {
    INFO(name << " " << rows << "x" << cols);
    const Solution s = solve_rules(name, rows, cols);
    write_table(d.file("t.gtb"), s);
    const Table t = Table::open(d.file("t.gtb"));
    const std::string indexed = outcome(t, TableVerifyMethod::indexed);
    REQUIRE(indexed == outcome(t, TableVerifyMethod::arrays));
    REQUIRE(indexed == outcome(t, TableVerifyMethod::automatic));
    REQUIRE(indexed == "ok " + std::to_string(s.keys.size()) + " " + std::to_string(s.edges) + " " + std::to_string(s.wins) +
                           " " + std::to_string(s.losses) + " " + std::to_string(s.draws) + " " +
                           std::to_string(s.max_dist));
  }
  // A root with fewer pieces than other states of the table (a crafted one): those states have no
  // dense id, and the indexed way gives the table to the arrays.
  {
    Solution s = solve_named("free", 3, 3);
    std::size_t i = 0;
    Position p;
    Tag tag;
    for (; i < s.keys.size(); ++i) {
      decode_key(s.codec, s.keys[i], p, tag);
      if (popcount(p.black) < popcount(s.root.black)) break;
    }
    REQUIRE(i < s.keys.size());
    s.root = p;
    s.root_key = s.keys[i];
    write_table(d.file("t.gtb"), s);
    const Table t = Table::open(d.file("t.gtb"));
    REQUIRE(outcome(t, TableVerifyMethod::indexed) == outcome(t, TableVerifyMethod::arrays));
    REQUIRE(contains(outcome(t, TableVerifyMethod::arrays), "ok "));
  }
  // A tagged state whose tag's step is not a step of its board (a crafted table): the tag has no
  // slot, and the indexed way gives the table to the arrays.
  {
    Solution s = solve_named("encyclopedia", 3, 3);
    const std::uint64_t tag_mask = (Key(1) << s.codec.tag_bits) - 1;
    std::size_t i = 0;
    for (; i < s.keys.size(); ++i)
      if (s.keys[i] != s.root_key && (s.keys[i] & tag_mask) == 0) break;
    REQUIRE(i < s.keys.size());
    // Mine = a step ending on a point without a piece of the side to move: well formed, no slot.
    Position p;
    Tag tag;
    decode_key(s.codec, s.keys[i], p, tag);
    Key k = s.keys[i];
    for (int to = 0; to < s.codec.board.n && k == s.keys[i]; ++to)
      for (std::uint32_t dir = 0; dir < 4 && !(mover(p) >> to & 1); ++dir) {
        const Key c = (s.keys[i] & ~Key(tag_mask)) | (1u + std::uint32_t(to) * 4u + dir);
        if (key_is_well_formed(s.codec, c)) {
          k = c;
          break;
        }
      }
    REQUIRE(k != s.keys[i]);
    s.keys[i] = k;
    std::vector<std::size_t> order(s.keys.size());
    for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return s.keys[a] < s.keys[b]; });
    Solution sorted = s;
    for (std::size_t j = 0; j < order.size(); ++j) {
      sorted.keys[j] = s.keys[order[j]];
      sorted.value[j] = s.value[order[j]];
      sorted.dist[j] = s.dist[order[j]];
    }
    write_table(d.file("t.gtb"), sorted);
    const Table t = Table::open(d.file("t.gtb"));
    REQUIRE(outcome(t, TableVerifyMethod::indexed) == outcome(t, TableVerifyMethod::arrays));
  }
}

TEST_CASE("table stream: the indexed verify names the first wrong state as the arrays do", "[table][stream]") {
  TempDir d;
  for (const auto& [name, rows, cols] : all_rule_sets()) {
    INFO(name << " " << rows << "x" << cols);
    // Wrong distances, a wrong value, a missing state, a wrong edge count: each table has one
    // kind, at several states, so the lowest must be found whatever the thread count.
    std::mt19937_64 rng(std::uint64_t(rows * 10 + cols));
    for (int kind = 0; kind < 4; ++kind) {
      Solution w = solve_rules(name, rows, cols);
      for (int k = 0; k < 5; ++k) {
        const std::size_t i = std::size_t(rng() % w.keys.size());
        if (i == *find_state(w, w.root_key)) continue;
        if (kind == 0 && w.value[i] != Value::draw) w.dist[i] = std::uint16_t(w.dist[i] + 2);
        if (kind == 1) {
          w.value[i] = w.value[i] == Value::draw ? Value::win : Value::draw;
          w.dist[i] = w.value[i] == Value::draw ? 0 : 1;
        }
        if (kind == 2) {
          w.keys.erase(w.keys.begin() + std::ptrdiff_t(i));
          w.value.erase(w.value.begin() + std::ptrdiff_t(i));
          w.dist.erase(w.dist.begin() + std::ptrdiff_t(i));
        }
      }
      if (kind == 3) w.edges += 1;
      for (std::uint16_t x : w.dist) w.max_dist = std::max(w.max_dist, x);
      write_table(d.file("t.gtb"), w);
      const Table t = Table::open(d.file("t.gtb"));
      const std::string arrays = outcome(t, TableVerifyMethod::arrays);
      INFO("kind " << kind << ": " << arrays);
      REQUIRE(contains(arrays, "failed: "));
      for (const int threads : {1, 2}) {
        tbb::global_control c(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
        REQUIRE(outcome(t, TableVerifyMethod::indexed) == arrays);
      }
    }
  }
}

TEST_CASE("table stream: the indexed verify agrees with the arrays on tables damaged behind resealed checks",
          "[table][stream]") {
  TempDir d;
  for (const auto& [name, rows, cols] :
       {std::tuple{"free", 3, 3}, std::tuple{"free", 3, 4}, std::tuple{"encyclopedia", 3, 3}}) {
    write_table(d.file("t.gtb"), solve_named(name, rows, cols));
    const std::string bytes = slurp(d.file("t.gtb"));
    const TableHeader h = Table::open(d.file("t.gtb")).header();
    std::mt19937_64 rng(std::uint64_t(rows * 10 + cols));
    int failed = 0, threw = 0, wrong_value = 0;
    for (int trial = 0; trial < 150; ++trial) {
      // A bit of the value codes, or of the key bytes after the checks, flipped; one to three.
      std::string b = bytes;
      const int flips = 1 + int(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        const bool key = trial % 2 == 0;
        const std::uint64_t from = key ? h.keys_offset : h.values_offset;
        const std::uint64_t len = (key ? h.keys_size : h.values_size) - 16;
        std::uint64_t at = from + rng() % len;
        if (key) {
          // Not a block's 4-byte check: resealing would undo it.
          for (std::uint64_t k = 0; k < h.blocks; ++k) {
            const std::uint64_t off = h.keys_offset + get_le(bytes, std::size_t(h.index_offset + 16 * k + 8), 8);
            if (at >= off && at < off + 4) at = off + 4;
          }
        }
        b[std::size_t(at)] = char(b[std::size_t(at)] ^ char(1 << (rng() % 8)));
      }
      reseal_blocks(b);
      if (trial % 4 == 1) recount(b, d);
      spit(d.file("bad.gtb"), b);
      std::string arrays, indexed;
      try {
        const Table t = Table::open(d.file("bad.gtb"));
        arrays = outcome(t, TableVerifyMethod::arrays);
        indexed = outcome(t, TableVerifyMethod::indexed);
      } catch (const GonuError&) {
        continue;  // the root's block no longer finds the root: refused at open
      }
      INFO("trial " << trial << ": " << arrays);
      REQUIRE(indexed == arrays);
      failed += contains(arrays, "failed: ");
      threw += contains(arrays, "threw: ");
      wrong_value += contains(arrays, "expected");
    }
    // Both kinds of outcome were met, and values found wrong by their successors.
    REQUIRE(failed > 10);
    REQUIRE(threw > 5);
    REQUIRE(wrong_value > 5);
  }
}

TEST_CASE("table stream: expand_untagged gives expand_state's moves and successors as positions", "[table][stream]") {
  for (const auto& [name, rows, cols] : kUntagged) {
    INFO(name << " " << rows << "x" << cols);
    const Solution s = solve_rules(name, rows, cols);
    Successor succ[kMaxMoves];
    Move moves[kMaxMoves];
    Position next[kMaxMoves];
    for (const Key k : s.keys) {
      Position p;
      Tag tag;
      decode_key(s.codec, k, p, tag);
      const int n = expand_state(s.codec, p, tag, succ);
      REQUIRE(expand_untagged(s.codec, p, moves, next) == n);
      for (int i = 0; i < n; ++i) {
        REQUIRE(moves[i] == succ[i].move);
        REQUIRE(encode_key(s.codec, next[i], Tag{}) == succ[i].key);
      }
    }
  }
}
