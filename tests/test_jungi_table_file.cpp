// Jungi table files (solver/jungi/table/): a table written and read back gives every index's value
// and the solver's entries exactly; the bytes depend only on the table; a hostile or damaged file
// is refused with one line; and the commands on them (gonu solve --out/--dir, query, info, verify)
// answer from the files, valuing moves into other materials from the tables beside them.
#include <sys/stat.h>
#include <tbb/global_control.h>
#include <lzma.h>
#include <xxhash.h>
#include <zstd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <functional>

#include "core/error.hpp"
#include "solver/jungi/table/query.hpp"
#include "solver/common/move_order.hpp"
#include "tests/table_test_util.hpp"

#include <nlohmann/json.hpp>

using namespace gonu;
using table_test::contains;
using table_test::run_gonu;
using table_test::TempDir;

namespace {

const jungi::Rules kRules;

// Kv+K: a table whose promotions (of South's King) lead to +Kv+K; small enough for every test.
struct Solved {
  jungi::TableSet set{kRules};
  Solved() { set.solve(jungi::parse_material("Kv+K")); }
  const jungi::Table& table(const char* m) const { return *set.find(jungi::parse_material(m)); }
};
const Solved& solved() {
  static const Solved s;
  return s;
}

std::string write_one(const TempDir& d, const char* material) {
  const std::string path = d.file(jungi::table_file_name(jungi::parse_material(material), kRules));
  jungi::write_table_file(path, solved().table(material), kRules);
  return path;
}

// Recomputes the header checksum (offset 312) and the payload's (24) and the index's (32) after a
// crafted change, as FORMAT.md documents them.
void reseal_jungi(std::string& b) {
  const std::uint64_t blocks = table_test::get_le(b, 264, 8);
  if (320 + 8 * (blocks + 1) <= b.size()) table_test::put_le(b, 32, XXH3_64bits(b.data() + 320, 8 * (blocks + 1)), 8);
  table_test::put_le(b, 24, XXH3_64bits(b.data() + 320, b.size() - 320), 8);
  table_test::put_le(b, 312, XXH3_64bits(b.data(), 312), 8);
}

std::string open_error(const std::string& path, const std::optional<jungi::Rules>& r = std::nullopt) {
  try {
    jungi::TableFile::open(path, r);
  } catch (const GonuError& e) {
    return e.what();
  }
  return "";
}

// One block's bytes as a file of format `version` holds them: a checksummed zstd frame (formats
// 1-2, and 5 at level 19) or an .xz stream (formats 3-4), and back.
std::string encode_block(const std::string& raw, std::uint32_t version) {
  std::string out;
  if (version == 3 || version == 4) {  // FORMAT.md: LZMA2 at preset 6, its dictionary the block's size, CRC32
    lzma_options_lzma options;
    REQUIRE(lzma_lzma_preset(&options, 6) == 0);
    options.dict_size = std::max<std::uint32_t>(LZMA_DICT_SIZE_MIN, std::uint32_t(raw.size()));
    if (version >= 4) {  // and lc=0, pb=0, mf=hc4, nice=24, depth=8 (as written now)
      options.lc = 0;
      options.pb = 0;
      options.mf = LZMA_MF_HC4;
      options.nice_len = 24;
      options.depth = 8;
    }
    lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    out.resize(lzma_stream_buffer_bound(raw.size()));
    std::size_t n = 0;
    REQUIRE(lzma_stream_buffer_encode(filters, LZMA_CHECK_CRC32, nullptr, reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size(),
                                      reinterpret_cast<std::uint8_t*>(out.data()), &n, out.size()) == LZMA_OK);
    out.resize(n);
    return out;
  }
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  if (version >= 5) ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 19);
  out.resize(ZSTD_compressBound(raw.size()));
  out.resize(ZSTD_compress2(c, out.data(), out.size(), raw.data(), raw.size()));
  ZSTD_freeCCtx(c);
  return out;
}
std::string decode_block(const std::string& block, std::size_t n, std::uint8_t codec) {
  std::string raw(n, '\0');
  if (codec == 1) {
    REQUIRE(ZSTD_decompress(raw.data(), n, block.data(), block.size()) == n);
    return raw;
  }
  std::uint64_t limit = std::uint64_t{1} << 30;
  std::size_t in = 0, out = 0;
  REQUIRE(lzma_stream_buffer_decode(&limit, 0, nullptr, reinterpret_cast<const std::uint8_t*>(block.data()), &in, block.size(),
                                    reinterpret_cast<std::uint8_t*>(raw.data()), &out, n) == LZMA_OK);
  REQUIRE(out == n);
  return raw;
}

// Format `version`'s codec (FORMAT.md): xz in formats 3-4, zstd otherwise.
char codec_of(std::uint32_t version) { return version == 3 || version == 4 ? 2 : 1; }

// The header of a format 5 file `b` given the counts of a format before 5: those of the valid
// indices (the solved table's), not of the whole board.
void to_index_counts(std::string& b) {
  const jungi::Table& t = solved().table(b.substr(120, b.find('\0', 120) - 120).c_str());
  table_test::put_le(b, 184, t.stats.positions, 8);
  for (std::size_t side = 0; side < 2; ++side) {
    table_test::put_le(b, 192 + 8 * side, t.stats.wins[side], 8);
    table_test::put_le(b, 208 + 8 * side, t.stats.losses[side], 8);
    table_test::put_le(b, 224 + 8 * side, t.stats.draws[side], 8);
  }
}

// The file `b` (one block of 1-byte codes) with its codes, by index, edited and encoded again
// as a writer of format `version` does (South's codes first, the block in that format's codec),
// its format version, block size, codec and counts set and everything resealed.
std::string with_codes(std::string b, std::uint32_t version, const std::function<void(std::vector<unsigned char>&)>& edit) {
  REQUIRE(table_test::get_le(b, 264, 8) == 1);
  REQUIRE(b[256] == 1);
  const std::uint64_t n = table_test::get_le(b, 176, 8), data = 320 + 16;
  std::string raw = decode_block(b.substr(data), n, std::uint8_t(b[257]));
  const auto slot = [&](std::uint64_t k) { return k % 2 ? (n + 1) / 2 + k / 2 : k / 2; };
  std::vector<unsigned char> codes(n);
  for (std::uint64_t i = 0; i < n; ++i) codes[i] = static_cast<unsigned char>(raw[slot(i)]);
  edit(codes);
  for (std::uint64_t i = 0; i < n; ++i) raw[slot(i)] = static_cast<char>(codes[i]);
  const std::string block = encode_block(raw, version);
  b = b.substr(0, data) + block;
  table_test::put_le(b, 8, version, 4);
  table_test::put_le(b, 172, version >= 5 ? 1u << 16 : version >= 4 ? 1u << 23 : version >= 2 ? 1u << 20 : 1u << 16, 4);
  b[257] = codec_of(version);
  if (version < 5) to_index_counts(b);
  table_test::put_le(b, 16, b.size(), 8);
  table_test::put_le(b, 288, block.size(), 8);
  table_test::put_le(b, 328, block.size(), 8);
  reseal_jungi(b);
  return b;
}

