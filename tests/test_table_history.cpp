// Positions typed without their moves under the tagged rule sets (repetition immediate and undo):
// the table answers the state with no earlier moves, searching on to the states it holds when it
// does not hold that one, and lists the values the history can give (every tag under which it
// holds the position). Checked against solving from the position and against the table's keys.
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "solver/julgonu/table/query.hpp"
#include "tests/table_test_util.hpp"
#include "tests/test_support.hpp"

using namespace table_test;
using namespace gonu;

namespace {

// Positions met along random games from the start (the tag the game had is dropped).
std::vector<Position> sampled_positions(const Rules& r, int games, unsigned seed) {
  std::mt19937 rng(seed);
  const Board b = make_board(r.rows, r.cols);
  std::vector<Position> out;
  for (int k = 0; k < games; ++k) {
    Game g = new_game(r, start_position(b, r.first));
    const int plies = 1 + int(rng() % 14);
    for (int i = 0; i < plies; ++i) {
      const std::vector<Move> moves = legal_moves(g);
      if (moves.empty()) break;
      play(g, moves[rng() % moves.size()]);
    }
    out.push_back(current(g));
  }
  return out;
}

// The tags under which the table holds p, read off its keys (every state decoded).
std::set<std::uint32_t> tags_in_table(const Table& t, const Position& p) {
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  t.decode_all(keys, value, dist);
  std::set<std::uint32_t> out;
  for (const Key k : keys) {
    Position q;
    Tag tag;
    decode_key(t.codec(), k, q, tag);
    if (q == p) out.insert(pack_tag(t.board(), tag));
  }
  return out;
}

}  // namespace

TEST_CASE("a position without history is answered from a tagged table as solving from it says",
          "[query][history]") {
  for (const std::string name : {"encyclopedia", "undo"}) {
    TempDir d;
    const Rules r = gonu::test::named_on(name, 3, 3);
    write_table(d.file("t.gonu"), solve(new_game(r, start_position(make_board(3, 3), r.first))));
    const Table t = Table::open(d.file("t.gonu"));
    int searched = 0;
    for (const Position& p : sampled_positions(r, 24, 7)) {
      INFO(name << " " << format_position(t.board(), p));
      const QueryAnswer a = query_state(t, p, Tag{});
      searched += !a.stored;
      const Solution s = solve(new_game(r, p));
      const StateValue want = state_value(s, *find_state(s, s.root_key));
      REQUIRE(a.value == want.value);
      REQUIRE(a.dist == want.dist);
      // Every move's value too: the state after it, solved from its own root with its tag.
      for (const MoveAnswer& m : a.moves) {
        Game g = new_game(r, p);
        play(g, m.move);
        const Solution sm = solve(g);
        const StateValue after = state_value(sm, *find_state(sm, sm.root_key));
        REQUIRE(m.value == mover_value(after.value));
      }
      // The principal variation ends the game in the stated number of plies.
      if (a.value != Value::draw) REQUIRE(a.pv.size() == a.dist);
    }
    REQUIRE(searched > 0);  // the case this is for: states the table does not hold
  }
}

TEST_CASE("stored_tags lists exactly the tags under which the table holds a position", "[query][history]") {
  for (const std::string name : {"encyclopedia", "undo"}) {
    TempDir d;
    const Rules r = gonu::test::named_on(name, 3, 3);
    write_table(d.file("t.gonu"), solve(new_game(r, start_position(make_board(3, 3), r.first))));
    const Table t = Table::open(d.file("t.gonu"));
    for (const Position& p : sampled_positions(r, 8, 11)) {
      INFO(name << " " << format_position(t.board(), p));
      std::set<std::uint32_t> listed;
      for (const TagValue& tv : stored_tags(t, p)) {
        listed.insert(pack_tag(t.board(), tv.tag));
        const auto e = t.find(encode_key(t.codec(), p, tv.tag));
        REQUIRE(e);
        REQUIRE(e->value == tv.value);
        REQUIRE(e->dist == tv.dist);
      }
      REQUIRE(listed == tags_in_table(t, p));
    }
  }
}

TEST_CASE("gonu query answers a tagged table's position without history, text and JSON", "[query][history][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "u33.gonu", "--rules undo --board 3x3");
  const std::string pos = "x.x/.w./w.w x";
  const Result r = run_gonu("query '" + t + "' '" + pos + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "with no earlier moves (no ban in force)"));
  REQUIRE(contains(r.out, "history:  the table holds this position under "));
  const Result j = run_gonu("query '" + t + "' '" + pos + "' --json");
  REQUIRE(j.code == 0);
  const nlohmann::json q = nlohmann::json::parse(j.out);
  // Under undo only the root carries the empty tag: this state is searched, not stored.
  REQUIRE(q["stored"] == false);
  REQUIRE(q["searched_plies"].get<int>() >= 1);
  REQUIRE(q["histories"]["count"].get<std::size_t>() == q["histories"]["tags"].size());
  std::size_t sum = 0;
  for (const auto& v : q["histories"]["values"]) sum += v["histories"].get<std::size_t>();
  REQUIRE(sum == q["histories"]["count"].get<std::size_t>());
  // The same value as solving from the position.
  const Result s = run_gonu("solve --rules undo --from '" + pos + "' --json");
  REQUIRE(s.code == 0);
  const nlohmann::json sj = nlohmann::json::parse(s.out);
  INFO(s.out);
  REQUIRE(sj["value"] == q["value"]);
  REQUIRE(sj["distance"] == q["distance"]);
}
