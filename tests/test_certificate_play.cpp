// Playing a superko proof: CertificatePlayer follows the winner's strategy of every certificate
// format against every defence (the loser's legal moves with the whole history, superko applied)
// and wins each game; gonu play --certificate and gonu query --certificate as a user meets them;
// gonu solve's superko report (the winner's first move, the strategy's size, the longest game,
// the layers only with --stats).
#include <algorithm>
#include <functional>
#include <random>
#include <nlohmann/json.hpp>

#include "checker/certificate_play.hpp"
#include "tests/table_test_util.hpp"

using namespace table_test;
using namespace gonu;

namespace {

// Every game from the root with the strategy for the winner and any legal move for the loser:
// the strategy always has a legal move, every game ends with the loser to move and lost. Returns
// the games played to the end; `longest` gets the plies of the longest (each game played out, no
// memo: the brute force that CertificatePlayer::longest_game is checked against).
std::uint64_t every_defence_loses(const CertificatePlayer& p, std::uint64_t* longest = nullptr) {
  std::uint64_t games = 0;
  std::function<void(const Game&)> walk = [&](const Game& g) {
    if (!game_over_reason(g).empty()) {
      REQUIRE(current(g).to_move != p.winner());
      ++games;
      if (longest) *longest = std::max<std::uint64_t>(*longest, g.moves.size() - p.root().moves.size());
      return;
    }
    if (current(g).to_move == p.winner()) {
      const std::optional<Move> m = p.winner_move(g);
      REQUIRE(m);
      Game next = g;
      play(next, *m);  // throws if the move is not legal with the whole history
      walk(next);
      return;
    }
    REQUIRE(!p.winner_move(g));
    for (const Move& m : legal_moves(g)) {
      Game next = g;
      play(next, m);
      REQUIRE(p.follows(next));
      walk(next);
    }
  };
  walk(p.root());
  return games;
}

std::string certificate(const TempDir& d, const std::string& name, const std::string& args) {
  const std::string path = d.file(name);
  const Result r = run_gonu("solve " + args + " --quiet --certificate '" + path + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return path;
}

}  // namespace

TEST_CASE("the strategy of every certificate format wins against every defence", "[superko][certificate][play]") {
  TempDir d;
  // 3x3 proofs, whose every game can be played; format 3 only comes on a larger board (4x3,
  // random defences below).
  const std::vector<std::pair<std::string, int>> cases = {
      {"--rules soldiers --board 3x3 --no-strategy", 1},     {"--rules corner --board 3x3 --no-strategy", 1},
      {"--rules soldiers --board 3x3", 2},                   {"--rules corner --board 3x3", 2},
      {"--rules soldiers --board 3x3 --strategy-method lazy", 4},
      {"--rules soldiers --board 3x3 --entry-layers", 6},    {"--rules soldiers --board 3x3 --strategy-memory 2", 7},
      {"--rules corner --board 3x3 --no-strategy --search dfpn", 8}};
  int k = 0;
  for (const auto& [args, format] : cases) {
    INFO(args);
    const CertificatePlayer p = CertificatePlayer::load(certificate(d, std::to_string(k++) + ".cert", args));
    REQUIRE(p.format() == format);
    REQUIRE(p.size() > 0);
    std::uint64_t longest = 0;
    REQUIRE(every_defence_loses(p, &longest) > 0);
    REQUIRE(p.longest_game(1'000'000) == longest);
    REQUIRE(!p.longest_game(3));  // over its budget: not counted
  }
  // Format 3 (a tree with strategy leaves), 4x3: random defences, each lost.
  const CertificatePlayer p = CertificatePlayer::load(certificate(d, "c43", "--rules soldiers --board 4x3"));
  REQUIRE(p.format() == 3);
  std::mt19937 rng(5);
  for (int game = 0; game < 40; ++game) {
    Game g = p.root();
    while (game_over_reason(g).empty()) {
      if (current(g).to_move == p.winner()) {
        const std::optional<Move> m = p.winner_move(g);
        REQUIRE(m);
        play(g, *m);
      } else {
        const std::vector<Move> moves = legal_moves(g);
        play(g, moves[rng() % moves.size()]);
      }
    }
    REQUIRE(current(g).to_move != p.winner());
  }
}

TEST_CASE("gonu play --certificate: the user defends, the strategy answers, undo tries another defence",
          "[superko][certificate][play][cli]") {
  TempDir d;
  const std::string c = certificate(d, "s33", "--rules soldiers --board 3x3");
  // Black wins; White (the user, by default) plays its first listed move each time until it loses.
  const Result r = run_gonu("play --certificate '" + c + "'", "1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\nundo\n2\nq\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(flat(r.out), "you play white; the proof's strategy plays black."));
  REQUIRE(contains(r.out, "strategy (black) plays c3-c2"));
  REQUIRE(contains(flat(r.out), "Black wins, as the proof says."));
  REQUIRE(contains(r.out, "the game is over: undo takes moves back, quit ends"));
  REQUIRE(contains(r.out, "took back to ply "));
  // The winner's side is the strategy's: refused; both sides is an analysis board with hints.
  REQUIRE(run_gonu("play --certificate '" + c + "' --as black", "q\n").code == 1);
  const Result both = run_gonu("play --certificate '" + c + "' --as both", "hint\nq\n");
  REQUIRE(contains(both.out, "the strategy plays c3-c2"));
  // A history that leaves the proof is refused.
  const Result off = run_gonu("play --certificate '" + c + "' --history 'a3-a2'", "q\n");
  REQUIRE(off.code == 1);
  REQUIRE(contains(off.err, "the history leaves the proof"));
}

TEST_CASE("gonu query --certificate: the strategy's move, or the loser's replies with its answers",
          "[superko][certificate][play][cli]") {
  TempDir d;
  const std::string c = certificate(d, "s33", "--rules soldiers --board 3x3");
  const Result root = run_gonu("query --certificate '" + c + "'");
  INFO(root.out << root.err);
  REQUIRE(root.code == 0);
  REQUIRE(contains(root.out, "value:       WIN for black (to move), proven"));
  REQUIRE(contains(root.out, "strategy:    c3-c2\n"));
  const Result j = run_gonu("query --certificate '" + c + "' --history c3-c2 --json");
  REQUIRE(j.code == 0);
  const nlohmann::json q = nlohmann::json::parse(j.out);
  REQUIRE(q["schema"] == "gonu-certificate-query/1");
  REQUIRE(q["value"] == "LOSS");
  REQUIRE(q["winner_move"].is_null());
  // Every legal reply of White's, each answered.
  const Game after = [] {
    Game g = new_game(rules_by_name("soldiers"), parse_position(make_board(3, 3), "xx1/2x/www w"));
    return g;
  }();
  REQUIRE(q["replies"].size() == legal_moves(after).size());
  for (const auto& r : q["replies"]) REQUIRE(r["answer"].is_string());
  // A POSITION without history: found in the proof.
  const std::string pos = q["position"];
  const Result byp = run_gonu("query --certificate '" + c + "' '" + pos + "' --json");
  REQUIRE(byp.code == 0);
  REQUIRE(nlohmann::json::parse(byp.out)["replies"] == q["replies"]);
  // One no game of the proof reaches.
  require_one_line_error(run_gonu("query --certificate '" + c + "' 'xxx/www/3 x'"), "no game of the proof reaches");
}

TEST_CASE("gonu solve under superko: the winner's first move and the proof's size, layers with --stats",
          "[superko][certificate][cli]") {
  const Result r = run_gonu("solve --rules soldiers --board 3x3 -q");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  REQUIRE(contains(r.out, "first move:       c3-c2 (black, by the proof; 34 entries in the proof"));
  REQUIRE(contains(r.out, "games of at most 33 plies"));
  REQUIRE(!contains(r.out, "layers (black-white"));
  const Result stats = run_gonu("solve --rules soldiers --board 3x3 -q --stats");
  REQUIRE(stats.code == 0);
  REQUIRE(contains(stats.out, "layers (black-white"));
  REQUIRE(contains(stats.out, "  3-3: "));
  const nlohmann::json j = nlohmann::json::parse(run_gonu("solve --rules soldiers --board 3x3 -q --json").out);
  REQUIRE(j["first_move"] == "c3-c2");
  REQUIRE(j["proof_size"] == 34);
  REQUIRE(!j["layers"].empty());
  // The search's proof (format 1) names its first move too.
  REQUIRE(contains(run_gonu("solve --rules corner --board 3x3 -q --no-strategy").out, "first move:       a3-a2 (black"));
}

TEST_CASE("gonu solve under superko: where the loser moves first, the winner's answer to each of its first moves",
          "[superko][certificate][cli]") {
  // 3x4 soldiers: Black moves first and White wins.
  const Result r = run_gonu("solve --rules soldiers --board 3x4 -q --json");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["winner"] == "white");
  REQUIRE(j["first_move"].is_null());
  // One answer for each of Black's legal first moves, each checked by replaying it against the
  // proof with gonu query --certificate.
  TempDir d;
  const std::string c = d.path + "/c";
  REQUIRE(run_gonu("solve --rules soldiers --board 3x4 -q --certificate '" + c + "'").code == 0);
  const nlohmann::json root = nlohmann::json::parse(run_gonu("query --certificate '" + c + "' --json").out);
  REQUIRE(j["answers"].size() == root["replies"].size());
  for (const auto& line : j["answers"]) {
    const std::string text = line.get<std::string>();
    const std::size_t space = text.find(' ');
    REQUIRE(space != std::string::npos);
    const nlohmann::json after = nlohmann::json::parse(
        run_gonu("query --certificate '" + c + "' --history '" + text.substr(0, space) + "' --json").out);
    REQUIRE(after["winner_move"] == text.substr(space + 1));
  }
  REQUIRE(contains(run_gonu("solve --rules soldiers --board 3x4 -q").out, "answers:          "));
}

TEST_CASE("gonu solve under superko: the longest game, for a strategy's proof and a search's, as a brute force "
          "counts it on the certificate", "[superko][certificate][cli]") {
  TempDir d;
  // Format 2 (a memoryless strategy: its bound is 33 plies, its longest game shorter) and format 1
  // (the search's tree, whose longest game is its depth).
  for (const auto& [args, plies] : std::vector<std::pair<std::string, int>>{
           {"--rules soldiers --board 3x3", 15}, {"--rules soldiers --board 3x3 --no-strategy", 7}}) {
    INFO(args);
    const std::string path = d.file("longest.cert");
    const Result r = run_gonu("solve " + args + " -q --certificate '" + path + "'");
    REQUIRE(r.code == 0);
    std::uint64_t longest = 0;
    every_defence_loses(CertificatePlayer::load(path), &longest);
    REQUIRE(longest == std::uint64_t(plies));
    REQUIRE(contains(r.out, "longest game:     " + std::to_string(plies) + " plies (the proof's strategy against the "
                            "loser's longest defence)\n"));
    const nlohmann::json j = nlohmann::json::parse(run_gonu("solve " + args + " -q --json").out);
    REQUIRE(j["longest_game"] == plies);
  }
}
