// The gonu commands' Jul-gonu side, as tools/jungi/jungi_cli.hpp is Jungi's: the rule flags read
// into Rules and the game a command starts from; rules, show, moves and perft for Jul-gonu
// positions (julgonu_cli.cpp); query, info, verify and play on a Jul-gonu table or a superko proof
// (julgonu_tables.cpp); solve (julgonu_solve.cpp). The commands in tools/cli/ read the command line
// and hand Jul-gonu's cases here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/perft.hpp"

namespace gonu::cli {

// The rule set the flags name (--rules, --capture, ...; free by default). If `position_text` is
// given and no --board, the board size is taken from the position; with --board they must agree.
Rules julgonu_rules(const CommandLine& cl, const std::optional<std::string>& position_text = {});
// The game a command starts from: POSITION, or the start of the rule set the flags name, then
// the moves of --history.
Game game_from_options(const CommandLine& cl, const std::optional<std::string>& position);
// Whether any of Jul-gonu's rule flags was given (gonu play: then the rule set is solved in memory).
bool julgonu_rule_options_given(const CommandLine& cl);

int julgonu_show(const CommandLine& cl);
int julgonu_moves(const CommandLine& cl);
int julgonu_rules_list();
PerftCount julgonu_perft(const CommandLine& cl, const std::optional<std::string>& position, int depth, bool divide);

// gonu query FILE on a Jul-gonu table, and gonu query --certificate FILE (julgonu_tables.cpp).
int julgonu_query(const CommandLine& cl, const std::string& path);
int julgonu_certificate_query(const CommandLine& cl);
int julgonu_info(const std::string& path);
// One Jul-gonu table (the options of Jungi's several tables refused).
int julgonu_verify(const CommandLine& cl, const std::vector<std::string>& files);
// gonu play on a Jul-gonu table, or on a rule set solved in memory (rule flags instead of FILE).
int julgonu_play(const CommandLine& cl);
// gonu play --certificate FILE: the proof's strategy against the user's defence.
int julgonu_play_certificate(const CommandLine& cl);
// gonu solve without --game jungi (julgonu_solve.cpp): an exact solve, over MPI processes with
// --mpi, or a superko proof.
int julgonu_solve(const CommandLine& cl);

}  // namespace gonu::cli
