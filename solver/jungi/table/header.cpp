// The Jungi table header: its 320 bytes encoded and decoded, and every check a reader makes on the
// header and the index before it trusts an offset (solver/jungi/table/FORMAT.md, "Jungi table files",
// "Checks a reader makes"). Each failure is one line naming the file and what is wrong.
#include "solver/jungi/table/header.hpp"

#include <xxhash.h>

#include <cstring>

#include "core/error.hpp"
#include "solver/common/bits.hpp"

namespace gonu::jungi {

namespace {

using table_bits::load32;
using table_bits::load64;
using table_bits::store_le;

// Field offsets (FORMAT.md's table).
enum : std::size_t {
  kMagicAt = 0, kVersionAt = 8, kHeaderSizeAt = 12, kFileSizeAt = 16, kPayloadAt = 24, kIndexXxhAt = 32,
  kGameAt = 40, kRulesAt = 56, kMaterialAt = 120, kGonuVersionAt = 152, kLayoutAt = 168, kBlockAt = 172,
  kIndicesAt = 176, kPositionsAt = 184, kCountsAt = 192, kLongestWinAt = 240, kLongestLossAt = 244,
  kLongestWinIndexAt = 248, kCodeBytesAt = 256, kCodecAt = 257, kBlocksAt = 264, kIndexAt = 272,
  kDataAt = 280, kDataSizeAt = 288, kReservedAt = 296, kHeaderXxhAt = 312
};
constexpr std::size_t kGameSize = 16, kRulesSize = 64, kMaterialSize = 32, kGonuVersionSize = 16;
constexpr char kMagic[8] = {'G', 'O', 'N', 'U', '-', 'J', 'N', 'G'};

void put_text(unsigned char* d, std::size_t at, std::size_t size, const std::string& text) {
  if (text.size() >= size) throw GonuError("jungi table header: '" + text + "' is too long");
  std::memcpy(d + at, text.data(), text.size());
}

// A NUL-padded text field: printable ASCII, then only NULs; nullopt if not.
std::optional<std::string> get_text(const unsigned char* d, std::size_t at, std::size_t size) {
  std::string s;
  std::size_t i = 0;
  for (; i < size && d[at + i]; ++i) {
    if (d[at + i] < 0x20 || d[at + i] > 0x7E) return std::nullopt;
    s += char(d[at + i]);
  }
  for (; i < size; ++i)
    if (d[at + i]) return std::nullopt;
  return s;
}

std::optional<Rules> rules_of_id(const std::string& id) {
  for (const Rules& r : every_reading())
    if (rules_id(r) == id) return r;
  return std::nullopt;
}

bool all_zero(const unsigned char* d, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i)
    if (d[i]) return false;
  return true;
}

}  // namespace

std::array<unsigned char, kJungiTableHeaderSize> encode_header(const TableFileHeader& h) {
  std::array<unsigned char, kJungiTableHeaderSize> a{};
  unsigned char* d = a.data();
  std::memcpy(d + kMagicAt, kMagic, sizeof kMagic);
  store_le(d + kVersionAt, h.format_version, 4);
  store_le(d + kHeaderSizeAt, kJungiTableHeaderSize, 4);
  store_le(d + kFileSizeAt, h.file_size, 8);
  store_le(d + kPayloadAt, h.payload_xxh3, 8);
  store_le(d + kIndexXxhAt, h.index_xxh3, 8);
  put_text(d, kGameAt, kGameSize, h.game);
  put_text(d, kRulesAt, kRulesSize, h.rules_id);
  put_text(d, kMaterialAt, kMaterialSize, h.material_text);
  put_text(d, kGonuVersionAt, kGonuVersionSize, h.gonu_version);
  store_le(d + kLayoutAt, h.layout_version, 4);
  store_le(d + kBlockAt, h.block_indices, 4);
  store_le(d + kIndicesAt, h.indices, 8);
  store_le(d + kPositionsAt, h.positions, 8);
  for (std::size_t s = 0; s < 2; ++s) {
    store_le(d + kCountsAt + 8 * s, h.wins[s], 8);
    store_le(d + kCountsAt + 16 + 8 * s, h.losses[s], 8);
    store_le(d + kCountsAt + 32 + 8 * s, h.draws[s], 8);
  }
  store_le(d + kLongestWinAt, std::uint32_t(h.longest_win), 4);
  store_le(d + kLongestLossAt, std::uint32_t(h.longest_loss), 4);
  store_le(d + kLongestWinIndexAt, h.longest_win_index, 8);
  d[kCodeBytesAt] = h.code_bytes;
  d[kCodecAt] = h.codec;
  store_le(d + kBlocksAt, h.blocks, 8);
  store_le(d + kIndexAt, h.index_offset, 8);
  store_le(d + kDataAt, h.data_offset, 8);
  store_le(d + kDataSizeAt, h.data_size, 8);
  store_le(d + kHeaderXxhAt, XXH3_64bits(d, kHeaderXxhAt), 8);
  return a;
}

