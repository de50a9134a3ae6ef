// Re-derivation of values from successors, state by state, in parallel chunks; the reported
// error is the lowest-numbered one, so the message does not depend on the thread count.
#include "solver/julgonu/verify.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "core/julgonu/position.hpp"
#include "solver/julgonu/state/successors.hpp"

namespace gonu {

namespace {

// Where a key lies in the sorted keys: the key range cut into about n / 16 equal buckets, each
// with the first place of its keys, so a lookup searches one bucket instead of all the keys (on a
// billion states a binary search over all of them was most of verify's time).
class KeyGuide {
 public:
  KeyGuide(const Key* keys, std::size_t n) : keys_(keys), n_(n) {
    if (n == 0) return;
    lo_ = keys[0];
    const Key span = keys[n - 1] - lo_;
    while (shift_ < 63 && (span >> shift_) > n / 16) ++shift_;
    const std::size_t buckets = std::size_t(span >> shift_) + 1;
    start_.resize(buckets + 1);
    std::size_t i = 0;
    for (std::size_t b = 0; b < buckets; ++b) {  // every bucket's start is at most the last key
      const Key first = lo_ + (Key(b) << shift_);
      while (keys[i] < first) ++i;
      start_[b] = i;
    }
    start_[buckets] = n;
  }
  // The place of k, or n if it is not among the keys.
  std::size_t find(Key k) const {
    if (n_ == 0 || k < lo_ || k > keys_[n_ - 1]) return n_;
    const std::size_t b = std::size_t((k - lo_) >> shift_);
    const Key* first = keys_ + start_[b];
    const Key* last = keys_ + start_[b + 1];
    const Key* it = std::lower_bound(first, last, k);
    return it != last && *it == k ? std::size_t(it - keys_) : n_;
  }

 private:
  const Key* keys_;
  std::size_t n_;
  Key lo_ = 0;
  int shift_ = 0;
  std::vector<std::size_t> start_;  // by bucket: the first key at or past the bucket's start
};

// "" if state i is right, else what is wrong with it.
std::string check_state(const KeyCodec& c, const KeyGuide& guide, const Key* keys, const Value* value,
                        const std::uint16_t* dist, std::size_t n, std::size_t i) {
  Successor succ[kMaxMoves];
  const int k = expand_key(c, keys[i], succ);
  SuccessorRule rule;
  for (int j = 0; j < k; ++j) {
    const std::size_t s = guide.find(succ[j].key);
    if (s == n) return "successor after " + format_move(c.board, c.rules, succ[j].move) + " is missing";
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
  const KeyGuide guide(keys, n);
  std::atomic<std::size_t> first_bad{n};
  std::mutex m;
  std::string message;
  std::atomic<std::uint64_t> done{0};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      if (i > first_bad.load(std::memory_order_relaxed)) return;
      const std::string why = check_state(c, guide, keys, value, dist, n, i);
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
