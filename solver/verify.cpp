// Re-derivation of values from successors, state by state, in parallel chunks; the reported
// error is the lowest-numbered one, so the message does not depend on the thread count.
#include "solver/verify.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "core/position.hpp"
#include "solver/state/successors.hpp"

namespace gonu {

namespace {

// "" if state i is right, else what is wrong with it.
std::string check_state(const KeyCodec& c, const Key* keys, const Value* value, const std::uint16_t* dist,
                        std::size_t n, std::size_t i) {
  Successor succ[kMaxMoves];
  const int k = expand_key(c, keys[i], succ);
  SuccessorRule rule;
  for (int j = 0; j < k; ++j) {
    const Key* it = std::lower_bound(keys, keys + n, succ[j].key);
    if (it == keys + n || *it != succ[j].key) return "successor after " + format_move(c.board, c.rules, succ[j].move) + " is missing";
    const std::size_t s = std::size_t(it - keys);
    rule.add(value[s], dist[s]);
  }
  return rule.check(k, value[i], dist[i]);
}

}  // namespace

std::string SuccessorRule::check(int moves, Value value, std::uint16_t dist) const {
  Value want = Value::draw;
  std::uint32_t want_dist = 0;
  if (moves == 0) {
    want = Value::loss;
  } else if (min_loss != ~0u) {
    want = Value::win;
    want_dist = min_loss + 1;
  } else if (all_win) {
    want = Value::loss;
    want_dist = max_win + 1;
  } else if (any_draw) {
    want = Value::draw;
  }
  if (value == want && dist == want_dist) return "";
  return std::string("expected ") + to_string(want) + " " + std::to_string(want_dist) + ", table has " +
         to_string(value) + " " + std::to_string(dist);
}

std::string state_error(const KeyCodec& c, std::uint64_t i, Key k, const std::string& why) {
  Position p;
  Tag t;
  decode_key(c, k, p, t);
  return "state " + std::to_string(i) + " (" + format_position(c.board, p) + "): " + why;
}

VerifyResult verify_values(const KeyCodec& c, const Key* keys, const Value* value, const std::uint16_t* dist,
                           std::size_t n, const ProgressFn& progress) {
  VerifyResult r;
  for (std::size_t i = 1; i < n; ++i)
    if (keys[i - 1] >= keys[i]) {
      r.ok = false;
      r.first_error = "state " + std::to_string(i) + ": keys are not strictly ascending";
      return r;
    }
  std::atomic<std::size_t> first_bad{n};
  std::mutex m;
  std::string message;
  std::atomic<std::uint64_t> done{0};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      if (i > first_bad.load(std::memory_order_relaxed)) return;
      const std::string why = check_state(c, keys, value, dist, n, i);
      if (!why.empty()) {
        std::lock_guard<std::mutex> lock(m);
        if (i < first_bad.load()) {
          first_bad.store(i);
          message = state_error(c, i, keys[i], why);
        }
        return;
      }
    }
    const std::uint64_t d = done.fetch_add(range.size()) + range.size();
    if (progress && range.begin() % (1u << 20) < range.size()) progress("verify", d, n);
  });
  r.checked = n;
  if (first_bad.load() < n) {
    r.ok = false;
    r.first_error = message;
  }
  return r;
}

}  // namespace gonu
