// Pieces the table subcommands (query, play, verify, info) share: the game a query starts from,
// the rule set as JSON, a history as text.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/table/table.hpp"

namespace gonu::cli {

// The game to answer for: POSITION (which must be of the table's board size) or else the table's
// root with the tag it was solved with, then `history` played on it. Throws GonuError with one
// line for a position of another size and for an illegal history.
Game game_for_query(const Table& t, const std::optional<std::string>& position, const std::string& history);

nlohmann::ordered_json rules_json(const Rules& r);

// "b4-b3 c1-c2 ..." of the moves played.
std::string format_history(const Game& g);

}  // namespace gonu::cli

namespace gonu::cli {
// A history tag for people: "mine a2-a3, theirs b3-b2, ban" or "empty".
std::string tag_text(const Board& b, const Tag& t);
}  // namespace gonu::cli
