// gonu solve: its command line, both games' options (--help lists them in groups), and the checks
// both share (no mpirun without --mpi, the --threads limit); then Jul-gonu's solve
// (tools/julgonu/julgonu_solve.cpp: a rule set, exact or under superko) or with --game jungi
// Jungi's tables (tools/jungi/jungi_solve.cpp).
#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/julgonu/superko_solve.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

namespace {

constexpr const char* kSolveEpilog =
    "--stats adds states and WIN/LOSS/DRAW (for the side to move) per distance to the end and per material\n"
    "(black-white pieces), from one pass over the solved states; --levels adds them per BFS level from the\n"
    "root, by a breadth-first search over every edge (4x4 free: about 4 s on two cores, ten times the\n"
    "solve). --json puts them under \"stats\". --stats-csv FILE writes the same counts as CSV:\n"
    "kind,key,states,wins,losses,draws (kind distance, material or level; material's key BLACK-WHITE).\n"
    "Under superko the report gives the value, the winner's first move and the proof's size; --stats adds\n"
    "the per-material-layer account (the JSON has it under \"layers\" always).\n"
    "--out onto an existing file replaces it (atomically) and says so on stderr unless --quiet.\n"
    "Before solving, the estimated peak memory, the engine that will run and the limit are said on stderr\n"
    "unless --quiet; a solve whose estimate passes the limit (--max-memory SIZE, default the machine's\n"
    "physical memory; K, M, G, T and KiB.. are powers of 1024, KB.. of 1000) is refused at once (exit 1).\n"
    "Under --mpi the estimate and the limit are per process (default: the node's memory shared by the\n"
    "run's processes on it).\n"
    "\n"
    "--game jungi --material KRvK solves a Jungi endgame material (South's pieces, v, North's; '+' before a\n"
    "promoted piece; each side's royal K or +K first) and, first, every material its captures and promotions\n"
    "lead to; --all N every material of 2 to N pieces. For each table: its positions, WIN/LOSS/DRAW for each\n"
    "side to move and the longest win with a position of it (stdout); its time and the peak memory (stderr).\n"
    "--out FILE writes the table of --material (gonu query, info, verify, play, serve read it); --dir DIR\n"
    "writes every table solved into DIR (KRvK.nohobble-compulsory-stalemate-loss-lancer-standard.gonu) and\n"
    "first reads those already there, so an interrupted run resumes. The memory the run needs (its tables at\n"
    "2 bytes an index, 2 more for the largest while it is solved) is said first; a run past the limit\n"
    "(--max-memory, default physical memory) is refused at once (exit 1). --plan solves nothing: one\n"
    "tab-separated line a material of the run (its dependency wave, the material, pieces, indices, its\n"
    "closure's indices and its closure's largest table's), e.g. --all 5 --plan for every 5-piece table.\n"
    "\n"
    "exit status: 0 solved (superko: the value proven); 1 bad input or --verify failed; 2 usage error;\n"
    "3 superko value NOT PROVEN within the budgets (the report says what stopped it).\n"
    "\n"
    "examples:\n"
    "  gonu solve                                   4x4 free: the start is a draw (under a second)\n"
    "  gonu solve --board 3x4 --json                3x4 free, as one JSON object\n"
    "  gonu solve --rules undo -o tables/4x4-undo.gonu   a table for gonu query, play and serve\n"
    "  gonu solve --from '.w../w.xw/xx../..w. w'    a position of 4x4 free instead of the start\n"
    "  gonu solve --rules soldiers --board 3x4 --certificate proof.cert   superko: a checkable proof\n";

// The options in the groups --help lists: what most runs need, memory, output, MPI, superko.
void declare_options(CommandLine& cl) {
  cl.group("common options");
  cl.rule_options();
  cl.game_option();
  cl.add()("material", po::value<std::string>(), "jungi: solve this material (KRvK: South's pieces, v, North's) and what it leads to")
          ("all", po::value<std::int64_t>(), "jungi: solve every material of up to N pieces, smallest first")
          ("dir", po::value<std::string>(), "jungi: write every table solved into this directory (made if absent), one file a material, "
                                            "reading those already there instead of solving them (a run resumes)")
          ("plan", "jungi: solve nothing; list the run's materials with their dependency wave, indices and "
                   "closure's indices (tab-separated)");
  cl.add()("from", po::value<std::string>(), "solve from this position instead of the start");
  cl.history("moves played from the start (or --from) first");
  cl.threads();
  cl.add()("out,o", po::value<std::string>(), "write the solved states to this table file (see gonu query)")
          ("verify", "re-derive every value from its successors with a separate routine");
  cl.group("memory options");
  cl.byte_size("max-memory",
               "refuse a solve whose estimated peak memory passes SIZE (512M, 20G, 1.5GiB; default: physical memory)");
  cl.count("max-states", 0, "stop with an error past this many states (0: no limit)");
  cl.add()("engine", po::value<std::string>()->default_value("auto"),
           "dense (no keys or edges stored), compact (a few bytes a reachable state), graph (hash store and "
           "stored edges), or auto (dense where it fits, else compact where it applies)");
  cl.group("output options");
  cl.json();
  cl.quiet();
  cl.add()("stats", "states and W/L/D per distance, material and BFS level (in --json: \"stats\"); under superko, the layers")
          ("stats-csv", po::value<std::string>(), "write those counts to this CSV file")
          ("levels", "with --stats or --stats-csv: also per BFS level from the root (a search over every edge)");
  cl.group("MPI options (a build with MPI, under mpirun)");
  cl.add()("mpi", "solve over the processes of an MPI run (under mpirun; the finite rule sets; with --game jungi --dir, "
           "the tables dealt out wave by wave): see docs/clusters.md")
          ("checkpoint", po::value<std::string>(),
           "with --mpi: write a restart point per level to this folder, and resume from the last one there");
  cl.group("superko options (--repetition superko, e.g. --rules soldiers)");
  add_superko_options(cl);
}

// The size of the MPI run this process is one of, from the launcher's environment (Open MPI's
// mpirun, MPICH's Hydra), or 1 when none says so.
long mpi_launch_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* v = std::getenv(name);
    if (v && *v) return std::max(1L, std::strtol(v, nullptr, 10));
  }
  return 1;
}

