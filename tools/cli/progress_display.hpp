// Progress on stderr for long phases: shown only when stderr is a terminal and not --quiet, as
// one line rewritten in place (format_progress in tools/report/units.hpp: phase, percent, rate, time
// left). Thread-safe (a mutex around the line), and throttled to a few updates a second.
#pragma once
#include "util/progress.hpp"

namespace gonu::cli {

// Empty (no progress) when quiet or when stderr is not a terminal.
ProgressFn make_progress(bool quiet);

// Blanks the progress line, if `progress` showed one, so that a report can follow it.
void end_progress(const ProgressFn& progress);

}  // namespace gonu::cli
