// Shared helpers of the table subcommands.
#include "tools/julgonu/table_cli.hpp"

#include "core/error.hpp"

namespace gonu::cli {

Game game_for_query(const Table& t, const std::optional<std::string>& position, const std::string& history) {
  const Board& b = t.board();
  Game g;
  if (position) {
    const ParsedPosition pp = parse_position_text(*position);
    if (pp.rows != b.rows || pp.cols != b.cols)
      throw GonuError("position '" + *position + "' is " + std::to_string(pp.rows) + "x" + std::to_string(pp.cols) +
                      ", but the table " + t.path() + " is for a " + std::to_string(b.rows) + "x" +
                      std::to_string(b.cols) + " board");
    g = new_game(t.rules(), pp.position);
  } else {
    g = new_game(t.rules(), t.header().root);
    g.tag = t.header().root_tag;
  }
  try {
    play_history(g, history);
  } catch (const GonuError& e) {
    throw GonuError(std::string("illegal history: ") + e.what());
  }
  return g;
}

nlohmann::ordered_json rules_json(const Rules& r) {
  return {{"name", r.name},
          {"id", rules_id(r)},
          {"board", std::to_string(r.rows) + "x" + std::to_string(r.cols)},
          {"capture", to_string(r.capture)},
          {"corner", r.corner},
          {"repetition", to_string(r.repetition)},
          {"first", to_string(r.first)}};
}

std::string format_history(const Game& g) {
  std::string s;
  for (const Move& m : g.moves) {
    if (!s.empty()) s += ' ';
    s += format_move(g.board, g.rules, m);
  }
  return s;
}

}  // namespace gonu::cli

namespace gonu::cli {
std::string tag_text(const Board& b, const Tag& t) {
  if (t.empty()) return "empty";
  std::string s;
  auto step = [&](const char* name, const Step& st) {
    if (!st.valid()) return;
    s += (s.empty() ? "" : ", ") + std::string(name) + " " + square_name(b, st.from) + "-" + square_name(b, st.to);
  };
  step("mine", t.mine);
  step("theirs", t.theirs);
  if (t.ban) s += (s.empty() ? "" : ", ") + std::string("ban");
  return s;
}
}  // namespace gonu::cli
