// Growth of the state store: a parallel rehash into a table twice as large (or more).
#include "solver/julgonu/graph/state_store.hpp"

#include <tbb/parallel_for.h>

namespace gonu {

void StateStore::reset(std::size_t capacity) {
  slots_ = HugeArray<Slot>(capacity);
  capacity_ = capacity;
  size_ = 0;
  tbb::parallel_for(std::size_t(0), capacity, [&](std::size_t i) {
    slots_[i].key.store(kEmptyKey, std::memory_order_relaxed);
    slots_[i].id = kNoId;
  });
}

void StateStore::reserve_more(std::size_t more) {
  if (size_ + more <= max_load()) return;
  const std::size_t capacity = (size_ + more) * 2;  // load 1/2 after growth
  HugeArray<Slot> old = std::move(slots_);
  const std::size_t old_capacity = capacity_, kept = size_;
  reset(capacity);
  tbb::parallel_for(std::size_t(0), old_capacity, [&](std::size_t i) {
    const Key k = old[i].key.load(std::memory_order_relaxed);
    if (k != kEmptyKey) set_id(k, old[i].id);
  });
  size_ = kept;
}

}  // namespace gonu
