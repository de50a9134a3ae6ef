// The repetition rules: each bans exactly what its definition says and nothing more.
//
// The random test plays many games and, at every ply, compares the legal moves of the Game API
// (which uses the small history tag for immediate/undo and the boards since the last capture for
// superko) with a plain reference that keeps the whole game - every position and every move - and
// applies the definitions literally:
//   immediate: a move is banned iff the position it makes (board and side to move) equals the
//              position four plies before it;
//   undo:      a move is banned iff it moves the piece the mover moved on its previous turn
//              straight back to where it came from, whatever it captures;
//   superko:   a move is banned iff the board it makes equals any earlier board of the game.
#include <catch2/catch.hpp>
#include <algorithm>
#include <map>
#include <random>

#include "core/julgonu/board.hpp"
#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/repetition.hpp"
#include "core/julgonu/rules.hpp"
#include "tests/reference/plain_rules.hpp"
#include "tests/test_support.hpp"

using namespace gonu;
using gonu::test::make_rules;

namespace {

// The whole game, as plain grids and moves.
struct RefGame {
  Rules rules;
  std::vector<ref::Grid> positions;  // positions[0] = start; positions[k] after moves[k-1]
  std::vector<ref::MoveKey> moves;
};

bool ref_banned(const RefGame& rg, const ref::MoveKey& m) {
  const std::size_t k = rg.moves.size();  // m would be move number k (0-based)
  const ref::Grid& now = rg.positions[k];
  switch (rg.rules.repetition) {
    case Repetition::none: return false;
    case Repetition::immediate: {
      // The position after m is positions[k + 1]; four plies before it is positions[k - 3].
      if (k < 3) return false;
      return ref::plain_apply(now, m) == rg.positions[k - 3];
    }
    case Repetition::undo: {
      // The mover's previous move is moves[k - 2].
      if (k < 2) return false;
      const auto& [pfrom, pto, pcaps] = rg.moves[k - 2];
      (void)pcaps;
      return std::get<0>(m) == pto && std::get<1>(m) == pfrom;
    }
    case Repetition::superko: {
      const ref::Grid next = ref::plain_apply(now, m);
      for (const ref::Grid& earlier : rg.positions)
        if (earlier.same_board(next)) return true;
      return false;
    }
  }
  return false;
}

struct RefLegal {
  std::set<ref::MoveKey> legal, banned;
  bool material_loss = false, stalemate = false;
};

// The legal moves now; `banned` lists the moves of the ban-free game the rule bans, also when the
// game is over by material.
RefLegal ref_legal(const RefGame& rg) {
  RefLegal out;
  const ref::Grid& now = rg.positions.back();
  out.material_loss = ref::count(now, now.to_move) <= 1;
  const std::vector<ref::MoveKey> all = ref::plain_moves(now, rg.rules);
  out.stalemate = all.empty();
  for (const auto& m : all) (ref_banned(rg, m) ? out.banned : out.legal).insert(m);
  if (out.material_loss) out.legal.clear();
  return out;
}

// Whether the side to move in g can step from `from` to `to` now, and whether that step captures
// nothing (by the plain generator).
bool plain_step(const ref::Grid& g, const Rules& r, int from, int to, bool& quiet) {
  for (const auto& m : ref::plain_moves(g, r))
    if (std::get<0>(m) == from && std::get<1>(m) == to) {
      quiet = std::get<2>(m).empty();
      return true;
    }
  return false;
}

Step step_of(const ref::MoveKey& m) { return Step{std::int8_t(std::get<0>(m)), std::int8_t(std::get<1>(m))}; }
bool quiet(const ref::MoveKey& m) { return std::get<2>(m).empty(); }

std::string step_text(const Board& b, const Step& s) {
  if (!s.valid()) return "none";
  std::string text = square_name(b, s.from);
  text += '-';
  text += square_name(b, s.to);
  return text;
}

// The tag in the normal form repetition.hpp documents, derived from the whole game:
// immediate - theirs: the opponent's last move unless it captured; mine: the mover's last move,
//   if neither it nor the opponent's last move captured and stepping it back is possible and
//   quiet now, and either the opponent's last move reversed its move before (ban: the step back
//   is banned now) or, after the step back, the opponent could quietly step back its last move.
// undo - theirs: the opponent's last move; mine: the mover's last move while stepping it back is
//   possible (its piece still there, the way back empty); never ban.
Tag expected_tag(const RefGame& rg) {
  const Rules& r = rg.rules;
  const std::size_t k = rg.moves.size();
  const ref::Grid& now = rg.positions[k];
  Tag t;
  if (r.repetition == Repetition::undo) {
    if (k >= 1) t.theirs = step_of(rg.moves[k - 1]);
    bool q = false;
    if (k >= 2 && plain_step(now, r, std::get<1>(rg.moves[k - 2]), std::get<0>(rg.moves[k - 2]), q))
      t.mine = step_of(rg.moves[k - 2]);
    return t;
  }
  if (r.repetition != Repetition::immediate) return t;
  if (k >= 1 && quiet(rg.moves[k - 1])) t.theirs = step_of(rg.moves[k - 1]);
  if (k < 2 || !quiet(rg.moves[k - 2]) || !quiet(rg.moves[k - 1])) return t;
  const auto& mine = rg.moves[k - 2];
  const auto& theirs = rg.moves[k - 1];
  bool back_quiet = false;
  if (!plain_step(now, r, std::get<1>(mine), std::get<0>(mine), back_quiet) || !back_quiet) return t;
  const bool ban = k >= 3 && quiet(rg.moves[k - 3]) && std::get<0>(theirs) == std::get<1>(rg.moves[k - 3]) &&
                   std::get<1>(theirs) == std::get<0>(rg.moves[k - 3]);
  if (ban) {
    t.mine = step_of(mine);
    t.ban = true;
    return t;
  }
  const ref::Grid after = ref::plain_apply(now, ref::MoveKey{std::get<1>(mine), std::get<0>(mine), {}});
  bool their_back_quiet = false;
  if (plain_step(after, r, std::get<1>(theirs), std::get<0>(theirs), their_back_quiet) && their_back_quiet)
    t.mine = step_of(mine);
  return t;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

struct Stats {
  long plies = 0, plies_with_ban = 0, banned_moves = 0, repetition_losses = 0, stalemates = 0,
       material_losses = 0, capturing_bans = 0;
};

// The tag after the game's moves: in normal form, packing losslessly, and equal to the one the
// reference derives from the full history; rules without a tag keep it empty.
void check_tag(const Board& b, const Rules& r, const Game& g, const RefGame& rg) {
  if (!uses_tag(r)) {
    REQUIRE(g.tag.empty());
    return;
  }
  REQUIRE(normalize_tag(b, r, current(g), g.tag) == g.tag);
  REQUIRE(unpack_tag(b, pack_tag(b, g.tag)) == g.tag);
  REQUIRE(pack_tag(b, g.tag) < (1u << 19));
  if (r.repetition == Repetition::undo) REQUIRE(!g.tag.ban);
  const Tag want_tag = expected_tag(rg);
  INFO("tag: mine " << step_text(b, g.tag.mine) << ", theirs " << step_text(b, g.tag.theirs) << ", ban "
                    << g.tag.ban << "; expected: mine " << step_text(b, want_tag.mine) << ", theirs "
                    << step_text(b, want_tag.theirs) << ", ban " << want_tag.ban);
  REQUIRE(g.tag == want_tag);
}

// The end of the game and its reason agree with the reference.
void check_game_over(const Game& g, const RefLegal& want, Stats& st) {
  const std::string over = game_over_reason(g);
  if (want.material_loss) {
    REQUIRE(contains(over, "at most one piece"));
    ++st.material_losses;
  } else if (want.stalemate) {
    REQUIRE(contains(over, "stalemate"));
    ++st.stalemates;
  } else if (want.legal.empty()) {
    REQUIRE(contains(over, "repetition rule"));
    ++st.repetition_losses;
  } else {
    REQUIRE(over.empty());
  }
}

// Compares the Game API with the reference at the current ply: legal moves, ban reasons, tag, end.
RefLegal check_ply(const Board& b, const Rules& r, const Game& g, const RefGame& rg, Stats& st) {
  REQUIRE(ref::from_position(b, current(g)) == rg.positions.back());
  RefLegal want = ref_legal(rg);
  const std::set<ref::MoveKey> got = ref::key_set(legal_moves(g));
  INFO("position " << format_position(b, current(g)));
  INFO("game legal: " << ref::keys_text(b, got));
  INFO("reference legal: " << ref::keys_text(b, want.legal) << "; banned: " << ref::keys_text(b, want.banned));
  REQUIRE(got == want.legal);
  // ban_reason names exactly the banned moves.
  for (const Move& m : generate_moves(b, r, current(g))) {
    const bool banned = want.banned.count(ref::key_of(m)) > 0;
    REQUIRE(ban_reason(g, m).empty() == !banned);
    if (banned && m.captured) ++st.capturing_bans;
  }
  check_tag(b, r, g, rg);
  check_game_over(g, want, st);
  if (!want.banned.empty()) ++st.plies_with_ban;
  st.banned_moves += long(want.banned.size());
  return want;
}

// Chooses a move, often one that steps the mover's last piece straight back, or that the opponent
// could answer by stepping back (these are what the rules are about), and plays it in both games:
// by notation every other ply (parse_move resolves the capture).
void play_random_move(const Board& b, const Rules& r, const RefLegal& want, int ply, std::mt19937_64& rng, Game& g,
                      RefGame& rg) {
  std::vector<ref::MoveKey> legal(want.legal.begin(), want.legal.end());
  ref::MoveKey choice = legal[rng() % legal.size()];
  const std::size_t k = rg.moves.size();
  if (k >= 2 && rng() % 100 < 60) {
    const auto& prev = rg.moves[k - 2];
    for (const auto& m : legal)
      if (std::get<0>(m) == std::get<1>(prev) && std::get<1>(m) == std::get<0>(prev)) choice = m;
  }
  Move chosen{};
  for (const Move& m : legal_moves(g))
    if (ref::key_of(m) == choice) chosen = m;
  if (ply % 2) {
    REQUIRE(play(g, format_move(b, r, chosen)) == chosen);
  } else {
    play(g, chosen);
  }
  rg.moves.push_back(choice);
  rg.positions.push_back(ref::plain_apply(rg.positions.back(), choice));
}

// Plays `games` random games and compares the Game API with the reference at every ply.
Stats play_and_compare(const Rules& r, int games, int max_plies, std::uint64_t seed) {
  const Board b = make_board(r.rows, r.cols);
  std::mt19937_64 rng(seed);
  Stats st;
  for (int gi = 0; gi < games; ++gi) {
    // Half the games from the start position, half from random sparse positions.
    Position start = start_position(b, r.first);
    if (gi % 2) {
      const int nb = 2 + int(rng() % 2), nw = 2 + int(rng() % 2);
      start = ref::random_placement(b, nb, nw, (rng() & 1) ? Side::white : Side::black, rng);
    }
    Game g = new_game(r, start);
    RefGame rg{r, {ref::from_position(b, start)}, {}};
    for (int ply = 0; ply <= max_plies; ++ply) {
      INFO("rules " << rules_id(r) << ", game " << gi << " from " << format_position(b, start));
      std::string history;
      for (const auto& m : rg.moves) history += ref::key_name(b, m) + " ";
      INFO("moves: " << history);
      const RefLegal want = check_ply(b, r, g, rg, st);
      if (want.legal.empty() || ply == max_plies) break;
      ++st.plies;
      play_random_move(b, r, want, ply, rng, g, rg);
    }
  }
  return st;
}

}  // namespace

TEST_CASE("repetition rules: Game legality equals the plain full-history reference in random games",
          "[core][repetition]") {
  struct Shape {
    int rows, cols;
  };
  const Shape shapes[] = {{3, 3}, {4, 4}, {3, 4}};
  struct CaptureRule {
    Capture c;
    bool corner;
  };
  const CaptureRule captures[] = {{Capture::line, false}, {Capture::single, true}, {Capture::line, true}};
  std::map<Repetition, Stats> total;
  std::uint64_t seed = 4242;
  for (Repetition rep : {Repetition::none, Repetition::immediate, Repetition::undo, Repetition::superko}) {
    for (const Shape& s : shapes) {
      for (const CaptureRule& c : captures) {
        const Rules r = make_rules(c.c, c.corner, rep, s.rows, s.cols);
        const Stats st = play_and_compare(r, 40, 60, seed++);
        Stats& t = total[rep];
        t.plies += st.plies;
        t.plies_with_ban += st.plies_with_ban;
        t.banned_moves += st.banned_moves;
        t.repetition_losses += st.repetition_losses;
        t.stalemates += st.stalemates;
        t.material_losses += st.material_losses;
        t.capturing_bans += st.capturing_bans;
      }
    }
  }
  // The comparison must have met the rules often: many bans under each finite rule, none without.
  for (auto& [rep, st] : total) {
    INFO("repetition " << to_string(rep) << ": plies " << st.plies << ", plies with a ban " << st.plies_with_ban
                       << ", banned moves " << st.banned_moves << ", capturing bans " << st.capturing_bans
                       << ", repetition losses " << st.repetition_losses << ", stalemates " << st.stalemates
                       << ", material losses " << st.material_losses);
    CHECK(st.plies > 10000);
    if (rep == Repetition::none) {
      CHECK(st.banned_moves == 0);
    } else {
      CHECK(st.plies_with_ban > 1000);
      CHECK(st.repetition_losses > 10);
    }
    CHECK(st.material_losses + st.stalemates > 0);
    if (rep == Repetition::undo) CHECK(st.capturing_bans > 0);
  }
}

namespace {

Game game_from(const std::string& rules_name, Repetition rep, const std::string& position, const std::string& history) {
  Rules r = rules_by_name(rules_name);
  r.repetition = rep;
  const Board b = make_board(r.rows, r.cols);
  Game g = new_game(r, parse_position(b, position));
  play_history(g, history);
  return g;
}

const std::string kStart = "xxxx/4/4/wwww x";

// The move named `text` among the moves of the ban-free game now.
Move find_move(const Game& g, const std::string& text) {
  return parse_move(g.board, g.rules, current(g), text, generate_moves(g.board, g.rules, current(g)));
}

bool is_legal(const Game& g, const std::string& text) {
  const std::vector<Move> legal = legal_moves(g);
  return std::find(legal.begin(), legal.end(), find_move(g, text)) != legal.end();
}

// How many moves of the ban-free game the rule bans now.
std::size_t banned_count(const Game& g) {
  return generate_moves(g.board, g.rules, current(g)).size() - legal_moves(g).size();
}

}  // namespace

TEST_CASE("immediate: only the step back that recreates the position of four plies before", "[core][repetition]") {
  const Repetition rep = Repetition::immediate;
  {
    Game g = game_from("encyclopedia", rep, kStart, "a4-a3 a1-a2 a3-a4");
    REQUIRE(!is_legal(g, "a2-a1"));
    REQUIRE(contains(ban_reason(g, find_move(g, "a2-a1")), "four plies"));
    REQUIRE(banned_count(g) == 1);
    REQUIRE_THROWS_WITH(play(g, "a2-a1"), Catch::Contains("not allowed"));
    REQUIRE_THROWS_AS(play(g, find_move(g, "a2-a1")), GonuError);
  }
  {
    // The first step back is free: nothing stood four plies before it.
    Game g = game_from("encyclopedia", rep, kStart, "a4-a3 a1-a2");
    REQUIRE(is_legal(g, "a3-a4"));
    REQUIRE(banned_count(g) == 0);
  }
  {
    // The ban is on that ply only: after another White move, nothing is banned.
    Game g = game_from("encyclopedia", rep, kStart, "a4-a3 a1-a2 a3-a4 b1-b2");
    REQUIRE(is_legal(g, "a4-a3"));
    REQUIRE(banned_count(g) == 0);
    play(g, "a4-a3");
    REQUIRE(is_legal(g, "a2-a1"));  // four plies before: White on a2, not on b2
    // ... but now Black (a3-a4, a4-a3) and White (b1-b2) have made the pattern anew:
    REQUIRE(!is_legal(g, "b2-b1"));
    REQUIRE(banned_count(g) == 1);
  }
  {
    // A longer cycle is allowed: the start recurs after eight plies, never after four.
    Game g = game_from("encyclopedia", rep, kStart, "a4-a3 a1-a2 b4-b3 b1-b2 a3-a4 a2-a1 b3-b4");
    REQUIRE(is_legal(g, "b2-b1"));
    play(g, "b2-b1");
    REQUIRE(current(g) == g.start);
  }
  {
    // Stepping back with a capture recreates nothing.
    Game g = game_from("encyclopedia", rep, "x.../wx.w/..x./4 x", "c2-c3 d3-d4 a4-b4");
    REQUIRE(is_legal(g, "d4-d3"));
    REQUIRE(find_move(g, "d4-d3").captured != 0);
  }
  {
    // A history that breaks the rule is refused, naming the move.
    const Rules r = rules_by_name("encyclopedia");
    Game g = new_game(r, parse_position(make_board(4, 4), kStart));
    REQUIRE_THROWS_WITH(play_history(g, "a4-a3 a1-a2 a3-a4 a2-a1"),
                        Catch::Contains("history move 4") && Catch::Contains("a2-a1") &&
                            Catch::Contains("four plies"));
  }
}

TEST_CASE("undo: only the last-moved piece straight back, whatever it captures", "[core][repetition]") {
  const Repetition rep = Repetition::undo;
  {
    Game g = game_from("undo", rep, kStart, "a4-a3 a1-a2");
    REQUIRE(!is_legal(g, "a3-a4"));
    REQUIRE(contains(ban_reason(g, find_move(g, "a3-a4")), "undo"));
    REQUIRE(banned_count(g) == 1);
    REQUIRE(is_legal(g, "a3-b3"));  // the same piece elsewhere
    REQUIRE(is_legal(g, "b4-a4"));  // another piece into the point it left
  }
  {
    // Only the previous turn counts.
    Game g = game_from("undo", rep, kStart, "a4-a3 a1-a2 b4-b3 b1-b2");
    REQUIRE(is_legal(g, "a3-a4"));
    REQUIRE(!is_legal(g, "b3-b4"));
    REQUIRE(banned_count(g) == 1);
    play(g, "c4-c3");
    REQUIRE(is_legal(g, "a2-a1"));
    REQUIRE(!is_legal(g, "b2-b1"));
  }
  {
    // The first move of each side has no previous turn.
    Game g = game_from("undo", rep, kStart, "a4-a3");
    REQUIRE(banned_count(g) == 0);
  }
  {
    // Banned even when the step back would capture b3 and c3.
    Game g = game_from("undo", rep, "x.../wx.w/..x./4 x", "c2-c3 d3-d4 a4-b4");
    REQUIRE(find_move(g, "d4-d3").captured != 0);
    REQUIRE(!is_legal(g, "d4-d3"));
    REQUIRE(banned_count(g) == 1);
  }
  {
    // Not banned under immediate or superko: the capture makes a new position.
    for (const char* name : {"encyclopedia", "soldiers"}) {
      Game g = new_game(rules_by_name(name), parse_position(make_board(4, 4), "x.../wx.w/..x./4 x"));
      play_history(g, "c2-c3 d3-d4 a4-b4");
      REQUIRE(is_legal(g, "d4-d3"));
    }
  }
  {
    // The eight-ply cycle moves a different piece each turn: all allowed.
    Game g = game_from("undo", rep, kStart, "a4-a3 a1-a2 b4-b3 b1-b2 a3-a4 a2-a1 b3-b4");
    REQUIRE(is_legal(g, "b2-b1"));
  }
}

TEST_CASE("superko: no board of the game may recur, however long ago", "[core][repetition]") {
  const Repetition rep = Repetition::superko;
  {
    Game g = game_from("soldiers", rep, kStart, "a4-a3 a1-a2 a3-a4");
    REQUIRE(!is_legal(g, "a2-a1"));
    REQUIRE(contains(ban_reason(g, find_move(g, "a2-a1")), "superko"));
    REQUIRE(banned_count(g) == 1);
  }
  {
    Game g = game_from("soldiers", rep, kStart, "a4-a3 a1-a2");
    REQUIRE(is_legal(g, "a3-a4"));  // a new board: White is on a2
    REQUIRE(banned_count(g) == 0);
  }
  {
    // The start after eight plies: banned here, allowed under immediate and undo.
    Game g = game_from("soldiers", rep, kStart, "a4-a3 a1-a2 b4-b3 b1-b2 a3-a4 a2-a1 b3-b4");
    REQUIRE(!is_legal(g, "b2-b1"));
    REQUIRE(banned_count(g) == 1);
  }
  {
    // Boards before a capture cannot recur, and the board with fewer pieces is new.
    Game g = game_from("soldiers", rep, "xx../wx.w/..x./4 x", "c2-c3 d3-d4 b4-c4 d4-d3");
    REQUIRE(find_move(g, "c4-b4").captured == 0);
    for (const Move& m : generate_moves(g.board, g.rules, current(g))) REQUIRE(ban_reason(g, m).empty());
    REQUIRE(g.since_capture.size() == 1);
  }
  {
    // Corner rule set (single capture, corner, superko): the same ban.
    Game g = game_from("corner", rep, kStart, "a4-a3 a1-a2 a3-a4");
    REQUIRE(!is_legal(g, "a2-a1"));
  }
}

TEST_CASE("a side whose every move is banned loses, without a rule it plays on", "[core][repetition]") {
  // White's only step, a1-b1, moves back the piece it moved last turn. With Black's b3-a3 it also
  // recreates the start (immediate, superko); with c2-c1 it recreates nothing (undo only).
  const std::string pos = "x.x/wx./.w. x";
  struct Case {
    std::string history;
    std::vector<Repetition> banning;
  };
  const Case cases[] = {
      {"a3-b3 b1-a1 b3-a3", {Repetition::immediate, Repetition::superko}},
      {"c3-c2 b1-a1 c2-c1", {Repetition::undo}},
  };
  for (const Case& c : cases) {
    for (Repetition rep : {Repetition::none, Repetition::immediate, Repetition::undo, Repetition::superko}) {
      INFO("history " << c.history << ", repetition " << to_string(rep));
      Rules r = rules_by_name("free");
      r.repetition = rep;
      r.rows = r.cols = 3;
      Game g = new_game(r, parse_position(make_board(3, 3), pos));
      if (c.history[0] == 'a' && rep == Repetition::undo) {
        // Black's b3-a3 is itself an undo; the history stops there.
        REQUIRE_THROWS_WITH(play_history(g, c.history), Catch::Contains("history move 3") && Catch::Contains("undo"));
        continue;
      }
      play_history(g, c.history);
      REQUIRE(generate_moves(g.board, r, current(g)).size() == 1);
      const bool banned = std::find(c.banning.begin(), c.banning.end(), rep) != c.banning.end();
      if (banned) {
        REQUIRE(legal_moves(g).empty());
        REQUIRE(contains(game_over_reason(g), "White has no move the repetition rule allows"));
      } else {
        REQUIRE(legal_moves(g).size() == 1);
        REQUIRE(game_over_reason(g).empty());
      }
    }
  }
}

TEST_CASE("repetition none bans nothing", "[core][repetition]") {
  Game g = game_from("free", Repetition::none, kStart, "a4-a3 a1-a2 a3-a4 a2-a1 a4-a3 a1-a2 a3-a4 a2-a1");
  REQUIRE(current(g) == g.start);
  REQUIRE(banned_count(g) == 0);
  REQUIRE(g.tag.empty());
}

TEST_CASE("next_tag_code equals pack_tag of next_tag for every move, theirs step and reversal", "[core][repetition]") {
  // Random boards on three sizes, every rule set with a tag; every step (normal form or not) as
  // theirs, and both answers to "m reverses mine".
  std::mt19937_64 rng(20261122);
  std::size_t compared = 0;
  for (const auto& [rows, cols] : {std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 4}})
    for (const Repetition rep : {Repetition::immediate, Repetition::undo})
      for (const Capture cap : {Capture::line, Capture::single})
        for (const bool corner : {false, true}) {
          const Rules r = make_rules(cap, corner, rep, rows, cols);
          const Board b = make_board(rows, cols);
          INFO(rows << "x" << cols << " repetition " << int(rep) << " capture " << int(cap) << " corner " << corner);
          for (int trial = 0; trial < 300; ++trial) {
            Position p{0, 0, trial % 2 ? Side::white : Side::black};
            for (int sq = 0; sq < b.n; ++sq) {
              const auto roll = rng() % 8;
              if (roll < 2) p.black |= bit(sq);
              else if (roll < 4) p.white |= bit(sq);
            }
            for (const Move& m : generate_moves(b, r, p)) {
              std::vector<Step> theirs{Step{}};
              for (int from = 0; from < b.n; ++from)
                for (int d = 0; d < 4; ++d)
                  if (b.step[from][d] >= 0) theirs.push_back(Step{std::int8_t(from), b.step[from][d]});
              for (const Step& ts : theirs)
                for (const bool reverses : {false, true}) {
                  Tag t;
                  t.theirs = ts;
                  if (reverses) t.mine = Step{m.to, m.from};
                  const std::uint32_t tc = ts.valid() ? pack_tag(b, Tag{Step{}, ts, false}) >> 9 : 0u;
                  REQUIRE(next_tag_code(b, r, p, m, tc, reverses) == pack_tag(b, next_tag(b, r, p, t, m)));
                  ++compared;
                }
            }
          }
        }
  REQUIRE(compared > 100000);
}
