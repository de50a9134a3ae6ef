// libFuzzer target: the text parsers of core/ - rule-set parts, board sizes, positions
// (parse_position_text, parse_position) and moves (play, play_history, parse_move) - on arbitrary
// text. Input lines: 1 a rule set name (an unknown one picks a named set by its length),
// 2 a position ("" for the start position), 3 a move history, 4 moves played one at a time.
// Only GonuError is an accepted outcome. Checked round trips: a parsed position formats and
// parses back to itself; every legal move's notation parses back to that move.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_notation: %s: %s\n", what, detail.c_str());
  std::abort();
}

std::vector<std::string_view> split_lines(std::string_view text, std::size_t count) {
  std::vector<std::string_view> lines;
  while (lines.size() + 1 < count) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) break;
    lines.push_back(text.substr(0, nl));
    text.remove_prefix(nl + 1);
  }
  lines.push_back(text);
  lines.resize(count);
  return lines;
}

// The small parsers of rule parts, each on the first line; their results are not used further.
void parse_parts(const std::string& s) {
  int rows = 0, cols = 0;
  try { gonu::parse_board_size(s, rows, cols); } catch (const gonu::GonuError&) {}
  try { (void)gonu::parse_side(s); } catch (const gonu::GonuError&) {}
  try { (void)gonu::parse_capture(s); } catch (const gonu::GonuError&) {}
  try { (void)gonu::parse_repetition(s); } catch (const gonu::GonuError&) {}
}

gonu::Rules pick_rules(const std::string& name) {
  try {
    return gonu::rules_by_name(name);
  } catch (const gonu::GonuError&) {
    const auto& sets = gonu::named_rule_sets();
    return sets[name.size() % sets.size()].rules;
  }
}

// The position of line 2 under rules r (its size taken from the text); nullopt if refused.
std::optional<gonu::Position> read_position(gonu::Rules& r, std::string_view text) {
  if (text.empty()) return gonu::start_position(gonu::make_board(r.rows, r.cols), r.first);
  try {
    const gonu::ParsedPosition pp = gonu::parse_position_text(text);
    r.rows = pp.rows;
    r.cols = pp.cols;
    const gonu::Board b = gonu::make_board(r.rows, r.cols);
    const std::string again = gonu::format_position(b, pp.position);
    if (!(gonu::parse_position(b, again) == pp.position)) fail("position does not round-trip", again);
    (void)gonu::draw_position(b, pp.position);
    return pp.position;
  } catch (const gonu::GonuError&) {
    return std::nullopt;
  }
}

void check_move_notation(const gonu::Game& g) {
  const std::vector<gonu::Move> legal = gonu::legal_moves(g);
  for (const gonu::Move& m : legal) {
    const std::string text = gonu::format_move(g.board, g.rules, m);
    if (!(gonu::parse_move(g.board, g.rules, gonu::current(g), text, legal) == m)) fail("move does not round-trip", text);
  }
  (void)gonu::game_over_reason(g);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string_view> line = split_lines(text, 4);
  const std::string name(line[0]);
  parse_parts(name);
  gonu::Rules r = pick_rules(name);
  const std::optional<gonu::Position> p = read_position(r, line[1]);
  if (!p) return 0;
  try {
    const gonu::Board b4 = gonu::make_board(4, 4);
    (void)gonu::parse_position(b4, line[1]);
  } catch (const gonu::GonuError&) {}
  gonu::Game g = gonu::new_game(r, *p);
  try {
    gonu::play_history(g, line[2]);
  } catch (const gonu::GonuError&) {}
  check_move_notation(g);
  std::string_view rest = line[3];
  while (!rest.empty()) {
    const std::size_t sp = rest.find(' ');
    const std::string_view word = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    try {
      gonu::play(g, word);
    } catch (const gonu::GonuError&) {}
  }
  check_move_notation(g);
  return 0;
}
