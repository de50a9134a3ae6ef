// The gonu-query/1 object: Jul-gonu's part of the query report (tools/report/query_report.hpp).
#include "tools/julgonu/query_json.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/julgonu/repetition.hpp"
#include "tools/report/play_moves.hpp"
#include "tools/julgonu/table_cli.hpp"
#include "tools/report/query_report.hpp"

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
  QueryReport r;
  r.schema = "gonu-query/1";
  r.after_schema["table"] = t.path();
  r.after_schema["rules"] = rules_json(rules);
  r.after_schema["start"] = format_position(board, g.start);
  r.after_schema["history"] = moves_json(board, rules, g.moves);
  r.position = format_position(board, p);
  r.side_to_move = to_string(p.to_move);
  r.after_side_to_move["history_decides_state"] = tagged;
  if (tagged) r.after_side_to_move["note"] = query_note(rules, g, position_given);
  r.value = a.value;
  r.dist = a.dist;
  if (tagged) {
    r.after_distance["stored"] = a.stored;
    r.after_distance["searched_plies"] = a.searched_plies;
    const std::vector<TagValue> tags = stored_tags(t, p);
    ojson values = ojson::array(), list = ojson::array();
    for (const HistoryValue& h : history_values(tags))
      values.push_back({{"value", to_string(h.value)}, {"distance", h.dist}, {"histories", h.histories}});
    for (const TagValue& tv : tags)
      list.push_back({{"tag", tag_text(board, tv.tag)}, {"value", to_string(tv.value)}, {"distance", tv.dist}});
    r.after_distance["histories"] = {{"count", tags.size()}, {"values", values}, {"tags", list}};
  }
  r.game_over = game_over_reason(g);
  // Best first (best_first, as every move list); the engine's move is the first of them.
  for (const std::size_t i : best_first(a.moves)) {
    const MoveAnswer& m = a.moves[i];
    QueryReportMove move;
    move.move = format_move(board, rules, m.move);
    move.after_names["captures"] = squares_json(board, m.move.captured);
    move.value = m.value, move.dist = m.dist, move.best = m.best;
    r.moves.push_back(move);
  }
  r.engine_first = a.best >= 0;
  for (const Move& m : a.pv) r.pv.push_back(format_move(board, rules, m));
  if (!a.pv.empty()) r.pv_end = pv_end;
  return query_report_json(r);
}

}  // namespace gonu::cli
