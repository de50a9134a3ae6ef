// gonu play --certificate and gonu query --certificate (play_certificate.hpp): the game loop
// against the strategy, and the answer at one state of the proof.
#include "tools/julgonu/play_certificate.hpp"

#include <iostream>

#include "core/error.hpp"
#include "tools/report/play_moves.hpp"
#include "tools/cli/play_session.hpp"
#include "tools/julgonu/play_julgonu.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

namespace {

using ojson = nlohmann::ordered_json;

std::string plies_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// The game with its moves after the root taken back to `plies` of them (the root's own history kept).
Game replayed(const Game& root, const Game& g, std::size_t plies) {
  Game out = root;
  for (std::size_t i = root.moves.size(); i < plies; ++i) play(out, g.moves[i]);
  return out;
}

class CertificateSession {
 public:
  CertificateSession(const CertificatePlayer& p, const std::string& path, const Game& g, std::optional<Side> human)
      : p_(p), path_(path), start_(g), game_(g), human_(human) {}

  void run(LineReader& in) {
    intro();
    for (;;) {
      show();
      const std::string over = game_over_reason(game_);
      if (!over.empty()) {
        std::cout << wrap_text("game over after " + plies_text(game_.moves.size()) + ": " + over + ". " +
                               side_title(p_.winner()) + " wins, as the proof says.");
        std::cout << "undo takes moves back to try another defence; quit ends.\n";
      } else if (human_ && current(game_).to_move == p_.winner()) {
        if (!strategy_move()) break;
        continue;
      }
      if (!human_turn(in, !over.empty())) break;
    }
    std::cout << "game record (" << plies_text(game_.moves.size()) << "): " << format_history(game_) << "\n";
  }

 private:
  static std::string side_title(Side s) { return s == Side::black ? "Black" : "White"; }

  void intro() const {
    std::cout << wrap_text("gonu play: the superko proof " + path_ + " (format " + std::to_string(p_.format()) +
                           "): " + p_.check_message());
    const Side loser = other(p_.winner());
    if (human_)
      std::cout << wrap_text("you play " + to_string(loser) + "; the proof's strategy plays " + to_string(p_.winner()) +
                             ". Every legal defence is allowed, with the whole history and superko applied; the "
                             "strategy wins against each. 'help' lists the commands.");
    else
      std::cout << wrap_text("you play both sides; 'hint' shows the strategy's move for " + to_string(p_.winner()) +
                             ". 'help' lists the commands.");
  }

  void show() const {
    const Position& p = current(game_);
    std::cout << "\n" << draw_position(game_.board, p) << format_position(game_.board, p) << "\n";
    if (game_over_reason(game_).empty())
      std::cout << "value: " << certificate_value(p_, game_) << " for " << to_string(p.to_move) << " (to move)"
                << (p_.follows(game_) ? ", proven" : ", off the proof (a move the strategy does not make)") << "\n";
  }

  bool strategy_move() {
    const std::optional<Move> m = p_.winner_move(game_);
    if (!m) {
      std::cout << "the game has left the proof: the strategy has no move here\n";
      return false;
    }
    play(game_, *m);
    std::cout << "strategy (" << to_string(p_.winner()) << ") plays " << format_move(game_.board, game_.rules, *m);
    if (m->captured) std::cout << ", capturing " << format_squares(game_.board, m->captured);
    std::cout << "\n";
    return true;
  }

  void list_moves() const {
    std::vector<std::string> items;
    const std::vector<Move> moves = legal_moves(game_);
    for (std::size_t i = 0; i < moves.size(); ++i)
      items.push_back(std::to_string(i + 1) + ". " + format_move(game_.board, game_.rules, moves[i]));
    std::cout << wrap_words(to_string(current(game_).to_move) + "'s moves:  ", items, 2);
  }

  void help() const {
    std::cout << "commands:\n"
                 "  b4-b3, or a number    play that move (also b4b3, b4 b3, B4-B3)\n"
                 "  hint                  the strategy's move (when the winner is to move)\n"
                 "  undo, back            take back your last move (and the strategy's reply)\n"
                 "  moves, board, record  the legal moves, the board, the moves so far\n"
                 "  help, ?               this list\n"
                 "  quit, exit, q         end\n";
  }

