// gonu show POSITION: draws a position.
#include <iostream>

#include "core/board.hpp"
#include "core/position.hpp"
#include "tools/cli.hpp"

namespace gonu::cli {

int cmd_show(int argc, char** argv) {
  po::options_description opts("options");
  po::options_description hidden;
  hidden.add_options()("position", po::value<std::string>(), "position");
  po::positional_options_description pos;
  pos.add("position", 1);
  po::variables_map vm;
  if (!parse_options(argc, argv, "gonu show POSITION   (e.g. 'xxxx/4/4/wwww x')", opts, pos, vm, hidden)) return 0;
  if (!vm.count("position")) throw UsageError("missing POSITION\nusage: gonu show POSITION");
  const ParsedPosition p = parse_position_text(vm["position"].as<std::string>());
  const Board b = make_board(p.rows, p.cols);
  std::cout << draw_position(b, p.position) << format_position(b, p.position) << "\n";
  return 0;
}

}  // namespace gonu::cli