// The file `b` (one block of 1-byte codes) cut into blocks of `block` indices of format
// `version` (2 or 3), each its own stream, with the index and every size resealed: a file of many
// blocks from a table small enough for a test.
std::string in_blocks(const std::string& b, std::uint32_t version, std::uint64_t block) {
  REQUIRE(table_test::get_le(b, 264, 8) == 1);
  REQUIRE(b[256] == 1);
  const std::uint64_t n = table_test::get_le(b, 176, 8), blocks = (n + block - 1) / block;
  const std::string raw = decode_block(b.substr(320 + 16), n, std::uint8_t(b[257]));
  std::string index(8 * (blocks + 1), '\0'), data;
  for (std::uint64_t k = 0; k < blocks; ++k) {
    const std::uint64_t first = k * block, m = std::min(n, first + block) - first;
    std::string part(m, '\0');
    for (std::uint64_t i = 0; i < m; ++i) {  // the file's slot of index first + i, then its slot in block k
      const std::uint64_t j = first + i;
      part[i % 2 ? (m + 1) / 2 + i / 2 : i / 2] = raw[j % 2 ? (n + 1) / 2 + j / 2 : j / 2];
    }
    data += encode_block(part, version);
    table_test::put_le(index, 8 * (k + 1), data.size(), 8);
  }
  std::string out = b.substr(0, 320) + index + data;
  table_test::put_le(out, 8, version, 4);
  table_test::put_le(out, 172, block, 4);
  out[257] = codec_of(version);
  if (version < 5) to_index_counts(out);
  table_test::put_le(out, 16, out.size(), 8);
  table_test::put_le(out, 264, blocks, 8);
  table_test::put_le(out, 280, 320 + index.size(), 8);
  table_test::put_le(out, 288, data.size(), 8);
  reseal_jungi(out);
  return out;
}

// Codes as format 1 has them: every derived index its value's code (an invalid one the code two
// before).
void to_format_1(const jungi::Table& t, std::vector<unsigned char>& codes) {
  jungi::Position p;
  for (std::uint64_t i = 0; i < codes.size(); ++i) {
    if (!t.indexer.decode(i, p)) codes[i] = i >= 2 ? codes[i - 2] : 1;
    else if (jungi::source_of(t.indexer, kRules, i, p).kind != jungi::ValueSource::stored) codes[i] = static_cast<unsigned char>(jungi::file_code(t.value(i)));
  }
}

// How a table's valid indices get their values (source_of), by kind.
std::array<std::uint64_t, 3> sources(const jungi::Table& t) {
  std::array<std::uint64_t, 3> count{};
  jungi::Position p;
  for (std::uint64_t i = 0; i < t.indexer.size(); ++i)
    if (t.indexer.decode(i, p)) ++count[jungi::source_of(t.indexer, kRules, i, p).kind];
  return count;
}

}  // namespace

TEST_CASE("jungi table file: every index reads back as solved, and loads into the solver's entries", "[jungi_table_file]") {
  TempDir d;
  for (const char* m : {"+Kv+K", "Kv+K"}) {
    const jungi::Table& t = solved().table(m);
    const jungi::TableFile f = jungi::TableFile::open(write_one(d, m), kRules);
    CHECK(f.header().material_text == m);
    CHECK(f.header().positions == t.stats.board_positions);
    CHECK(f.header().wins == t.stats.board_wins);
    for (std::uint64_t i = 0; i < t.indexer.size(); ++i) REQUIRE(f.value(i) == t.value(i));
    // Loaded entries equal the solved ones at every index (the invalid ones 0, as solved).
    const auto loaded = f.load();
    REQUIRE(loaded->entries.size() == t.entries.size());
    jungi::Position p;
    std::uint64_t invalid = 0;
    for (std::uint64_t i = 0; i < t.indexer.size(); ++i) {
      REQUIRE(loaded->entries[i] == t.entries[i]);
      if (!t.indexer.decode(i, p)) {
        REQUIRE(t.entries[i] == 0);
        ++invalid;
      }
    }
    CHECK(invalid > 0);
    // Both kinds of derived index are there (and read back above): Kv+K's royals take each other,
    // and its e-file South Kings have mirror images.
    const auto kinds = sources(t);
    CHECK(kinds[jungi::ValueSource::royal_taken] > 100);
    CHECK(kinds[jungi::ValueSource::mirror] > 100);
    CHECK(f.dont_care_error() == "");
    jungi::LoadCheck check;
    f.load(&check);
    CHECK(check.wins == t.stats.wins);
    CHECK(check.board_wins == t.stats.board_wins);
    CHECK(check.board_positions == t.stats.board_positions);
    CHECK(check.longest_win == t.stats.longest_win);
    CHECK(check.longest_win_index == t.stats.longest_win_index);
    CHECK(f.payload_checksum_ok());
  }
}

TEST_CASE("jungi table file: a table read as stored gives every position its solved value through TableSet::entry", "[jungi_table_file]") {
  TempDir d;
  for (const char* m : {"+Kv+K", "Kv+K"}) {
    const jungi::Table& t = solved().table(m);
    jungi::TableSet set(kRules);
    const jungi::Table& stored = set.adopt(jungi::TableFile::open(write_one(d, m), kRules).load_stored());
    REQUIRE(stored.derive_on_read);
    jungi::Position p;
    jungi::Placement pl;
    std::uint64_t valid = 0, derived = 0;
    for (std::uint64_t i = 0; i < t.indexer.size(); ++i) {
      if (!t.indexer.decode(i, p, pl)) continue;
      ++valid;
      derived += stored.entries[i] != t.entries[i];  // a don't-care read as stored
      // As the position is, and through its colour flip (the flipped material's reads).
      REQUIRE(set.entry(pl, p.to_move) == t.entries[i]);
      REQUIRE(set.entry(jungi::flip_placement(pl), jungi::other(p.to_move)) == t.entries[i]);
    }
    CHECK(valid == t.stats.positions);
    CHECK(derived > 100);  // the entry's derivation is what gives those their values
  }
}

