// gonu-jungi-query/1: a Jungi position's answer from its table family as one JSON object, Jungi's
// part of the query report (tools/report/query_report.hpp).
#include "tools/jungi/jungi_query_json.hpp"

#include "tools/report/query_report.hpp"

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
  QueryReport r;
  r.schema = "gonu-jungi-query/1";
  r.san = true;
  r.after_schema["game"] = "jungi";
  r.after_schema["table"] = file.path();
  r.after_schema["rules"] = {{"id", file.header().rules_id}, {"text", jungi::describe(file.rules())}};
  r.after_schema["material"] = file.header().material_text;
  r.position = jungi::format_position(a.position);
  r.side_to_move = a.position.to_move == jungi::Side::south ? "south" : "north";  // lower case, as Jul-gonu's
  r.value = a.value;
  r.dist = a.dist;
  r.game_over = a.end;
  for (const std::size_t i : a.order) {
    const jungi::MoveValue& m = a.moves[i];
    QueryReportMove move;
    move.move = m.text;
    move.san = m.san;
    move.known = m.known, move.value = m.value, move.dist = m.dist, move.best = jungi::is_best(a, m);
    if (!m.known) move.after_rank["missing_table"] = m.unknown_material;
    r.moves.push_back(move);
  }
  r.engine_first = !a.order.empty() && jungi::is_best(a, a.moves[a.order.front()]);
  r.pv = a.pv;
  r.pv_san = pv_san(file.rules(), a.position, a.pv);
  r.pv_end = a.pv_end;
  return query_report_json(r);
}

}  // namespace gonu::cli
