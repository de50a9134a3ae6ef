// gonu show [POSITION] [rule flags]: draws a position; without one, the start of the rule set the
// flags name (4x4 free by default), so that a first try shows something.
#include <iostream>

#include "core/julgonu/board.hpp"
#include "core/julgonu/game.hpp"
#include "core/julgonu/position.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {

int cmd_show(int argc, char** argv) {
  CommandLine cl("gonu show [POSITION] [--rules NAME] [--board RxC]   (e.g. 'xxxx/4/4/wwww x'; none: the start)");
  cl.rule_options();
  cl.game_option();
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  if (cl.jungi()) return jungi_show(cl);
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

}  // namespace gonu::cli