TEST_CASE("jungi table file: sources_of, a placement decoded once for both sides, is source_of index by index", "[jungi_table_file]") {
  // Kv+K has both kinds of derived index; +K+OvK a third piece; +KRvKE a slider, a leaper and an
  // Emperor's two-step. Ranges start and end at odd indices too, where a pair of sides is split
  // between two calls.
  for (const char* m : {"Kv+K", "+K+OvK", "+KRvKE"}) {
    const jungi::Indexer ix(kRules, jungi::parse_material(m));
    const std::uint64_t n = ix.size();
    std::vector<jungi::ValueSource> fast(n);
    for (std::uint64_t from = 0; from < n; from += 4095) jungi::sources_of(ix, kRules, from, std::min(n, from + 4095), fast.data() + from);
    jungi::Position p;
    for (std::uint64_t i = 0; i < n; ++i) {
      if (!ix.decode(i, p)) {
        REQUIRE(fast[i].kind == jungi::ValueSource::invalid);
        continue;
      }
      const jungi::ValueSource slow = jungi::source_of(ix, kRules, i, p);
      REQUIRE(fast[i].kind == slow.kind);
      if (slow.kind == jungi::ValueSource::mirror) REQUIRE(fast[i].image == slow.image);
    }
  }
}

TEST_CASE("jungi table file: the retrograde solver's derived bits are the indices sources_of derives, and write the same file", "[jungi_table_file]") {
  // A run that writes each table keeps the solver's bits (TableOptions::keep_derived), which the
  // writer takes instead of deriving each index again: both kinds of derived index (Kv+K), a
  // third piece (+K+OvK), a slider (KRvK), an Emperor (+KvKE).
  TempDir d;
  jungi::TableOptions keep;
  keep.keep_derived = true;
  for (const char* name : {"Kv+K", "+K+OvK", "KRvK", "+KvKE"}) {
    const jungi::Material m = jungi::canonical(jungi::parse_material(name));
    jungi::TableSet set(kRules);
    set.solve(m, keep);
    const jungi::Table& t = *set.find(m);
    const std::uint64_t n = t.indexer.size();
    REQUIRE(t.derived.size() == (n + 63) / 64);
    std::vector<jungi::ValueSource> src(n);
    jungi::sources_of(t.indexer, kRules, 0, n, src.data());
    std::uint64_t derived = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const bool want = src[i].kind == jungi::ValueSource::royal_taken || src[i].kind == jungi::ValueSource::mirror;
      REQUIRE(t.is_derived(i) == want);
      derived += want;
    }
    CHECK(derived > 0);
    const std::string with_bits = d.file("bits.gonu"), without = d.file("plain.gonu");
    jungi::write_table_file(with_bits, t, kRules);
    jungi::Table plain(kRules, m);
    plain.entries = t.entries;
    plain.stats = t.stats;
    jungi::write_table_file(without, plain, kRules);
    CHECK(table_test::slurp(with_bits) == table_test::slurp(without));
    const std::uint64_t held = set.held_bytes(), bits = t.derived.size() * 8;
    set.drop_derived(m);
    CHECK(t.derived.empty());
    CHECK(set.held_bytes() == held - bits);
  }
}

TEST_CASE("jungi table file: the bytes depend only on the table, not on the thread count", "[jungi_table_file]") {
  TempDir d;
  const std::string a = write_one(d, "Kv+K");
  const std::string first = table_test::slurp(a);
  for (const int threads : {1, 2}) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    jungi::write_table_file(d.file("again.gonu"), solved().table("Kv+K"), kRules);
    CHECK(table_test::slurp(d.file("again.gonu")) == first);
  }
  CHECK(first.compare(0, 8, "GONU-JNG") == 0);
  CHECK(d.list().size() == 2);  // no temporary file left
}

