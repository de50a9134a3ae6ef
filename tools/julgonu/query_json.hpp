// The `gonu-query/1` JSON object (schema in tools/README-query.md) of one query: Jul-gonu's part of
// the query report both games write (tools/report/query_report.hpp), so that `gonu query --json`,
// the web explorer (`gonu serve`) and the Python module give the same answer.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/table/query.hpp"

namespace gonu::cli {

// Under repetition immediate/undo the history decides the state: which history this answer is for.
// Empty for rules without a tag. `position_given`: the game starts from a POSITION, not the root.
std::string query_note(const Rules& rules, const Game& g, bool position_given);

// How the game ends after the principal variation, replayed on the rules engine (the game-over
// reason of `g` itself when there is no variation). Throws GonuError if the variation does not end
// the game: the table is wrong.
std::string pv_end_reason(const Table& t, const Game& g, const QueryAnswer& a);

// The values a tagged table gives the position of `a` under the histories it holds it with
// (stored_tags), best first for the side to move, each with how many histories give it; and the
// summary line of the text report ("the table holds this position under 6 histories: WIN in 7
// (4), DRAW (2)"). For rules without a tag: an empty list and an empty line.
struct HistoryValue {
  Value value;
  std::uint16_t dist;
  std::size_t histories;
};
std::vector<HistoryValue> history_values(const std::vector<TagValue>& tags);
std::string histories_text(const std::vector<TagValue>& tags);

// The whole object for answer `a` of game `g` (a = query_game(t, g)); "table" is t.path().
nlohmann::ordered_json query_json(const Table& t, const Game& g, const QueryAnswer& a, bool position_given);

// The names of the points in `squares`, lowest first (a move's captures).
nlohmann::ordered_json squares_json(const Board& b, Bits squares);

}  // namespace gonu::cli
