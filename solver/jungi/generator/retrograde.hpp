// The retrograde generator (internal to solver/jungi/generator/): one material's table solved from the
// smaller tables its captures and promotions lead to, by un-moves and move counters instead of
// level sweeps. Same values as the sweeps (generator.cpp), for any number of threads.
#pragma once
#include "solver/jungi/generator/generator.hpp"

namespace gonu::jungi {

// Fills t.entries (one per index, t.indexer.size() of them) with final codes: every material t's
// moves lead to, other than t's own, must be solved in `set`. Calls on_level (if set) after each
// level with the positions decided at that distance. With keep_derived, fills t.derived too.
void solve_retrograde(const TableSet& set, Table& t, const LevelReport& on_level, bool keep_derived = false);

}  // namespace gonu::jungi
