// gonu play's Jul-gonu part: the table's answers (query_game) and the game's rules as
// PlaySession asks them.
#include "tools/julgonu/play_julgonu.hpp"

#include <algorithm>
#include <cctype>

#include "solver/common/move_order.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/cli/play_session.hpp"

namespace gonu::cli {

std::string move_notation(const Board& b, const std::string& typed) {
  std::string s;
  for (const char c : typed)
    if (!std::isspace(static_cast<unsigned char>(c))) s += b.cols <= 26 ? char(std::tolower(static_cast<unsigned char>(c))) : c;
  // After the first point (a file letter, then digits): a '-' if the second point follows at once.
  std::size_t at = 0;
  if (at < s.size() && std::isalpha(static_cast<unsigned char>(s[at]))) ++at;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) ++at;
  if (at > 1 && at < s.size() && std::isalpha(static_cast<unsigned char>(s[at])) && s[at] != 'x')
    return s.substr(0, at) + "-" + s.substr(at);
  return s;
}

std::string JulgonuPlay::side_name(int side) const { return to_string(static_cast<Side>(side)); }

int JulgonuPlay::parse_side(const std::string& text) const { return static_cast<int>(gonu::parse_side(text)); }

std::string JulgonuPlay::rules_text() const { return describe(table_.rules()); }

std::vector<std::string> JulgonuPlay::notes() const {
  if (!uses_tag(table_.rules())) return {};
  return {"repetition " + to_string(table_.rules().repetition) + ": the moves played decide which moves are banned."};
}

std::string JulgonuPlay::repetition_note() const {
  return "under repetition " + to_string(game_.rules.repetition) + ", play that never ends is a draw";
}

std::string JulgonuPlay::example_move(int side) const {
  Position own = current(game_);
  own.to_move = static_cast<Side>(side);
  const std::vector<Move> first = legal_moves(new_game(table_.rules(), own));
  return first.empty() ? "" : format_move(game_.board, game_.rules, first.front());
}

std::string JulgonuPlay::move_help() const {
  return "  b4-b3, or a number    play that move (also b4b3, b4 b3, B4-B3; the number from\n"
         "                        the list of moves)\n";
}

int JulgonuPlay::to_move() const { return static_cast<int>(current(game_).to_move); }

int JulgonuPlay::side_before(std::size_t ply) const { return static_cast<int>(game_.positions[ply].to_move); }

std::vector<std::string> JulgonuPlay::record() const {
  std::vector<std::string> out;
  for (const Move& m : game_.moves) out.push_back(format_move(game_.board, game_.rules, m));
  return out;
}

std::size_t JulgonuPlay::times_seen() const {
  return std::size_t(std::count(game_.positions.begin(), game_.positions.end(), current(game_)));
}

std::string JulgonuPlay::position_text() const { return format_position(game_.board, current(game_)); }

std::string JulgonuPlay::diagram() const { return draw_position(game_.board, current(game_)); }

PlayEnd JulgonuPlay::ending() const {
  PlayEnd e{game_over_reason(game_), std::nullopt};
  if (!e.why.empty()) e.winner = static_cast<int>(other(current(game_).to_move));
  return e;
}

PlayAnswer JulgonuPlay::answer() const {
  const QueryAnswer q = query_game(table_, game_, false);
  PlayAnswer a;
  a.value = q.value, a.dist = q.dist;
  for (const MoveAnswer& m : q.moves)
    a.moves.push_back({format_move(game_.board, game_.rules, m.move), format_squares(game_.board, m.move.captured), true, m.value, m.dist, {}});
  a.order = best_first(q.moves);
  for (std::size_t i = 0; i < q.moves.size(); ++i)
    if (q.moves[i].best) a.best.push_back(i);
  if (q.best >= 0) a.engine = std::size_t(q.best);
  return a;
}

std::string JulgonuPlay::parse(const std::string& typed) const {
  Game g = game_;
  return format_move(g.board, g.rules, gonu::play(g, move_notation(g.board, typed)));
}

void JulgonuPlay::play(const std::string& text) { gonu::play(game_, text); }

void JulgonuPlay::take_back_to(std::size_t plies) {
  const std::vector<Move> kept(game_.moves.begin(), game_.moves.begin() + std::ptrdiff_t(plies));
  game_ = origin_;
  for (const Move& m : kept) gonu::play(game_, m);
}

}  // namespace gonu::cli
