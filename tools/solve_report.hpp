// What both branches of `gonu solve` (the exact solve and the superko one) report the same way:
// the rule set as JSON and the first lines of the text report.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/game.hpp"

namespace gonu::cli {

// {name, board, capture, corner, repetition, first} (no rules id, unlike a table's report).
nlohmann::ordered_json solve_rules_json(const Rules& r);

// "rules: ..." and "root: ...", the root followed by "after HISTORY" when one was played.
void print_rules_and_root(const Rules& r, const Board& b, const Position& root,
                          const std::optional<std::string>& history);

}  // namespace gonu::cli
