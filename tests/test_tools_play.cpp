// gonu play as a user meets it: piped games (hint, undo, redo, values beside the position and
// the moves, the value-change notice, moves typed b3b2, b3 b2, B3-B2, unknown commands,
// repetition, the board kept open at game over, the record, --vary with its seed, a start
// POSITION with --history, the example move of the human's side, an in-memory solve from rule
// options) and one game in a real terminal under tmux (line editing by libedit), skipped when
// tmux is not installed; and the same session on Jungi tables (moves as people write them, the
// winner named, a blunder said).
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/table_test_util.hpp"

using namespace table_test;

namespace {

std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("gonu play: hint, undo, values, notice, record from piped input", "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--board 3x4");
  // 3x4 free: the start is a draw; b3-b2 loses in 16 (and says so); undo takes it back.
  const Result r = run_gonu("play '" + t + "' --as black", "hint\nb3-b2\nundo\nvalues off\nhlep\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "hint (value for black after each move, best first):"));
  REQUIRE(contains(r.out, "  drawing moves: a3-a2, d3-d2\n"));
  REQUIRE(contains(r.out, "  losing moves: b3-b2 (LOSS in 16), c3-c2 (LOSS in 16)\n"));
  REQUIRE(contains(r.out, "notice: b3-b2 changes the value for black: DRAW -> LOSS in 16"));
  REQUIRE(contains(r.out, "took back to ply 0"));
  REQUIRE(contains(r.out, "values off"));
  REQUIRE(contains(r.out, "unknown command 'hlep'"));
  REQUIRE(contains(r.out, "type help"));
  REQUIRE(contains(r.out, "you stopped the game after 0 plies."));
  REQUIRE(contains(r.out, "game record: no moves played"));
  // Values on: the start's value once, then after the undo the start again; off afterwards.
  REQUIRE(count(r.out, "value: DRAW for black (to move)") == 2);
  for (const std::string& line : lines(r.out)) {  // the temporary table's path is short
    INFO(line);
    REQUIRE(line.size() <= 80);
  }
}

TEST_CASE("gonu play: moves typed b3b2, b3 b2, B3-B2, redo, values beside the moves", "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--board 3x4");
  // Black plays b3-b2 three ways, each taken back; redo plays it (and White's reply) again.
  const Result r = run_gonu("play '" + t + "' --as black", "b3b2\nundo\nb3 b2\nundo\nB3-B2\nundo\nredo\nredo\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(count(r.out, "you play b3-b2\n") == 3);
  REQUIRE(count(r.out, "notice: b3-b2 changes the value for black: DRAW -> LOSS in 16") == 3);
  REQUIRE(contains(r.out, "played again to ply 2 (0 more to redo)"));
  REQUIRE(contains(r.out, "nothing to redo"));
  REQUIRE(contains(r.out, "game record (2 plies): b3-b2 "));
  // With values on, each listed move carries its value; with values off, none does.
  REQUIRE(contains(r.out, "black's moves:  1. a3-a2 (DRAW)  2. b3-b2 (LOSS in 16)"));
  const Result off = run_gonu("play '" + t + "' --as black --values off", "q\n");
  REQUIRE(contains(off.out, "black's moves:  1. a3-a2  2. b3-b2  3. c3-c2  4. d3-d2\n"));
  // A new move after undo clears what redo would play.
  const Result fresh = run_gonu("play '" + t + "' --as both", "a3-a2\nundo\nd3-d2\nredo\nq\n");
  REQUIRE(contains(fresh.out, "nothing to redo"));
  REQUIRE(contains(fresh.out, "game record (1 ply): d3-d2"));
}

TEST_CASE("gonu play: the example move is of the human's side, the board stays open at game over",
          "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f33.gtb", "--board 3x3");
  // Black moves first; the example for White is a White move.
  const Result w = run_gonu("play '" + t + "' --as white", "q\n");
  INFO(w.out);
  REQUIRE(contains(flat(w.out), "enter a move in notation (e.g. a1-a2)"));
  const Result b = run_gonu("play '" + t + "' --as black", "q\n");
  REQUIRE(contains(flat(b.out), "enter a move in notation (e.g. a3-a2)"));
  // 3x3 free: Black wins in 7; White loses, takes its last move back and tries another.
  const Result r = run_gonu("play '" + t + "' --as white", "1\n1\n1\n1\nb1-b2\nhint\nundo\n2\nrecord\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "game over after 7 plies: "));
  REQUIRE(contains(r.out, "undo takes moves back to try again; quit ends."));
  REQUIRE(contains(r.out, "the game is over: undo takes moves back, quit ends"));
  REQUIRE(contains(r.out, "the game is over: no moves"));
  REQUIRE(contains(r.out, "took back to ply 5"));
  REQUIRE(contains(r.out, "you stopped the game after "));
}

TEST_CASE("gonu play with rule options instead of a table solves in memory", "[play][cli]") {
  const Result r = run_gonu("play --rules free --board 3x4 --as black", "b3-b2\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "solving in memory (about "));
  REQUIRE(contains(r.out, " 267707 states in "));
  REQUIRE(contains(r.out, "value: DRAW for black (to move)"));
  REQUIRE(contains(r.out, "notice: b3-b2 changes the value for black: DRAW -> LOSS in 16"));
  REQUIRE(contains(r.out, "replay: gonu play --rules free --board 3x4 --history 'b3-b2 "));
  // A position, and the tagged rule sets.
  const Result p = run_gonu("play --rules undo 'x.x/.w./w.w x' --as both", "q\n");
  INFO(p.out << p.err);
  REQUIRE(p.code == 0);
  REQUIRE(contains(p.out, "value: LOSS in 4 for black (to move)"));  // as gonu solve --from says
  // Too large to solve in a few seconds: refused, naming the way with a table.
  const Result big = run_gonu("play --rules undo --board 4x5", "q\n");
  REQUIRE(big.code == 1);
  REQUIRE(contains(big.err, "write a table first (gonu solve --rules undo --board 4x5 --out FILE)"));
  REQUIRE(run_gonu("play --rules soldiers", "q\n").code == 1);  // superko: no table
  REQUIRE(run_gonu("play --rules free 'xxxx/4/4/wwww x' extra", "").code == 2);
}

TEST_CASE("gonu play: help lists every command, bad options are usage errors", "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f33.gtb", "--board 3x3");
  const Result r = run_gonu("play '" + t + "'", "help\n?\nexit\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  for (const char* word : {"hint", "undo, back", "redo", "values [on|off]", "moves", "board", "record", "help, ?",
                           "quit, exit, q"})
    REQUIRE(count(r.out, word) >= 2);
  REQUIRE(run_gonu("play '" + t + "' --seed 3").code == 2);  // --seed without --vary
  REQUIRE(run_gonu("play '" + t + "' --values maybe").code == 2);
  REQUIRE(run_gonu("play '" + t + "' --as green").code == 1);
}

TEST_CASE("gonu play: the game's end and its record in --history notation, replayable", "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f33.gtb", "--board 3x3");
  // 3x3 free: Black wins in 7 from the start; White plays its first listed move each time.
  const Result r = run_gonu("play '" + t + "' --as white", "1\n1\n1\n1\n1\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "game over after 7 plies: "));
  REQUIRE(contains(flat(r.out), "Black wins (the engine)."));
  std::string history;
  for (const std::string& line : lines(r.out))
    if (line.rfind("replay: ", 0) == 0) history = line.substr(line.find("--history '") + 11);
  REQUIRE(!history.empty());
  history.pop_back();  // the closing quote
  REQUIRE(count(history, " ") == 6);  // seven plies
  // Starting after the whole record: the game is over at once, after the same 7 plies.
  const Result again = run_gonu("play '" + t + "' --history '" + history + "'", "");
  INFO(again.out);
  REQUIRE(contains(again.out, "game over after 7 plies"));
  REQUIRE(contains(again.out, "game record (7 plies): " + history));
}

TEST_CASE("gonu play: a position standing for the third time ends a free game as a draw", "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "f34.gtb", "--board 3x4");
  const Result r = run_gonu("play '" + t + "' --as both",
                            "a3-a2\nd1-d2\na2-a3\nd2-d1\na3-a2\nd1-d2\na2-a3\nd2-d1\nhint\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(flat(r.out), "game over after 8 plies: the position xxxx/4/wwww x stands for the third time: "
                                "a draw by repetition"));
  REQUIRE(contains(r.out, "game record (8 plies): a3-a2 d1-d2 a2-a3 d2-d1 a3-a2 d1-d2 a2-a3 d2-d1"));
}

