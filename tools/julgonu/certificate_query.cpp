// The answer of a superko proof at one state (certificate_query.hpp).
#include "tools/julgonu/certificate_query.hpp"

#include "core/error.hpp"
#include "tools/report/play_moves.hpp"
#include "tools/julgonu/query_json.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

namespace {

using ojson = nlohmann::ordered_json;

// Walk budget for finding a POSITION in the proof: a few seconds of play at most.
constexpr std::uint64_t kMaxReachStates = 2'000'000;

// Each legal reply of the loser, with the strategy's answer after it (null when the game ends).
ojson replies_json(const CertificatePlayer& p, const Game& g) {
  ojson out = ojson::array();
  for (const Move& m : legal_moves(g)) {
    Game next = g;
    play(next, m);
    const std::optional<Move> answer = p.winner_move(next);
    out.push_back({{"move", format_move(g.board, g.rules, m)},
                   {"captures", squares_json(g.board, m.captured)},
                   {"answer", answer ? ojson(format_move(g.board, g.rules, *answer)) : ojson(nullptr)},
                   {"game_over", game_over_reason(next).empty() ? ojson(nullptr) : ojson(game_over_reason(next))}});
  }
  return out;
}

// The moves of the side to move that superko bans here, each with the reason.
ojson banned_json(const Game& g) {
  ojson out = ojson::array();
  if (!game_over_reason(g).empty()) return out;
  for (const Move& m : generate_moves(g.board, g.rules, current(g))) {
    const std::string why = ban_reason(g, m);
    if (!why.empty()) out.push_back({{"move", format_move(g.board, g.rules, m)}, {"reason", why}});
  }
  return out;
}

}  // namespace

Game certificate_game(const CertificatePlayer& p, const std::optional<std::string>& position,
                      const std::string& history) {
  Game g = p.root();
  if (position) {
    const Board& b = g.board;
    const Position target = parse_position(b, *position);
    const std::optional<Game> found = p.reach(target, kMaxReachStates);
    if (!found)
      throw GonuError("no game of the proof reaches position '" + *position + "' (the strategy against every defence, " +
                      "from the certificate's root, up to " + std::to_string(kMaxReachStates) + " states)");
    g = *found;
  }
  try {
    play_history(g, history);
  } catch (const GonuError& e) {
    throw GonuError(std::string("illegal history: ") + e.what());
  }
  if (!p.follows(g))
    throw GonuError("the history leaves the proof: a move of " + to_string(p.winner()) +
                    " that the strategy does not make");
  return g;
}

std::string certificate_value(const CertificatePlayer& p, const Game& g) {
  return current(g).to_move == p.winner() ? "WIN" : "LOSS";
}

ojson certificate_query_json(const CertificatePlayer& p, const std::string& name, const Game& g) {
  const Position& pos = current(g);
  const std::optional<Move> m = p.winner_move(g);
  std::vector<std::string> history;
  for (const Move& x : g.moves) history.push_back(format_move(g.board, g.rules, x));
  ojson j;
  j["schema"] = "gonu-certificate-query/1";
  j["certificate"] = name;
  j["format"] = p.format();
  j["rules"] = rules_json(g.rules);
  j["start"] = format_position(g.board, g.start);
  j["history"] = history;
  j["position"] = format_position(g.board, pos);
  j["side_to_move"] = to_string(pos.to_move);
  j["winner"] = to_string(p.winner());
  j["value"] = certificate_value(p, g);
  j["game_over"] = game_over_reason(g).empty() ? ojson(nullptr) : ojson(game_over_reason(g));
  j["winner_move"] = m ? ojson(format_move(g.board, g.rules, *m)) : ojson(nullptr);
  j["winner_move_captures"] = m ? squares_json(g.board, m->captured) : ojson::array();
  j["replies"] = pos.to_move == p.winner() ? ojson::array() : replies_json(p, g);
  j["banned"] = banned_json(g);
  return j;
}

}  // namespace gonu::cli