TEST_CASE("jungi table file: a hostile or damaged file is refused with one line", "[jungi_table_file]") {
  TempDir d;
  const std::string path = write_one(d, "Kv+K");
  const std::string good = table_test::slurp(path);
  auto refused = [&](std::string bytes, bool reseal, const std::string& part) {
    if (reseal) reseal_jungi(bytes);
    table_test::spit(d.file("bad.gonu"), bytes);
    const std::string e = open_error(d.file("bad.gonu"));
    INFO(e);
    CHECK(contains(e, part));
    CHECK(e.find('\n') == std::string::npos);
  };
  refused("GONU-TBLxxxxxxxx", false, "no GONU-JNG magic");
  refused(good.substr(0, 200), false, "truncated");
  refused(good.substr(0, good.size() - 1), false, "truncated");
  refused(good + "x", false, "bytes past the end");
  std::string b = good;
  b[130] ^= 1;  // the material text, checksum not redone
  refused(b, false, "header checksum mismatch");
  b = good;
  std::memcpy(b.data() + 40, "julgo", 5);  // game
  refused(b, true, "not jungi");
  b = good;
  table_test::put_le(b, 8, 6, 4);
  refused(b, true, "newer than this gonu reads");
  b = good;
  b[257] = 2;  // xz, in a format 5 file
  refused(b, true, "codec 2 in format 5 (1 is zstd)");
  b = good;
  table_test::put_le(b, 8, 4, 4);  // format 4, whose blocks are .xz streams, with a zstd block
  to_index_counts(b);
  refused(b, true, "codec 1 in format 4 (2 is xz)");
  b = good;
  table_test::put_le(b, 168, 7, 4);
  refused(b, true, "index layout version 7");
  b = good;
  table_test::put_le(b, 176, table_test::get_le(b, 176, 8) + 1, 8);
  refused(b, true, "indices, where Kv+K has");
  b = good;
  table_test::put_le(b, 184, table_test::get_le(b, 184, 8) + 1, 8);
  refused(b, true, "counts that do not add up");
  b = good;
  table_test::put_le(b, 172, (1u << 23) + 2, 4);  // past the largest block a reader decodes
  refused(b, true, "block size 8388610");
  b = good;
  table_test::put_le(b, 264, 1000000, 8);
  refused(b, true, "block count");
  b = good;
  table_test::put_le(b, 328, table_test::get_le(b, 328, 8) + 100000, 8);  // block 1's offset
  refused(b, true, "index entry 1");
  b = good;
  b[34] ^= 1;  // index checksum field
  refused(b, false, "header checksum");
  CHECK(contains(open_error(path, jungi::Rules{true, false, false, false}), "not jungi/hobble"));
  // A damaged block: found when it is decoded, not before; so is a zstd frame in a format 3 file,
  // and a stream that is short or has bytes after it.
  const auto load_error = [&](std::string bytes) {
    reseal_jungi(bytes);
    table_test::spit(d.file("bad.gonu"), bytes);
    const jungi::TableFile f = jungi::TableFile::open(d.file("bad.gonu"));
    try {
      f.load();
    } catch (const GonuError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  for (const std::size_t back : {std::size_t{2}, std::size_t{10}, std::size_t{30}, good.size() - 340}) {
    b = good;
    b[b.size() - back] ^= 0x40;
    INFO(back);
    CHECK(contains(load_error(b), "block 0 "));
    CHECK(contains(load_error(b), "(the file is damaged; gonu verify checks it)"));
  }
  b = with_codes(good, 2, [](std::vector<unsigned char>&) {});
  table_test::put_le(b, 8, 3, 4);
  b[257] = 2;
  CHECK(contains(load_error(b), "block 0 does not decode: not an .xz stream"));
  CHECK(with_codes(good, 5, [](std::vector<unsigned char>&) {}) == good);  // FORMAT.md's encoding is the writer's
  // An .xz block (format 4) whose stream has no check, or CRC64, or SHA-256, not CRC32 as written.
  for (const lzma_check check : {LZMA_CHECK_NONE, LZMA_CHECK_CRC64, LZMA_CHECK_SHA256}) {
    const std::uint64_t n = table_test::get_le(good, 176, 8);
    const std::string raw = decode_block(good.substr(336), n, 1);
    std::string block(lzma_stream_buffer_bound(raw.size()), '\0');
    std::size_t used = 0;
    REQUIRE(lzma_easy_buffer_encode(6, check, nullptr, reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size(),
                                    reinterpret_cast<std::uint8_t*>(block.data()), &used, block.size()) == LZMA_OK);
    block.resize(used);
    b = good.substr(0, 336) + block;
    table_test::put_le(b, 8, 4, 4);
    table_test::put_le(b, 172, 1u << 23, 4);
    b[257] = 2;
    to_index_counts(b);
    table_test::put_le(b, 16, b.size(), 8);
    table_test::put_le(b, 288, block.size(), 8);
    table_test::put_le(b, 328, block.size(), 8);
    INFO(int(check));
    CHECK(contains(load_error(b), "block 0 is an .xz stream without a CRC32 check"));
  }
  const auto resized = [&](std::string bytes, std::int64_t by) {
    table_test::put_le(bytes, 16, bytes.size(), 8);
    table_test::put_le(bytes, 288, std::uint64_t(std::int64_t(table_test::get_le(bytes, 288, 8)) + by), 8);
    table_test::put_le(bytes, 328, std::uint64_t(std::int64_t(table_test::get_le(bytes, 328, 8)) + by), 8);
    return bytes;
  };
  CHECK(contains(load_error(resized(good.substr(0, good.size() - 1), -1)), "block 0 is not one checksummed zstd frame"));
  CHECK(contains(load_error(resized(good + std::string(4, '\0'), 4)), "block 0 is not one checksummed zstd frame"));
  CHECK(mkfifo(d.file("fifo").c_str(), 0600) == 0);
  CHECK(contains(open_error(d.file("fifo")), "not a regular file"));
  CHECK(contains(open_error(d.path), "not a regular file"));
  CHECK(contains(open_error(d.file("missing")), "cannot open table"));
}

TEST_CASE("jungi table file: a family values moves from the tables beside it", "[jungi_table_file]") {
  TempDir d;
  const std::string path = write_one(d, "Kv+K");
  const jungi::Position p = jungi::parse_position(kRules, "9/9/9/4K4/9/9/9/9/+k8 s -");
  {
    const jungi::TableFamily f = jungi::open_family(path);
    const jungi::PositionAnswer a = jungi::query_position(f, p);
    bool unknown_capture = false;
    for (const jungi::MoveValue& m : a.moves) unknown_capture |= !m.known && m.unknown_material == "+Kv+K";
    CHECK(unknown_capture);  // e6-e7 promotes: +Kv+K, absent
    CHECK_FALSE(a.moves[a.order.back()].known);
    CHECK_FALSE(jungi::verify_family(f).ok);
  }
  write_one(d, "+Kv+K");
  const jungi::TableFamily f = jungi::open_family(path);
  const jungi::PositionAnswer a = jungi::query_position(f, p);
  CHECK(a.value == jungi::game_value(solved().set.probe(p).result));
  for (const jungi::MoveValue& m : a.moves) {
    REQUIRE(m.known);
    const jungi::Value after = solved().set.probe(jungi::apply_move(p, m.move));
    CHECK(m.value == mover_value(jungi::game_value(after.result)));
  }
  for (std::size_t k = 1; k < a.order.size(); ++k)
    CHECK(move_score(a.moves[a.order[k - 1]].value, a.moves[a.order[k - 1]].dist) >=
          move_score(a.moves[a.order[k]].value, a.moves[a.order[k]].dist));
  const jungi::FamilyVerifyResult v = jungi::verify_family(f);
  INFO(v.first_error);
  CHECK(v.ok);
  CHECK(v.positions == solved().table("Kv+K").stats.positions);
  CHECK_THROWS_WITH(jungi::query_position(f, jungi::parse_position(kRules, "4+k4/9/9/9/9/9/9/9/4+K4 s -")),
                    Catch::Contains("the position is of +Kv+K, the table of Kv+K"));
}

TEST_CASE("jungi table file: gonu solve --out and --dir write tables, and --dir resumes from them", "[jungi_table_file]") {
  TempDir d;
  const std::string one = d.file("one.gonu");
  auto r = run_gonu("solve --game jungi --material Kv+K --quiet --out '" + one + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(jungi::TableFile::open(one).header().material_text == "Kv+K");
  REQUIRE(mkdir(d.file("all").c_str(), 0700) == 0);
  r = run_gonu("solve --game jungi --material Kv+K --dir '" + d.file("all") + "'");
  REQUIRE(r.code == 0);
  const std::string kvk = d.file("all/" + jungi::table_file_name(jungi::parse_material("Kv+K"), kRules));
  CHECK(table_test::slurp(kvk) == table_test::slurp(one));
  CHECK(contains(r.out, "+Kv+K: 12,960 positions"));  // 81 x 80 placements of two Emperors, both sides to move
  // A second run solves neither table: it prints their blocks from the files' headers, the same
  // stdout (tests/test_jungi_stream.cpp resumes a run with some files missing).
  const std::string first_out = r.out;
  r = run_gonu("solve --game jungi --material Kv+K --dir '" + d.file("all") + "'");
  REQUIRE(r.code == 0);
  CHECK(contains(r.err, "0 solved and written into"));
  CHECK(contains(r.err, "2 already there"));
  CHECK(r.out == first_out);
  // A DIR that does not exist is made (its parent must exist), and removed again, empty, when
  // the run fails; a file is not a DIR.
  r = run_gonu("solve --game jungi --material Kv+K --quiet --dir '" + d.file("made") + "'");
  REQUIRE(r.code == 0);
  CHECK(table_test::slurp(d.file("made/" + jungi::table_file_name(jungi::parse_material("Kv+K"), kRules))) == table_test::slurp(one));
  table_test::require_one_line_error(run_gonu("solve --game jungi --all 2 --dir '" + d.file("none/deeper") + "'"),
                                     "cannot make the directory (No such file or directory)");
  table_test::require_one_line_error(run_gonu("solve --game jungi --all 2 --quiet --max-memory 1K --dir '" + d.file("failed") + "'"),
                                     "more than the limit of 1,024 bytes");
  struct stat st {};
  CHECK(::stat(d.file("failed").c_str(), &st) != 0);
  table_test::require_one_line_error(run_gonu("solve --game jungi --all 2 --dir '" + one + "'"), "not a directory");
  table_test::require_one_line_error(run_gonu("solve --game jungi --material Kv+K --out '" + d.path + "'"), "cannot write table");
  // A file of another reading under a table's name is refused, not overwritten.
  r = run_gonu("solve --game jungi --hobbling on --material Kv+K --quiet --out '" + d.file("hob.gonu") + "'");
  REQUIRE(r.code == 0);
  REQUIRE(rename(d.file("hob.gonu").c_str(), kvk.c_str()) == 0);
  table_test::require_one_line_error(run_gonu("solve --game jungi --material Kv+K --quiet --dir '" + d.file("all") + "'"),
                                     "a table of the reading jungi/hobble");
}

TEST_CASE("jungi table file: gonu query, info and verify read a Jungi table", "[jungi_table_file]") {
  TempDir d;
  REQUIRE(run_gonu("solve --game jungi --material Kv+K --quiet --dir '" + d.path + "'").code == 0);
  const std::string kvk = d.file(jungi::table_file_name(jungi::parse_material("Kv+K"), kRules));
  const std::string pos = "'9/9/9/4K4/9/9/9/9/+k8 s -'";
  auto r = run_gonu("query '" + kvk + "' " + pos);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "material: Kv+K"));
  CHECK(contains(r.out, "moves, best first (value for South"));
  const auto j = nlohmann::json::parse(run_gonu("query --json '" + kvk + "' " + pos).out);
  CHECK(j["schema"] == "gonu-jungi-query/1");
  CHECK(j["moves"].size() == 8);
  CHECK(j["moves"][0]["rank"] == 1);
  const jungi::TableFamily f = jungi::open_family(kvk);
  const jungi::PositionAnswer a = jungi::query_position(f, jungi::parse_position(kRules, "9/9/9/4K4/9/9/9/9/+k8 s -"));
  CHECK(j["value"] == to_string(a.value));
  CHECK(j["moves"][0]["move"] == a.moves[a.order[0]].text);
  // Each move also as people write it (the King's letter; e6-e7 promotes it to the Emperor).
  CHECK(j["moves"][0]["san"] == a.moves[a.order[0]].san);
  CHECK(j["engine_move_san"] == a.moves[a.order[0]].san);
  CHECK(j["best_san"].size() == j["best"].size());
  CHECK(j["pv_san"].size() == j["pv"].size());
  CHECK(j["side_to_move"] == "south");
  for (const auto& m : j["moves"]) {
    const std::string move = m["move"];
    std::string san = "K";
    san += move;
    if (move == "e6-e7" || move == "e6-d7" || move == "e6-f7") san += "=+K";  // into North's zone
    CHECK(m["san"] == san);
  }
  CHECK(contains(r.out, "Ke6-e7=+K (e6-e7)"));
  r = run_gonu("info '" + kvk + "'");
  CHECK(contains(r.out, "material:         Kv+K"));
  CHECK(contains(r.out, "rules id:         jungi/nohobble/compulsory/stalemate-loss/lancer-standard"));
  r = run_gonu("verify '" + kvk + "'");
  CHECK(r.code == 0);
  CHECK(contains(r.out, "OK "));
  CHECK(contains(r.out, "and 4,800 positions re-derived"));
  // --sample: every 7th placement re-derived (both sides to move), the counts in full.
  r = run_gonu("verify --sample 7 '" + kvk + "'");
  CHECK(r.code == 0);
  const jungi::FamilyVerifyResult sampled = jungi::verify_family(f, 7);
  CHECK(sampled.ok);
  CHECK(sampled.positions == 4800);
  CHECK(sampled.derived > 600);
  CHECK(sampled.derived < 800);
  CHECK(contains(r.out, "and " + std::to_string(sampled.derived) + " positions (every 7th placement) of 4,800 re-derived"));
  CHECK(run_gonu("verify --sample 0 '" + kvk + "'").code == 2);
  table_test::require_one_line_error(run_gonu("query '" + kvk + "' 'not a position'"), "");
  table_test::require_one_line_error(run_gonu("query '" + kvk + "'"), "needs a POSITION");
  // +KvK is kept as Kv+K: the same file answers its positions, flipped, with the same moves.
  const std::string flipped_pos = "'+K8/9/9/9/9/4k4/9/9/9 n -'";
  const auto fj = nlohmann::json::parse(run_gonu("query --json '" + kvk + "' " + flipped_pos).out);
  CHECK(fj["value"] == j["value"]);
  CHECK(fj["moves"].size() == j["moves"].size());
  CHECK(fj["moves"][0]["rank"] == 1);
  CHECK(d.list().size() == 2);  // Kv+K and +Kv+K: no file for +KvK
  table_test::require_one_line_error(run_gonu("query '" + kvk + "' '9/9/9/4K4/k8/9/9/9/9 s -'"),
                                     "the position is of KvK, the table of Kv+K (and of its colour flip)");
  // verify without the table a promotion leads to names it.
  REQUIRE(std::remove(d.file(jungi::table_file_name(jungi::parse_material("+Kv+K"), kRules)).c_str()) == 0);
  table_test::require_one_line_error(run_gonu("verify '" + kvk + "'"), "needs the table of +Kv+K");
  r = run_gonu("query '" + kvk + "' " + pos);
  CHECK(contains(r.out, "unknown (no table of +Kv+K)"));
}

TEST_CASE("jungi table file: gonu verify checks several tables in one run, sharing the tables they read", "[jungi_table_file]") {
  TempDir d;
  REQUIRE(run_gonu("solve --game jungi --all 2 --quiet --dir '" + d.path + "'").code == 0);
  std::vector<std::string> files;  // smallest first, as --all solves them
  for (const char* m : {"+Kv+K", "Kv+K", "KvK"}) files.push_back(d.file(jungi::table_file_name(jungi::parse_material(m), kRules)));
  // The same results as one table at a time, whether the tables read are kept (a large limit) or
  // all but those the next reads are dropped after each (limit 0 bytes: only 1 is "over").
  for (const std::uint64_t limit : {std::uint64_t{1} << 40, std::uint64_t{1}}) {
    std::vector<std::string> seen;
    const bool ok = jungi::verify_families(files, 3, limit, [&](const jungi::TableFamily& f, const jungi::FamilyVerifyResult& r) {
      const jungi::FamilyVerifyResult alone = jungi::verify_family(jungi::open_family(f.file.path()), 3);
      REQUIRE(r.ok);
      CHECK(r.positions == alone.positions);
      CHECK(r.derived == alone.derived);
      CHECK(r.wins == alone.wins);
      CHECK(r.draws == alone.draws);
      seen.push_back(f.file.path());
    });
    CHECK(ok);
    CHECK(seen == files);
  }
  auto r = run_gonu("verify --quiet '" + files[0] + "' '" + files[1] + "' '" + files[2] + "'");
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "OK " + files[0] + ":"));
  CHECK(contains(r.out, "OK " + files[2] + ":"));
  // A damaged table stops the run at it, after the OK of those before.
  std::string bytes = table_test::slurp(files[1]);
  bytes[bytes.size() - 5] = static_cast<char>(bytes[bytes.size() - 5] ^ 1);
  table_test::spit(files[1], bytes);
  r = run_gonu("verify --quiet '" + files[0] + "' '" + files[1] + "' '" + files[2] + "'");
  CHECK(r.code == 1);
  CHECK(contains(r.out, "OK " + files[0] + ":"));
  CHECK_FALSE(contains(r.out, files[2]));
  CHECK(contains(r.err, files[1] + ": block 0 does not decode"));
  // Several files, or --max-memory, go with Jungi tables only.
  REQUIRE(run_gonu("solve --board 2x3 --quiet --out '" + d.file("j.gonu") + "'").code == 0);
  CHECK(run_gonu("verify '" + d.file("j.gonu") + "' '" + d.file("j.gonu") + "'").code == 2);
  CHECK(run_gonu("verify --max-memory 1G '" + d.file("j.gonu") + "'").code == 2);
  CHECK(run_gonu("verify '" + d.file("j.gonu") + "'").code == 0);
}

