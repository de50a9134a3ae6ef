// Game record: legality against the whole history, with a reason for every refusal.
#include "core/julgonu/game.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace gonu {

Game new_game(const Rules& r, const Position& start) {
  Game g;
  g.rules = r;
  g.board = make_board(r.rows, r.cols);
  if ((start.black & start.white) || ((start.black | start.white) & ~g.board.all))
    throw GonuError("position does not fit the board");
  g.start = start;
  g.positions.push_back(start);
  g.since_capture.push_back(start);
  return g;
}

const Position& current(const Game& g) { return g.positions.back(); }

std::string ban_reason(const Game& g, const Move& m) {
  switch (g.rules.repetition) {
    case Repetition::none: return "";
    case Repetition::immediate:
      return tag_bans(g.rules, g.tag, m) ? "it recreates the position of four plies before (immediate repetition)" : "";
    case Repetition::undo:
      return tag_bans(g.rules, g.tag, m) ? "it moves the piece moved last turn straight back (undo rule)" : "";
    case Repetition::superko: {
      if (m.captured) return "";
      const Position next = apply_move(current(g), m);
      for (std::size_t i = 0; i < g.since_capture.size(); ++i)
        if (g.since_capture[i].black == next.black && g.since_capture[i].white == next.white)
          return "it recreates an earlier position (superko)";
      return "";
    }
  }
  return "";
}

std::vector<Move> legal_moves(const Game& g) {
  if (lost_by_material(current(g))) return {};
  std::vector<Move> all = generate_moves(g.board, g.rules, current(g)), out;
  for (const Move& m : all)
    if (ban_reason(g, m).empty()) out.push_back(m);
  return out;
}

std::string game_over_reason(const Game& g) {
  const Position& p = current(g);
  const std::string side = p.to_move == Side::black ? "Black" : "White";
  if (lost_by_material(p)) return side + " has at most one piece left and loses";
  if (!legal_moves(g).empty()) return "";
  if (generate_moves(g.board, g.rules, p).empty()) return side + " has no move (stalemate) and loses";
  return side + " has no move the repetition rule allows and loses";
}

void play(Game& g, const Move& m) {
  const Position& p = current(g);
  const std::string over = game_over_reason(g);
  if (!over.empty()) throw GonuError("the game is over: " + over);
  const std::vector<Move> all = generate_moves(g.board, g.rules, p);
  if (std::find(all.begin(), all.end(), m) == all.end()) throw GonuError("not a legal move here");
  const std::string why = ban_reason(g, m);
  if (!why.empty()) throw GonuError(format_move(g.board, g.rules, m) + " is not allowed: " + why);
  const Position next = apply_move(p, m);
  g.tag = next_tag(g.board, g.rules, p, g.tag, m);
  if (m.captured) g.since_capture.clear();
  g.since_capture.push_back(next);
  g.moves.push_back(m);
  g.positions.push_back(next);
}

Move play(Game& g, std::string_view text) {
  const std::string over = game_over_reason(g);
  if (!over.empty()) throw GonuError("move '" + std::string(text) + "': the game is over: " + over);
  const Move m = parse_move(g.board, g.rules, current(g), text, generate_moves(g.board, g.rules, current(g)));
  const std::string why = ban_reason(g, m);
  if (!why.empty()) throw GonuError("move '" + std::string(text) + "' is not allowed: " + why);
  play(g, m);
  return m;
}

void play_history(Game& g, std::string_view moves) {
  std::istringstream in{std::string(moves)};
  std::string word;
  int number = 0;
  while (in >> word) {
    ++number;
    try {
      play(g, word);
    } catch (const GonuError& e) {
      throw GonuError("history move " + std::to_string(number) + ": " + e.what());
    }
  }
}

}  // namespace gonu
