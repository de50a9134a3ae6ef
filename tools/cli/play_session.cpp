// The analysis board of gonu play for both games: the game loop, the human's commands, the
// engine's move, the endings and the record; what differs between the games is the PlayGame's.
#include "tools/cli/play_session.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

#include "core/error.hpp"
#include "solver/common/move_order.hpp"
#include "tools/report/play_moves.hpp"

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

std::string capitalized(std::string s) {
  if (!s.empty()) s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::string plies_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

bool all_digits(const std::string& line) { return line.find_first_not_of("0123456789") == std::string::npos; }

// A line that reads like a move attempt: a letter (or a Jungi promoted piece's '+') first and a
// digit in it (b4-b3, z9, +Ke5-e6).
bool looks_like_move(const std::string& line) {
  return !line.empty() && (std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '+') &&
         line.find_first_of("0123456789") != std::string::npos;
}

const std::vector<std::string>& command_words() {
  static const std::vector<std::string> words = {"help", "hint", "undo", "back", "redo", "values", "moves",
                                                 "record", "board", "quit", "exit"};
  return words;
}

std::string move_value_text(const PlayMove& m) { return m.known ? value_text(m.value, m.dist) : "unknown"; }

}  // namespace

PlaySettings play_settings(const CommandLine& cl, const PlayGame& g) {
  PlaySettings s;
  const std::string as = cl.has("as") ? cl.text("as") : g.side_name(g.to_move());
  if (as != "both") s.human = g.parse_side(as);
  const std::string values = cl.text("values");
  if (values != "on" && values != "off") cl.usage_error("--values takes on or off");
  s.values = values == "on";
  s.vary = cl.has("vary");
  if (cl.has("seed") && !s.vary) cl.usage_error("--seed goes with --vary");
  s.seed = cl.has("seed") ? cl.value<std::uint64_t>("seed") : std::random_device{}();
  return s;
}

PlaySession::PlaySession(PlayGame& game, const PlaySettings& s) : game_(game), settings_(s), rng_(s.seed) {}

void PlaySession::print_intro() const {
  std::cout << wrap_text("gonu play: " + game_.rules_text());
  if (settings_.human)
    std::cout << wrap_text("you play " + side(*settings_.human) + "; the engine plays " + side(1 - *settings_.human) +
                           " perfectly from " + settings_.source + ".");
  else
    std::cout << wrap_text("you play both sides (an analysis board over " + settings_.source + ").");
  if (settings_.vary)
    std::cout << wrap_text("the engine picks at random among its best moves: seed " + std::to_string(settings_.seed) +
                           " (--seed " + std::to_string(settings_.seed) + " replays its choices).");
  // The example is a move of the human's side, even when the engine moves first.
  std::string how = "enter a move in notation";
  if (const std::string e = game_.example_move(settings_.human.value_or(game_.to_move())); !e.empty())
    how += " (e.g. " + e + ")";
  std::cout << wrap_text(how + " or its number from the list; 'help' lists the commands.");
  for (const std::string& note : game_.notes()) std::cout << wrap_text(note);
}

void PlaySession::print_position(const PlayAnswer& a) const {
  std::cout << "\n" << game_.diagram() << game_.position_text() << "\n";
  if (!settings_.values || !ending().empty()) return;
  const std::string who = " for " + side(game_.to_move()) + " (to move)";
  if (a.known) std::cout << "value: " << value_text(a.value, a.dist) << who << "\n";
  else std::cout << wrap_text("value: unknown" + who + ": " + a.unknown);
}

std::string PlaySession::ending() const {
  if (std::string over = game_.ending().why; !over.empty()) return over;
  if (game_.times_seen() >= 3)
    return "the position " + game_.position_text() + " stands for the third time: a draw by repetition (" +
           game_.repetition_note() + ")";
  return "";
}

void PlaySession::print_end(const std::string& why) const {
  std::cout << wrap_text("game over after " + plies_text(game_.plies()) + ": " + why + ".");
  if (const std::optional<int> winner = game_.ending().winner)
    std::cout << capitalized(side(*winner)) << " wins"
              << (!settings_.human ? "" : *winner == *settings_.human ? " (you)" : " (the engine)") << ".\n";
  std::cout << "undo takes moves back to try again; quit ends.\n";
}

void PlaySession::print_record() const {
  const std::vector<std::string> moves = game_.record();
  if (moves.empty()) {
    std::cout << "game record: no moves played\n";
    return;
  }
  std::cout << wrap_words("game record (" + plies_text(moves.size()) + "): ", moves, 2, " ");
  // One line however long, so that it can be copied as a command.
  std::string history;
  for (const std::string& m : moves) history += (history.empty() ? "" : " ") + m;
  std::cout << "replay: " << settings_.replay;
  if (settings_.position) std::cout << " '" << *settings_.position << "'";
  std::cout << " --history '" << history << "'\n";
}

// "you play b3-b2, capturing c3"
void PlaySession::say_move(const PlayAnswer& a, const std::string& who, const std::string& text) const {
  std::cout << who << " " << text;
  const auto it = std::find_if(a.moves.begin(), a.moves.end(), [&](const PlayMove& m) { return m.text == text; });
  if (it != a.moves.end() && !it->captures.empty()) std::cout << ", capturing " << it->captures;
  std::cout << "\n";
}

void PlaySession::engine_move(const PlayAnswer& a) {
  std::size_t pick = *a.engine;
  if (settings_.vary) pick = a.best[std::uniform_int_distribution<std::size_t>(0, a.best.size() - 1)(rng_)];
  const std::string& text = a.moves[pick].text;
  const int mover = game_.to_move();
  game_.play(text);
  say_move(a, "engine (" + side(mover) + ") plays", text);
}

