// The analysis board of gonu play: the game loop, the human's commands, the engine's move, the
// endings and the record.
#include "tools/play_session.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

#include "core/error.hpp"
#include "tools/options.hpp"
#include "tools/play_moves.hpp"
#include "tools/table_cli.hpp"

namespace gonu::cli {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const auto b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string plies_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

// A line that reads like a move attempt: a letter first and a digit in it (b4-b3, z9).
bool looks_like_move(const std::string& line) {
  return !line.empty() && std::isalpha(static_cast<unsigned char>(line[0])) &&
         line.find_first_of("0123456789") != std::string::npos;
}

const std::vector<std::string>& command_words() {
  static const std::vector<std::string> words = {"help", "hint", "undo", "back", "redo", "values", "moves",
                                                 "record", "board", "quit", "exit"};
  return words;
}

}  // namespace

std::string move_notation(const Board& b, const std::string& typed) {
  std::string s;
  for (const char c : typed)
    if (!std::isspace(static_cast<unsigned char>(c))) s += b.cols <= 26 ? char(std::tolower(static_cast<unsigned char>(c))) : c;
  // After the first point (a file letter, then digits): a '-' if the second point follows at once.
  std::size_t at = 0;
  if (at < s.size() && std::isalpha(static_cast<unsigned char>(s[at]))) ++at;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) ++at;
  if (at > 1 && at < s.size() && std::isalpha(static_cast<unsigned char>(s[at])) && s[at] != 'x')
    return s.substr(0, at) + "-" + s.substr(at);
  return s;
}

PlaySession::PlaySession(const Table& t, const Game& start, const PlaySettings& s)
    : table_(t), start_(start), game_(start), settings_(s), rng_(s.seed) {}

void PlaySession::print_intro() const {
  const Rules& rules = table_.rules();
  std::cout << wrap_text("gonu play: " + describe(rules));
  if (settings_.human)
    std::cout << wrap_text("you play " + to_string(*settings_.human) + "; the engine plays " +
                           to_string(other(*settings_.human)) + " perfectly from " + settings_.source + ".");
  else
    std::cout << wrap_text("you play both sides (an analysis board over " + settings_.source + ").");
  if (settings_.vary)
    std::cout << wrap_text("the engine picks at random among its best moves: seed " + std::to_string(settings_.seed) +
                           " (--seed " + std::to_string(settings_.seed) + " replays its choices).");
  // The example is a move of the human's side, even when the engine moves first.
  Position own = current(game_);
  if (settings_.human) own.to_move = *settings_.human;
  std::string how = "enter a move in notation";
  if (const std::vector<Move> first = legal_moves(new_game(rules, own)); !first.empty())
    how += " (e.g. " + format_move(game_.board, game_.rules, first.front()) + ")";
  std::cout << wrap_text(how + " or its number from the list; 'help' lists the commands.");
  if (uses_tag(rules))
    std::cout << wrap_text("repetition " + to_string(rules.repetition) +
                           ": the moves played decide which moves are banned.");
}

void PlaySession::print_position(const QueryAnswer& a) const {
  const Position& p = current(game_);
  std::cout << "\n" << draw_position(game_.board, p) << format_position(game_.board, p) << "\n";
  if (settings_.values && ending().empty())
    std::cout << "value: " << value_text(a.value, a.dist) << " for " << to_string(p.to_move) << " (to move)\n";
}

std::string PlaySession::ending() const {
  if (std::string over = game_over_reason(game_); !over.empty()) return over;
  const Position& p = current(game_);
  if (std::count(game_.positions.begin(), game_.positions.end(), p) >= 3)
    return "the position " + format_position(game_.board, p) +
           " stands for the third time: a draw by repetition (under repetition " +
           to_string(game_.rules.repetition) + ", play that never ends is a draw)";
  return "";
}

void PlaySession::print_end(const std::string& why) const {
  std::cout << wrap_text("game over after " + plies_text(game_.moves.size()) + ": " + why + ".");
  if (game_over_reason(game_).empty()) {
    std::cout << "undo takes moves back to try again; quit ends.\n";
    return;
  }
  const Side winner = other(current(game_).to_move);
  std::cout << (winner == Side::black ? "Black" : "White") << " wins"
            << (!settings_.human ? "" : winner == *settings_.human ? " (you)" : " (the engine)") << ".\n";
  std::cout << "undo takes moves back to try again; quit ends.\n";
}

