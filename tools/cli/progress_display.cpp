// The progress line on stderr: the phase's start time, the last update's, one line at a time.
#include "tools/cli/progress_display.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "tools/report/units.hpp"

namespace gonu::cli {

namespace {

constexpr int kLineWidth = 64;  // wider than any line format_progress writes for the solver's phases

// Phases whose total is the count found so far, not the count there will be: enumerating the
// states reachable from the root (the solver reports the states expanded and the states found).
bool open_ended(const char* phase) { return std::strcmp(phase, "enumerate") == 0; }

}  // namespace

ProgressFn make_progress(bool quiet) {
  if (quiet || !isatty(STDERR_FILENO)) return {};
  struct State {
    std::mutex m;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last{};
    std::string phase;
  };
  auto st = std::make_shared<State>();
  return [st](const char* phase, std::uint64_t done, std::uint64_t total) {
    std::lock_guard<std::mutex> lock(st->m);
    const auto now = std::chrono::steady_clock::now();
    if (st->phase != phase) {
      st->phase = phase;
      st->start = now;
    } else if (now - st->last < std::chrono::milliseconds(250)) {
      return;
    }
    st->last = now;
    const double secs = std::chrono::duration<double>(now - st->start).count();
    const std::string line = open_ended(phase) ? format_progress(phase, std::max(done, total), 0, secs)
                                               : format_progress(phase, done, total, secs);
    std::fprintf(stderr, "\r%-*s", kLineWidth, line.c_str());
    std::fflush(stderr);
  };
}

void end_progress(const ProgressFn& progress) {
  if (!progress) return;
  std::fprintf(stderr, "\r%*s\r", kLineWidth, "");
  std::fflush(stderr);
}

}  // namespace gonu::cli