void PlaySession::print_moves(const PlayAnswer& a) const {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < a.moves.size(); ++i)
    items.push_back(std::to_string(i + 1) + ". " + a.moves[i].text + (settings_.values ? " (" + move_value_text(a.moves[i]) + ")" : ""));
  std::cout << wrap_words(side(game_.to_move()) + "'s moves:  ", items, 2);
}

void PlaySession::print_hint(const PlayAnswer& a) const {
  std::cout << "hint (value for " << side(game_.to_move()) << " after each move, best first):\n";
  const auto label = [&](const PlayMove& m) { return m.known ? std::string(group_label(m.value)) : "moves whose table is absent:"; };
  for (std::size_t k = 0; k < a.order.size();) {
    const std::string group = label(a.moves[a.order[k]]);
    std::vector<std::string> items;
    for (; k < a.order.size() && label(a.moves[a.order[k]]) == group; ++k) {
      const PlayMove& m = a.moves[a.order[k]];
      items.push_back(m.text + (!m.known ? " (" + m.unknown + ")" : m.value == Value::draw ? "" : " (" + value_text(m.value, m.dist) + ")"));
    }
    std::cout << wrap_words("  " + group + " ", items, 4, ", ");
  }
}

void PlaySession::print_help() const {
  std::cout << "commands:\n"
            << game_.move_help()
            << "  hint                  every move grouped by its value, with the distances\n"
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
  std::size_t k = game_.plies();
  do {
    if (k == 0) return false;
    --k;
  } while (settings_.human && game_.side_before(k) != *settings_.human);
  const std::vector<std::string> record = game_.record();
  redo_.insert(redo_.begin(), record.begin() + std::ptrdiff_t(k), record.end());
  game_.take_back_to(k);
  std::cout << "took back to ply " << k << " (" << plies_text(k) << " played)\n";
  return true;
}

// Plays the taken-back moves again up to the human's next turn (one move with --as both).
bool PlaySession::redo() {
  if (redo_.empty()) return false;
  do {
    game_.play(redo_.front());
    redo_.erase(redo_.begin());
  } while (!redo_.empty() && settings_.human && game_.to_move() != *settings_.human);
  std::cout << "played again to ply " << game_.plies() << " (" << redo_.size() << " more to redo)\n";
  return true;
}

// Plays the move a line names (notation, or a number from the list); says a change of value.
bool PlaySession::try_move(const PlayAnswer& a, const std::string& line) {
  std::string text;
  try {
    if (all_digits(line)) {
      const std::size_t k = line.size() > 6 ? 0 : std::stoul(line);
      if (k < 1 || k > a.moves.size())
        throw GonuError("there is no move number " + line + " (1 to " + std::to_string(a.moves.size()) + ")");
      text = a.moves[k - 1].text;
    } else {
      text = game_.parse(line);
    }
  } catch (const GonuError& e) {
    std::cout << "illegal: " << e.what() << "\n";
    return false;
  }
  const int mover = game_.to_move();
  game_.play(text);
  redo_.clear();
  say_move(a, "you play", text);
  const auto it = std::find_if(a.moves.begin(), a.moves.end(), [&](const PlayMove& m) { return m.text == text; });
  if (it != a.moves.end() && it->known && a.known && it->value != a.value)
    std::cout << wrap_text("notice: " + text + " changes the value for " + side(mover) + ": " + value_text(a.value, a.dist) +
                           " -> " + value_text(it->value, it->dist) +
                           (move_score(a.value, a.dist) > move_score(it->value, it->dist) ? ": a blunder" : ""));
  return true;
}

bool PlaySession::human_line(const PlayAnswer& a, const std::string& word, const std::string& line, bool over,
                             Turn& turn) {
  if (word == "q" || word == "quit" || word == "exit" || word == "resign") {
    std::cout << "you stopped the game after " << plies_text(game_.plies()) << ".\n";
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
  } else if (looks_like_move(lower(line)) || all_digits(line)) {
    if (!over) return try_move(a, line);
    std::cout << "the game is over: undo takes moves back, quit ends\n";
  } else {
    const std::string near = closest_word(word, command_words());
    std::cout << "unknown command '" << word << "'" << (near.empty() ? "" : "; did you mean '" + near + "'?")
              << "; type help\n";
  }
  return false;
}

PlaySession::Turn PlaySession::human_turn(const PlayAnswer& a, LineReader& in, bool over) {
  if (!over) print_moves(a);
  for (;;) {
    const std::optional<std::string> read = in.read(side(game_.to_move()) + "> ");
    if (!read) {
      std::cout << "\nend of input: game stopped after " << plies_text(game_.plies()) << ".\n";
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
    const PlayAnswer a = over.empty() ? game_.answer() : PlayAnswer{};
    print_position(a);
    if (!over.empty()) print_end(over);
    if (over.empty() && !human_moves(game_.to_move())) {
      if (a.engine) {
        engine_move(a);
        continue;
      }
      // No table at hand values the engine's moves: the human may play one for it, or undo.
      std::cout << wrap_text("the engine cannot choose a move: " + (a.known ? "none is valued" : a.unknown) +
                             "; play one for " + side(game_.to_move()) + ", undo, or quit.");
    }
    if (human_turn(a, in, !over.empty()) == Turn::stop) break;
  }
  print_record();
}

}  // namespace gonu::cli