void PlaySession::print_record() const {
  std::vector<std::string> moves;
  for (const Move& m : game_.moves) moves.push_back(format_move(game_.board, game_.rules, m));
  if (moves.empty()) {
    std::cout << "game record: no moves played\n";
    return;
  }
  std::cout << wrap_words("game record (" + plies_text(moves.size()) + "): ", moves, 2, " ");
  // One line however long, so that it can be copied as a command.
  std::cout << "replay: " << settings_.replay;
  if (settings_.position) std::cout << " '" << *settings_.position << "'";
  std::cout << " --history '" << format_history(game_) << "'\n";
}

void PlaySession::engine_move(const QueryAnswer& a) {
  std::size_t pick = std::size_t(a.best);
  if (settings_.vary) {
    std::vector<std::size_t> best;
    for (std::size_t i = 0; i < a.moves.size(); ++i)
      if (a.moves[i].best) best.push_back(i);
    pick = best[std::uniform_int_distribution<std::size_t>(0, best.size() - 1)(rng_)];
  }
  const Move& m = a.moves[pick].move;
  const Side side = current(game_).to_move;
  play(game_, m);
  std::cout << "engine (" << to_string(side) << ") plays " << format_move(game_.board, game_.rules, m);
  if (m.captured) std::cout << ", capturing " << format_squares(game_.board, m.captured);
  std::cout << "\n";
}

void PlaySession::print_moves(const QueryAnswer& a) const {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < a.moves.size(); ++i)
    items.push_back(std::to_string(i + 1) + ". " + format_move(game_.board, game_.rules, a.moves[i].move) +
                    (settings_.values ? " (" + value_text(a.moves[i].value, a.moves[i].dist) + ")" : ""));
  std::cout << wrap_words(to_string(current(game_).to_move) + "'s moves:  ", items, 2);
}

void PlaySession::print_hint(const QueryAnswer& a) const {
  std::cout << "hint (value for " << to_string(current(game_).to_move) << " after each move, best first):\n";
  const std::vector<std::size_t> order = best_first(a.moves);
  for (std::size_t k = 0; k < order.size();) {
    const Value v = a.moves[order[k]].value;
    std::vector<std::string> items;
    for (; k < order.size() && a.moves[order[k]].value == v; ++k) {
      const MoveAnswer& m = a.moves[order[k]];
      items.push_back(format_move(game_.board, game_.rules, m.move) +
                      (v == Value::draw ? "" : " (" + value_text(m.value, m.dist) + ")"));
    }
    std::cout << wrap_words("  " + std::string(group_label(v)) + " ", items, 4, ", ");
  }
}

void PlaySession::print_help() const {
  std::cout << "commands:\n"
               "  b4-b3, or a number    play that move (also b4b3, b4 b3, B4-B3; the number from\n"
               "                        the list of moves)\n"
               "  hint                  every move grouped by its value, with the distances\n"
               "  undo, back            take back your last move (and the engine's reply)\n"
               "  redo                  play again what undo took back\n"
               "  values [on|off]       show the values of the position and its moves (now "
            << (settings_.values ? "on" : "off")
            << ")\n"
               "  moves                 list the legal moves again\n"
               "  board                 draw the position again\n"
               "  record                the moves so far, in the notation of --history\n"
               "  help, ?               this list\n"
               "  quit, exit, q         end the game (the record is printed)\n";
}

bool PlaySession::undo() {
  std::size_t k = game_.moves.size();
  if (!settings_.human) {
    if (k == 0) return false;
    --k;
  } else {
    do {
      if (k == 0) return false;
      --k;
    } while (game_.positions[k].to_move != *settings_.human);
  }
  redo_.insert(redo_.begin(), game_.moves.begin() + std::ptrdiff_t(k), game_.moves.end());
  replay_to(k);
  std::cout << "took back to ply " << k << " (" << plies_text(k) << " played)\n";
  return true;
}

// Plays the taken-back moves again up to the human's next turn (one move with --as both).
bool PlaySession::redo() {
  if (redo_.empty()) return false;
  do {
    play(game_, redo_.front());
    redo_.erase(redo_.begin());
  } while (!redo_.empty() && settings_.human && current(game_).to_move != *settings_.human);
  std::cout << "played again to ply " << game_.moves.size() << " (" << redo_.size()
            << " more to redo)\n";
  return true;
}