std::uint64_t header_checksum(const unsigned char* d) { return XXH3_64bits(d, kHeaderXxhAt); }

TableFileHeader decode_header(const std::string& path, const unsigned char* d, std::uint64_t available, std::uint64_t size) {
  auto bad = [&](const std::string& what) -> GonuError { return GonuError(path + ": " + what + " (the file is damaged)"); };
  if (available < 8 || std::memcmp(d, kMagic, sizeof kMagic) != 0) throw GonuError(path + " is not a gonu Jungi table (no GONU-JNG magic)");
  if (available < 16) throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than a table header");
  TableFileHeader h;
  h.format_version = load32(d + kVersionAt);
  if (h.format_version == 0) throw bad("format version 0");
  if (h.format_version > kJungiTableFormatVersion)
    throw GonuError(path + ": Jungi table format version " + std::to_string(h.format_version) +
                    " is newer than this gonu reads (up to " + std::to_string(kJungiTableFormatVersion) + ")");
  if (load32(d + kHeaderSizeAt) != kJungiTableHeaderSize) throw bad("header size " + std::to_string(load32(d + kHeaderSizeAt)));
  if (available < kJungiTableHeaderSize)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than its " +
                    std::to_string(kJungiTableHeaderSize) + "-byte header");
  h.header_xxh3 = load64(d + kHeaderXxhAt);
  if (h.header_xxh3 != header_checksum(d)) throw bad("header checksum mismatch");
  h.file_size = load64(d + kFileSizeAt);
  if (h.file_size > size) throw GonuError(path + " is truncated: " + std::to_string(size) + " of " + std::to_string(h.file_size) + " bytes");
  if (h.file_size < size) throw bad(std::to_string(size - h.file_size) + " bytes past the end");
  h.payload_xxh3 = load64(d + kPayloadAt);
  h.index_xxh3 = load64(d + kIndexXxhAt);
  const auto game = get_text(d, kGameAt, kGameSize), rules = get_text(d, kRulesAt, kRulesSize),
             material = get_text(d, kMaterialAt, kMaterialSize), version = get_text(d, kGonuVersionAt, kGonuVersionSize);
  if (!game || !rules || !material || !version) throw bad("a text field that is not NUL-padded printable ASCII");
  if (*game != "jungi") throw GonuError(path + ": a table of the game '" + *game + "', not jungi");
  h.game = *game, h.rules_id = *rules, h.material_text = *material, h.gonu_version = *version;
  const auto r = rules_of_id(h.rules_id);
  if (!r) throw bad("rules id '" + h.rules_id + "' is no Jungi reading gonu knows");
  h.rules = *r;
  try {
    h.material = parse_material(h.material_text);
  } catch (const GonuError& e) {
    throw bad(std::string("material: ") + e.what());
  }
  if (material_text(h.material) != h.material_text) throw bad("material '" + h.material_text + "' is not written canonically");
  h.layout_version = load32(d + kLayoutAt);
  if (h.layout_version != kJungiIndexLayoutVersion)
    throw GonuError(path + ": index layout version " + std::to_string(h.layout_version) + " is not this gonu's (" +
                    std::to_string(kJungiIndexLayoutVersion) + "); solve the table again");
  h.block_indices = load32(d + kBlockAt);
  h.indices = load64(d + kIndicesAt);
  h.positions = load64(d + kPositionsAt);
  for (std::size_t s = 0; s < 2; ++s) {
    h.wins[s] = load64(d + kCountsAt + 8 * s);
    h.losses[s] = load64(d + kCountsAt + 16 + 8 * s);
    h.draws[s] = load64(d + kCountsAt + 32 + 8 * s);
  }
  h.longest_win = std::int32_t(load32(d + kLongestWinAt));
  h.longest_loss = std::int32_t(load32(d + kLongestLossAt));
  h.longest_win_index = load64(d + kLongestWinIndexAt);
  h.code_bytes = d[kCodeBytesAt];
  // Each format has one codec: zstd up to format 2, xz in formats 3 and 4, zstd again from 5.
  h.codec = d[kCodecAt];
  const std::uint8_t codec = h.format_version == 3 || h.format_version == 4 ? kJungiCodecXz : kJungiCodecZstd;
  if (h.codec != codec)
    throw bad("codec " + std::to_string(h.codec) + " in format " + std::to_string(h.format_version) + " (" +
              std::to_string(codec) + (codec == kJungiCodecXz ? " is xz)" : " is zstd)"));
  if (!all_zero(d, kCodecAt + 1, kBlocksAt) || !all_zero(d, kReservedAt, kHeaderXxhAt)) throw bad("reserved bytes that are not zero");
  h.blocks = load64(d + kBlocksAt);
  h.index_offset = load64(d + kIndexAt);
  h.data_offset = load64(d + kDataAt);
  h.data_size = load64(d + kDataSizeAt);
  return h;
}

