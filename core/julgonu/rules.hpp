// A rule set: every reading of Jul-gonu the sources allow, as independent parts that combine.
// Plain data; the named sets (`gonu rules`) are fixed combinations with the source of each.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace gonu {

enum class Side : unsigned char { black = 0, white = 1 };
inline Side other(Side s) { return s == Side::black ? Side::white : Side::black; }

// line: every run of enemies closed by a friend, in all four directions from the arrival point.
// single: only a lone enemy closed by a friend; one capture per move, each choice its own move.
enum class Capture : unsigned char { line, single };

// none: no ban. immediate: no move may recreate the position of four plies before.
// undo: a player may not move the piece it moved on its previous turn straight back.
// superko: no move may recreate any board that stood earlier in the game.
enum class Repetition : unsigned char { none, immediate, undo, superko };

struct Rules {
  std::string name = "free";  // the named set it came from, or "custom"
  Capture capture = Capture::line;
  bool corner = false;  // enemy on a corner taken when both its neighbours are the mover's
  Repetition repetition = Repetition::none;
  int rows = 4, cols = 4;
  Side first = Side::black;
};

struct NamedRules {
  Rules rules;
  std::string source;  // where the reading comes from
};

const std::vector<NamedRules>& named_rule_sets();
// Throws GonuError listing the known names if `name` is not one.
Rules rules_by_name(const std::string& name);

std::string to_string(Side s);          // "black" / "white"
std::string to_string(Capture c);       // "line" / "single"
std::string to_string(Repetition r);    // "none" / "immediate" / "undo" / "superko"
Side parse_side(const std::string& s);  // accepts black|white|x|w; throws GonuError otherwise
Capture parse_capture(const std::string& s);
Repetition parse_repetition(const std::string& s);
// Parses "RxC" (e.g. "4x4"); throws GonuError on a malformed or unsupported size.
void parse_board_size(const std::string& s, int& rows, int& cols);

// The parts of a rule set given apart from its name (the gonu program's --capture, --corner,
// --repetition, --first, --board; the Python module's keywords).
struct RuleParts {
  std::optional<std::string> capture, repetition, first, board;
  std::optional<bool> corner;
};
// `named` with each given part replaced, renamed "custom" when a part differs from the named
// set's. With a `position`, the board size is the position's and must agree with parts.board.
// Throws GonuError on a malformed part.
Rules with_parts(const Rules& named, const RuleParts& parts, const std::optional<std::string>& position = {});

// One line with every part: "free: board 4x4, capture line, corner off, repetition none, black first".
std::string describe(const Rules& r);
// A compact, stable identifier of the parts (used in table headers): "4x4/line/nocorner/none/black".
std::string rules_id(const Rules& r);

bool operator==(const Rules& a, const Rules& b);  // compares the parts, not the name

}  // namespace gonu
