// The state store of the enumeration: maps each discovered key to its dense id. Open addressing
// with linear probing over slots {key, id}, any capacity (multiply-shift range reduction); empty slots hold kEmptyKey (no state key has all bits
// set, see state_key.hpp). Keys are never removed, so a compare-and-swap on the key claims a slot
// and concurrent probes stay correct. Phases of one level, separated by barriers:
//   expand: find_or_claim from many threads: known keys give their id; a new key is claimed once
//           (its id stays kNoId, "pending"), so only its first finder lists it; past the claim
//           budget (load 0.7) new keys are listed without claiming, possibly more than once;
//   number: set_id from many threads, each key once; growth (rehash) only between phases.
// Memory: 16 bytes a slot at load 0.5 to 0.7, so 23 to 32 bytes a state.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "util/huge_array.hpp"
#include "solver/julgonu/state/state_key.hpp"

namespace gonu {

constexpr Key kEmptyKey = ~Key(0);
constexpr std::uint32_t kNoId = ~std::uint32_t(0);

class StateStore {
 public:
  StateStore() { reset(1 << 16); }
  // Lookup phase: the id of a key, or kNoId.
  std::uint32_t find(Key k) const {
    for (std::size_t i = slot_of(k);; i = next(i)) {
      const Key s = slots_[i].key.load(std::memory_order_relaxed);
      if (s == k) return slots_[i].id;
      if (s == kEmptyKey) return kNoId;
    }
  }
  // Expand phase: the id of a known key; kNoId for a new or pending one. Sets `list` when the
  // caller must list the key as new (it claimed it, or the claim budget is spent).
  std::uint32_t find_or_claim(Key k, bool& list) {
    for (std::size_t i = slot_of(k);; i = next(i)) {
      Key s = slots_[i].key.load(std::memory_order_relaxed);
      if (s == kEmptyKey) {
        if (claims_.fetch_add(1, std::memory_order_relaxed) >= claim_budget_) {
          list = true;
          return kNoId;
        }
        if (slots_[i].key.compare_exchange_strong(s, k, std::memory_order_relaxed)) {
          list = true;
          return kNoId;
        }
        claims_.fetch_sub(1, std::memory_order_relaxed);
      }
      if (s == k) {
        list = false;
        return slots_[i].id;
      }
    }
  }
  // Number phase: gives a listed key its id, inserting it if it was not claimed.
  void set_id(Key k, std::uint32_t id) {
    for (std::size_t i = slot_of(k);; i = next(i)) {
      Key s = slots_[i].key.load(std::memory_order_relaxed);
      if (s == kEmptyKey && slots_[i].key.compare_exchange_strong(s, k, std::memory_order_relaxed)) s = k;
      if (s == k) {
        slots_[i].id = id;
        return;
      }
    }
  }
  // Between phases: make room for `more` further keys, and allow claims up to load 1/2.
  void reserve_more(std::size_t more);
  void open_claims() {
    claims_.store(0, std::memory_order_relaxed);
    claim_budget_ = max_load() > size_ ? max_load() - size_ : 0;
  }
  std::size_t size() const { return size_; }
  void add_size(std::size_t n) { size_ += n; }
  std::size_t memory_bytes() const { return slots_.bytes(); }

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
    return std::size_t((unsigned __int128)k * capacity_ >> 64);
  }
  std::size_t next(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }
  std::size_t max_load() const { return capacity_ / 10 * 7; }
  void reset(std::size_t capacity);
  HugeArray<Slot> slots_;
  std::size_t capacity_ = 0, size_ = 0;
  std::atomic<std::size_t> claims_{0};
  std::size_t claim_budget_ = 0;
};

}  // namespace gonu
