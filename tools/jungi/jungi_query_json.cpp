// gonu-jungi-query/1: a Jungi position's answer from its table family as one JSON object.
#include "tools/jungi/jungi_query_json.hpp"

namespace gonu::cli {

const char* jungi_side_name(jungi::Side s) { return s == jungi::Side::south ? "South" : "North"; }

std::vector<std::string> pv_san(const jungi::Rules& r, jungi::Position p, const std::vector<std::string>& pv) {
  std::vector<std::string> out;
  for (const std::string& text : pv) {
    const jungi::Move m = jungi::parse_move(r, p, text);
    out.push_back(jungi::format_move_san(r, p, m));
    p = jungi::apply_move(p, m);
  }
  return out;
}

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
  j["side_to_move"] = a.position.to_move == jungi::Side::south ? "south" : "north";  // lower case, as Jul-gonu's
  j["value"] = to_string(a.value);
  j["distance"] = a.dist;
  j["game_over"] = a.end.empty() ? ojson(nullptr) : ojson(a.end);
  ojson moves = ojson::array(), best = ojson::array(), best_san = ojson::array();
  for (std::size_t k = 0; k < a.order.size(); ++k) {
    const jungi::MoveValue& m = a.moves[a.order[k]];
    const bool is_best = jungi::is_best(a, m);
    ojson mj{{"move", m.text}, {"san", m.san}, {"value", m.known ? to_string(m.value) : "UNKNOWN"}, {"distance", m.known ? ojson(m.dist) : ojson(nullptr)},
             {"best", is_best}, {"rank", k + 1}};
    if (!m.known) mj["missing_table"] = m.unknown_material;
    moves.push_back(mj);
    if (is_best) best.push_back(m.text), best_san.push_back(m.san);
  }
  j["moves"] = moves;
  j["best"] = best;
  const bool engine = !a.order.empty() && jungi::is_best(a, a.moves[a.order.front()]);
  j["best_san"] = best_san;
  j["engine_move"] = engine ? ojson(a.moves[a.order.front()].text) : ojson(nullptr);
  j["engine_move_san"] = engine ? ojson(a.moves[a.order.front()].san) : ojson(nullptr);
  j["pv"] = a.pv;
  j["pv_san"] = pv_san(file.rules(), a.position, a.pv);
  j["pv_end"] = a.pv_end.empty() ? ojson(nullptr) : ojson(a.pv_end);
  return j;
}

}  // namespace gonu::cli
