// What the Python module returns, as plain C++ data computed from the libraries (no Python here):
// a table probe with the fields of `gonu query --json`, a solve with the fields of
// `gonu solve --json`, and the legal moves of a position. gonu_module.cpp turns them into Python
// objects. Bad input throws GonuError with the same one-line messages as the gonu program.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "solver/table/table.hpp"

namespace gonu::pymod {

// A rule set asked for by name, with parts overridden, as the gonu program's --rules, --capture,
// --corner, --repetition, --board and --first do; unset parts keep the named set's.
struct RuleChoice {
  std::string name = "free";
  std::optional<std::string> capture, repetition, board, first;
  std::optional<bool> corner;
};

// The rule set the choice names; the board size comes from `position` when one is given (and
// must then agree with `board`). Throws GonuError as the gonu program does.
Rules choose_rules(const RuleChoice& choice, const std::optional<std::string>& position);

// {name, id, board, capture, corner, repetition, first}, every field as text but corner.
struct RulesInfo {
  std::string name, id, board, capture;
  bool corner = false;
  std::string repetition, first;
};
RulesInfo rules_info(const Rules& r);

struct MoveInfo {
  std::string move;                   // in notation
  std::vector<std::string> captures;  // the captured squares, lowest first
};

// The legal moves of `position` after `history` (repetition applied), in move order; empty when
// the game is over.
std::vector<MoveInfo> legal_move_list(const RuleChoice& rules, const std::string& position,
                                      const std::string& history);

struct ProbeMove {
  std::string move;
  std::vector<std::string> captures;
  std::string value;  // "WIN" / "LOSS" / "DRAW" for the mover
  int distance = 0;   // plies to the end from before the move; 0 for a draw
  bool best = false;
};

// The fields of `gonu query --json` (tools/README-query.md, schema gonu-query/1).
struct ProbeAnswer {
  std::string table;
  RulesInfo rules;
  std::string start;
  std::vector<std::string> history;
  std::string position;
  std::string side_to_move;
  bool history_decides_state = false;
  std::optional<std::string> note;  // only when history_decides_state
  std::string value;
  int distance = 0;
  std::optional<std::string> game_over;
  std::vector<ProbeMove> moves;
  std::vector<std::string> best;
  std::optional<std::string> engine_move;
  std::vector<std::string> pv;
  std::optional<std::string> pv_end;
};

// The state reached from `position` (or the table's root) after `history`, answered from the table.
ProbeAnswer probe(const Table& t, const std::optional<std::string>& position, const std::string& history);

struct RootMove {
  std::string move;
  std::string value;  // for the mover
  int distance = 0;
};

// The fields of `gonu solve --json`, and the states counted by value and distance.
struct SolveAnswer {
  RulesInfo rules;
  std::string root;
  std::optional<std::string> history;
  std::uint64_t states = 0, edges = 0, wins = 0, losses = 0, draws = 0;
  int max_distance = 0;
  std::string value;
  int distance = 0;
  std::vector<RootMove> moves;
  std::optional<bool> verified;
  std::optional<std::string> table_file;
  std::uint64_t table_bytes = 0;
  std::vector<std::uint64_t> wins_by_distance, losses_by_distance;  // index: distance
};

struct SolveRequest {
  RuleChoice rules;
  std::optional<std::string> from;     // a position instead of the start
  std::optional<std::string> history;  // moves played first
  int threads = 0;                     // 0: all cores
  std::string engine = "auto";         // auto, dense or graph
  std::uint64_t max_states = 0;        // 0: no limit
  bool verify = false;
  std::optional<std::string> out;      // a table file to write
};

// Solves as `gonu solve` does (no superko: that solver is the gonu program's only).
SolveAnswer solve_rules(const SolveRequest& request);

// A value for people: "WIN in 7" / "LOSS in 0" / "DRAW".
std::string value_text(const std::string& value, int distance);

}  // namespace gonu::pymod
