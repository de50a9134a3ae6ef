// gonu perft [POSITION] DEPTH: the number of move sequences of DEPTH plies from a position (the
// start when none is given), for either game; --divide gives the count under each first move.
// A position whose game is over has no moves. The standard check of a move generator.
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {
namespace {

struct Divided {
  std::string move;
  std::uint64_t nodes;
};

std::uint64_t julgonu_perft(const Game& g, int depth) {
  if (depth == 0) return 1;
  const std::vector<Move> moves = legal_moves(g);
  if (depth == 1) return moves.size();
  std::uint64_t n = 0;
  for (const Move& m : moves) {
    Game next = g;
    play(next, m);
    n += julgonu_perft(next, depth - 1);
  }
  return n;
}

std::vector<Divided> divide_julgonu(const Game& g, int depth) {
  std::vector<Divided> out;
  for (const Move& m : legal_moves(g)) {
    Game next = g;
    play(next, m);
    out.push_back({format_move(g.board, g.rules, m), julgonu_perft(next, depth - 1)});
  }
  return out;
}

std::vector<Divided> divide_jungi(const jungi::Rules& r, const jungi::Position& p, int depth) {
  std::vector<Divided> out;
  for (const jungi::Move& m : jungi::legal_moves(r, p)) {
    out.push_back({jungi::format_move(r, p, m), jungi::perft(r, jungi::apply_move(p, m), depth - 1)});
  }
  return out;
}

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

  std::string game_name, rules_text, position_text;
  std::vector<Divided> divided;
  std::uint64_t nodes = 0;
  const bool divide = cl.has("divide") && depth > 0;
  if (cl.jungi()) {
    const jungi::Rules r = jungi_rules(cl);
    const jungi::Position p = jungi_position(cl, r, position);
    game_name = "jungi", rules_text = jungi::describe(r), position_text = jungi::format_position(p);
    if (divide) divided = divide_jungi(r, p, depth);
    else nodes = jungi::perft(r, p, depth);
  } else {
    const Game g = game_from_options(cl, position);
    game_name = "julgonu", rules_text = describe(g.rules), position_text = format_position(g.board, current(g));
    if (divide) divided = divide_julgonu(g, depth);
    else nodes = julgonu_perft(g, depth);
  }
  for (const auto& d : divided) nodes += d.nodes;
  const bool provisional = game_name == "jungi" && !position;
  if (cl.has("json")) {
    nlohmann::json j = {{"game", game_name}, {"rules", rules_text}, {"position", position_text}, {"depth", depth}, {"nodes", nodes}};
    if (provisional) j["provisional_start"] = true;
    if (divide) {
      j["divide"] = nlohmann::json::array();
      for (const auto& d : divided) j["divide"].push_back({{"move", d.move}, {"nodes", d.nodes}});
    }
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::cout << "rules: " << rules_text << "\nposition: " << position_text;
  if (provisional) std::cout << "\nstart: " << provisional_start_note();
  std::cout << "\n";
  for (const auto& d : divided) std::cout << d.move << ": " << d.nodes << "\n";
  std::cout << "perft " << depth << ": " << nodes << "\n";
  return 0;
}

}  // namespace gonu::cli
