// Cube and conquer: the strategy tree (strategy_tree.hpp, F8 in SUPERKO.md) built level by level,
// every node's two strategy searches (both sides, with the node's history) independent instances
// run in parallel on TBB's worker threads (each search has its own CaDiCaL solver), each within the
// per-search budget, every finished search recorded in a resume file (cube_resume.hpp).
//
// Order, and why the result does not depend on the thread count: level d's nodes are the legal
// moves (superko with the tree's full history) of level d-1's live nodes, in generate_moves order;
// a node is live while neither it nor an ancestor is settled. All searches of a level run, then the
// level is combined: a node is settled by its own found strategy (S), by having no legal move (T,
// lost for its side to move), or from its children (won if some child is lost for its own side to
// move, the first in move order chosen; lost if every child is won). Only what a finished level
// settles prunes the next, so the searches run, the strategies chosen and the certificate bytes are
// the same for any number of threads, given budgets large enough that no search's answer depends on
// timing. A run stopped by max_searches ran exactly the first searches in that order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/cube_resume.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

struct CubeOptions {
  int depth = 2;                   // plies of tree below the root
  double seconds = 0;              // per search (0: none)
  bool certificate = false;        // write the proof (format 2/4 at the root alone, else 3/5)
  int layers = -1;                 // --strategy-layers
  StrategyMethod method = StrategyMethod::injective;
  std::string resume;              // the resume file ("": none)
  std::uint64_t max_searches = 0;  // stop after running this many searches (resumed ones not counted; 0: no limit)
};

struct CubeResult {
  SkValue value = SkValue::unknown;  // for the side to move at the root
  bool root_strategy = false;        // proven by a strategy at the root alone
  std::vector<CubeRecord> root;      // the root's searches, side to move first (as run or resumed)
  std::vector<std::uint64_t> nodes_per_depth;  // tree nodes created at each depth (the root: depth 0)
  std::uint64_t run = 0, resumed = 0;          // searches run here, and answered by the resume file
  std::uint64_t found = 0, none = 0, budget = 0, not_applicable = 0;  // of both, by status
  std::uint64_t largest_variables = 0, largest_clauses = 0;        // the largest instance met
  double search_seconds = 0;         // summed over the searches run here (more than wall time when parallel)
  bool stopped = false;              // max_searches reached
  std::uint32_t depth = 0;           // plies of the tree part of the proof
  std::uint64_t leaves = 0;          // strategies in the proof
  int certificate_version = 0;
  std::string certificate;
};

// Throws GonuError for a resume file of another instance or a malformed one.
CubeResult solve_by_cube(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const CubeOptions& o,
                         const ProgressFn& progress = {});

}  // namespace gonu
