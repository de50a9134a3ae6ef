// A file of the table container that includes a game's table room: never compiled, only fed to
// cmake/check_layers.cmake by the test layering_check_keeps_the_games_out_of_the_container, which
// must fail: the container is shared by both games and depends on neither.
#pragma once
#include "solver/common/bits.hpp"
#include "solver/jungi/table/table_file.hpp"
