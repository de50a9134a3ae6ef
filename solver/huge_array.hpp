// An array of trivially copyable T in anonymous memory, zero-filled by the kernel and advised to
// use transparent huge pages: the solver's big randomly accessed arrays (the store, counters,
// predecessor lists) spend most of their time in TLB misses on 4 KiB pages. It grows by mremap,
// which moves page tables, not data: a growing array of gigabytes never exists twice.
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
  explicit HugeArray(std::size_t n) { resize(n); }
  // Grows (new elements zero) or shrinks, keeping the contents; never copies them.
  void resize(std::size_t n) {
    const std::size_t want = (n * sizeof(T) + kPage - 1) / kPage * kPage;
    if (want != mapped_) {
      void* p;
      if (want == 0) {
        release();
        return;
      } else if (mapped_ == 0) {
        p = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      } else {
        p = mremap(data_, mapped_, want, MREMAP_MAYMOVE);
      }
      if (p == MAP_FAILED) throw std::bad_alloc();
      madvise(p, want, MADV_HUGEPAGE);
      data_ = static_cast<T*>(p);
      mapped_ = want;
    }
    n_ = n;
  }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  HugeArray(HugeArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), n_(std::exchange(o.n_, 0)), mapped_(std::exchange(o.mapped_, 0)) {}
  HugeArray& operator=(HugeArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      n_ = std::exchange(o.n_, 0);
      mapped_ = std::exchange(o.mapped_, 0);
    }
    return *this;
  }
  ~HugeArray() { release(); }

  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* data() { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + n_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + n_; }
  const T* data() const { return data_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  static constexpr std::size_t kPage = 4096;
  void release() {
    if (data_) munmap(data_, mapped_);
    data_ = nullptr;
    n_ = mapped_ = 0;
  }
  T* data_ = nullptr;
  std::size_t n_ = 0, mapped_ = 0;
};

}  // namespace gonu