  bool undo() {
    std::size_t k = game_.moves.size();
    do {
      if (k <= start_.moves.size()) return false;
      --k;
    } while (human_ && game_.positions[k].to_move != *human_);
    game_ = replayed(start_, game_, k);
    std::cout << "took back to ply " << k << "\n";
    return true;
  }

  bool try_move(const std::string& line) {
    try {
      const std::vector<Move> moves = legal_moves(game_);
      Move m;
      if (line.find_first_not_of("0123456789") == std::string::npos) {
        const std::size_t k = line.size() > 6 ? 0 : std::stoul(line);
        if (k < 1 || k > moves.size())
          throw GonuError("there is no move number " + line + " (1 to " + std::to_string(moves.size()) + ")");
        m = moves[k - 1];
        play(game_, m);
      } else {
        m = play(game_, move_notation(game_.board, line));
      }
      std::cout << "you play " << format_move(game_.board, game_.rules, m) << "\n";
      return true;
    } catch (const GonuError& e) {
      std::cout << "illegal: " << e.what() << "\n";
      return false;
    }
  }

  // One turn of the user's; false to stop.
  bool human_turn(LineReader& in, bool over) {
    if (!over) list_moves();
    for (;;) {
      const std::optional<std::string> read = in.read(to_string(current(game_).to_move) + "> ");
      if (!read) {
        std::cout << "\nend of input after " << plies_text(game_.moves.size()) << ".\n";
        return false;
      }
      const std::string line = trim(*read);
      const std::string word = line.substr(0, line.find_first_of(" \t"));
      if (line.empty()) continue;
      if (word == "q" || word == "quit" || word == "exit") return false;
      if (word == "help" || word == "?") help();
      else if (word == "moves") list_moves();
      else if (word == "board") show();
      else if (word == "record") std::cout << "record: " << format_history(game_) << "\n";
      else if (word == "hint") {
        const std::optional<Move> m = p_.winner_move(game_);
        std::cout << (m ? "the strategy plays " + format_move(game_.board, game_.rules, *m)
                        : std::string("no strategy move here (the loser is to move, or the game left the proof)"))
                  << "\n";
      } else if (word == "undo" || word == "back") {
        if (undo()) return true;
        std::cout << "nothing to take back\n";
      } else if (over) {
        std::cout << "the game is over: undo takes moves back, quit ends\n";
      } else if (try_move(line)) {
        return true;
      }
    }
  }

  const CertificatePlayer& p_;
  std::string path_;
  const Game start_;
  Game game_;
  std::optional<Side> human_;
};

}  // namespace

void play_certificate(const CertificatePlayer& p, const std::string& path, const Game& g, std::optional<Side> human,
                      LineReader& in) {
  CertificateSession(p, path, g, human).run(in);
}

void print_certificate_query(const CertificatePlayer& p, const std::string& path, const Game& g) {
  const ojson j = certificate_query_json(p, path, g);
  const Position& pos = current(g);
  std::cout << "certificate: " << path << " (format " << p.format() << ")\n";
  std::cout << "position:    " << format_position(g.board, pos);
  if (!g.moves.empty()) std::cout << "  (after " << format_history(g) << ")";
  std::cout << "\n" << draw_position(g.board, pos);
  std::cout << "value:       " << std::string(j["value"]) << " for " << to_string(pos.to_move)
            << " (to move), proven: " << to_string(p.winner()) << " follows the proof's strategy\n";
  if (!j["game_over"].is_null()) {
    std::cout << "game over:   " << std::string(j["game_over"]) << "\n";
  } else if (pos.to_move == p.winner()) {
    std::cout << "strategy:    " << std::string(j["winner_move"]) << "\n";
  } else {
    std::cout << "loser's legal replies (superko applied), each with the strategy's answer:\n";
    for (const auto& r : j["replies"])
      std::cout << "  " << std::string(r["move"]) << "  -> "
                << (!r["answer"].is_null()      ? std::string(r["answer"])
                    : !r["game_over"].is_null() ? "game over: " + std::string(r["game_over"])
                                                : std::string("no answer"))
                << "\n";
  }
}

}  // namespace gonu::cli
