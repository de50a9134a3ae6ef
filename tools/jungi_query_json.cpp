// gonu-jungi-query/1: a Jungi position's answer from its table family as one JSON object.
#include "tools/jungi_query_json.hpp"

namespace gonu::cli {

const char* jungi_side_name(jungi::Side s) { return s == jungi::Side::south ? "South" : "North"; }

nlohmann::ordered_json jungi_query_json(const jungi::TableFamily& f, const jungi::PositionAnswer& a) { return jungi_query_json(f.file, a); }

nlohmann::ordered_json jungi_query_json(const jungi::TableFile& file, const jungi::PositionAnswer& a) {
  using ojson = nlohmann::ordered_json;
  ojson j;
  j["schema"] = "gonu-jungi-query/1";
  j["game"] = "jungi";
  j["table"] = file.path();
  j["rules"] = {{"id", file.header().rules_id}, {"text", jungi::describe(file.rules())}};
  j["material"] = file.header().material_text;
  j["position"] = jungi::format_position(a.position);
  j["side_to_move"] = jungi_side_name(a.position.to_move);
  j["value"] = to_string(a.value);
  j["distance"] = a.dist;
  j["game_over"] = a.end.empty() ? ojson(nullptr) : ojson(a.end);
  ojson moves = ojson::array(), best = ojson::array();
  for (std::size_t k = 0; k < a.order.size(); ++k) {
    const jungi::MoveValue& m = a.moves[a.order[k]];
    const bool is_best = jungi::is_best(a, m);
    ojson mj{{"move", m.text}, {"value", m.known ? to_string(m.value) : "UNKNOWN"}, {"distance", m.known ? ojson(m.dist) : ojson(nullptr)},
             {"best", is_best}, {"rank", k + 1}};
    if (!m.known) mj["missing_table"] = m.unknown_material;
    moves.push_back(mj);
    if (is_best) best.push_back(m.text);
  }
  j["moves"] = moves;
  j["best"] = best;
  j["engine_move"] = a.order.empty() || !jungi::is_best(a, a.moves[a.order.front()]) ? ojson(nullptr) : ojson(a.moves[a.order.front()].text);
  j["pv"] = a.pv;
  j["pv_end"] = a.pv_end.empty() ? ojson(nullptr) : ojson(a.pv_end);
  return j;
}

}  // namespace gonu::cli
