// gonu play's Jungi part: the tables' answers (through JungiAsk) and Jungi's rules as
// PlaySession asks them.
#include "tools/jungi/play_jungi.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace gonu::cli {

namespace {

// The squares a move captures, for people: "d6".
std::string captures_text(const jungi::Position& p, const jungi::Move& m) {
  std::string out;
  for (const int sq : jungi::captured_squares(p, m)) {
    if (!out.empty()) out += ' ';
    out += jungi::square_name(sq);
  }
  return out;
}

PlayMove play_move(const jungi::Position& p, const jungi::MoveValue& m) {
  return {m.san, captures_text(p, m.move), m.known, m.value, m.dist, m.known ? "" : "no table of " + m.unknown_material};
}

// The answer when the position's own table is absent: its moves, none valued.
PlayAnswer unvalued(const jungi::Rules& r, const jungi::Position& p, const std::string& why) {
  PlayAnswer a;
  a.known = false, a.unknown = why;
  for (const jungi::Move& m : jungi::legal_moves(r, p)) {
    a.order.push_back(a.moves.size());
    a.moves.push_back({jungi::format_move_san(r, p, m), captures_text(p, m), false, Value::draw, 0, "unknown"});
  }
  return a;
}

}  // namespace

JungiPlay::JungiPlay(const jungi::Rules& r, JungiAsk ask, const jungi::Position& start, const std::string& history)
    : rules_(r), ask_(std::move(ask)), line_{start} {
  jungi::play_history(r, start, history, "--history");  // refuses a bad move with its number
  std::istringstream words(history);
  for (std::string word; words >> word;) play(parse(word));
}

int JungiPlay::parse_side(const std::string& text) const {
  if (text == "south") return 0;
  if (text == "north") return 1;
  throw GonuError("--as: south, north or both for a Jungi table, not '" + text + "'");
}

std::string JungiPlay::rules_text() const { return jungi::describe(rules_); }

std::string JungiPlay::repetition_note() const { return "the reading has no repetition rule: play that never ends is a draw"; }

std::string JungiPlay::example_move(int side) const {
  jungi::Position own = now();
  own.to_move = static_cast<jungi::Side>(side);
  own.passed = 0, own.passed_end = jungi::kNoSquare;
  const std::vector<jungi::Move> first = jungi::legal_moves(rules_, own);
  return first.empty() ? "" : jungi::format_move_san(rules_, own, first.front());
}

std::string JungiPlay::move_help() const {
  return "  Ra1-a8, or a number   play that move (also a1-a8, ra1xa8; a promotion as in\n"
         "                        Qa6-a7=+Q; the number from the list of moves)\n";
}

std::size_t JungiPlay::times_seen() const { return std::size_t(std::count(line_.begin(), line_.end(), now())); }

PlayEnd JungiPlay::ending() const {
  PlayEnd e;
  const jungi::Outcome o = jungi::outcome(rules_, now(), &e.why);
  if (o == jungi::Outcome::ongoing) e.why.clear();
  if (o == jungi::Outcome::loss) e.winner = 1 - to_move();
  return e;
}

PlayAnswer JungiPlay::answer() const {
  jungi::PositionAnswer q;
  try {
    q = ask_(now());
  } catch (const GonuError& e) {
    return unvalued(rules_, now(), e.what());
  }
  PlayAnswer a;
  a.value = q.value, a.dist = q.dist, a.order = q.order;
  for (const jungi::MoveValue& m : q.moves) a.moves.push_back(play_move(now(), m));
  for (std::size_t i = 0; i < q.moves.size(); ++i)
    if (jungi::is_best(q, q.moves[i])) a.best.push_back(i);
  if (!q.order.empty() && q.moves[q.order.front()].known) a.engine = q.order.front();
  return a;
}

std::string JungiPlay::parse(const std::string& typed) const {
  std::string text;
  for (const char c : typed)
    if (c != ' ' && c != '\t') text += c;
  return jungi::format_move_san(rules_, now(), jungi::parse_move(rules_, now(), text));
}

void JungiPlay::play(const std::string& text) {
  const jungi::Move m = jungi::parse_move(rules_, now(), text);
  record_.push_back(jungi::format_move_san(rules_, now(), m));
  line_.push_back(jungi::apply_move(now(), m));
}

void JungiPlay::take_back_to(std::size_t plies) {
  line_.resize(plies + 1);
  record_.resize(plies);
}

}  // namespace gonu::cli
