// What the Python module returns, as plain C++ data computed from the libraries (no Python here).
// A table probe and a solve are the very JSON objects of `gonu query --json` and
// `gonu solve --json`, built by the gonu program's own builders (library gonu_report:
// tools/julgonu/query_json.hpp, tools/julgonu/solve_report.hpp), so that the module's to_dict() equals the
// program's output by construction; gonu_module.cpp turns them into Python objects. Bad input
// throws GonuError with the same one-line messages as the gonu program.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>

#include "solver/jungi/table/query.hpp"
#include "solver/jungi/table/tables.hpp"
#include <optional>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/table/table.hpp"

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

// "RxC" of a rule set's board.
std::string board_text(const Rules& r);

struct MoveInfo {
  std::string move;                   // in notation (Jungi: from-to, "a6-a7")
  std::string san;                    // as people write it: Jungi's "Qa6-a7=+Q"; Jul-gonu's is `move`
  std::vector<std::string> captures;  // the captured squares, lowest first (Jungi: in the order taken)
};

// The legal moves of `position` after `history` (repetition applied), in move order; empty when
// the game is over.
std::vector<MoveInfo> legal_move_list(const RuleChoice& rules, const std::string& position,
                                      const std::string& history);

// A Jungi reading asked for by its options, as gonu's --hobbling on|off, --promotion, --stalemate
// and --lancer; unset ones keep the default reading's.
struct JungiReading {
  std::optional<bool> hobbling;
  std::optional<std::string> promotion, stalemate, lancer;
};
jungi::Rules choose_reading(const JungiReading& reading);

// The legal Jungi moves of `position` after `history` (moves in either notation), in move order;
// empty when the game is over.
std::vector<MoveInfo> jungi_move_list(const JungiReading& reading, const std::string& position, const std::string& history);

// The gonu-query/1 object of `gonu query --json` (tools/README-query.md).
struct ProbeAnswer {
  nlohmann::ordered_json json;
};

// The state reached from `position` (or the table's root) after `history`, answered from the table.
ProbeAnswer probe(const Table& t, const std::optional<std::string>& position, const std::string& history);

// A Jungi table file and the set of tables beside it (its directory), which its questions read
// block by block (solver/jungi/table/tables.hpp).
struct JungiFile {
  jungi::TableFile file;
  std::shared_ptr<const jungi::Tables> tables;
};
// The file at `path` with the tables of its directory.
std::shared_ptr<JungiFile> open_jungi_file(const std::string& path);

// A Jungi table's answer (the gonu-jungi-query/1 object of `gonu query --json` on a Jungi table):
// `position` after `history` (moves in Jungi notation), its moves valued from the tables beside
// it. A position of another material is refused unless `history` leads there.
ProbeAnswer jungi_probe(const JungiFile& f, const std::string& position, const std::string& history);
// The reading of a set's tables whose rules_id is `rules_id` (empty: the set's one reading);
// throws GonuError if there is none (or several, for an empty id).
jungi::Rules jungi_reading(const jungi::Tables& t, const std::string& rules_id);
// The same from a set of tables: the table of the position's material, under `rules_id` (empty:
// the set's one reading).
ProbeAnswer jungi_probe(const jungi::Tables& t, const std::string& rules_id, const std::string& position, const std::string& history);

// The gonu-solve/1 object of `gonu solve --json`, and the states counted by value and distance.
struct SolveAnswer {
  nlohmann::ordered_json json;
  std::vector<std::uint64_t> wins_by_distance, losses_by_distance;  // index: distance
};

struct SolveRequest {
  RuleChoice rules;
  std::optional<std::string> from;     // a position instead of the start
  std::optional<std::string> history;  // moves played first
  int threads = 0;                     // 0: all cores
  std::string engine = "auto";         // auto, dense, compact or graph
  std::uint64_t max_states = 0;        // 0: no limit
  std::uint64_t max_memory = 0;        // bytes; 0: the machine's physical memory
  bool verify = false;
  std::optional<std::string> out;      // a table file to write
};

// Solves as `gonu solve` does (no superko: that solver is the gonu program's only).
SolveAnswer solve_rules(const SolveRequest& request);

// A value for people: "WIN in 7" / "LOSS in 0" / "DRAW".
std::string value_text(const std::string& value, int distance);

}  // namespace gonu::pymod
