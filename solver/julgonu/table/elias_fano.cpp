// The Elias-Fano codec of table blocks (layout in elias_fano.hpp and FORMAT.md).
#include "solver/julgonu/table/elias_fano.hpp"

#include <algorithm>

#include "solver/common/bits.hpp"

namespace gonu::ef {

using namespace table_bits;

unsigned lower_bits(std::uint64_t span, std::uint64_t n) {
  if (n == 0) return 0;
  const std::uint64_t q = span / n;
  return q == 0 ? 0 : bit_length(q) - 1;
}

namespace {

std::uint64_t upper_length(std::uint64_t n, std::uint64_t span, unsigned l) { return n == 0 ? 0 : n + (span >> l); }

}  // namespace

std::size_t encoded_size(std::uint64_t n, std::uint64_t span) {
  const unsigned l = lower_bits(span, n);
  return kHeadBytes + std::size_t(ceil_div(upper_length(n, span, l), 8)) + std::size_t(ceil_div(n * l, 8));
}

void encode(const std::uint64_t* x, std::size_t n, std::uint64_t base, unsigned char* out) {
  const std::uint64_t span = n == 0 ? 0 : x[n - 1] - base;
  const unsigned l = lower_bits(span, n);
  const std::uint64_t u = upper_length(n, span, l);
  out[0] = static_cast<unsigned char>(l);
  store_le(out + 2, u, 2);
  unsigned char* upper = out + kHeadBytes;
  unsigned char* lower = upper + ceil_div(u, 8);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t v = x[i] - base;
    const std::uint64_t up = (v >> l) + i;
    upper[up >> 3] |= static_cast<unsigned char>(1u << (up & 7));
    put_bits(lower, i * l, v & low_mask(l), l);
  }
}

bool parse(const unsigned char* p, std::uint64_t len, std::uint64_t n, List& out) {
  if (len < kHeadBytes) return false;
  out.l = p[0];
  out.n = n;
  out.u = load16(p + 2);
  if (out.l > 63 || p[1] != 0 || (n == 0) != (out.u == 0) || out.u > 3 * n) return false;
  if (kHeadBytes + ceil_div(out.u, 8) + ceil_div(n * out.l, 8) != len) return false;
  out.upper = p + kHeadBytes;
  out.lower = out.upper + ceil_div(out.u, 8);
  return true;
}

namespace {

// The position just after the high-th zero of the upper bitmap, and the ones before it (the
// values with a smaller high part); false if the bitmap has fewer zeros.
bool skip_zeros(const List& list, std::uint64_t high, std::uint64_t& pos, std::uint64_t& ones) {
  pos = ones = 0;
  if (high == 0) return true;
  std::uint64_t need = high;
  for (std::uint64_t w = 0; w * 64 < list.u; ++w) {
    const unsigned valid = unsigned(std::min<std::uint64_t>(64, list.u - w * 64));
    const std::uint64_t word = load64(list.upper + 8 * w) & low_mask(valid);
    const unsigned pc = popcount64(word);
    const unsigned zeros = valid - pc;
    if (zeros < need) {
      need -= zeros;
      ones += pc;
      continue;
    }
    std::uint64_t z = ~word & low_mask(valid);
    for (std::uint64_t r = 1; r < need; ++r) z &= z - 1;
    const unsigned at = unsigned(__builtin_ctzll(z));
    ones += popcount64(word & low_mask(at));
    pos = w * 64 + at + 1;
    return true;
  }
  return false;
}

}  // namespace

Status find(const List& list, std::uint64_t v, std::uint64_t& i) {
  if (list.n == 0) return Status::absent;
  const unsigned l = list.l;
  const std::uint64_t low = v & low_mask(l);
  std::uint64_t pos, ones;
  if (!skip_zeros(list, v >> l, pos, ones)) return Status::absent;
  // The run of ones from pos holds the values of high part v >> l; their low parts ascend.
  for (;; ++pos, ++ones) {
    if (pos >= list.u || !get_bit(list.upper, pos)) return Status::absent;
    if (ones >= list.n) return Status::too_many;
    const std::uint64_t lw = get_bits(list.lower, ones * l, l);
    if (lw == low) {
      i = ones;
      return Status::ok;
    }
    if (lw > low) return Status::absent;
  }
}

Status decode(const List& list, std::uint64_t* out) {
  std::uint64_t i = 0, zeros = 0;
  for (std::uint64_t pos = 0; pos < list.u; ++pos) {
    if (!get_bit(list.upper, pos)) {
      ++zeros;
      continue;
    }
    if (i >= list.n) return Status::too_many;
    if (list.l > 0 && (zeros >> (64 - list.l)) != 0) return Status::out_of_range;
    out[i] = (zeros << list.l) | get_bits(list.lower, i * list.l, list.l);
    ++i;
  }
  return i == list.n ? Status::ok : Status::too_few;
}

}  // namespace gonu::ef