// Under mpirun without --mpi every process would solve the whole game and write the same table.
void refuse_mpirun_without_mpi(const CommandLine& cl) {
  const long size = mpi_launch_size();
  if (size > 1 && !cl.has("mpi"))
    throw GonuError("this is one of " + std::to_string(size) +
                    " processes of an MPI run, but without --mpi each would solve the whole game alone; "
                    "add --mpi (or run gonu solve without mpirun)");
}

}  // namespace

int cmd_solve(int argc, char** argv) {
  CommandLine cl(
      "gonu solve [--rules NAME | --capture .. --corner .. --repetition .. --board RxC --first ..] "
      "[--from POSITION [--history MOVES]] [--threads N] [--engine auto|dense|compact|graph] [--max-memory SIZE] "
      "[--verify] [--json] [--quiet] [--stats [--levels]] [--stats-csv FILE] [--out FILE] [--mpi [--checkpoint DIR]] "
      "| --game jungi (--material SIGNATURE [--out FILE] | --all N) [--dir DIR [--mpi]] [--plan]");
  cl.epilog(kSolveEpilog);
  declare_options(cl);
  if (!cl.parse(argc, argv)) return 0;
  refuse_mpirun_without_mpi(cl);
  const ThreadLimit limit(cl.count_value("threads"), cl.has("quiet"));
  if (cl.jungi()) return jungi_solve(cl);
  return julgonu_solve(cl);
}

}  // namespace gonu::cli
