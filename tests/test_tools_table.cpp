// The table subcommands as a user runs them: gonu solve --out, query (text and JSON), play with
// stdin from a file, verify, info; and every kind of bad input with its own one-line error.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using namespace table_test;
using json = nlohmann::json;

namespace {

json query_json(const std::string& args) {
  const Result r = run_gonu("query " + args + " --json");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

}  // namespace

TEST_CASE("gonu solve --out, info, verify, query on a 3x4 free table", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--rules free --board 3x4");
  {
    const Result r = run_gonu("info '" + t + "'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "format version 2"));
    REQUIRE(contains(r.out, "free: board 3x4, capture line, corner off, repetition none, black first"));
    REQUIRE(contains(r.out, "267,707"));
    REQUIRE(contains(r.out, "xxxx/4/wwww x"));
    REQUIRE(contains(r.out, "bytes per state"));
  }
  {
    const Result r = run_gonu("verify --quiet '" + t + "'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(r.out.rfind("OK ", 0) == 0);
    REQUIRE(contains(r.out, "states 267,707, edges 1,177,380, WIN 125,198 / LOSS 93,645 / DRAW 48,864"));
  }
  {
    // The start: a draw; a3-a2 and d3-d2 keep it, b3-b2 and c3-c2 lose in 16.
    const Result r = run_gonu("query '" + t + "'");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "value:    DRAW for black (to move)"));
    REQUIRE(contains(r.out, "* a3-a2"));
    REQUIRE(contains(r.out, "* d3-d2"));
    REQUIRE(contains(r.out, "    b3-b2                 LOSS in 16"));
    REQUIRE(contains(r.out, "best:     a3-a2"));
    const json j = query_json("'" + t + "'");
    REQUIRE(j["schema"] == "gonu-query/1");
    REQUIRE(j["value"] == "DRAW");
    REQUIRE(j["distance"] == 0);
    // Best first as in the text (draws, then the losses), ties in move order; rank counts from 1.
    REQUIRE(j["moves"].size() == 4);
    std::vector<std::string> order;
    for (std::size_t k = 0; k < 4; ++k) {
      order.push_back(j["moves"][k]["move"]);
      REQUIRE(j["moves"][k]["rank"] == k + 1);
    }
    REQUIRE(order == std::vector<std::string>{"a3-a2", "d3-d2", "b3-b2", "c3-c2"});
    REQUIRE(j["moves"][2]["value"] == "LOSS");
    REQUIRE(j["moves"][2]["distance"] == 16);
    REQUIRE(j["moves"][2]["best"] == false);
    REQUIRE(j["best"] == json::array({"a3-a2", "d3-d2"}));
    REQUIRE(j["engine_move"] == "a3-a2");
    REQUIRE(j["pv"].empty());
    REQUIRE(j["history_decides_state"] == false);
  }
  {
    // After b3-b2 White wins in 15; the principal variation has 15 plies and ends the game.
    const json j = query_json("'" + t + "' --history b3-b2");
    REQUIRE(j["value"] == "WIN");
    REQUIRE(j["distance"] == 15);
    REQUIRE(j["pv"].size() == 15);
    REQUIRE(!j["pv_end"].is_null());
    REQUIRE(j["history"] == json::array({"b3-b2"}));
    // The same position given directly answers the same.
    const json k = query_json("'" + t + "' '" + std::string(j["position"]) + "'");
    REQUIRE(k["value"] == j["value"]);
    REQUIRE(k["moves"] == j["moves"]);
    REQUIRE(k["pv"] == j["pv"]);
  }
}

TEST_CASE("gonu query agrees with the in-memory solver on sampled states of a 3x4 free table", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--rules free --board 3x4");
  const Solution s = solve_named("free", 3, 4);
  Successor succ[kMaxMoves];
  for (std::size_t i = 0; i < s.keys.size(); i += s.keys.size() / 40) {
    Position p;
    Tag tag;
    decode_key(s.codec, s.keys[i], p, tag);
    const json j = query_json("'" + t + "' '" + format_position(s.codec.board, p) + "'");
    INFO("state " << i << " " << j.dump());
    REQUIRE(j["value"] == to_string(s.value[i]));
    REQUIRE(j["distance"] == s.dist[i]);
    const int k = expand_key(s.codec, s.keys[i], succ);
    REQUIRE(int(j["moves"].size()) == k);
    // The solver's moves, put best first by hand (win by distance, draw, loss by distance
    // backwards; ties in move order), are the JSON's list.
    std::vector<std::tuple<int, int, std::string, std::string, int>> want;  // (class, key, move, value, dist)
    for (int m = 0; m < k; ++m) {
      const std::size_t n = *find_state(s, succ[m].key);
      const Value v = s.value[n] == Value::win ? Value::loss : s.value[n] == Value::loss ? Value::win : Value::draw;
      const int dist = v == Value::draw ? 0 : s.dist[n] + 1;
      const int cls = v == Value::win ? 0 : v == Value::draw ? 1 : 2;
      want.emplace_back(cls, v == Value::win ? dist : -dist, format_move(s.codec.board, s.codec.rules, succ[m].move),
                        to_string(v), dist);
    }
    std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    for (int m = 0; m < k; ++m) {
      REQUIRE(j["moves"][m]["move"] == std::get<2>(want[std::size_t(m)]));
      REQUIRE(j["moves"][m]["value"] == std::get<3>(want[std::size_t(m)]));
      REQUIRE(j["moves"][m]["distance"] == std::get<4>(want[std::size_t(m)]));
      REQUIRE(j["moves"][m]["rank"] == m + 1);
    }
    if (s.value[i] != Value::draw) REQUIRE(j["pv"].size() == s.dist[i]);
  }
}

TEST_CASE("gonu solve's root list, query's text and query --json list the moves in one order, best first", "[table][cli]") {
  // Black to move here has a win, two draws and a loss; in move order the loss (d2-d3) comes first.
  const std::string from = "xxx1/2wx/ww1w x";
  const std::vector<std::string> best_first = {"b3-b2", "a3-a2", "c3-d3", "d2-d3"};
  const Result moves = run_gonu("moves '" + from + "'");
  REQUIRE(moves.code == 0);
  REQUIRE(moves.out.find("  d2-d3") < moves.out.find("  b3-b2"));
  const Result text = run_gonu("solve --quiet --from '" + from + "'");
  INFO(text.out << text.err);
  REQUIRE(text.code == 0);
  REQUIRE(contains(text.out, "  b3-b2  WIN in 25\n  a3-a2  DRAW\n  c3-d3  DRAW\n  d2-d3  LOSS in 8\n"));
  const Result js = run_gonu("solve --quiet --json --from '" + from + "'");
  const json solved = json::parse(js.out);
  std::vector<std::string> listed;
  for (const json& m : solved["moves"]) listed.push_back(m["move"]);
  REQUIRE(listed == best_first);

  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--rules free --board 3x4");
  const json q = query_json("'" + t + "' '" + from + "'");
  listed.clear();
  for (const json& m : q["moves"]) listed.push_back(m["move"]);
  REQUIRE(listed == best_first);
  REQUIRE(q["moves"][0]["rank"] == 1);
  REQUIRE(q["moves"][3]["rank"] == 4);
  REQUIRE(q["engine_move"] == "b3-b2");
  // The position with blanks around and inside (a tab) answers the same.
  REQUIRE(query_json("'" + t + "' \"$(printf '  xxx1/2wx/ww1w\\t x ')\"") == q);
  const Result qt = run_gonu("query '" + t + "' '" + from + "'");
  std::size_t at = 0;
  for (const std::string& m : best_first) {
    const std::size_t here = qt.out.find(m, at);
    REQUIRE(here != std::string::npos);
    at = here;
  }
}

TEST_CASE("gonu query on a tagged table says the history decides the state", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "e33.gtb", "--rules encyclopedia --board 3x3");
  const Result r = run_gonu("query '" + t + "' --history 'a3-a2 c1-c2'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "the history decides the state"));
  const json j = query_json("'" + t + "' --history 'a3-a2 c1-c2'");
  REQUIRE(j["history_decides_state"] == true);
  REQUIRE(contains(std::string(j["note"]), "history"));
  // The start is a win in 7 for Black (encyclopedia 3x3).
  const json s = query_json("'" + t + "'");
  REQUIRE(s["value"] == "WIN");
  REQUIRE(s["distance"] == 7);
  REQUIRE(s["pv"].size() == 7);
}

TEST_CASE("gonu query: bad input gets its own one-line error", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f33.gtb", "--rules free --board 3x3");
  const std::string bytes = slurp(t);
  // A position of another board size.
  require_one_line_error(run_gonu("query '" + t + "' 'xxxx/4/4/wwww x'"), "is 4x4, but the table");
  // A position the table's root cannot reach (Black has more pieces than at the start).
  require_one_line_error(run_gonu("query '" + t + "' 'xxx/xx./www x'"), "not reachable from the table's root");
  // An illegal history.
  require_one_line_error(run_gonu("query '" + t + "' --history 'a3-a2 a3-a2'"), "illegal history: history move 2");
  require_one_line_error(run_gonu("query '" + t + "' --history 'zz'"), "illegal history: history move 1");
  // A file that is not a table, and one that does not exist.
  spit(d.file("text.gtb"), "just some text\n");
  require_one_line_error(run_gonu("query '" + d.file("text.gtb") + "'"), "is not a gonu table");
  require_one_line_error(run_gonu("query '" + d.file("none.gtb") + "'"), "cannot open table");
  // A table of a newer format version.
  std::string newer = bytes;
  newer[8] = 7;
  spit(d.file("newer.gtb"), newer);
  require_one_line_error(run_gonu("query '" + d.file("newer.gtb") + "'"), "format version 7 is newer than this gonu reads");
  require_one_line_error(run_gonu("info '" + d.file("newer.gtb") + "'"), "format version 7 is newer");
  // A truncated file.
  spit(d.file("short.gtb"), bytes.substr(0, bytes.size() - 100));
  require_one_line_error(run_gonu("query '" + d.file("short.gtb") + "'"), "is truncated");
  require_one_line_error(run_gonu("verify '" + d.file("short.gtb") + "'"), "is truncated");
  spit(d.file("shorter.gtb"), bytes.substr(0, 64));
  require_one_line_error(run_gonu("info '" + d.file("shorter.gtb") + "'"), "is truncated");
  // A flipped byte in the header.
  std::string head = bytes;
  head[200] = char(head[200] ^ 1);
  spit(d.file("head.gtb"), head);
  require_one_line_error(run_gonu("query '" + d.file("head.gtb") + "'"), "header checksum mismatch");
  // superko has no table.
  require_one_line_error(run_gonu("solve --rules soldiers --board 3x3 --quiet --out '" + d.file("sk.gtb") + "'"),
                         "superko has no finite state set");
  // An --out that cannot be written fails before the solve: here the solve itself would stop at
  // its --max-states limit, so the table's error coming first shows the order.
  require_one_line_error(run_gonu("solve --rules free --board 4x5 --max-states 10 --quiet --out '" +
                                  d.file("no-such-dir/t.gtb") + "'"),
                         "cannot write table");
  require_one_line_error(run_gonu("solve --rules free --board 4x5 --max-states 10 --quiet --out '" + d.file("t.gtb") + "'"),
                         "over the --max-states limit");
  for (const std::string& name : d.list()) CHECK(name.find("tmp-") == std::string::npos);  // the probe left nothing
}

TEST_CASE("gonu verify and query: a byte flipped in the middle of the payload", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--rules free --board 3x4");
  std::string bytes = slurp(t);
  const TableHeader h = Table::open(t).header();
  const std::uint64_t middle = kTableHeaderSize + (h.file_size - kTableHeaderSize) / 2;
  bytes[middle] = char(bytes[middle] ^ 0x20);
  const std::string bad = d.file("bad.gtb");
  spit(bad, bytes);
  require_one_line_error(run_gonu("verify --quiet '" + bad + "'"), "payload checksum mismatch");
  // A query that reads the damaged block is refused; find such a state with the library.
  const Solution s = solve_named("free", 3, 4);
  const Table damaged = Table::open(bad);
  std::size_t hit = s.keys.size();
  for (std::size_t i = 0; i < s.keys.size() && hit == s.keys.size(); ++i) {
    try {
      damaged.find(s.keys[i]);
    } catch (const GonuError&) {
      hit = i;
    }
  }
  REQUIRE(hit < s.keys.size());
  Position p;
  Tag tag;
  decode_key(s.codec, s.keys[hit], p, tag);
  require_one_line_error(run_gonu("query '" + bad + "' '" + format_position(s.codec.board, p) + "'"), "failed its check");
  // The intact file still answers.
  REQUIRE(run_gonu("query '" + t + "' '" + format_position(s.codec.board, p) + "'").code == 0);
  // A table with a wrong value (checksums right) fails verify naming a state.
  Solution wrong = s;
  for (std::size_t i = 0; i < wrong.keys.size(); ++i)
    if (wrong.value[i] == Value::loss && wrong.dist[i] > 2) {
      wrong.value[i] = Value::draw;
      wrong.dist[i] = 0;
      --wrong.losses;
      ++wrong.draws;
      break;
    }
  write_table(d.file("wrong.gtb"), wrong);
  require_one_line_error(run_gonu("verify --quiet '" + d.file("wrong.gtb") + "'"), "verify failed: state ");
}

TEST_CASE("gonu play: moves from stdin, refusals with reasons, the end announced, replayable", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "e33.gtb", "--rules encyclopedia --board 3x3");
  // Black wins in 7 from the start, so the engine (Black) wins against any White moves.
  const std::string input = "a3-a2\nz9\n\n99\n1\n1\n1\n1\n1\n1\n1\n1\n";
  const Result r = run_gonu("play '" + t + "' --as white", input);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "you play white"));
  REQUIRE(contains(r.out, "engine (black) plays a3-a2"));
  REQUIRE(contains(r.out, "value: WIN in 7 for black (to move)"));
  REQUIRE(contains(r.out, "illegal: "));              // a3-a2 is not White's move, z9 no square
  REQUIRE(contains(r.out, "there is no move number 99"));
  REQUIRE(contains(r.out, "game over after 7 plies"));
  REQUIRE(contains(r.out, "Black wins (the engine)."));
  // The same input replays the same game.
  REQUIRE(run_gonu("play '" + t + "' --as white", input).out == r.out);
  // End of input stops the game cleanly.
  const Result e = run_gonu("play '" + t + "'", "a3-a2\n");
  INFO(e.out << e.err);
  REQUIRE(e.code == 0);
  REQUIRE(contains(e.out, "you play a3-a2"));
  REQUIRE(contains(e.out, "end of input: game stopped after 2 plies."));
  // A move the repetition rule bans is refused with the reason.
  const std::string u = cli_table(d, "u33.gtb", "--rules undo --board 3x3");
  const Result b = run_gonu("play '" + u + "' --as black", "a3-a2\na2-a3\nquit\n");
  INFO(b.out << b.err);
  REQUIRE(b.code == 0);
  REQUIRE(contains(b.out, "illegal: move 'a2-a3' is not allowed: it moves the piece moved last turn straight back"));
  REQUIRE(contains(b.out, "you stopped the game after 2 plies."));
}

