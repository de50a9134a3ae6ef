// The Elias-Fano key codec of table blocks against a plain reference: random ascending lists and
// edge cases (empty, one value, the largest span, dense runs, the largest block) encode to the
// documented size, decode to themselves, and every member and non-member is found or not as
// std::lower_bound says.
#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "solver/julgonu/table/elias_fano.hpp"
#include "tests/table_test_util.hpp"

namespace {

// The documented parameters, computed plainly: l = floor(log2(span / n)) (0 if below 1), u = n +
// (span >> l), size = 4 + ceil(u / 8) + ceil(n * l / 8).
std::size_t reference_size(std::uint64_t n, std::uint64_t span) {
  if (n == 0) return 4;
  unsigned l = 0;
  while (l < 63 && (span / n) >> (l + 1) != 0) ++l;
  const std::uint64_t u = n + (span >> l);
  return 4 + std::size_t((u + 7) / 8) + std::size_t((n * l + 7) / 8);
}

// Encodes x - base, then checks the size, the parse, the decode and lookups against the list.
void require_round_trip(const std::vector<std::uint64_t>& x, std::uint64_t base, std::mt19937_64& rng) {
  const std::uint64_t n = x.size(), span = n == 0 ? 0 : x.back() - base;
  INFO("n " << n << ", span " << span << ", base " << base);
  const std::size_t size = gonu::ef::encoded_size(n, span);
  REQUIRE(size == reference_size(n, span));
  std::vector<unsigned char> buf(size + 16, 0);  // readers need 16 bytes of padding
  gonu::ef::encode(x.data(), std::size_t(n), base, buf.data());
  gonu::ef::List list;
  REQUIRE(gonu::ef::parse(buf.data(), size, n, list));
  gonu::ef::List other;
  REQUIRE(!gonu::ef::parse(buf.data(), size + 1, n, other));
  REQUIRE(!gonu::ef::parse(buf.data(), size - 1, n, other));

  std::vector<std::uint64_t> v(n), out(n + 1, 0);
  for (std::uint64_t i = 0; i < n; ++i) v[i] = x[i] - base;
  REQUIRE(gonu::ef::decode(list, out.data()) == gonu::ef::Status::ok);
  out.pop_back();
  REQUIRE(out == v);

  // Probes: every member, its neighbours, the ends, and random values in and past the span.
  std::vector<std::uint64_t> probes = {0, 1, span, span + 1, ~std::uint64_t(0)};
  for (const std::uint64_t m : v) probes.insert(probes.end(), {m, m - 1, m + 1});
  for (int k = 0; k < 64; ++k) probes.push_back(span == ~std::uint64_t(0) ? rng() : rng() % (span + 2));
  for (const std::uint64_t p : probes) {
    const auto it = std::lower_bound(v.begin(), v.end(), p);
    const bool member = it != v.end() && *it == p;
    std::uint64_t i = ~std::uint64_t(0);
    const gonu::ef::Status st = gonu::ef::find(list, p, i);
    INFO("probe " << p);
    REQUIRE(st == (member ? gonu::ef::Status::ok : gonu::ef::Status::absent));
    if (member) REQUIRE(i == std::uint64_t(it - v.begin()));
  }
}

// n distinct values in [lo, hi], ascending.
std::vector<std::uint64_t> random_list(std::mt19937_64& rng, std::uint64_t n, std::uint64_t lo, std::uint64_t hi) {
  std::set<std::uint64_t> s;
  const std::uint64_t width = hi - lo;
  if (width < n * 2) {
    for (std::uint64_t k = lo; s.size() < n; ++k) s.insert(k);
  } else {
    while (s.size() < n) s.insert(lo + (width == ~std::uint64_t(0) ? rng() : rng() % (width + 1)));
  }
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("elias-fano: edge cases round-trip", "[table][elias-fano]") {
  std::mt19937_64 rng(1);
  const std::uint64_t top = ~std::uint64_t(0);
  require_round_trip({}, 0, rng);
  require_round_trip({}, 12345, rng);
  require_round_trip({1}, 0, rng);
  require_round_trip({0}, 0, rng);               // a value equal to the base
  require_round_trip({top}, 0, rng);             // the largest span: l = 63
  require_round_trip({top}, top - 1, rng);
  require_round_trip({1, top}, 0, rng);
  require_round_trip({top - 1, top}, 5, rng);
  require_round_trip({100, 101, 102, 103}, 99, rng);  // dense: l = 0
  std::vector<std::uint64_t> dense(16384);        // the largest block, every value present
  for (std::size_t i = 0; i < dense.size(); ++i) dense[i] = 1000 + i;
  require_round_trip(dense, 999, rng);
  std::vector<std::uint64_t> powers;              // one value per bit length
  for (int b = 0; b < 64; ++b) powers.push_back(std::uint64_t(1) << b);
  require_round_trip(powers, 0, rng);
  require_round_trip(random_list(rng, 16384, 1, top), 0, rng);  // the largest block, sparse
}

TEST_CASE("elias-fano: random ascending lists round-trip", "[table][elias-fano]") {
  std::mt19937_64 rng(2025);
  for (int trial = 0; trial < 400; ++trial) {
    const std::uint64_t n = trial % 5 == 0 ? rng() % 4 : rng() % 700;
    const int bits = int(rng() % 65);
    const std::uint64_t span = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1 + n;
    const std::uint64_t base = rng() % 3 == 0 ? 0 : rng() % 1000;
    const std::uint64_t hi = span > ~base ? ~std::uint64_t(0) : base + span;
    require_round_trip(random_list(rng, n, base + 1, std::max(hi, base + 1 + n)), base, rng);
  }
}

TEST_CASE("elias-fano: a list with more or fewer values than its head says is refused", "[table][elias-fano]") {
  std::mt19937_64 rng(3);
  const std::vector<std::uint64_t> x = random_list(rng, 200, 1, 50000);
  const std::size_t size = gonu::ef::encoded_size(x.size(), x.back());
  std::vector<unsigned char> buf(size + 16, 0);
  gonu::ef::encode(x.data(), x.size(), 0, buf.data());
  gonu::ef::List list;
  REQUIRE(gonu::ef::parse(buf.data(), size, x.size(), list));
  std::vector<std::uint64_t> out(x.size() + 1);
  // A zero of the upper bitmap turned into a one: one value too many.
  const unsigned char* upper = buf.data() + gonu::ef::kHeadBytes;
  std::uint64_t pos = 0;
  while ((upper[pos / 8] >> (pos % 8)) & 1) ++pos;
  buf[gonu::ef::kHeadBytes + pos / 8] |= static_cast<unsigned char>(1u << (pos % 8));
  REQUIRE(gonu::ef::decode(list, out.data()) == gonu::ef::Status::too_many);
  // The first one cleared instead: one value too few.
  buf[gonu::ef::kHeadBytes + pos / 8] &= static_cast<unsigned char>(~(1u << (pos % 8)));
  std::uint64_t first_one = 0;
  while (!((upper[first_one / 8] >> (first_one % 8)) & 1)) ++first_one;
  buf[gonu::ef::kHeadBytes + first_one / 8] &= static_cast<unsigned char>(~(1u << (first_one % 8)));
  REQUIRE(gonu::ef::decode(list, out.data()) == gonu::ef::Status::too_few);
}