TEST_CASE("jungi table file: gonu play plays a Jungi ending against perfect play", "[jungi_table_file]") {
  TempDir d;
  REQUIRE(run_gonu("solve --game jungi --material Kv+K --quiet --dir '" + d.path + "'").code == 0);
  const std::string kvk = d.file(jungi::table_file_name(jungi::parse_material("Kv+K"), kRules));
  // South moves e6-e7 (it promotes: +Kv+K, read from beside), North answers with its best move.
  auto r = run_gonu("play '" + kvk + "' '9/9/9/4K4/9/9/9/9/+k8 s -' --as south", "hint\ne6-e7\nquit\n");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "hint (value for south after each move, best first):"));
  CHECK(contains(r.out, "engine (north) plays "));
  CHECK(contains(r.out, "game record (2 plies): Ke6-e7=+K "));
  table_test::require_one_line_error(run_gonu("play '" + kvk + "' '9/9/9/4K4/9/9/9/9/+k8 s -' --as black"), "--as: south, north or both");
  table_test::require_one_line_error(run_gonu("play '" + kvk + "'"), "needs a POSITION");
}

TEST_CASE("jungi table file: gonu query and play given a directory find the position's table in it", "[jungi_table_file]") {
  TempDir d;
  REQUIRE(run_gonu("solve --game jungi --all 2 --quiet --dir '" + d.path + "'").code == 0);
  const std::string kvk = d.file(jungi::table_file_name(jungi::parse_material("Kv+K"), kRules));
  // A position of Kv+K, and one of +KvK (kept as Kv+K, read through the flip): the answers of
  // the table named.
  for (const char* pos : {"'9/9/9/4K4/9/9/9/9/+k8 s -'", "'+K8/9/9/9/9/4k4/9/9/9 n -'"}) {
    const auto by_dir = run_gonu("query --json '" + d.path + "' " + pos), by_file = run_gonu("query --json '" + kvk + "' " + pos);
    INFO(by_dir.out << by_dir.err);
    REQUIRE(by_dir.code == 0);
    CHECK(by_dir.out == by_file.out);
  }
  // --history: the table of the position the moves reach (e6-e7 promotes: +Kv+K).
  auto r = run_gonu("query '" + d.path + "' '9/9/9/4K4/9/9/9/9/+k8 s -' --history e6-e7");
  CHECK(r.code == 0);
  CHECK(contains(r.out, "material: +Kv+K"));
  r = run_gonu("play '" + d.path + "' '9/9/9/4K4/9/9/9/9/+k8 s -' --as south", "e6-e7\nquit\n");
  CHECK(r.code == 0);
  CHECK(contains(table_test::flat(r.out), "(Kv+K)."));
  CHECK(contains(r.out, "game record (2 plies): Ke6-e7=+K "));
  table_test::require_one_line_error(run_gonu("query '" + d.path + "' '9/9/9/4K4/9/9/9/9/+k8 s -' --history e6-e9"),
                                     "--history move 1: move 'e6-e9' is not legal");
  table_test::require_one_line_error(run_gonu("query '" + d.path + "'"), "needs a POSITION: its material names the table");
  const auto missing = run_gonu("query '" + d.path + "' '9/9/9/4K4/4p4/9/9/9/+k8 s -'");
  table_test::require_one_line_error(missing, "no table of +KPvK for jungi: hobbling off");
  CHECK(contains(missing.err, "make it with: gonu solve --game jungi --material +KPvK --dir " + d.path));
  TempDir empty;
  table_test::require_one_line_error(run_gonu("query '" + empty.path + "' '9/9/9/4K4/9/9/9/9/+k8 s -'"), "no Jungi table in " + empty.path);
  // A second reading's table beside: the directory no longer names one reading.
  REQUIRE(run_gonu("solve --game jungi --material KvK --stalemate draw --quiet --dir '" + d.path + "'").code == 0);
  table_test::require_one_line_error(run_gonu("query '" + d.path + "' '9/9/9/4K4/9/9/9/9/+k8 s -'"),
                                     "the tables are of 2 readings (jungi/nohobble/compulsory/stalemate-draw/lancer-standard, "
                                     "jungi/nohobble/compulsory/stalemate-loss/lancer-standard): name the reading");
}

