// The order a run of many Jungi tables may take: the dependency waves of a set of materials (the
// materials of one wave read only tables of earlier waves, so they can be solved side by side),
// and a deal of one wave's tables to the processes of a run over many (gonu solve --mpi), the
// largest table first to the least loaded process. Both depend only on their input, so every
// process of a run computes the same schedule without a message.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "solver/jungi/material.hpp"

namespace gonu::jungi {

// The dependency wave of each material of `all` (kept materials, closed under next_materials up
// to the colour flip): 0 for one whose moves lead to no other material, else one more than the
// highest wave of what its captures and promotions lead to. Every material of materials_read(m)
// is then in a lower wave than m (it is reached from m by one move or more).
std::map<Material, int> dependency_waves(const std::set<Material>& all);

// The owner (0 to processes - 1) of each of the items whose sizes are given: the items taken
// largest first (the earlier item first among equal sizes), each to the process with the least
// size dealt so far (the lowest rank among equal loads).
std::vector<int> deal_by_size(const std::vector<std::uint64_t>& sizes, int processes);

}  // namespace gonu::jungi
