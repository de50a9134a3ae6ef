// Checks of what a table holds: keys read from a file well formed before they are decoded, and
// verify_table, the full check (payload checksum, keys, counts, every value re-derived).
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>

#include "solver/state/successors.hpp"
#include "solver/table/table.hpp"
#include "solver/verify.hpp"

namespace gonu {

bool tag_code_is_well_formed(const KeyCodec& c, std::uint64_t code) {
  if (code >> c.tag_bits) return false;
  for (int part = 0; part < 2; ++part) {
    const std::uint64_t v = (code >> (9 * part)) & 511u;
    if (v == 0) continue;
    const int to = int((v - 1) / 4), d = int((v - 1) % 4);
    if (to >= c.board.n || c.board.step[to][reverse_dir(d)] < 0) return false;
  }
  return pack_tag(c.board, unpack_tag(c.board, std::uint32_t(code))) == code;
}

bool key_is_well_formed(const KeyCodec& c, Key k) {
  const std::uint32_t code = std::uint32_t(k & ((Key(1) << c.tag_bits) - 1));
  k >>= c.tag_bits;
  const int B = c.board_bits;
  const Key board_part = k & ((Key(1) << B) - 1);
  unsigned __int128 p3 = 1;
  for (int i = 0; i < c.board.n; ++i) p3 *= 3;
  if (board_part >= p3) return false;
  if ((k >> B) > 1) return false;  // only the side bit above the board
  if (!c.tagged) return true;
  return tag_code_is_well_formed(c, code);
}

namespace {

// Legal moves summed over the states (the header's edge count).
std::uint64_t count_edges(const KeyCodec& c, const std::vector<Key>& keys) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, keys.size(), 4096), std::uint64_t(0),
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t acc) {
        Successor succ[kMaxMoves];
        for (std::uint64_t i = range.begin(); i < range.end(); ++i) acc += std::uint64_t(expand_key(c, keys[i], succ));
        return acc;
      },
      [](std::uint64_t a, std::uint64_t b) { return a + b; });
}

}  // namespace

TableVerifyResult verify_table(const Table& t, const ProgressFn& progress) {
  TableVerifyResult r;
  const TableHeader& h = t.header();
  auto fail = [&](const std::string& why) {
    r.ok = false;
    r.first_error = why;
    return r;
  };
  if (!t.payload_checksum_ok()) return fail("payload checksum mismatch (the file is damaged)");
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  t.decode_all(keys, value, dist, progress);
  const KeyCodec& c = t.codec();
  const std::uint64_t n = keys.size();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i > 0 && keys[i - 1] >= keys[i]) return fail("state " + std::to_string(i) + ": keys are not strictly ascending");
    if (!key_is_well_formed(c, keys[i])) return fail("state " + std::to_string(i) + ": malformed key");
    if (value[i] == Value::win) ++r.wins;
    else if (value[i] == Value::loss) ++r.losses;
    else ++r.draws;
    r.max_dist = std::max(r.max_dist, dist[i]);
  }
  r.states = n;
  if (r.wins != h.wins || r.losses != h.losses || r.draws != h.draws)
    return fail("the header's win/loss/draw counts do not match the states");
  if (r.max_dist != h.max_dist) return fail("the header's largest distance does not match the states");
  if (!std::binary_search(keys.begin(), keys.end(), h.root_key)) return fail("the root is not in the table");
  const VerifyResult v = verify_values(c, keys.data(), value.data(), dist.data(), n, progress);
  if (!v.ok) return fail(v.first_error);
  r.edges = count_edges(c, keys);
  if (r.edges != h.edges) return fail("the header's edge count does not match the states' moves");
  return r;
}

}  // namespace gonu
