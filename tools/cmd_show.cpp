// gonu show POSITION: draws a position.
#include <iostream>

#include "core/julgonu/board.hpp"
#include "core/julgonu/position.hpp"
#include "tools/jungi_cli.hpp"
#include "tools/options.hpp"

namespace gonu::cli {

int cmd_show(int argc, char** argv) {
  CommandLine cl("gonu show POSITION   (e.g. 'xxxx/4/4/wwww x')", "gonu show POSITION");
  cl.game_option();
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  if (cl.jungi()) return jungi_show(cl);
  const ParsedPosition p = parse_position_text(cl.required("position", "POSITION"));
  const Board b = make_board(p.rows, p.cols);
  std::cout << draw_position(b, p.position) << format_position(b, p.position) << "\n";
  return 0;
}

}  // namespace gonu::cli
