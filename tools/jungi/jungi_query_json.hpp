// The JSON answer of a Jungi table query (schema gonu-jungi-query/1, tools/README-query.md):
// Jungi's part of the query report both games write (tools/report/query_report.hpp), so that gonu
// query --json, the explorer's API and the Python module give the same object from the same code. Moves are listed best first (solver/common/move_order.hpp,
// as every move list), moves whose table is absent last with "value": "UNKNOWN".
#pragma once
#include <nlohmann/json.hpp>

#include "solver/jungi/table/query.hpp"

namespace gonu::cli {

nlohmann::ordered_json jungi_query_json(const jungi::TableFile& file, const jungi::PositionAnswer& a);
nlohmann::ordered_json jungi_query_json(const jungi::TableFamily& f, const jungi::PositionAnswer& a);
// The moves of a principal variation (format_move's texts, from p) as format_move_san writes them.
std::vector<std::string> pv_san(const jungi::Rules& r, jungi::Position p, const std::vector<std::string>& pv);
// The side's name as the tables say it: "South" / "North".
const char* jungi_side_name(jungi::Side s);

}  // namespace gonu::cli