TEST_CASE("jungi table file: gonu verify catches a wrong value in a well-formed file", "[jungi_table_file]") {
  TempDir d;
  write_one(d, "+Kv+K");
  const jungi::Table& t = solved().table("Kv+K");
  jungi::Table wrong(kRules, t.indexer.material());
  wrong.entries = t.entries;
  wrong.stats = t.stats;
  std::uint64_t changed = 0;
  jungi::Position p;
  const auto stored = [&](std::uint64_t i) {
    return t.indexer.decode(i, p) && jungi::source_of(t.indexer, kRules, i, p).kind == jungi::ValueSource::stored;
  };
  while (!(stored(changed) && t.value(changed).result == jungi::Result::win && t.value(changed).dist > 1)) ++changed;
  wrong.entries[changed] += 2;  // a win two plies longer: the file's checksums are the writer's own
  const std::string path = d.file(jungi::table_file_name(t.indexer.material(), kRules));
  jungi::write_table_file(path, wrong, kRules);
  const jungi::FamilyVerifyResult v = jungi::verify_family(jungi::open_family(path));
  CHECK_FALSE(v.ok);
  CHECK(contains(v.first_error, "index " + std::to_string(changed) + " "));
  CHECK(contains(v.first_error, "its moves give WIN in " + std::to_string(t.value(changed).dist)));
  table_test::require_one_line_error(run_gonu("verify '" + path + "'"), "verify failed: index");
}

