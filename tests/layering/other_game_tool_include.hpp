// A file of Jungi's room of the program (tools/jungi/) that includes Jul-gonu's (tools/julgonu/):
// never compiled, only fed to cmake/check_layers.cmake by the test
// layering_check_refuses_the_other_games_tool_room, which must fail.
#pragma once
#include "tools/cli/options.hpp"
#include "tools/julgonu/table_cli.hpp"
