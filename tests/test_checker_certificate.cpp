// Superko certificates: the checker accepts what the solver proves and rejects tampered files (a
// removed loser branch, a changed winner move, truncation, another rule set); and the gonu
// commands (solve with --certificate, check-certificate) as processes.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "core/julgonu/game.hpp"
#include "checker/certificate_check.hpp"
#include "solver/julgonu/superko/superko.hpp"
#include "tests/test_support.hpp"

namespace gonu {
namespace {

using test::join;
using test::start_game;
using test::tokens;

// The index just past the subtree that starts at token i (see the format in solver/julgonu/superko/SUPERKO.md).
std::size_t skip(const std::vector<std::string>& t, std::size_t i) {
  const std::string& k = t.at(i);
  if (k == "T" || k == "B") return i + 1;
  if (k == "R") return i + 2;
  if (k == "W") return skip(t, i + 2);
  REQUIRE(k == "L");
  std::size_t j = i + 2;
  for (int n = std::stoi(t.at(i + 1)); n > 0; --n) j = skip(t, j + 1);
  return j;
}

CertificateCheck check_text(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in);
}

// These tests tamper with search proofs (format 1 trees); strategy certificates (format 2) have
// their own tests in test_superko_strategy.cpp.
SuperkoResult solve_with_certificate(const Game& g) {
  SuperkoOptions o;
  o.strategy = false;
  o.certificate = true;
  return solve_superko(g, o);
}

// Random small positions whose certificates have a loser node with two moves or more.
std::vector<Game> interesting_games() {
  std::vector<Game> out;
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 400 && out.size() < 12; ++trial) {
    Rules r = rules_by_name(trial % 2 ? "corner" : "soldiers");
    r.rows = 3;
    r.cols = 3 + int(trial % 3 == 0);
    const Board b = make_board(r.rows, r.cols);
    std::vector<int> sq(b.n);
    for (int i = 0; i < b.n; ++i) sq[i] = i;
    std::shuffle(sq.begin(), sq.end(), rng);
    Position p;
    for (int i = 0; i < 3; ++i) p.black |= bit(sq[i]);
    for (int i = 3; i < 5; ++i) p.white |= bit(sq[i]);
    p.to_move = rng() & 1 ? Side::black : Side::white;
    Game g = new_game(r, p);
    SuperkoOptions o;
    o.strategy = false;
    o.certificate = true;
    o.max_nodes = 200'000;
    const SuperkoResult res = solve_superko(g, o);
    if (res.value == SkValue::unknown || !res.certificate_error.empty()) continue;
    const auto t = tokens(res.certificate);
    bool has_branching = false;
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
      if (t[i] == "L" && t[i + 1] != "1" && t[i + 1] != "0") has_branching = true;
    if (has_branching) out.push_back(g);
  }
  return out;
}

}  // namespace

TEST_CASE("certificate: what the solver proves passes the checker", "[superko][certificate]") {
  for (const char* name : {"soldiers", "corner"})
    for (auto [rows, cols] : {std::pair{2, 3}, {3, 2}, {3, 3}, {2, 4}}) {
      const SuperkoResult r = solve_with_certificate(start_game(name, rows, cols));
      REQUIRE(r.value != SkValue::unknown);
      const CertificateCheck c = check_text(r.certificate);
      INFO(c.message);
      REQUIRE(c.ok);
    }
  for (const Game& g : interesting_games()) {
    const CertificateCheck c = check_text(solve_with_certificate(g).certificate);
    INFO(c.message);
    REQUIRE(c.ok);
  }
}

TEST_CASE("certificate: a removed loser branch is found", "[superko][certificate]") {
  const std::vector<Game> games = interesting_games();
  REQUIRE(games.size() >= 4);
  for (const Game& g : games) {
    std::vector<std::string> t = tokens(solve_with_certificate(g).certificate);
    std::size_t at = 0;
    while (!(t[at] == "L" && std::stoi(t[at + 1]) >= 2)) ++at;
    const std::size_t first = at + 2, end = skip(t, first + 1);
    t[at + 1] = std::to_string(std::stoi(t[at + 1]) - 1);
    t.erase(t.begin() + first, t.begin() + end);
    const CertificateCheck c = check_text(join(t));
    INFO(c.message);
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.message.find("legal moves") != std::string::npos);
  }
}

TEST_CASE("certificate: a winner's move changed to a losing one is found", "[superko][certificate]") {
  int tampered = 0;
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 300 && tampered < 10; ++trial) {
    Rules r = rules_by_name(trial % 2 ? "corner" : "soldiers");
    r.rows = r.cols = 3;
    const Board b = make_board(3, 3);
    std::vector<int> sq(9);
    for (int i = 0; i < 9; ++i) sq[i] = i;
    std::shuffle(sq.begin(), sq.end(), rng);
    Position p;
    for (int i = 0; i < 3; ++i) p.black |= bit(sq[i]);
    for (int i = 3; i < 6; ++i) p.white |= bit(sq[i]);
    const Game g = new_game(r, p);
    SuperkoOptions budgeted;
    budgeted.strategy = false;
    budgeted.certificate = true;
    budgeted.max_nodes = 100'000;
    const SuperkoResult res = solve_superko(g, budgeted);
    if (res.value != SkValue::win || !res.certificate_error.empty()) continue;
    std::vector<std::string> t = tokens(res.certificate);
    std::size_t at = 0;
    while (t[at] != "section") ++at;
    REQUIRE(t[at + 4] == "W");
    for (const Move& m : legal_moves(g)) {
      Game after = g;
      play(after, m);
      SuperkoOptions o;
      o.max_nodes = 100'000;
      if (solve_superko(after, o).value != SkValue::win) continue;  // m does not surely lose: skip
      std::vector<std::string> bad = t;
      bad[at + 5] = format_move(b, r, m);
      const CertificateCheck c = check_text(join(bad));
      INFO(c.message);
      REQUIRE_FALSE(c.ok);
      ++tampered;
    }
  }
  REQUIRE(tampered >= 5);
}

