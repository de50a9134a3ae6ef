// A file of Jungi's table room that includes Jul-gonu's table room: never compiled, only fed to
// cmake/check_layers.cmake by the test layering_check_refuses_the_other_game, which must fail.
#pragma once
#include "solver/common/bits.hpp"
#include "solver/julgonu/table/table.hpp"