TEST_CASE("jungi table file: derived indices hold don't-cares, a format 1 file their values, and verify checks both", "[jungi_table_file]") {
  TempDir d;
  write_one(d, "+Kv+K");
  const std::string good = table_test::slurp(write_one(d, "Kv+K"));
  const jungi::Table& t = solved().table("Kv+K");
  jungi::Position p;
  std::uint64_t royal = 0, mirror = 0;
  std::uint64_t image = 0;
  for (std::uint64_t i = 0; i < t.indexer.size(); ++i) {
    if (!t.indexer.decode(i, p)) continue;
    const jungi::ValueSource src = jungi::source_of(t.indexer, kRules, i, p);
    if (src.kind == jungi::ValueSource::royal_taken && !royal) royal = i;
    if (src.kind == jungi::ValueSource::mirror && !mirror) mirror = i, image = src.image;
  }
  REQUIRE(royal > 1);
  REQUIRE(mirror > 1);
  REQUIRE(t.value(royal) == (jungi::Value{jungi::Result::win, 1}));
  REQUIRE(t.value(mirror) == t.value(image));
  // As written: each derived index holds the code two before it.
  table_test::spit(d.file("same.gonu"), with_codes(good, 2, [](std::vector<unsigned char>&) {}));
  CHECK(jungi::TableFile::open(d.file("same.gonu")).dont_care_error() == "");
  // Format 1: every derived index holds its value's code.
  const auto as_format_1 = [&](std::vector<unsigned char>& codes) { to_format_1(t, codes); };
  const std::string v1 = d.file(jungi::table_file_name(t.indexer.material(), kRules));
  table_test::spit(v1, with_codes(good, 1, [&](std::vector<unsigned char>& codes) {
    as_format_1(codes);
  }));
  {
    const jungi::TableFile f = jungi::TableFile::open(v1);
    CHECK(f.header().format_version == 1);
    for (std::uint64_t i = 0; i < t.indexer.size(); ++i) REQUIRE(f.value(i) == t.value(i));
    CHECK(f.dont_care_error() == "");
    const jungi::FamilyVerifyResult v = jungi::verify_family(jungi::open_family(v1));
    CHECK(v.ok);
    CHECK(v.positions == t.stats.positions);
  }
  // A format 1 file whose royal-taking index holds another value: read as derived, refused by verify.
  table_test::spit(v1, with_codes(good, 1, [&](std::vector<unsigned char>& codes) {
    as_format_1(codes);
    codes[royal] = 7;  // WIN in 2
  }));
  CHECK(jungi::TableFile::open(v1).value(royal) == (jungi::Value{jungi::Result::win, 1}));
  jungi::FamilyVerifyResult v = jungi::verify_family(jungi::open_family(v1));
  CHECK_FALSE(v.ok);
  CHECK(contains(v.first_error, "index " + std::to_string(royal) + " ("));
  CHECK(contains(v.first_error, "holds the code 7, not its derived code 5"));
  // Format 2 files whose derived index, or invalid one, holds another code than its don't-care.
  for (const std::uint64_t i : {royal, mirror}) {
    table_test::spit(v1, with_codes(good, 2, [&](std::vector<unsigned char>& codes) { codes[i] = static_cast<unsigned char>(codes[i - 2] + 2); }));
    const jungi::TableFile f = jungi::TableFile::open(v1);
    CHECK(f.value(i) == t.value(i));  // never read: derived
    v = jungi::verify_family(jungi::open_family(v1));
    CHECK_FALSE(v.ok);
    CHECK(contains(v.first_error, "index " + std::to_string(i) + " ("));
    CHECK(contains(v.first_error, "not its don't-care code"));
  }
  std::uint64_t invalid = 2;
  while (t.indexer.decode(invalid, p)) ++invalid;
  table_test::spit(v1, with_codes(good, 2, [&](std::vector<unsigned char>& codes) { codes[invalid] = static_cast<unsigned char>(codes[invalid - 2] + 2); }));
  CHECK(contains(jungi::verify_family(jungi::open_family(v1)).first_error, "index " + std::to_string(invalid) + " (invalid)"));
  table_test::require_one_line_error(run_gonu("verify '" + v1 + "'"), "verify failed: index " + std::to_string(invalid) + " (invalid)");
}