void check_header_counts(const std::string& path, const TableFileHeader& h, std::uint64_t expected_indices) {
  auto bad = [&](const std::string& what) { throw GonuError(path + ": " + what + " (the file is damaged)"); };
  if (h.indices != expected_indices)
    bad(std::to_string(h.indices) + " indices, where " + h.material_text + " has " + std::to_string(expected_indices));
  if (h.block_indices == 0 || h.block_indices % 2 || h.block_indices > kJungiMaxBlockIndices) bad("block size " + std::to_string(h.block_indices));
  if (h.code_bytes != 1 && h.code_bytes != 2) bad("code width " + std::to_string(h.code_bytes) + " bytes");
  if (h.blocks != (h.indices + h.block_indices - 1) / h.block_indices) bad("block count " + std::to_string(h.blocks));
  // Counts of the whole board (format 5) count up to two positions an index (a mirror image).
  const std::uint64_t most = h.counts_whole_board() ? 2 * h.indices : h.indices;
  std::uint64_t counted = 0;
  for (std::size_t s = 0; s < 2; ++s) {
    for (const std::uint64_t c : {h.wins[s], h.losses[s], h.draws[s]}) {
      if (c > most) bad("a count larger than the table");
      counted += c;
    }
  }
  if (counted != h.positions || h.positions > most) bad("counts that do not add up to the positions");
  if (h.longest_win < -1 || h.longest_win > 16382 || h.longest_loss < 0 || h.longest_loss > 16382) bad("a longest distance out of range");
  if (h.longest_win_index >= h.indices && h.longest_win >= 0) bad("the longest win's index past the table");
  // Layout: the index right after the header, the data right after the index, nothing after it.
  if (h.index_offset != kJungiTableHeaderSize) bad("index offset " + std::to_string(h.index_offset));
  if (h.data_offset != h.index_offset + 8 * (h.blocks + 1)) bad("data offset " + std::to_string(h.data_offset));
  if (h.data_offset > h.file_size || h.data_size != h.file_size - h.data_offset) bad("sizes that do not add up to the file's");
}

void check_index(const std::string& path, const TableFileHeader& h, const unsigned char* index) {
  if (XXH3_64bits(index, 8 * (h.blocks + 1)) != h.index_xxh3) throw GonuError(path + ": index checksum mismatch (the file is damaged)");
  std::uint64_t prev = 0;
  for (std::uint64_t b = 0; b <= h.blocks; ++b) {
    const std::uint64_t at = load64(index + 8 * b);
    const bool ok = b == 0 ? at == 0 : at > prev && at <= h.data_size;
    if (!ok) throw GonuError(path + ": index entry " + std::to_string(b) + " is out of order or past the data (the file is damaged)");
    prev = at;
  }
  if (prev != h.data_size) throw GonuError(path + ": the index does not end at the data's end (the file is damaged)");
}

}  // namespace gonu::jungi
