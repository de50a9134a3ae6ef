// gonu play FILE [--as black|white]: a game in the terminal against perfect play from a table.
// The game starts at the table's root. The engine plays the best move (fastest win, else keep the
// draw, else slowest loss; ties in move order), so a game replays exactly. Moves are read line by
// line, in notation or as a number from the listed moves; this works with stdin not a terminal
// (each line read is echoed then), and end of input ends the game cleanly.
#include <unistd.h>

#include <iostream>
#include <string>

#include "core/error.hpp"
#include "solver/table/query.hpp"
#include "tools/options.hpp"
#include "tools/table_cli.hpp"

namespace gonu::cli {

namespace {

std::string side_name(Side s) { return s == Side::black ? "Black" : "White"; }

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const auto b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

void print_intro(const Table& t, const Game& g, Side human) {
  const Board& board = t.board();
  const Rules& rules = t.rules();
  std::cout << "gonu play: " << describe(rules) << "\n"
            << "you play " << side_name(human) << "; the engine plays " << side_name(other(human))
            << " perfectly from " << t.path() << ".\n"
            << "enter a move in notation";
  if (const std::vector<Move> first = legal_moves(g); !first.empty())
    std::cout << " (e.g. " << format_move(board, rules, first.front()) << ")";
  std::cout << " or its number from the list; 'quit' ends the game.\n";
  if (uses_tag(rules))
    std::cout << "repetition " << to_string(rules.repetition) << ": the moves played decide which moves are banned.\n";
}

void print_played(const Game& g, const std::string& who, const Move& m) {
  std::cout << who << " " << format_move(g.board, g.rules, m);
  if (m.captured) std::cout << ", capturing " << format_squares(g.board, m.captured);
  std::cout << "\n";
}

// Plays the move a line names, a number from the list `a` or notation; throws GonuError for an
// illegal one (the game is unchanged then).
Move play_line(Game& g, const QueryAnswer& a, const std::string& line) {
  if (line.find_first_not_of("0123456789") != std::string::npos) return play(g, line);
  const std::size_t k = line.size() > 6 ? 0 : std::stoul(line);
  if (k < 1 || k > a.moves.size())
    throw GonuError("there is no move number " + line + " (1 to " + std::to_string(a.moves.size()) + ")");
  const Move m = a.moves[k - 1].move;
  play(g, m);
  return m;
}

// The human's turn: lists the moves and reads lines until one is a legal move (true) or the game
// is stopped by 'quit' or the end of input (false).
bool human_turn(Game& g, const QueryAnswer& a, bool echo) {
  std::cout << "your moves:";
  for (std::size_t i = 0; i < a.moves.size(); ++i)
    std::cout << "  " << i + 1 << ". " << format_move(g.board, g.rules, a.moves[i].move);
  std::cout << "\n";
  for (;;) {
    std::cout << "your move> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::cout << "\nend of input: game stopped after " << g.moves.size() << " moves.\n";
      return false;
    }
    line = trim(line);
    if (echo) std::cout << line << "\n";
    if (line.empty()) continue;
    if (line == "quit" || line == "resign") {
      std::cout << "you stopped the game after " << g.moves.size() << " moves.\n";
      return false;
    }
    try {
      print_played(g, "you play", play_line(g, a, line));
      return true;
    } catch (const GonuError& e) {
      std::cout << "illegal: " << e.what() << "\n";
    }
  }
}

}  // namespace

int cmd_play(int argc, char** argv) {
  CommandLine cl("gonu play FILE [--as black|white]");
  cl.add()("as", po::value<std::string>(), "your side: black | white (default: the side to move first)");
  cl.positional("file");
  if (!cl.parse(argc, argv)) return 0;
  const Table t = Table::open(cl.required("file", "FILE"));
  Game g = game_for_query(t, std::nullopt, "");
  const Side human = cl.has("as") ? parse_side(cl.text("as")) : current(g).to_move;
  const bool echo = !isatty(STDIN_FILENO);
  print_intro(t, g, human);
  for (;;) {
    const Position& p = current(g);
    std::cout << "\n" << draw_position(g.board, p) << format_position(g.board, p) << "\n";
    if (const std::string over = game_over_reason(g); !over.empty()) {
      std::cout << "game over after " << g.moves.size() << " moves: " << over << ". " << side_name(other(p.to_move))
                << (other(p.to_move) == human ? " (you) wins.\n" : " (the engine) wins.\n");
      return 0;
    }
    const QueryAnswer a = query_game(t, g, false);
    std::cout << "value: " << value_text(a.value, a.dist) << " for " << side_name(p.to_move) << " (to move)\n";
    if (p.to_move == human) {
      if (!human_turn(g, a, echo)) return 0;
      continue;
    }
    const Move& m = a.moves[std::size_t(a.best)].move;
    play(g, m);
    print_played(g, "engine (" + side_name(other(human)) + ") plays", m);
  }
}

}  // namespace gonu::cli
