// The superko branch of `gonu solve`: rule sets whose repetition rule is superko have no finite
// state graph, so they are solved by the separate superko solver (solver/superko*).
#pragma once
#include "core/game.hpp"
#include "tools/cli.hpp"

namespace gonu::cli {

void add_superko_options(po::options_description& d);
int run_superko_solve(const po::variables_map& vm, const Game& game);

}  // namespace gonu::cli
