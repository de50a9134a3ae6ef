// A file that includes upward (a rules file reaching into the solver): never compiled, only fed to
// cmake/check_layers.cmake by the test layering_check_refuses_upward_include, which must fail.
#pragma once
#include "core/julgonu/board.hpp"
#include "solver/julgonu/solve.hpp"
