// The query report, `gonu query --json`'s object for either game (gonu-query/1 of a Jul-gonu table,
// gonu-jungi-query/1 of a Jungi table; tools/README-query.md), written in one place: the keys both
// games write, with one meaning and in one order (the position and its side to move, the value and
// distance, every legal move with its value and distance best first and ranked, the best moves, the
// engine's move, the principal variation and how it ends; moves in from-to notation and, where the
// game has a second one, in SAN beside it: "san", "best_san", "engine_move_san", "pv_san"), and the
// game's own keys where its part (tools/julgonu/query_json.hpp, tools/jungi/jungi_query_json.hpp)
// puts them. The program, the explorer's API and the Python module give this one object.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "solver/common/value.hpp"

namespace gonu::cli {

struct QueryReportMove {
  std::string move;               // from-to notation
  std::optional<std::string> san; // the game's SAN, written where the report has SAN
  nlohmann::ordered_json after_names = nlohmann::ordered_json::object();  // the game's keys after the names
  bool known = true;              // false: no table values it ("UNKNOWN", distance null)
  Value value = Value::draw;      // for the mover
  std::uint16_t dist = 0;
  bool best = false;
  nlohmann::ordered_json after_rank = nlohmann::ordered_json::object();  // the game's keys after "rank"
};

struct QueryReport {
  std::string schema;
  bool san = false;  // the game writes SAN beside from-to
  nlohmann::ordered_json after_schema = nlohmann::ordered_json::object();  // the table, its rules, ...
  std::string position, side_to_move;
  nlohmann::ordered_json after_side_to_move = nlohmann::ordered_json::object();
  Value value = Value::draw;  // for the side to move
  std::uint16_t dist = 0;
  nlohmann::ordered_json after_distance = nlohmann::ordered_json::object();
  std::string game_over;               // why the game is over, or empty (null)
  std::vector<QueryReportMove> moves;  // best first; "rank" numbers them from 1
  bool engine_first = false;           // the first move is the engine's ("engine_move"; else null)
  std::vector<std::string> pv;         // the principal variation, from-to
  std::vector<std::string> pv_san;     // and in SAN, where the report has SAN
  std::string pv_end;                  // how the variation ends, or empty (null)
};

nlohmann::ordered_json query_report_json(const QueryReport& r);

}  // namespace gonu::cli
