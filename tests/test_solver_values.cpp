// Solver values against a plain depth-limited minimax written here from the rule definitions:
// the minimax keeps explicit history (the last four positions for `immediate`, the last two
// moves for `undo`) instead of the solver's normalised tag, so it also checks that the tag keeps
// everything that decides legality. Every state reached by random play from the start is
// compared: if the solver's distance is within the depth, the minimax finds the same value at
// exactly that depth; otherwise the minimax finds nothing forced within the depth.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <tuple>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::named_on;

namespace {

struct History {
  std::vector<Position> positions;  // the whole line, oldest first
  std::vector<Move> moves;
};

// Legal moves by the definitions, from the explicit history.
std::vector<Move> plain_legal(const Board& b, const Rules& r, const History& h) {
  const Position& p = h.positions.back();
  if (popcount(mover(p)) <= 1) return {};
  std::vector<Move> out;
  for (const Move& m : generate_moves(b, r, p)) {
    const Position q = apply_move(p, m);
    if (r.repetition == Repetition::immediate && h.positions.size() >= 4 && h.positions[h.positions.size() - 4] == q)
      continue;
    if (r.repetition == Repetition::undo && h.moves.size() >= 2) {
      const Move& mine = h.moves[h.moves.size() - 2];
      if (m.from == mine.to && m.to == mine.from) continue;
    }
    out.push_back(m);
  }
  return out;
}

// What the future of a history depends on, by the definitions (no normalisation).
std::vector<std::uint64_t> memo_key(const Rules& r, const History& h) {
  std::vector<std::uint64_t> k;
  const auto add = [&](const Position& p) { k.insert(k.end(), {p.black, p.white, std::uint64_t(p.to_move)}); };
  if (r.repetition == Repetition::immediate) {
    for (std::size_t i = h.positions.size() >= 4 ? h.positions.size() - 4 : 0; i < h.positions.size(); ++i) add(h.positions[i]);
  } else {
    add(h.positions.back());
    if (r.repetition == Repetition::undo)
      for (std::size_t i = h.moves.size() >= 2 ? h.moves.size() - 2 : 0; i < h.moves.size(); ++i)
        k.insert(k.end(), {std::uint64_t(h.moves[i].from), std::uint64_t(h.moves[i].to)});
  }
  k.push_back(h.positions.size() < 4 ? h.positions.size() : 4);
  return k;
}

// +1: the side to move wins within `depth` plies; -1: loses within depth; 0: neither forced.
int minimax(const Board& b, const Rules& r, History& h, int depth, std::map<std::pair<std::vector<std::uint64_t>, int>, int>& memo) {
  const std::vector<Move> legal = plain_legal(b, r, h);
  if (legal.empty()) return -1;
  if (depth == 0) return 0;
  const auto key = std::make_pair(memo_key(r, h), depth);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  bool all_win = true;
  int result = 0;
  for (const Move& m : legal) {
    h.positions.push_back(apply_move(h.positions.back(), m));
    h.moves.push_back(m);
    const int v = minimax(b, r, h, depth - 1, memo);
    h.positions.pop_back();
    h.moves.pop_back();
    if (v == -1) {
      result = 1;
      break;
    }
    if (v != 1) all_win = false;
  }
  if (result == 0 && all_win) result = -1;
  memo[key] = result;
  return result;
}

void check_against_minimax(Rules r, int depth, int games, int plies) {
  const Board b = make_board(r.rows, r.cols);
  const Game g0 = new_game(r, start_position(b, r.first));
  const Solution s = solve(g0);
  std::map<std::pair<std::vector<std::uint64_t>, int>, int> memo;
  std::mt19937_64 rng(12345);
  int compared = 0, decided = 0;
  for (int game = 0; game < games; ++game) {
    Game g = g0;
    History h{{current(g)}, {}};
    for (int ply = 0; ply < plies; ++ply) {
      const Key k = encode_key(s.codec, current(g), g.tag);
      const auto id = find_state(s, k);
      REQUIRE(id.has_value());
      const Value v = s.value[*id];
      const int d = s.dist[*id];
      // The smallest depth at which the minimax decides, if any within `depth`.
      int found_depth = -1, found = 0;
      for (int dd = 0; dd <= depth && found == 0; ++dd) {
        found = minimax(b, r, h, dd, memo);
        if (found != 0) found_depth = dd;
      }
      if (v != Value::draw && d <= depth) {
        ++decided;
        CHECK(found == (v == Value::win ? 1 : -1));
        CHECK(found_depth == d);
      } else {
        CHECK(found == 0);
      }
      ++compared;
      const std::vector<Move> legal = legal_moves(g);
      REQUIRE(legal.size() == plain_legal(b, r, h).size());
      if (legal.empty()) break;
      const Move m = legal[rng() % legal.size()];
      play(g, m);
      h.positions.push_back(current(g));
      h.moves.push_back(m);
    }
  }
  INFO("compared " << compared << " states, " << decided << " decided within depth");
  CHECK(compared > 100);
  CHECK(decided > 10);
}

}  // namespace

TEST_CASE("solver values match a plain minimax on 3x3", "[solver][minimax]") {
  for (const char* name : {"free", "encyclopedia", "undo"}) {
    SECTION(name) { check_against_minimax(named_on(name, 3, 3), 9, 40, 30); }
  }
  SECTION("single capture with corner, no repetition") {
    Rules r = named_on("free", 3, 3);
    r.capture = Capture::single;
    r.corner = true;
    check_against_minimax(r, 9, 40, 30);
  }
}

TEST_CASE("solver values match a plain minimax on 3x4 and 4x3", "[solver][minimax]") {
  SECTION("free 3x4") { check_against_minimax(named_on("free", 3, 4), 7, 15, 25); }
  SECTION("free 4x3") { check_against_minimax(named_on("free", 4, 3), 7, 15, 25); }
  SECTION("undo 4x3") { check_against_minimax(named_on("undo", 4, 3), 6, 10, 25); }
}
