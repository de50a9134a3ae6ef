// The gonu-query/1 object: the fields in the order tools/README-query.md lists them.
#include "tools/julgonu/query_json.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/julgonu/repetition.hpp"
#include "tools/report/play_moves.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

using ojson = nlohmann::ordered_json;

ojson squares_json(const Board& b, Bits squares) {
  ojson a = ojson::array();
  for (Bits s = squares; s; s &= s - 1) a.push_back(square_name(b, lowest(s)));
  return a;
}

namespace {

ojson moves_json(const Board& b, const Rules& r, const std::vector<Move>& moves) {
  ojson a = ojson::array();
  for (const Move& m : moves) a.push_back(format_move(b, r, m));
  return a;
}

ojson text_or_null(const std::string& s) { return s.empty() ? ojson(nullptr) : ojson(s); }

}  // namespace

std::string query_note(const Rules& rules, const Game& g, bool position_given) {
  if (!uses_tag(rules)) return {};
  return "under repetition " + to_string(rules.repetition) +
         " the history decides the state (which moves are banned now and later); this answer is for " +
         (g.moves.empty() ? (position_given ? "the position with no earlier moves (no ban in force)"
                                            : "the table's root with the history it was solved from")
                          : "the position reached by the given history");
}

std::vector<HistoryValue> history_values(const std::vector<TagValue>& tags) {
  std::vector<HistoryValue> out;
  for (const TagValue& t : tags) {
    auto same = [&](const HistoryValue& h) { return h.value == t.value && h.dist == t.dist; };
    if (auto it = std::find_if(out.begin(), out.end(), same); it != out.end()) ++it->histories;
    else out.push_back({t.value, t.dist, 1});
  }
  std::stable_sort(out.begin(), out.end(), [](const HistoryValue& a, const HistoryValue& b) {
    return better_value(a.value, a.dist, b.value, b.dist);
  });
  return out;
}

std::string histories_text(const std::vector<TagValue>& tags) {
  if (tags.empty()) return "the table holds this position under no history (its root cannot reach it)";
  std::string s = "the table holds this position under " + std::to_string(tags.size()) +
                  (tags.size() == 1 ? " history: " : " histories: ");
  const std::vector<HistoryValue> values = history_values(tags);
  for (std::size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + value_text(values[i].value, values[i].dist) + " (" + std::to_string(values[i].histories) + ")";
  return s;
}

std::string pv_end_reason(const Table& t, const Game& g, const QueryAnswer& a) {
  if (a.pv.empty()) return game_over_reason(g);
  Game end = g;
  for (const Move& m : a.pv) play(end, m);
  std::string why = game_over_reason(end);
  if (why.empty())
    throw GonuError(t.path() + ": the principal variation does not end the game (the table is wrong; run gonu verify)");
  return why;
}

ojson query_json(const Table& t, const Game& g, const QueryAnswer& a, bool position_given) {
  const Board& board = t.board();
  const Rules& rules = t.rules();
  const Position& p = current(g);
  const bool tagged = uses_tag(rules);
  const std::string pv_end = pv_end_reason(t, g, a);
  ojson j;
  j["schema"] = "gonu-query/1";
  j["table"] = t.path();
  j["rules"] = rules_json(rules);
  j["start"] = format_position(board, g.start);
  j["history"] = moves_json(board, rules, g.moves);
  j["position"] = format_position(board, p);
  j["side_to_move"] = to_string(p.to_move);
  j["history_decides_state"] = tagged;
  if (tagged) j["note"] = query_note(rules, g, position_given);
  j["value"] = to_string(a.value);
  j["distance"] = a.dist;
  if (tagged) {
    j["stored"] = a.stored;
    j["searched_plies"] = a.searched_plies;
    const std::vector<TagValue> tags = stored_tags(t, p);
    ojson values = ojson::array(), list = ojson::array();
    for (const HistoryValue& h : history_values(tags))
      values.push_back({{"value", to_string(h.value)}, {"distance", h.dist}, {"histories", h.histories}});
    for (const TagValue& tv : tags)
      list.push_back({{"tag", tag_text(board, tv.tag)}, {"value", to_string(tv.value)}, {"distance", tv.dist}});
    j["histories"] = {{"count", tags.size()}, {"values", values}, {"tags", list}};
  }
  j["game_over"] = text_or_null(game_over_reason(g));
  ojson moves = ojson::array(), best = ojson::array();
  // Best first (best_first, as every move list); "rank" numbers that order from 1.
  const std::vector<std::size_t> order = best_first(a.moves);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const MoveAnswer& m = a.moves[order[k]];
    moves.push_back({{"move", format_move(board, rules, m.move)},
                     {"captures", squares_json(board, m.move.captured)},
                     {"value", to_string(m.value)},
                     {"distance", m.dist},
                     {"best", m.best},
                     {"rank", k + 1}});
    if (m.best) best.push_back(format_move(board, rules, m.move));
  }
  j["moves"] = moves;
  j["best"] = best;
  j["engine_move"] = a.best < 0 ? ojson(nullptr) : ojson(format_move(board, rules, a.moves[std::size_t(a.best)].move));
  j["pv"] = moves_json(board, rules, a.pv);
  j["pv_end"] = a.pv.empty() ? ojson(nullptr) : ojson(pv_end);
  return j;
}

}  // namespace gonu::cli
