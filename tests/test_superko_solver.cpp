// The superko solver against a plain full-history negamax written here (no pruning, no caching:
// every legal move of core's Game record is played and valued), on tiny boards from the start and
// from random positions with random histories; the facts the solver rests on; and every
// certificate produced passes the independent checker.
#include <catch2/catch.hpp>

#include <optional>
#include <random>
#include <sstream>

#include "core/julgonu/game.hpp"
#include "checker/certificate_check.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/superko/superko.hpp"

namespace gonu {
namespace {

// The reference: the side to move wins iff some legal move leads to a position the opponent
// loses. Plays every move (no cut-off) with the full Game record; nullopt past the node budget.
std::optional<bool> negamax(Game& g, std::uint64_t& budget) {
  if (budget == 0) return std::nullopt;
  --budget;
  const std::vector<Move> legal = legal_moves(g);  // empty when the game is over
  bool win = false;
  for (const Move& m : legal) {
    const std::vector<Position> saved = g.since_capture;
    // m is legal (legal_moves applied the superko rule to the whole history): record it as play() does.
    const Position next = apply_move(current(g), m);
    if (m.captured) g.since_capture.clear();
    g.since_capture.push_back(next);
    g.moves.push_back(m);
    g.positions.push_back(next);
    const std::optional<bool> child = negamax(g, budget);
    g.moves.pop_back();
    g.positions.pop_back();
    g.since_capture = saved;
    if (!child) return std::nullopt;
    if (!*child) win = true;
  }
  return win;
}

Rules superko_rules(const std::string& name, int rows, int cols) {
  Rules r = rules_by_name(name);
  r.rows = rows;
  r.cols = cols;
  return r;
}

Position random_position(std::mt19937_64& rng, const Board& b, int nb, int nw) {
  Position p;
  std::vector<int> squares(b.n);
  for (int i = 0; i < b.n; ++i) squares[i] = i;
  std::shuffle(squares.begin(), squares.end(), rng);
  for (int i = 0; i < nb; ++i) p.black |= bit(squares[i]);
  for (int i = 0; i < nw; ++i) p.white |= bit(squares[nb + i]);
  p.to_move = rng() & 1 ? Side::white : Side::black;
  return p;
}

// Plays up to k random legal moves.
void random_history(std::mt19937_64& rng, Game& g, int k) {
  for (int i = 0; i < k; ++i) {
    const std::vector<Move> legal = legal_moves(g);
    if (legal.empty()) return;
    play(g, legal[rng() % legal.size()]);
  }
}

void require_certificate_ok(const SuperkoResult& r) {
  REQUIRE(r.certificate_error.empty());
  std::istringstream in(r.certificate);
  const CertificateCheck c = check_certificate(in);
  INFO(c.message);
  REQUIRE(c.ok);
}

int strategy_proofs = 0;  // cases the strategy search alone proved, over the whole run

// Compares the solver (in every configuration) with the reference; returns false if the
// reference ran out of budget.
bool agree(const Game& g, std::uint64_t budget = 2'000'000) {
  Game copy = g;
  const std::optional<bool> ref = negamax(copy, budget);
  if (!ref) return false;
  const SkValue want = *ref ? SkValue::win : SkValue::loss;
  for (int config = 0; config < 7; ++config) {
    SuperkoOptions o;
    // configs 0-5: the search alone, in its variants; 6: the strategy search alone (it may find none)
    o.strategy = config == 6;
    o.search = config != 6;
    o.banfree_leaves = (config & 1) == 0;
    o.transpositions = (config & 2) == 0;
    o.relevance = config < 4;  // configs 4, 5: the exact-set table alone
    if (config == 1) o.max_relevant_boards = 3;
    o.max_table_entries = config == 0 ? 7 : std::size_t(1) << 20;  // config 0 also exercises clearing
    o.certificate = true;
    const SuperkoResult r = solve_superko(g, o);
    INFO("position " << format_position(g.board, current(g)) << " after " << g.moves.size() << " moves, config "
                     << config);
    if (config == 6 && r.value == SkValue::unknown) continue;
    if (config == 6) ++strategy_proofs;
    REQUIRE(r.value == want);
    require_certificate_ok(r);
  }
  return true;
}

}  // namespace

TEST_CASE("superko: tiny boards from the start agree with the full-history negamax", "[superko]") {
  for (const char* name : {"soldiers", "corner"}) {
    for (auto [rows, cols] : {std::pair{2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}}) {
      const Rules r = superko_rules(name, rows, cols);
      const Game g = new_game(r, start_position(make_board(rows, cols), r.first));
      INFO(name << " " << rows << "x" << cols);
      // 4x2 and 3x3 from the start may be beyond the plain reference; the rest must not be.
      const bool done = agree(g, 300'000);
      if (rows * cols <= 6) REQUIRE(done);
    }
  }
}

TEST_CASE("superko: random positions with random histories agree with the negamax", "[superko]") {
  std::mt19937_64 rng(20261122);
  int compared = 0;
  for (int trial = 0; trial < 140; ++trial) {
    const char* name = trial % 2 ? "corner" : "soldiers";
    const int shapes[][2] = {{3, 3}, {3, 2}, {2, 3}, {2, 4}, {4, 2}, {3, 4}, {4, 3}};
    const auto* s = shapes[trial % 7];
    const Rules r = superko_rules(name, s[0], s[1]);
    const Board b = make_board(s[0], s[1]);
    const int nb = 2 + int(rng() % 2), nw = 2 + int(rng() % 2);
    if (nb + nw > b.n - 2 || (b.n >= 12 && nb + nw < 6)) continue;  // big boards: crowded only
    Game g = new_game(r, random_position(rng, b, nb, nw));
    random_history(rng, g, int(rng() % 9));
    if (agree(g, 100'000)) ++compared;
  }
  REQUIRE(compared >= 20);
  REQUIRE(strategy_proofs >= 10);  // the strategy search proves a good share on its own
}

TEST_CASE("superko: a board recurs only after a multiple of four plies and never across a capture",
          "[superko]") {
  std::mt19937_64 rng(7);
  int recurrences = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Rules r = superko_rules(trial % 2 ? "corner" : "soldiers", 3 + int(rng() % 2), 3 + int(rng() % 2));
    r.repetition = Repetition::none;  // the ban-free game: boards may recur
    const Board b = make_board(r.rows, r.cols);
    Game g = new_game(r, random_position(rng, b, 2 + int(rng() % 3), 2 + int(rng() % 3)));
    std::vector<int> last_capture_ply(1, 0);
    for (int ply = 1; ply <= 60; ++ply) {
      const std::vector<Move> legal = legal_moves(g);
      if (legal.empty()) break;
      const Move m = legal[rng() % legal.size()];
      play(g, m);
      last_capture_ply.push_back(m.captured ? ply : last_capture_ply.back());
      const Position& now = current(g);
      for (int earlier = 0; earlier < ply; ++earlier) {
        const Position& then = g.positions[earlier];
        if (then.black != now.black || then.white != now.white) continue;
        ++recurrences;
        REQUIRE((ply - earlier) % 4 == 0);
        REQUIRE(then.to_move == now.to_move);
        REQUIRE(last_capture_ply[ply] <= earlier);  // no capture in between
      }
    }
  }
  REQUIRE(recurrences > 100);
}

TEST_CASE("superko: a ban-free decided state keeps its value under a history inside the draw region "
          "and of larger distances",
          "[superko]") {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 120 && checked < 15; ++trial) {
    const Rules r = superko_rules(trial % 2 ? "corner" : "soldiers", 3, 3 + int(rng() % 2));
    Rules free_rules = r;
    free_rules.repetition = Repetition::none;
    const Board b = make_board(r.rows, r.cols);
    const Position p0 = random_position(rng, b, 2 + int(rng() % 2), 2 + int(rng() % 2));
    const Solution s = solve(new_game(free_rules, p0));
    auto bf = [&](const Position& p, std::uint16_t& d) {
      const auto at = find_state(s, encode_board_side(s.codec, p));
      d = at ? s.dist[*at] : 0;
      return at ? s.value[*at] : Value::draw;
    };
    // A random superko walk from p0; whenever it stands on a decided state whose history holds
    // only draws or larger distances, the reference must give the ban-free value.
    Game g = new_game(r, p0);
    for (int ply = 0; ply < 12; ++ply) {
      std::uint16_t d;
      const Value v = bf(current(g), d);
      if (v != Value::draw) {
        bool inside = true;
        for (std::size_t i = 0; i + 1 < g.since_capture.size(); ++i) {
          std::uint16_t dh;
          if (bf(g.since_capture[i], dh) != Value::draw && dh <= d) inside = false;
        }
        if (inside) {
          Game copy = g;
          std::uint64_t budget = 20'000;
          const std::optional<bool> ref = negamax(copy, budget);
          if (ref) {
            REQUIRE(*ref == (v == Value::win));
            ++checked;
          }
        }
      }
      const std::vector<Move> legal = legal_moves(g);
      if (legal.empty()) break;
      play(g, legal[rng() % legal.size()]);
    }
  }
  REQUIRE(checked >= 10);
}

TEST_CASE("superko: the value of a state entered by a capture does not depend on the earlier history",
          "[superko]") {
  std::mt19937_64 rng(5);
  int checked = 0;
  for (int trial = 0; trial < 300 && checked < 15; ++trial) {
    const int rows = 2 + int(trial % 3 == 0), cols = trial % 3 == 1 ? 5 : 4;
    const Rules r = superko_rules(trial % 2 ? "corner" : "soldiers", rows, cols);
    const Board b = make_board(rows, cols);
    Game g = new_game(r, random_position(rng, b, 3, 2 + int(rng() % 2)));
    random_history(rng, g, int(rng() % 6));
    for (const Move& m : legal_moves(g)) {
      if (!m.captured) continue;
      Game after = g;
      play(after, m);
      Game fresh = new_game(r, current(after));
      std::uint64_t b1 = 50'000, b2 = 50'000;
      const auto v1 = negamax(after, b1), v2 = negamax(fresh, b2);
      if (v1 && v2) {
        REQUIRE(*v1 == *v2);
        ++checked;
      }
    }
  }
  REQUIRE(checked >= 10);
}

TEST_CASE("superko: a budget leaves the value unknown and says why", "[superko]") {
  const Rules r = superko_rules("soldiers", 5, 2);
  const Game g = new_game(r, start_position(make_board(5, 2), r.first));
  SuperkoOptions o;
  o.strategy = false;  // the strategy search proves 5x2 at once
  o.max_nodes = 1000;
  o.certificate = true;
  const SuperkoResult res = solve_superko(g, o);
  REQUIRE(res.value == SkValue::unknown);
  REQUIRE(res.stop_reason == "node budget");
  REQUIRE(res.certificate.empty());
  REQUIRE_FALSE(res.layers.empty());
}

}  // namespace gonu
