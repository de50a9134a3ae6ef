// A fixed-size array of trivially copyable T in anonymous memory, zero-filled by the kernel and
// advised to use transparent huge pages: the solver's big randomly accessed arrays (the store,
// counters, predecessor lists) spend most of their time in TLB misses on 4 KiB pages.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace gonu {

template <class T>
class HugeArray {
  static_assert(std::is_trivially_destructible_v<T>);

 public:
  HugeArray() = default;
  explicit HugeArray(std::size_t n) : n_(n) {
    if (n == 0) return;
    void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes(), MADV_HUGEPAGE);
    data_ = static_cast<T*>(p);
  }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  HugeArray(HugeArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  HugeArray& operator=(HugeArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  ~HugeArray() { release(); }

  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  void release() {
    if (data_) munmap(data_, bytes());
    data_ = nullptr;
    n_ = 0;
  }
  T* data_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace gonu
