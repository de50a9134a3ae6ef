// Named rule sets and the text forms of each rule part.
#include "core/julgonu/rules.hpp"

#include "core/julgonu/board.hpp"
#include "core/error.hpp"
#include "core/julgonu/position.hpp"

namespace gonu {

namespace {
Rules make(const char* name, Capture c, bool corner, Repetition rep) {
  Rules r;
  r.name = name;
  r.capture = c;
  r.corner = corner;
  r.repetition = rep;
  return r;
}
}  // namespace

const std::vector<NamedRules>& named_rule_sets() {
  static const std::vector<NamedRules> sets = {
      {make("free", Capture::line, false, Repetition::none),
       "talvola/abstract_games solver: line capture, no repetition rule (infinite play is a draw)"},
      {make("encyclopedia", Capture::line, false, Repetition::immediate),
       "encyclopedia article: line capture of one or two, 'a move that repeats the previous position "
       "is not allowed' (read as: the position of four plies before)"},
      {make("undo", Capture::line, false, Repetition::undo),
       "encyclopedia article, weaker reading: a player may not move its last-moved piece straight back"},
      {make("soldiers", Capture::line, false, Repetition::superko),
       "Games of Soldiers (J. P. Neto, Zillions ZRF): custodian capture, 'a move cannot be made that "
       "repeats any previous position'"},
      {make("corner", Capture::single, true, Repetition::superko),
       "grid rules page: single capture, one per turn, corner capture, ko rule over the whole game"},
  };
  return sets;
}

Rules rules_by_name(const std::string& name) {
  std::string known;
  for (const auto& s : named_rule_sets()) {
    if (s.rules.name == name) return s.rules;
    known += (known.empty() ? "" : ", ") + s.rules.name;
  }
  throw GonuError("unknown rule set '" + name + "' (known: " + known + ")");
}

std::string to_string(Side s) { return s == Side::black ? "black" : "white"; }
std::string to_string(Capture c) { return c == Capture::line ? "line" : "single"; }
std::string to_string(Repetition r) {
  switch (r) {
    case Repetition::none: return "none";
    case Repetition::immediate: return "immediate";
    case Repetition::undo: return "undo";
    case Repetition::superko: return "superko";
  }
  return "?";
}

Side parse_side(const std::string& s) {
  if (s == "black" || s == "x") return Side::black;
  if (s == "white" || s == "w") return Side::white;
  throw GonuError("unknown side '" + s + "' (expected black or white)");
}

Capture parse_capture(const std::string& s) {
  if (s == "line") return Capture::line;
  if (s == "single") return Capture::single;
  throw GonuError("unknown capture rule '" + s + "' (expected line or single)");
}

Repetition parse_repetition(const std::string& s) {
  for (Repetition r : {Repetition::none, Repetition::immediate, Repetition::undo, Repetition::superko})
    if (to_string(r) == s) return r;
  throw GonuError("unknown repetition rule '" + s + "' (expected none, immediate, undo or superko)");
}

void parse_board_size(const std::string& s, int& rows, int& cols) {
  const auto x = s.find('x');
  auto number = [&](const std::string& part) {
    if (part.empty() || part.size() > 3 || part.find_first_not_of("0123456789") != std::string::npos)
      throw GonuError("board size '" + s + "' is not of the form RxC (e.g. 4x4)");
    return std::stoi(part);
  };
  if (x == std::string::npos) throw GonuError("board size '" + s + "' is not of the form RxC (e.g. 4x4)");
  const int r = number(s.substr(0, x)), c = number(s.substr(x + 1));
  make_board(r, c);  // validates the size
  rows = r;
  cols = c;
}

std::string describe(const Rules& r) {
  return r.name + ": board " + std::to_string(r.rows) + "x" + std::to_string(r.cols) + ", capture " +
         to_string(r.capture) + ", corner " + (r.corner ? "on" : "off") + ", repetition " +
         to_string(r.repetition) + ", " + to_string(r.first) + " first";
}

std::string rules_id(const Rules& r) {
  return std::to_string(r.rows) + "x" + std::to_string(r.cols) + "/" + to_string(r.capture) + "/" +
         (r.corner ? "corner" : "nocorner") + "/" + to_string(r.repetition) + "/" + to_string(r.first);
}

bool operator==(const Rules& a, const Rules& b) { return rules_id(a) == rules_id(b); }

Rules with_parts(const Rules& named, const RuleParts& parts, const std::optional<std::string>& position) {
  Rules r = named;
  if (parts.capture) r.capture = parse_capture(*parts.capture);
  if (parts.corner) r.corner = *parts.corner;
  if (parts.repetition) r.repetition = parse_repetition(*parts.repetition);
  if (parts.first) r.first = parse_side(*parts.first);
  if (parts.board) parse_board_size(*parts.board, r.rows, r.cols);
  if (position) {
    const ParsedPosition p = parse_position_text(*position);
    if (parts.board && (p.rows != r.rows || p.cols != r.cols))
      throw GonuError("position '" + *position + "' is " + std::to_string(p.rows) + "x" + std::to_string(p.cols) +
                      ", but the board is given as " + *parts.board);
    r.rows = p.rows;
    r.cols = p.cols;
  }
  const bool same_parts = r.capture == named.capture && r.corner == named.corner &&
                          r.repetition == named.repetition && r.first == named.first;
  if (!same_parts) r.name = "custom";
  return r;
}

}  // namespace gonu
