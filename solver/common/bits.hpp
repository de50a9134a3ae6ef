// Byte and bit helpers of the table files (both games' table rooms and the table container,
// solver/container/): little-endian loads and stores whatever the host, bit fields in a byte
// string (bit i is bit i % 8 of byte i / 8), and arithmetic on sizes read from a file that
// reports overflow instead of wrapping around.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>

namespace gonu::table_bits {

inline std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}
inline std::uint32_t load32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}
inline std::uint16_t load16(const unsigned char* p) { return std::uint16_t(p[0] | (p[1] << 8)); }
// The low `bytes` bytes of v (1 to 8), little-endian.
inline std::uint64_t load_le(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = bytes; i-- > 0;) v = v << 8 | p[i];
  return v;
}
inline void store_le(unsigned char* p, std::uint64_t v, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

inline std::uint64_t low_mask(unsigned width) {
  return width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
}

// `width` (0..64) bits starting at bit `pos`. Reads up to 9 bytes from byte pos / 8, so every
// section keeps 16 readable bytes past its data (the sections' padding).
inline std::uint64_t get_bits(const unsigned char* p, std::uint64_t pos, unsigned width) {
  if (width == 0) return 0;
  const unsigned char* q = p + (pos >> 3);
  const unsigned shift = unsigned(pos & 7);
  std::uint64_t v = load64(q) >> shift;
  if (shift + width > 64) v |= std::uint64_t(q[8]) << (64 - shift);
  return v & low_mask(width);
}

// ORs `width` bits of value into p at bit `pos` (the bytes start zeroed).
inline void put_bits(unsigned char* p, std::uint64_t pos, std::uint64_t value, unsigned width) {
  for (unsigned i = 0; i < width; ++i, ++pos)
    if ((value >> i) & 1) p[pos >> 3] |= static_cast<unsigned char>(1u << (pos & 7));
}

inline bool get_bit(const unsigned char* p, std::uint64_t pos) { return (p[pos >> 3] >> (pos & 7)) & 1; }

// Population count without a library call (the build does not assume the POPCNT instruction).
inline unsigned popcount64(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return unsigned((x * 0x0101010101010101ULL) >> 56);
}

inline unsigned bit_length(std::uint64_t v) { return v == 0 ? 0 : 64u - unsigned(__builtin_clzll(v)); }

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

// a + b and a * b, or nothing if the result does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace gonu::table_bits
