// Progress line on stderr: phase, count, rate.
#include "tools/progress_display.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

namespace gonu::cli {

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
    } else if (now - st->last < std::chrono::milliseconds(200)) {
      return;
    }
    st->last = now;
    const double secs = std::chrono::duration<double>(now - st->start).count();
    std::fprintf(stderr, "\r%-10s %12llu / %-12llu %10.0f states/s   ", phase, (unsigned long long)done,
                 (unsigned long long)total, secs > 0 ? double(done) / secs : 0.0);
    std::fflush(stderr);
  };
}

}  // namespace gonu::cli
