// Placeholder seam until the superko solver lands (issue 5): refuses clearly.
#include "tools/superko_solve.hpp"

#include "core/error.hpp"

namespace gonu::cli {

void add_superko_options(po::options_description&) {}

int run_superko_solve(const po::variables_map&, const Game&) {
  throw GonuError("repetition superko: the superko solver is not built yet");
}

}  // namespace gonu::cli