TEST_CASE("gonu play: POSITION and --history, --vary prints its seed and replays with it", "[play][cli]") {
  TempDir d;
  const std::string t = cli_table(d, "soldiers.gtb", "--from '.w../w.xw/xx../..w. w'");
  // The Games of Soldiers example: White wins in 5 by b4-b3; after it, Black (the human) loses.
  const Result r = run_gonu("play '" + t + "' '.w../w.xw/xx../..w. w' --history b4-b3 --as black", "undo\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "value: LOSS in 4 for black (to move)"));
  REQUIRE(contains(r.out, "nothing to take back"));  // the engine's b4-b3 came before Black's first turn
  REQUIRE(contains(r.out, "replay: gonu play '" + t + "' '.w../w.xw/xx../..w. w' --history 'b4-b3'"));
  // With both sides the --history move is taken back to POSITION itself (played once, not twice).
  const Result both = run_gonu("play '" + t + "' '.w../w.xw/xx../..w. w' --history b4-b3 --as both", "undo\nq\n");
  REQUIRE(contains(both.out, "took back to ply 0"));
  REQUIRE(contains(both.out, "1w2/w1xw/xx2/2w1 w\nvalue: WIN in 5 for white (to move)"));
  // --vary: the seed is printed, the same seed gives the same game.
  const TempDir e;
  const std::string u = cli_table(e, "f33.gtb", "--board 3x3");
  const Result v = run_gonu("play '" + u + "' --as white --vary --seed 42", "1\n1\n1\n1\n1\n");
  INFO(v.out);
  REQUIRE(contains(flat(v.out), "seed 42 (--seed 42 replays its choices)"));
  REQUIRE(contains(v.out, "game over after"));
  REQUIRE(run_gonu("play '" + u + "' --as white --vary --seed 42", "1\n1\n1\n1\n1\n").out == v.out);
  const Result w = run_gonu("play '" + u + "' --as white --vary", "q\n");
  REQUIRE(contains(flat(w.out), "the engine picks at random among its best moves: seed "));
}

namespace {

// KRvK and the tables its moves lead to (promotions, captures), as gonu solve --game jungi writes
// them: the directory gonu play reads a Jungi position's table from.
std::string jungi_krvk(const TempDir& d) {
  const Result r = run_gonu("solve --game jungi --material KRvK --quiet --dir '" + d.path + "'");
  REQUIRE(r.code == 0);
  return d.path;
}

}  // namespace

TEST_CASE("gonu play on Jungi tables: moves by number and as people write them, hint, undo, redo, values, record",
          "[play][cli][jungi]") {
  TempDir d;
  const std::string dir = jungi_krvk(d);
  // KRvK, South to move wins in 15: Ra1-a8=+R (move 7) is the fastest; North's King answers.
  const Result r = run_gonu("play '" + dir + "' '4k4/9/9/9/9/9/9/9/R3K4 s -' --as south",
                            "help\nhint\n7\nundo\nredo\nKa8-a9\nvalues off\nmoves\nrecord\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const std::string out = flat(r.out);
  REQUIRE(contains(out, "gonu play: jungi: hobbling off, promotion compulsory"));
  REQUIRE(contains(out, "you play south; the engine plays north perfectly from"));
  REQUIRE(contains(out, "enter a move in notation (e.g. Ra1-a2)"));
  REQUIRE(contains(out, "value: WIN in 15 for south (to move)"));
  REQUIRE(contains(out, "south's moves:  1. Ra1-a2 (WIN in 21)  2. Ra1-a3 (WIN in 21)"));
  REQUIRE(contains(out, "  7. Ra1-a8=+R (WIN in 15)  "));
  REQUIRE(contains(r.out, "  Ra1-a8, or a number   play that move"));  // help
  REQUIRE(contains(out, "winning moves: Ra1-a8=+R (WIN in 15), Ra1-a7=+R (WIN in 19)"));
  REQUIRE(count(r.out, "you play Ra1-a8=+R\n") == 1);
  REQUIRE(count(r.out, "engine (north) plays Ke9-d9\n") == 1);
  REQUIRE(contains(r.out, "took back to ply 0 (0 plies played)"));
  REQUIRE(contains(r.out, "played again to ply 2 (0 more to redo)"));
  REQUIRE(contains(r.out, "illegal: move 'Ka8-a9': the piece on a8 is +R (Dragon), not K\n"));
  REQUIRE(contains(out, "south's moves:  1. Ke1-e2  2. Ke1-f2"));  // values off
  REQUIRE(contains(r.out, "game record (2 plies): Ra1-a8=+R Ke9-d9\n"));
  REQUIRE(contains(r.out, "replay: gonu play '" + dir + "' '4k4/9/9/9/9/9/9/9/R3K4 s -' --history 'Ra1-a8=+R Ke9-d9'\n"));
  for (const std::string& line : lines(r.out)) {
    INFO(line);
    if (line.find(dir) == std::string::npos) REQUIRE(line.size() <= 80);  // a table's path is one word
  }
}

TEST_CASE("gonu play on Jungi tables: a blunder is said, the winner named, --history in either notation",
          "[play][cli][jungi]") {
  TempDir d;
  const std::string dir = jungi_krvk(d);
  // Rd1-d8=+R lets North's King take the Dragon: WIN -> DRAW.
  const Result b = run_gonu("play '" + dir + "' '4k4/9/9/9/9/9/9/9/3RK4 s -' --as both", "d1-d8\nq\n");
  INFO(b.out << b.err);
  REQUIRE(b.code == 0);
  REQUIRE(contains(flat(b.out), "notice: Rd1-d8=+R changes the value for south: WIN in 15 -> DRAW: a blunder"));
  // The Dragon takes North's King: South wins; the board stays open for undo.
  const std::string win = "'4k4/9/9/9/4+R4/9/9/9/4K4 s -'";
  const Result w = run_gonu("play '" + dir + "' " + win + " --as south", "+Re5xe9\nhint\nundo\nq\n");
  INFO(w.out << w.err);
  REQUIRE(contains(w.out, "you play +Re5xe9, capturing e9\n"));
  REQUIRE(contains(flat(w.out), "game over after 1 ply: North's royal has been captured: North loses."));
  REQUIRE(contains(w.out, "South wins (you).\n"));
  REQUIRE(contains(w.out, "the game is over: no moves"));
  REQUIRE(contains(w.out, "took back to ply 0"));
  // The engine wins against --as north.
  const Result e = run_gonu("play '" + dir + "' " + win + " --as north", "q\n");
  REQUIRE(contains(e.out, "engine (south) plays +Re5xe9, capturing e9\n"));
  REQUIRE(contains(e.out, "South wins (the engine).\n"));
  // --history in from-to and with letters; its moves are in the record and can be taken back.
  const Result h = run_gonu("play '" + dir + "' '4k4/9/9/9/9/9/9/9/R3K4 s -' --history 'a1-a8 Ke9-d9' --as south", "record\nundo\nq\n");
  INFO(h.out << h.err);
  REQUIRE(h.code == 0);
  REQUIRE(contains(h.out, "game record (2 plies): Ra1-a8=+R Ke9-d9\n"));
  REQUIRE(contains(h.out, "took back to ply 0"));
  table_test::require_one_line_error(run_gonu("play '" + dir + "' '4k4/9/9/9/9/9/9/9/R3K4 s -' --history Ka1-a8", ""),
                                     "--history move 1: move 'Ka1-a8': the piece on a1 is R (Chariot), not K");
  // --vary picks among the best moves from a printed seed; the same seed plays the same game.
  const Result v = run_gonu("play '" + dir + "' '4k4/9/9/9/9/9/9/9/R3K4 n -' --as south --vary --seed 5", "1\n1\nq\n");
  REQUIRE(v.code == 0);
  REQUIRE(contains(flat(v.out), "seed 5 (--seed 5 replays its choices)"));
  REQUIRE(run_gonu("play '" + dir + "' '4k4/9/9/9/9/9/9/9/R3K4 n -' --as south --vary --seed 5", "1\n1\nq\n").out == v.out);
}

TEST_CASE("gonu play on Jungi tables: moves into an absent table are unknown, and the engine hands its turn over",
          "[play][cli][jungi]") {
  TempDir d;
  REQUIRE(run_gonu("solve --game jungi --material Kv+K --quiet --dir '" + d.path + "'").code == 0);
  for (const std::string& f : d.list())
    if (f.find("+Kv+K.") != std::string::npos) REQUIRE(std::remove(d.file(f).c_str()) == 0);
  // Ke6-e7=+K promotes into +Kv+K, whose table is gone: North's move cannot be chosen.
  const Result r = run_gonu("play '" + d.path + "' '9/9/9/4K4/9/9/9/9/+k8 s -' --as south", "hint\ne6-e7\nundo\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "1. Ke6-e7=+K (unknown)"));
  REQUIRE(contains(flat(r.out), "moves whose table is absent: Ke6-e7=+K (no table of +Kv+K)"));
  REQUIRE(contains(flat(r.out), "value: unknown for north (to move): no table of +Kv+K"));
  REQUIRE(contains(flat(r.out), "the engine cannot choose a move: "));
  REQUIRE(contains(flat(r.out), "; play one for north, undo, or quit."));
  REQUIRE(contains(r.out, "took back to ply 0"));
}

// tmux: a real terminal, so gonu reads through libedit. Keys are sent one command at a time and
// the pane is captured at the end (the game's output stays in tmux's history).
TEST_CASE("gonu play in a terminal (tmux): undo, hint and the record", "[play][cli][tmux]") {
  if (std::system("command -v tmux >/dev/null 2>&1") != 0) {
    WARN("tmux is not installed: the terminal test is skipped");
    return;
  }
  TempDir d;
  const std::string t = cli_table(d, "f33.gtb", "--board 3x3");
  const std::string sock = "gonu-test-" + std::to_string(getpid());
  const std::string tmux = "tmux -L " + sock + " -f /dev/null ";
  const std::string out = d.file("pane");
  const std::string start = tmux + "new-session -d -x 100 -y 50 -s play \"'" + GONU_BIN_DIR + "/gonu' play '" + t +
                            "' --as white; echo GONU-EXIT=\\$?; sleep 30\"";
  REQUIRE(std::system(start.c_str()) == 0);
  const auto send = [&](const std::string& keys) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const std::string cmd = tmux + "send-keys -t play '" + keys + "' Enter";
    REQUIRE(std::system(cmd.c_str()) == 0);
  };
  for (const char* keys : {"hint", "1", "undo", "1", "1", "1", "1", "q"}) send(keys);
  std::string pane;
  for (int tries = 0; tries < 50 && !contains(pane, "GONU-EXIT="); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const std::string cap = tmux + "capture-pane -p -S -2000 -t play > '" + out + "'";
    REQUIRE(std::system(cap.c_str()) == 0);
    pane = slurp(out);
  }
  [[maybe_unused]] const int killed = std::system((tmux + "kill-server 2>/dev/null").c_str());
  INFO(pane);
  REQUIRE(contains(pane, "white> hint"));
  REQUIRE(contains(pane, "losing moves:"));
  REQUIRE(contains(pane, "took back to ply 1"));
  REQUIRE(contains(pane, "game over after 7 plies"));
  REQUIRE(contains(pane, "game record (7 plies): "));
  REQUIRE(contains(pane, "GONU-EXIT=0"));
}
