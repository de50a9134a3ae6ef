// Restart points of a distributed solve: at the end of each level every process writes its Part
// (part.hpp) to DIR/part-RANK.step-STEP, through a temporary file renamed into place
// (util/atomic_file.hpp), then, once every process has written that step, removes its previous
// one. So each process holds its last step, and the one before where another process may not
// have finished: a restarted run resumes from the newest step that every process holds.
// A file records the run it belongs to (the signature: rule set, root, processes); a restart
// with other arguments is refused rather than resumed.
#pragma once
#include <optional>
#include <string>

#include "solver/julgonu/mpi/part.hpp"

namespace gonu::mpi {

// Writes this process's part as restart point pt.step.
void save_part(const std::string& dir, const std::string& signature, int rank, const Part& pt);

// Removes this process's restart point `step` (and says nothing if it is gone).
void remove_part(const std::string& dir, int rank, std::uint32_t step);

// The newest step this process holds in `dir`, if any.
std::optional<std::uint32_t> newest_step(const std::string& dir, int rank);

// Reads restart point `step` into pt (whose lo and hi are set; the bits are allocated here).
// Throws GonuError if the file is missing, cut short, or of another run.
void load_part(const std::string& dir, const std::string& signature, int rank, std::uint32_t step, Part& pt);

}  // namespace gonu::mpi
