// gonu show / moves / rules / perft --game jungi.
#include "tools/jungi/jungi_cli.hpp"

#include <iostream>
#include <sstream>

#include "core/error.hpp"

namespace gonu::cli {

jungi::Rules jungi_rules(const CommandLine& cl) {
  jungi::Rules r;
  if (cl.has("hobbling")) r.hobbling = jungi::parse_on_off("--hobbling", cl.text("hobbling"));
  if (cl.has("promotion")) r.optional_promotion = jungi::parse_promotion(cl.text("promotion"));
  if (cl.has("stalemate")) r.stalemate_draw = jungi::parse_stalemate(cl.text("stalemate"));
  if (cl.has("lancer")) r.lancer_queen = jungi::parse_lancer(cl.text("lancer"));
  return r;
}

std::string provisional_start_note() {
  return "the provisional Jungi start (the source's picture of the start is lost; see docs/jungi.md)";
}

jungi::Position jungi_position(const CommandLine& cl, const jungi::Rules& r, const std::optional<std::string>& text) {
  jungi::Position p = text ? jungi::parse_position(r, *text) : jungi::start_position();
  return cl.has("history") ? jungi::play_history(r, p, cl.text("history"), "--history") : p;
}

int jungi_show(const CommandLine& cl) {
  const jungi::Rules r = jungi_rules(cl);
  const auto text = cl.optional_text("position");
  const jungi::Position p = jungi_position(cl, r, text);
  if (!text) std::cout << "position: " << provisional_start_note() << "\n";
  std::cout << jungi::draw_position(p) << jungi::format_position(p) << "\n";
  return 0;
}

namespace {

std::string describe_move(const jungi::Rules& r, const jungi::Position& p, const jungi::Move& m) {
  std::string out = "  " + jungi::format_move_san(r, p, m) + " (" + jungi::format_move(r, p, m) + ")";
  std::string taken;
  for (const int sq : jungi::captured_squares(p, m)) {
    taken += (taken.empty() ? "" : ", ") + jungi::piece_name(p.cell[sq]) + " on " + jungi::square_name(sq);
  }
  if (m.kind == jungi::MoveKind::passed_by) taken += " (it passed " + jungi::square_name(m.to) + ")";
  if (!taken.empty()) out += "  captures " + taken;
  if (m.promotes) out += "  promotes to " + jungi::piece_name(jungi::promote(p.cell[m.from]));
  return out;
}

}  // namespace

int jungi_moves(const CommandLine& cl) {
  const jungi::Rules r = jungi_rules(cl);
  const auto text = cl.optional_text("position");
  const jungi::Position p = jungi_position(cl, r, text);
  std::cout << "rules: " << jungi::describe(r) << "\n";
  if (!text) std::cout << "position: " << provisional_start_note() << "\n";
  std::cout << jungi::draw_position(p) << jungi::format_position(p) << "\n";
  std::string over;
  if (jungi::outcome(r, p, &over) != jungi::Outcome::ongoing) {
    std::cout << "no legal moves: " << over << "\n";
    return 0;
  }
  const auto moves = jungi::legal_moves(r, p);
  std::cout << moves.size() << " legal move" << (moves.size() == 1 ? "" : "s") << ":\n";
  for (const auto& m : moves) std::cout << describe_move(r, p, m) << "\n";
  return 0;
}

int jungi_rules_list() {
  std::cout << "jungi: the default reading (docs/jungi.md): " << jungi::describe(jungi::Rules{}) << "\n\n";
  for (const auto& k : jungi::piece_readings()) {
    std::cout << k.letter << "  " << k.base << ": " << k.base_moves << "\n   +" << k.letter << " " << k.promoted << ": "
              << k.promoted_moves << "\n   source: " << k.source << "\n";
  }
  std::cout << "\nPromotion: a piece ending a move in its zone (the opponent's three home ranks) promotes.\n"
               "The game is won by capturing the enemy royal (King or Emperor); there is no check.\n"
               "What passed by: a Pawn, Veteran, Queen, Empress, King or Emperor may step onto an empty square\n"
               "the opponent's last move passed through, capturing that piece wherever it stands.\n"
               "No repetition rule is given: endless play is a draw.\n\noptions:\n";
  for (const auto& o : jungi::option_list()) {
    std::cout << "  " << o.flag << " " << o.values << "\n      " << o.reading << "\n      source: " << o.source << "\n";
  }
  return 0;
}

PerftCount jungi_perft(const CommandLine& cl, const std::optional<std::string>& position, int depth, bool divide) {
  const jungi::Rules r = jungi_rules(cl);
  const jungi::Position p = jungi_position(cl, r, position);
  PerftCount c{"jungi", jungi::describe(r), jungi::format_position(p), position ? "" : provisional_start_note(), {}, 0};
  if (!divide) {
    c.nodes = jungi::perft(r, p, depth);
    return c;
  }
  for (const jungi::Move& m : jungi::legal_moves(r, p))
    c.divided.push_back({jungi::format_move(r, p, m), jungi::perft(r, jungi::apply_move(p, m), depth - 1)});
  return c;
}

}  // namespace gonu::cli
