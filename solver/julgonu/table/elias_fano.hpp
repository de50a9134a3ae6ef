// The Elias-Fano codec of a table block's keys (FORMAT.md, "A block's key data"): one encoder,
// one membership search and one decoder, used by the writer, Table::find and Table::decode_all.
//
// A list of n ascending values v_0 < ... < v_{n-1} (each the key minus the block's first key;
// span = v_{n-1}) is stored in
//
//   byte 0   l: the low bits of each value, floor(log2(span / n)), or 0 if that is below 1 or n = 0
//   byte 1   zero
//   byte 2   u (2 bytes): the upper bitmap's length in bits, n + (span >> l), or 0 if n = 0
//   byte 4   upper bitmap, ceil(u / 8) bytes: bit (v_i >> l) + i set for each i, all others 0
//   then     lower bits, ceil(n * l / 8) bytes: v_i & (2^l - 1) at bit i * l
//
// Readers need 16 readable bytes past the encoding (the keys section's padding). n is at most
// 16384 (the largest block), so u < 3n fits its 2 bytes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gonu::ef {

constexpr std::size_t kHeadBytes = 4;  // l, zero, u

// The number of low bits for n values up to `span`.
unsigned lower_bits(std::uint64_t span, std::uint64_t n);
// Bytes of the encoding of n values up to `span`, head included.
std::size_t encoded_size(std::uint64_t n, std::uint64_t span);

// Encodes x[i] - base for i < n (x strictly ascending, x[0] >= base) into `out`, which holds
// encoded_size(n, x[n-1] - base) zero bytes.
void encode(const std::uint64_t* x, std::size_t n, std::uint64_t base, unsigned char* out);

// An encoded list, its head parsed.
struct List {
  unsigned l = 0;
  std::uint64_t n = 0, u = 0;
  const unsigned char* upper = nullptr;
  const unsigned char* lower = nullptr;
};

// Parses `len` bytes at p as a list of n values: false unless the head is well formed (l < 64,
// zero byte, u = 0 exactly when n = 0, u <= 3n) and `len` is exactly the length it gives.
bool parse(const unsigned char* p, std::uint64_t len, std::uint64_t n, List& out);

enum class Status { ok, absent, too_many, too_few, out_of_range };

// The position i with v_i = v: Status::ok and i, or Status::absent; Status::too_many if the
// bitmap holds more values than n (a damaged list).
Status find(const List& list, std::uint64_t v, std::uint64_t& i);

// All n values into out[0..n): Status::ok, or too_many / too_few when the bitmap does not hold
// exactly n values, out_of_range when a value does not fit in 64 bits.
Status decode(const List& list, std::uint64_t* out);

}  // namespace gonu::ef
