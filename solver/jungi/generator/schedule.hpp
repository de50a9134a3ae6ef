// The order a run of many Jungi tables may take: one process's order (run_order), the dependency
// waves of a set of materials (the materials of one wave read only tables of earlier waves, so
// they can be solved side by side), and a deal of one wave's tables to the processes of a run over many (gonu solve --mpi), the
// largest table first to the least loaded process. Both depend only on their input, so every
// process of a run computes the same schedule without a message.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "solver/jungi/generator/material.hpp"

namespace gonu::jungi {

// The kept materials of the targets' closures, each once, in the order one process solves them:
// each after every material it reads (materials_read), fewer pieces first, and the materials of
// one family side by side, a family being the materials with the same pieces up to their
// promotions, up to the colour flip (KRvKO, K+RvKO, .., +K+Rv+K+O), the families in the order
// their first member comes in the targets' closures, in turn, and each family's materials in
// that order too (more promoted pieces first). A material reads the tables of its promotions,
// all of its own family, and of its captures, all of fewer pieces: a streamed run (gonu solve
// --dir) with room for one family's tables never loads a table of as many pieces again.
// Taken closure by closure instead, the 4-piece families lay spread over the run: the second
// process of a run of every material of up to four pieces, under 16 GB, loaded 912 tables back
// from its directory for its 1,002 solves.
std::vector<Material> run_order(const std::vector<Material>& targets);

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
