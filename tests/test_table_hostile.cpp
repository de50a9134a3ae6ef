// Hostile table files: fields crafted with their checksums recomputed (as FORMAT.md documents),
// so that only the reader's own checks stand between them and a hang or an out-of-bounds read.
// Each is refused at open, through the library and through gonu info, query and verify, with a
// one-line error and exit 1.
#include <chrono>
#include <random>

#include "core/error.hpp"
#include "solver/julgonu/table/header.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
using namespace table_test;
using table_header::Field;
using table_header::spec;

namespace {

std::string written(const TempDir& d, const std::string& rules, int rows, int cols) {
  const std::string path = d.file(rules + ".gtb");
  write_table(path, solve_named(rules, rows, cols));
  return slurp(path);
}

std::string open_error(const TempDir& d, const std::string& bytes) {
  spit(d.file("bad.gtb"), bytes);
  try {
    Table::open(d.file("bad.gtb"));
  } catch (const GonuError& e) {
    return e.what();
  }
  return "";
}

// gonu info, query and verify on the file refuse it at once (a hang is killed after 20 s and
// fails the exit-code check) with a one-line error containing `why`.
void require_cli_refuses(const TempDir& d, const std::string& bytes, const std::string& why) {
  spit(d.file("bad.gtb"), bytes);
  for (const char* cmd : {"info", "query", "verify --quiet"}) {
    INFO("gonu " << cmd);
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = run_gonu(std::string(cmd) + " '" + d.file("bad.gtb") + "'");
    require_one_line_error(r, why);
    REQUIRE(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  }
}

std::uint64_t field(const std::string& b, Field f) { return get_le(b, spec(f).offset, spec(f).size); }
void set_field(std::string& b, Field f, std::uint64_t v) { put_le(b, spec(f).offset, v, spec(f).size); }

// Index entry b's key offset.
std::size_t entry_offset_at(const std::string& b, std::uint64_t block) {
  return std::size_t(field(b, Field::index_offset) + 16 * block + 8);
}

}  // namespace

TEST_CASE("hostile table: an index offset near 2^64 is refused, not wrapped around", "[table][hostile]") {
  TempDir d;
  const std::string bytes = written(d, "free", 3, 3);
  const std::uint64_t blocks = field(bytes, Field::blocks);
  REQUIRE(blocks >= 3);
  const std::uint64_t key_data = field(bytes, Field::keys_size) - 16;
  // The last block's offset at 2^64 - 8: off + 8 wraps to 0, which a naive check lets through.
  std::string bad = bytes;
  put_le(bad, entry_offset_at(bad, blocks - 1), ~std::uint64_t(0) - 7, 8);
  reseal(bad);
  REQUIRE(contains(open_error(d, bad), "index entry " + std::to_string(blocks - 1) + " points past the keys"));
  require_cli_refuses(d, bad, "points past the keys");
  // Other offsets that wrap or overrun: of the last block and of a middle one.
  for (const std::uint64_t off : {~std::uint64_t(0), ~std::uint64_t(0) - 8, key_data - 7, key_data, key_data + 1}) {
    for (const std::uint64_t b : {blocks - 1, blocks / 2}) {
      std::string crafted = bytes;
      put_le(crafted, entry_offset_at(crafted, b), off, 8);
      reseal(crafted);
      INFO("block " << b << " offset " << off);
      REQUIRE(!open_error(d, crafted).empty());
    }
  }
}

TEST_CASE("hostile table: section sizes whose sums wrap around to the file size are refused", "[table][hostile]") {
  TempDir d;
  const std::string bytes = written(d, "free", 3, 3);
  const std::uint64_t half = std::uint64_t(1) << 63;
  std::string bad = bytes;
  // keys_size and values_offset 2^63 larger, values_size 2^63 smaller: every sum still matches
  // modulo 2^64.
  set_field(bad, Field::keys_size, field(bytes, Field::keys_size) + half);
  set_field(bad, Field::values_offset, field(bytes, Field::values_offset) + half);
  set_field(bad, Field::values_size, field(bytes, Field::values_size) - half);
  reseal(bad);
  REQUIRE(contains(open_error(d, bad), "section layout does not match the counts"));
  require_cli_refuses(d, bad, "section layout does not match the counts");
  // Counts that add up to the states only modulo 2^64.
  std::string counts = bytes;
  set_field(counts, Field::wins, field(bytes, Field::wins) + half);
  set_field(counts, Field::losses, field(bytes, Field::losses) + half);
  reseal(counts);
  REQUIRE(contains(open_error(d, counts), "do not add up"));
}

TEST_CASE("hostile table: a root tag that would index past the board's arrays is refused", "[table][hostile]") {
  TempDir d;
  const std::string bytes = written(d, "encyclopedia", 3, 3);  // tagged
  // 511 = 1 + 4 * 127 + 2: a step to square 127 of a 64-square array.
  for (const std::uint64_t tag : {std::uint64_t(511), std::uint64_t(511) << 9, std::uint64_t(1) << 19,
                                  std::uint64_t(0xffffffff), std::uint64_t(4 * 9 + 1)}) {
    std::string bad = bytes;
    set_field(bad, Field::root_tag, tag);
    reseal(bad);
    INFO("root tag " << tag);
    REQUIRE(contains(open_error(d, bad), "root tag out of range"));
  }
  std::string bad = bytes;
  set_field(bad, Field::root_tag, 511);
  reseal(bad);
  require_cli_refuses(d, bad, "root tag out of range");
  // An untagged table must have no root tag.
  std::string plain = written(d, "free", 3, 3);
  set_field(plain, Field::root_tag, 511);
  reseal(plain);
  REQUIRE(contains(open_error(d, plain), "root tag out of range"));
}

TEST_CASE("hostile table: board sizes and rule codes out of range are refused", "[table][hostile]") {
  TempDir d;
  const std::string bytes = written(d, "free", 3, 3);
  const std::pair<Field, std::uint64_t> cases[] = {
      {Field::rows, 0}, {Field::rows, 1}, {Field::rows, 33}, {Field::rows, 255}, {Field::cols, 0},
      {Field::cols, 255}, {Field::capture, 2}, {Field::corner, 7}, {Field::repetition, 3},
      {Field::repetition, 255}, {Field::first, 2}, {Field::tagged, 2}, {Field::root_side, 2}};
  for (const auto& [f, v] : cases) {
    std::string bad = bytes;
    set_field(bad, f, v);
    reseal(bad);
    INFO(spec(f).name << " = " << v);
    REQUIRE(!open_error(d, bad).empty());
  }
  std::string bad = bytes;
  set_field(bad, Field::rows, 200);
  reseal(bad);
  REQUIRE(contains(open_error(d, bad), "board size 200x3 out of range"));
  require_cli_refuses(d, bad, "board size 200x3 out of range");
}

TEST_CASE("hostile table: every numeric header field at its extremes is refused or read safely", "[table][hostile]") {
  TempDir d;
  const Solution s = solve_named("free", 3, 3);
  write_table(d.file("t.gtb"), s);
  const std::string bytes = slurp(d.file("t.gtb"));
  for (const auto& f : table_header::kFields) {
    if (f.kind != table_header::Kind::uint || f.field == Field::header_xxh3 || f.field == Field::index_xxh3) continue;
    const std::uint64_t all = f.size == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * f.size)) - 1;
    for (const std::uint64_t v : {std::uint64_t(0), std::uint64_t(1), all, all - 7, all >> 1, (all >> 1) + 1,
                                  field(bytes, f.field) + 1, field(bytes, f.field) - 1}) {
      std::string b = bytes;
      put_le(b, f.offset, v, f.size);
      reseal(b);
      spit(d.file("bad.gtb"), b);
      INFO(f.name << " = " << v);
      read_tolerating_errors(d.file("bad.gtb"), s.keys, 7);
    }
  }
}
