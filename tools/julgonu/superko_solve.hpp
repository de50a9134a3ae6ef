// The superko branch of `gonu solve`: rule sets whose repetition rule is superko have no finite
// state graph, so they are solved by the separate superko solver (solver/julgonu/superko*).
#pragma once
#include "core/julgonu/game.hpp"
#include "tools/cli/options.hpp"

namespace gonu::cli {

// The superko options of gonu solve (listed by its --help whatever the rule set).
void add_superko_options(CommandLine& cl);
int run_superko_solve(const CommandLine& cl, const Game& game);

}  // namespace gonu::cli
