// A set of keys by open addressing: linear probing in a power-of-two array of at most half load,
// deletion by backward shift (no tombstones, so a set that grows and shrinks as a search pushes and
// pops its path stays as fast as a fresh one). The visited sets of a search path are probed for every
// child and every history condition; std::unordered_set's chains and modulo cost several times more.
// The key ~0 is reserved (it marks an empty slot); keys use at most 63 bits (state_key.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "solver/julgonu/state/state_key.hpp"

namespace gonu {

class KeySet {
 public:
  std::size_t size() const { return size_; }
  bool count(Key k) const {
    for (std::size_t i = home(k);; i = (i + 1) & mask()) {
      if (slots_[i] == k) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  void insert(Key k) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = home(k);
    for (; slots_[i] != kEmpty; i = (i + 1) & mask())
      if (slots_[i] == k) return;
    slots_[i] = k;
    ++size_;
  }
  void erase(Key k) {
    std::size_t i = home(k);
    for (; slots_[i] != k; i = (i + 1) & mask())
      if (slots_[i] == kEmpty) return;
    // Backward shift: each later key of the run moves into the hole unless its home lies
    // cyclically in (hole, its slot].
    for (std::size_t j = (i + 1) & mask(); slots_[j] != kEmpty; j = (j + 1) & mask()) {
      const std::size_t h = home(slots_[j]);
      if (((j - h) & mask()) >= ((j - i) & mask())) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = kEmpty;
    --size_;
  }

 private:
  static constexpr Key kEmpty = ~Key(0);
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t home(Key k) const { return std::size_t((k * 0x9E3779B97F4A7C15ull) >> shift_); }
  void grow() {
    std::vector<Key> old(slots_.size() * 2, kEmpty);
    old.swap(slots_);
    --shift_;
    size_ = 0;
    for (Key k : old)
      if (k != kEmpty) insert(k);
  }
  std::vector<Key> slots_ = std::vector<Key>(16, kEmpty);
  int shift_ = 60;  // 64 - log2(slots)
  std::size_t size_ = 0;
};

}  // namespace gonu
