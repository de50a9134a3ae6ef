// gonu rules / show / moves / perft for Jul-gonu, and the rule flags read (julgonu_cli.hpp).
#include "tools/julgonu/julgonu_cli.hpp"

#include <iostream>

#include "core/error.hpp"
#include "core/julgonu/board.hpp"
#include "core/julgonu/position.hpp"

namespace gonu::cli {

namespace {

// A named rule set; an unknown name gets "did you mean" when one is close.
Rules named_rules(const std::string& name) {
  try {
    return rules_by_name(name);
  } catch (const GonuError& e) {
    std::vector<std::string> known;
    for (const NamedRules& n : named_rule_sets()) known.push_back(n.rules.name);
    const std::string near = closest_word(name, known);
    if (near.empty()) throw;
    throw GonuError("unknown rule set '" + name + "'; did you mean '" + near + "'?");
  }
}

std::uint64_t count_moves(const Game& g, int depth) {
  if (depth == 0) return 1;
  const std::vector<Move> moves = legal_moves(g);
  if (depth == 1) return moves.size();
  std::uint64_t n = 0;
  for (const Move& m : moves) {
    Game next = g;
    play(next, m);
    n += count_moves(next, depth - 1);
  }
  return n;
}

}  // namespace

Rules julgonu_rules(const CommandLine& cl, const std::optional<std::string>& position_text) {
  RuleParts parts{cl.optional_text("capture"), cl.optional_text("repetition"), cl.optional_text("first"),
                  cl.optional_text("board"), std::nullopt};
  if (cl.has("corner")) {
    const std::string v = cl.text("corner");
    if (v != "on" && v != "off") throw GonuError("--corner takes on or off, not '" + v + "'");
    parts.corner = v == "on";
  }
  return with_parts(named_rules(cl.has("rules") ? cl.text("rules") : "free"), parts, position_text);
}

Game game_from_options(const CommandLine& cl, const std::optional<std::string>& position) {
  const Rules rules = julgonu_rules(cl, position);
  const Board board = make_board(rules.rows, rules.cols);
  const Position start = position ? parse_position(board, *position) : start_position(board, rules.first);
  Game game = new_game(rules, start);
  if (cl.has("history")) play_history(game, cl.text("history"));
  return game;
}

bool julgonu_rule_options_given(const CommandLine& cl) {
  for (const char* name : {"rules", "capture", "corner", "repetition", "board", "first"})
    if (cl.has(name)) return true;
  return false;
}

int julgonu_show(const CommandLine& cl) {
  const std::optional<std::string> text = cl.optional_text("position");
  if (text && !cl.has("rules") && !cl.has("board")) {  // any size: the board comes from the text
    const ParsedPosition p = parse_position_text(*text);
    const Board b = make_board(p.rows, p.cols);
    std::cout << draw_position(b, p.position) << format_position(b, p.position) << "\n";
    return 0;
  }
  const Game g = game_from_options(cl, text);
  std::cout << draw_position(g.board, g.start) << format_position(g.board, g.start) << "\n";
  return 0;
}

int julgonu_moves(const CommandLine& cl) {
  const Game g = game_from_options(cl, cl.optional_text("position"));
  const Rules& rules = g.rules;
  const Board& board = g.board;

  const Position& p = current(g);
  std::cout << "rules: " << describe(rules) << "\n";
  if (!g.moves.empty()) std::cout << "after " << g.moves.size() << " history moves:\n";
  std::cout << draw_position(board, p) << format_position(board, p) << "\n";
  const std::string over = game_over_reason(g);
  if (!over.empty()) {
    std::cout << "no legal moves: " << over << "\n";
    return 0;
  }
  const std::vector<Move> legal = legal_moves(g);
  std::cout << legal.size() << " legal move" << (legal.size() == 1 ? "" : "s") << ":\n";
  for (const Move& m : legal) {
    std::cout << "  " << format_move(board, rules, m);
    if (m.captured) std::cout << "  captures " << format_squares(board, m.captured);
    std::cout << "\n";
  }
  for (const Move& m : generate_moves(board, rules, p)) {
    const std::string why = ban_reason(g, m);
    if (!why.empty()) std::cout << "  (" << format_move(board, rules, m) << " banned: " << why << ")\n";
  }
  return 0;
}

int julgonu_rules_list() {
  for (const auto& s : named_rule_sets()) {
    std::cout << describe(s.rules) << "\n    source: " << s.source << "\n";
  }
  std::cout << "\nEvery part is also a flag: --capture line|single, --corner on|off,\n"
               "--repetition none|immediate|undo|superko, --board RxC, --first black|white.\n";
  return 0;
}

PerftCount julgonu_perft(const CommandLine& cl, const std::optional<std::string>& position, int depth, bool divide) {
  const Game g = game_from_options(cl, position);
  PerftCount c{"julgonu", describe(g.rules), format_position(g.board, current(g)), {}, {}, 0};
  if (!divide) {
    c.nodes = count_moves(g, depth);
    return c;
  }
  for (const Move& m : legal_moves(g)) {
    Game next = g;
    play(next, m);
    c.divided.push_back({format_move(g.board, g.rules, m), count_moves(next, depth - 1)});
  }
  return c;
}

}  // namespace gonu::cli