TEST_CASE("certificate: truncated, corrupted and foreign files get a clear error", "[superko][certificate]") {
  const std::string text = solve_with_certificate(start_game("corner", 3, 2)).certificate;
  REQUIRE(check_text(text).ok);
  SECTION("truncated") {
    const CertificateCheck c = check_text(text.substr(0, text.size() / 2));
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.message.find("truncated") != std::string::npos);
  }
  SECTION("not a certificate") {
    const CertificateCheck c = check_text("hello world\n");
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.message.find("not a gonu superko certificate") != std::string::npos);
  }
  SECTION("another rule set") {
    std::string other = text;
    other.replace(other.find("/superko/"), 9, "/none/");
    const CertificateCheck c = check_text(other);
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.message.find("not superko") != std::string::npos);
  }
  SECTION("a garbled token") {
    std::string bad = text;
    bad.replace(bad.find("\nL "), 3, "\nQ ");
    const CertificateCheck c = check_text(bad);
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.message.find("not a tree node") != std::string::npos);
  }
  SECTION("the claimed winner swapped") {
    std::string bad = text;
    bad.replace(bad.find("winner white"), 12, "winner black");
    REQUIRE_FALSE(check_text(bad).ok);
  }
  SECTION("every message is one line") {
    for (const std::string& t : {text.substr(0, 40), std::string("gonu-superko-certificate 1\nrules x\n")})
      REQUIRE(check_text(t).message.find('\n') == std::string::npos);
  }
}

namespace {
struct Run {
  int code = -1;
  std::string out;
};
Run gonu_run(const std::string& args) {
  char dir_template[] = "/tmp/gonu-superko-test-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  REQUIRE(dir != nullptr);
  const std::string out = std::string(dir) + "/out";
  const std::string cmd = std::string("'") + GONU_BIN_DIR + "/gonu' " + args + " >'" + out + "' 2>&1 </dev/null";
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(out);
  std::stringstream s;
  s << in.rdbuf();
  r.out = s.str();
  return r;
}
}  // namespace

TEST_CASE("certificate: gonu solve --certificate and gonu check-certificate", "[superko][certificate][cli]") {
  char dir_template[] = "/tmp/gonu-superko-cert-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string file = dir + "/corner-3x2.cert";
  Run s = gonu_run("solve --rules corner --board 3x2 --quiet --no-strategy --certificate '" + file + "'");
  REQUIRE(s.code == 0);
  REQUIRE(s.out.find("LOSS for black") != std::string::npos);
  Run c = gonu_run("check-certificate '" + file + "'");
  REQUIRE(c.code == 0);
  REQUIRE(c.out.rfind("OK:", 0) == 0);
  {
    std::ofstream cut(dir + "/cut.cert");
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    cut << text.substr(0, text.size() - 30);
  }
  Run bad = gonu_run("check-certificate '" + dir + "/cut.cert'");
  REQUIRE(bad.code == 1);
  REQUIRE(std::count(bad.out.begin(), bad.out.end(), '\n') == 1);
  Run open = gonu_run("solve --rules soldiers --board 5x2 --quiet --no-strategy --max-nodes 2000 --certificate '" + dir + "/x'");
  REQUIRE(open.code == 3);  // not proven: its own exit status
  REQUIRE(open.out.find("NOT PROVEN") != std::string::npos);
  REQUIRE(open.out.find("not written") != std::string::npos);
  // With the strategy search (the default), 5x2 is proven and its format-2 certificate checks.
  Run proven = gonu_run("solve --rules soldiers --board 5x2 --quiet --certificate '" + dir + "/5x2.cert'");
  REQUIRE(proven.code == 0);
  REQUIRE(proven.out.find("white wins; by a memoryless strategy") != std::string::npos);
  Run check5 = gonu_run("check-certificate '" + dir + "/5x2.cert'");
  REQUIRE(check5.code == 0);
  REQUIRE(check5.out.find("memoryless strategy") != std::string::npos);
}

TEST_CASE("certificate: a format-1 table's move field at a loser's state must be '-'", "[superko][certificate]") {
  const SuperkoResult r = solve_with_certificate(start_game("soldiers", 3, 3));
  REQUIRE(r.certificate.rfind("gonu-superko-certificate 1\n", 0) == 0);
  REQUIRE(check_text(r.certificate).ok);
  // The first table line of the loser's (its move field "-", at the line's end).
  const std::size_t table = r.certificate.find("\ntable ");
  REQUIRE(table != std::string::npos);
  const std::size_t dash = r.certificate.find(" -\n", table);
  REQUIRE(dash != std::string::npos);
  for (const std::string& field : {std::string("-\0junk", 6), std::string("--"), std::string("a1-a2"), std::string("-x")}) {
    std::string text = r.certificate;
    text.replace(dash + 1, 1, field);
    const CertificateCheck c = check_text(text);
    INFO(c.message);
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.message.find("has move field") != std::string::npos);
    REQUIRE(c.message.find('\0') == std::string::npos);  // quoted printable
  }
}

}  // namespace gonu
