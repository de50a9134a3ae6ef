// Rule-set options and option parsing shared by the subcommands.
#include "tools/cli.hpp"

#include <iostream>

#include "core/error.hpp"

namespace gonu::cli {

void add_rule_options(po::options_description& d) {
  d.add_options()
      ("rules", po::value<std::string>(), "named rule set (see `gonu rules`); default free")
      ("capture", po::value<std::string>(), "line | single")
      ("corner", po::value<std::string>()->implicit_value("on"), "corner capture: on | off")
      ("repetition", po::value<std::string>(), "none | immediate | undo | superko")
      ("board", po::value<std::string>(), "board size RxC, e.g. 4x4")
      ("first", po::value<std::string>(), "who moves first: black | white");
}

Rules rules_from_options(const po::variables_map& vm, const std::optional<std::string>& position_text) {
  Rules r = rules_by_name(vm.count("rules") ? vm["rules"].as<std::string>() : "free");
  const Rules named = r;
  if (vm.count("capture")) r.capture = parse_capture(vm["capture"].as<std::string>());
  if (vm.count("corner")) {
    const std::string v = vm["corner"].as<std::string>();
    if (v != "on" && v != "off") throw GonuError("--corner takes on or off, not '" + v + "'");
    r.corner = v == "on";
  }
  if (vm.count("repetition")) r.repetition = parse_repetition(vm["repetition"].as<std::string>());
  if (vm.count("first")) r.first = parse_side(vm["first"].as<std::string>());
  if (vm.count("board")) parse_board_size(vm["board"].as<std::string>(), r.rows, r.cols);
  if (position_text) {
    const ParsedPosition p = parse_position_text(*position_text);
    if (vm.count("board") && (p.rows != r.rows || p.cols != r.cols))
      throw GonuError("position '" + *position_text + "' is " + std::to_string(p.rows) + "x" +
                      std::to_string(p.cols) + ", but --board says " + vm["board"].as<std::string>());
    r.rows = p.rows;
    r.cols = p.cols;
  }
  const bool same_parts = r.capture == named.capture && r.corner == named.corner &&
                          r.repetition == named.repetition && r.first == named.first;
  if (!same_parts) r.name = "custom";
  return r;
}

bool parse_options(int argc, char** argv, const std::string& usage_line, po::options_description& visible,
                   const po::positional_options_description& positional, po::variables_map& vm,
                   po::options_description hidden) {
  visible.add_options()("help,h", "show this help");
  po::options_description all;
  all.add(visible).add(hidden);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + "\nusage: " + usage_line);
  }
  if (vm.count("help")) {
    std::cout << "usage: " << usage_line << "\n\n" << visible;
    return false;
  }
  return true;
}

}  // namespace gonu::cli
