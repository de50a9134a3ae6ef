// Progress on stderr for long phases: shown only when stderr is a terminal and not --quiet.
// Thread-safe, and throttled to a few updates a second.
#pragma once
#include "util/progress.hpp"

namespace gonu::cli {

ProgressFn make_progress(bool quiet);

}  // namespace gonu::cli
