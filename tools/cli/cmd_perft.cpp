// gonu perft [POSITION] DEPTH: the number of move sequences of DEPTH plies from a position (the
// start when none is given), for either game; --divide gives the count under each first move.
// A position whose game is over has no moves. The standard check of a move generator. Each game's
// part counts (julgonu_perft, jungi_perft); the report is written here, the same for both.
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/cli/options.hpp"
#include "tools/cli/perft.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {
namespace {

int parse_depth(const CommandLine& cl, const std::string& text) {
  std::size_t used = 0;
  int depth = -1;
  try {
    depth = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || depth < 0 || depth > 30) cl.usage_error("DEPTH must be a whole number from 0 to 30, not '" + text + "'");
  return depth;
}

}  // namespace

int cmd_perft(int argc, char** argv) {
  CommandLine cl("gonu perft [POSITION] DEPTH [--game jungi] [--divide] [--json]", "gonu perft [POSITION] DEPTH");
  cl.game_option();
  cl.rule_options();
  cl.history("moves played from POSITION first");
  cl.add()("divide", "the count under each first move, in generation order");
  cl.json("print one JSON object: {\"depth\": D, \"nodes\": N, ...}");
  cl.positional_list("args");
  cl.epilog("Without POSITION, the start of the game (for Jungi the provisional start, with the Kings' and\n"
            "Queens' first-move rights). A position whose game is over has no moves.\n");
  if (!cl.parse(argc, argv)) return 0;
  const auto args = cl.required_list("args", "DEPTH");
  if (args.size() > 2) cl.usage_error("give at most POSITION and DEPTH");
  const int depth = parse_depth(cl, args.back());
  const std::optional<std::string> position = args.size() == 2 ? std::optional<std::string>(args[0]) : std::nullopt;

  const bool divide = cl.has("divide") && depth > 0;
  PerftCount c = cl.jungi() ? jungi_perft(cl, position, depth, divide) : julgonu_perft(cl, position, depth, divide);
  for (const auto& d : c.divided) c.nodes += d.nodes;
  if (cl.has("json")) {
    nlohmann::json j = {{"game", c.game}, {"rules", c.rules}, {"position", c.position}, {"depth", depth}, {"nodes", c.nodes}};
    if (!c.start_note.empty()) j["provisional_start"] = true;
    if (divide) {
      j["divide"] = nlohmann::json::array();
      for (const auto& d : c.divided) j["divide"].push_back({{"move", d.move}, {"nodes", d.nodes}});
    }
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::cout << "rules: " << c.rules << "\nposition: " << c.position;
  if (!c.start_note.empty()) std::cout << "\nstart: " << c.start_note;
  std::cout << "\n";
  for (const auto& d : c.divided) std::cout << d.move << ": " << d.nodes << "\n";
  std::cout << "perft " << depth << ": " << c.nodes << "\n";
  return 0;
}

}  // namespace gonu::cli