TEST_CASE("jungi table file: the writer refuses a table whose derived index is not what it derives", "[jungi_table_file]") {
  // The writer's pass decodes only the placements that may hold a derived index: South's royal on
  // the e-file, or an entry a win in 1. So the royal-taking index changed here is one of the
  // e-file's; elsewhere one whose value is not a win in 1 would go unseen (the solver values every
  // such position a win in 1 before anything else, and `gonu verify` checks every value).
  TempDir d;
  const jungi::Table& t = solved().table("Kv+K");
  jungi::Position p;
  for (const auto kind : {jungi::ValueSource::royal_taken, jungi::ValueSource::mirror}) {
    jungi::Table wrong(kRules, t.indexer.material());
    wrong.entries = t.entries;
    wrong.stats = t.stats;
    std::uint64_t i = 0;
    while (!(t.indexer.decode(i, p) && jungi::file_of(p.royal[0]) == 4 && jungi::source_of(t.indexer, kRules, i, p).kind == kind)) ++i;
    wrong.entries[i] = t.entries[i] == 0x4003 ? 0x4005 : 0x4003;  // a win in 3 (or 5)
    CHECK_THROWS_AS(jungi::write_table_file(d.file("wrong.gonu"), wrong, kRules), std::logic_error);
  }
  CHECK(d.list().empty());
}

TEST_CASE("jungi table file: gonu repack writes a table of an older format again, its values unchanged", "[jungi_table_file]") {
  TempDir d;
  const std::string good = table_test::slurp(write_one(d, "Kv+K"));
  const std::string path = d.file(jungi::table_file_name(jungi::parse_material("Kv+K"), kRules));
  const jungi::Table& t = solved().table("Kv+K");
  jungi::Position p;
  // Formats 1 and 2 (zstd; format 1 with the derived indices' values) and 3 (xz at preset 6,
  // smaller blocks) become this gonu's file, byte for byte.
  for (const std::uint32_t version : {1u, 2u, 3u}) {
    const std::string old = with_codes(good, version, [&](std::vector<unsigned char>& codes) {
      if (version == 1) to_format_1(t, codes);
    });
    REQUIRE(old != good);
    table_test::spit(path, old);
    const jungi::RepackResult r = jungi::repack_table_file(path);
    CHECK(r.old_format == version);
    CHECK(r.old_bytes == old.size());
    CHECK(r.new_format == jungi::kJungiTableFormatVersion);
    CHECK(r.new_bytes == good.size());
    CHECK(table_test::slurp(path) == good);
  }
  // A file of many blocks (here of 1,000 and 1,024 indices, as format 3's are of 2^20) becomes
  // this gonu's blocks, their codes gathered from the old blocks each spans.
  for (const std::uint32_t version : {2u, 3u}) {
    for (const std::uint64_t block : {std::uint64_t{1000}, std::uint64_t{1024}}) {
      const std::string old = in_blocks(good, version, block);
      REQUIRE(table_test::get_le(old, 264, 8) > 2);
      table_test::spit(path, old);
      CHECK(jungi::TableFile::open(path).load()->entries == t.entries);
      CHECK(jungi::repack_table_file(path).new_format == jungi::kJungiTableFormatVersion);
      CHECK(table_test::slurp(path) == good);
    }
  }
  auto r = run_gonu("repack '" + path + "'");
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, path + ": format 5 already"));
  table_test::spit(path, with_codes(good, 2, [](std::vector<unsigned char>&) {}));
  r = run_gonu("repack '" + path + "'");
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, path + ": format 2 to 5, "));
  CHECK(table_test::slurp(path) == good);
  // A damaged file is refused and left as it was, as is a format 1 file whose derived index holds
  // another value than the one derived, and a format 2 file whose derived index holds another
  // code than its don't-care (the load that counts the whole board checks them).
  std::string damaged = with_codes(good, 2, [](std::vector<unsigned char>&) {});
  damaged[damaged.size() - 10] ^= 0x40;
  reseal_jungi(damaged);
  std::uint64_t derived = 2;
  while (!(t.indexer.decode(derived, p) && jungi::source_of(t.indexer, kRules, derived, p).kind != jungi::ValueSource::stored)) ++derived;
  const std::string wrong_value = with_codes(good, 1, [&](std::vector<unsigned char>& codes) {
    to_format_1(t, codes);
    codes[derived] = static_cast<unsigned char>(codes[derived] + 2);
  });
  for (const auto& [bytes, why] : {std::pair{damaged, std::string("block 0 does not decode")},
                                   std::pair{wrong_value, "index " + std::to_string(derived) + " ("}}) {
    table_test::spit(path, bytes);
    table_test::require_one_line_error(run_gonu("repack '" + path + "'"), why);
    CHECK(table_test::slurp(path) == bytes);
  }
  const std::string wrong_code =
      with_codes(good, 2, [&](std::vector<unsigned char>& codes) { codes[derived] = static_cast<unsigned char>(codes[derived - 2] + 2); });
  table_test::spit(path, wrong_code);
  table_test::require_one_line_error(run_gonu("repack '" + path + "'"), "index " + std::to_string(derived) + " (");
  CHECK(table_test::slurp(path) == wrong_code);
  REQUIRE(run_gonu("solve --board 2x3 --quiet --out '" + d.file("j.gonu") + "'").code == 0);
  table_test::require_one_line_error(run_gonu("repack '" + d.file("j.gonu") + "'"), "is not a gonu Jungi table (repack");
  CHECK(d.list().size() == 2);
}
