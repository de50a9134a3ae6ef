// A table block (internal to solver/julgonu/table/): states b*S .. min(N, (b+1)*S) - 1, whose key bytes are
// a 4-byte check and the Elias-Fano list of the keys after the first (elias_fano.hpp), and whose
// value codes start at byte b*S*w/8 of the values section (S is a multiple of 8). The check
// covers both, so no lookup answers from damaged bytes.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

// xxHash inlined (the Debian header supports it): the block check of a lookup hashes a few hundred
// bytes, where the call into the shared library costs as much as the hash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "solver/common/bits.hpp"

namespace gonu::table_block {

constexpr std::size_t kCheckBytes = 4;

// Where block b's states and value codes are.
struct Geometry {
  std::uint64_t first_state = 0, states = 0;     // m = states in the block
  std::uint64_t value_start = 0, value_len = 0;  // bytes in the values section
};

inline Geometry geometry(std::uint64_t b, std::uint64_t n, std::uint64_t block_size, unsigned value_bits) {
  Geometry g;
  g.first_state = b * block_size;
  g.states = std::min<std::uint64_t>(n, (b + 1) * block_size) - g.first_state;
  g.value_start = g.first_state * value_bits / 8;
  g.value_len = table_bits::ceil_div(g.states * value_bits, 8);
  return g;
}

// The block check: XXH3 of the block's key bytes after the check field, seeded with the block
// number (so a moved block fails), then of its value bytes seeded with that; the low 32 bits.
inline std::uint32_t check(std::uint64_t b, const unsigned char* key_bytes, std::size_t key_len,
                           const unsigned char* value_bytes, std::size_t value_len) {
  const std::uint64_t h1 = XXH3_64bits_withSeed(key_bytes, key_len, b);
  return std::uint32_t(XXH3_64bits_withSeed(value_bytes, value_len, h1));
}

}  // namespace gonu::table_block
