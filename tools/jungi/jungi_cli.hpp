// The gonu subcommands' Jungi side (--game jungi): the rule flags read into jungi::Rules, and
// show, moves, rules and perft for Jungi positions. Kept apart from the Jul-gonu commands
// (tools/julgonu/julgonu_cli.hpp) so that each command file (tools/cli/) only dispatches.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/jungi/moves.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/perft.hpp"

namespace gonu::cli {

jungi::Rules jungi_rules(const CommandLine& cl);
// POSITION, or the provisional start when none is given (said on `out` when `note` is set),
// then the moves of --history.
jungi::Position jungi_position(const CommandLine& cl, const jungi::Rules& r, const std::optional<std::string>& text);
// The line said wherever the provisional start is used.
std::string provisional_start_note();

int jungi_show(const CommandLine& cl);
int jungi_moves(const CommandLine& cl);
int jungi_rules_list();
PerftCount jungi_perft(const CommandLine& cl, const std::optional<std::string>& position, int depth, bool divide);
// gonu solve --game jungi (tools/jungi/jungi_solve.cpp).
int jungi_solve(const CommandLine& cl);
// gonu query, info and verify of a Jungi table file (tools/jungi/jungi_tables.cpp).
int jungi_query(const CommandLine& cl, const std::string& path);
int jungi_info(const std::string& path);
// Every file in turn, sharing the tables read (jungi::verify_families, max_bytes 0: physical
// memory); an OK block each, then exit 1 at the first that fails.
int jungi_verify(const std::vector<std::string>& paths, std::uint64_t every, std::uint64_t max_bytes, bool quiet = false);
// gonu info DIR: the Jungi tables of a directory, by reading and material, with their counts and sizes.
int jungi_info_dir(const std::string& dir);
// gonu play on a Jungi table: POSITION against perfect play (--as south|north|both).
int jungi_play(const CommandLine& cl, const std::string& path);
// The table of POSITION (after --history) in a directory of Jungi tables of one reading, as
// `gonu solve --game jungi --dir` writes them: that of its material or of its colour flip.
// Throws GonuError (one line) if the directory holds none, or tables of several readings, or
// not that material's.
std::string jungi_table_in(const CommandLine& cl, const std::string& dir);

}  // namespace gonu::cli
