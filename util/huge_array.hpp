// Big arrays of trivially copyable T in anonymous memory (HugeArray here, and HugeVector for
// the solution's arrays).
//
// HugeArray: an array of trivially copyable T in anonymous memory, zero-filled by the kernel
// and advised to use transparent huge pages: the solver's big randomly accessed arrays (the
// store, counters, predecessor lists) spend most of their time in TLB misses on 4 KiB pages. It
// grows by mremap, which moves page tables, not data: a growing array of gigabytes never exists
// twice.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

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

// A std::vector allocator for the solution's arrays (gigabytes on the larger boards): memory from
// mmap, advised to use huge pages, and resize() does not value-initialize - the kernel's fresh
// pages are zero already, so memory that was never used reads as zero, and a solve's arrays are
// first touched by the parallel read-off that fills them, not zero-filled by one thread before.
// (Shrinking and growing again within the capacity keeps the old values instead.)
template <class T>
struct HugePageAllocator {
  static_assert(std::is_trivially_destructible_v<T>);
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(std::size_t n) {
    if (n == 0) return nullptr;
    void* p = mmap(nullptr, bytes(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes(n), MADV_HUGEPAGE);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (p) munmap(p, bytes(n));
  }
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;  // default-initialized: left as the page holds it
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }

 private:
  static std::size_t bytes(std::size_t n) { return (n * sizeof(T) + 4095) / 4096 * 4096; }
};
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace gonu