TEST_CASE("Games of Soldiers example: b4-b3 and every other White move from a free table", "[table][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "soldiers.gtb", "--rules free --from '.w../w.xw/xx../..w. w'");
  const json j = query_json("'" + t + "'");
  REQUIRE(j["position"] == "1w2/w1xw/xx2/2w1 w");
  REQUIRE(j["side_to_move"] == "white");
  REQUIRE(j["value"] == "WIN");
  REQUIRE(j["distance"] == 5);
  REQUIRE(j["moves"].size() == 10);
  for (const auto& m : j["moves"]) {
    INFO(m.dump());
    REQUIRE(m["value"] == "WIN");  // every White move still wins; b4-b3 is the fastest
    REQUIRE(m["best"] == (m["move"] == "b4-b3"));
    if (m["move"] == "b4-b3") {
      REQUIRE(m["distance"] == 5);
      REQUIRE(m["captures"] == json::array({"c3"}));
    } else {
      REQUIRE(m["distance"] > 5);
    }
  }
  REQUIRE(j["pv"] == json::array({"b4-b3", "b2-b1", "b3-b2", "b1-a1", "c1-b1"}));
  REQUIRE(contains(std::string(j["pv_end"]), "Black has no move"));
  // After b4-b3 every Black answer loses.
  const json a = query_json("'" + t + "' --history b4-b3");
  REQUIRE(a["value"] == "LOSS");
  REQUIRE(a["distance"] == 4);
  for (const auto& m : a["moves"]) REQUIRE(m["value"] == "LOSS");
}
