// The state store of the enumeration: maps each discovered key to its dense id. Open addressing
// with linear probing over slots {key, id}; empty slots hold kEmptyKey (no state key has all bits
// set, see state_key.hpp). The enumeration uses it in strict phases, never mixing them: many
// threads look up (read only), then, after a barrier, many threads insert distinct new keys
// (a compare-and-swap claims a slot). Growth rehashes between phases. Load stays <= 1/2.
// Memory: 16 bytes a slot, so 32 to 64 bytes a state.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/state_key.hpp"

namespace gonu {

constexpr Key kEmptyKey = ~Key(0);
constexpr std::uint32_t kNoId = ~std::uint32_t(0);

class StateStore {
 public:
  StateStore() { reset(1 << 16); }
  // Lookup phase: the id of a key, or kNoId.
  std::uint32_t find(Key k) const {
    for (std::size_t i = slot_of(k);; i = (i + 1) & mask_) {
      const Key s = slots_[i].key.load(std::memory_order_relaxed);
      if (s == k) return slots_[i].id;
      if (s == kEmptyKey) return kNoId;
    }
  }
  // Make room for `more` further keys (call between phases).
  void reserve_more(std::size_t more);
  // Insert phase: `k` must be absent and distinct from keys inserted concurrently.
  void insert(Key k, std::uint32_t id) {
    for (std::size_t i = slot_of(k);; i = (i + 1) & mask_) {
      Key expected = kEmptyKey;
      if (slots_[i].key.compare_exchange_strong(expected, k, std::memory_order_relaxed)) {
        slots_[i].id = id;
        return;
      }
    }
  }
  std::size_t size() const { return size_; }
  void add_size(std::size_t n) { size_ += n; }
  std::size_t memory_bytes() const { return (mask_ + 1) * sizeof(Slot); }

 private:
  struct Slot {
    std::atomic<Key> key;
    std::uint32_t id;
  };
  std::size_t slot_of(Key k) const {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return std::size_t(k) & mask_;
  }
  void reset(std::size_t capacity);
  std::unique_ptr<Slot[]> slots_;
  std::size_t mask_ = 0, size_ = 0;
};

}  // namespace gonu