void PlaySession::replay_to(std::size_t plies) {
  const std::vector<Move> kept(game_.moves.begin(), game_.moves.begin() + std::ptrdiff_t(plies));
  game_ = start_;
  for (const Move& m : kept) play(game_, m);
}

// Plays the move a line names (notation, or a number from the list); says a change of value.
bool PlaySession::try_move(const QueryAnswer& a, const std::string& line) {
  Move m;
  try {
    if (line.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t k = line.size() > 6 ? 0 : std::stoul(line);
      if (k < 1 || k > a.moves.size())
        throw GonuError("there is no move number " + line + " (1 to " + std::to_string(a.moves.size()) + ")");
      m = a.moves[k - 1].move;
      play(game_, m);
    } else {
      m = play(game_, move_notation(game_.board, line));
    }
  } catch (const GonuError& e) {
    std::cout << "illegal: " << e.what() << "\n";
    return false;
  }
  redo_.clear();
  const Side side = game_.positions[game_.positions.size() - 2].to_move;
  std::cout << "you play " << format_move(game_.board, game_.rules, m);
  if (m.captured) std::cout << ", capturing " << format_squares(game_.board, m.captured);
  std::cout << "\n";
  const auto it = std::find_if(a.moves.begin(), a.moves.end(), [&](const MoveAnswer& x) { return x.move == m; });
  if (it != a.moves.end() && it->value != a.value)
    std::cout << wrap_text("notice: " + format_move(game_.board, game_.rules, m) + " changes the value for " +
                           to_string(side) + ": " + value_text(a.value, a.dist) + " -> " +
                           value_text(it->value, it->dist));
  return true;
}

bool PlaySession::human_line(const QueryAnswer& a, const std::string& word, const std::string& line, bool over,
                             Turn& turn) {
  if (word == "q" || word == "quit" || word == "exit" || word == "resign") {
    std::cout << "you stopped the game after " << plies_text(game_.moves.size()) << ".\n";
    turn = Turn::stop;
    return true;
  }
  if (word == "help" || word == "?" || word == "h") print_help();
  else if (over && (word == "hint" || word == "moves")) std::cout << "the game is over: no moves\n";
  else if (word == "hint") print_hint(a);
  else if (word == "moves") print_moves(a);
  else if (word == "record") print_record();
  else if (word == "board") print_position(a);
  else if (word == "undo" || word == "back") {
    if (undo()) return true;
    std::cout << "nothing to take back\n";
  } else if (word == "redo") {
    if (redo()) return true;
    std::cout << "nothing to redo\n";
  } else if (word == "values") {
    const std::string arg = trim(line.substr(word.size()));
    if (arg != "" && arg != "on" && arg != "off") std::cout << "values takes on or off\n";
    else settings_.values = arg.empty() ? !settings_.values : arg == "on";
    std::cout << "values " << (settings_.values ? "on" : "off") << "\n";
  } else if (looks_like_move(lower(line)) || line.find_first_not_of("0123456789") == std::string::npos) {
    if (!over) return try_move(a, line);
    std::cout << "the game is over: undo takes moves back, quit ends\n";
  } else {
    const std::string near = closest_word(word, command_words());
    std::cout << "unknown command '" << word << "'" << (near.empty() ? "" : "; did you mean '" + near + "'?")
              << "; type help\n";
  }
  return false;
}

PlaySession::Turn PlaySession::human_turn(const QueryAnswer& a, LineReader& in, bool over) {
  if (!over) print_moves(a);
  for (;;) {
    const std::optional<std::string> read = in.read(to_string(current(game_).to_move) + "> ");
    if (!read) {
      std::cout << "\nend of input: game stopped after " << plies_text(game_.moves.size()) << ".\n";
      return Turn::stop;
    }
    const std::string line = trim(*read);
    if (line.empty()) continue;
    const std::string word = line.substr(0, line.find_first_of(" \t"));
    Turn turn = Turn::moved;
    if (human_line(a, word, line, over, turn)) return turn;
  }
}

void PlaySession::run(LineReader& in) {
  print_intro();
  for (;;) {
    const std::string over = ending();
    const QueryAnswer a = over.empty() ? query_game(table_, game_, false) : QueryAnswer{};
    print_position(a);
    if (!over.empty()) print_end(over);
    if (over.empty() && !human_moves(current(game_).to_move)) {
      engine_move(a);
      continue;
    }
    if (human_turn(a, in, !over.empty()) == Turn::stop) break;
  }
  print_record();
}

}  // namespace gonu::cli
