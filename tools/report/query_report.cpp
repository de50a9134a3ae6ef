// The query report's keys in their order (query_report.hpp), the game's keys at their places.
#include "tools/report/query_report.hpp"

namespace gonu::cli {

namespace {

using ojson = nlohmann::ordered_json;

void append(ojson& j, const ojson& keys) {
  for (const auto& [key, value] : keys.items()) j[key] = value;
}

ojson text_or_null(const std::string& s) { return s.empty() ? ojson(nullptr) : ojson(s); }

}  // namespace

ojson query_report_json(const QueryReport& r) {
  ojson j;
  j["schema"] = r.schema;
  append(j, r.after_schema);
  j["position"] = r.position;
  j["side_to_move"] = r.side_to_move;
  append(j, r.after_side_to_move);
  j["value"] = to_string(r.value);
  j["distance"] = r.dist;
  append(j, r.after_distance);
  j["game_over"] = text_or_null(r.game_over);
  ojson moves = ojson::array(), best = ojson::array(), best_san = ojson::array();
  for (std::size_t k = 0; k < r.moves.size(); ++k) {
    const QueryReportMove& m = r.moves[k];
    const std::string san = m.san.value_or(m.move);
    ojson mj;
    mj["move"] = m.move;
    if (r.san) mj["san"] = san;
    append(mj, m.after_names);
    mj["value"] = m.known ? to_string(m.value) : "UNKNOWN";
    mj["distance"] = m.known ? ojson(m.dist) : ojson(nullptr);
    mj["best"] = m.best;
    mj["rank"] = k + 1;
    append(mj, m.after_rank);
    moves.push_back(mj);
    if (m.best) best.push_back(m.move), best_san.push_back(san);
  }
  j["moves"] = moves;
  j["best"] = best;
  if (r.san) j["best_san"] = best_san;
  const bool engine = r.engine_first && !r.moves.empty();
  j["engine_move"] = engine ? ojson(r.moves.front().move) : ojson(nullptr);
  if (r.san) j["engine_move_san"] = engine ? ojson(r.moves.front().san.value_or(r.moves.front().move)) : ojson(nullptr);
  j["pv"] = r.pv;
  if (r.san) j["pv_san"] = r.pv_san;
  j["pv_end"] = text_or_null(r.pv_end);
  return j;
}

}  // namespace gonu::cli
