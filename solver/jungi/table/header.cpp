// The Jungi table header: its 320 bytes encoded and decoded, and every check a reader makes on the
// header and the index before it trusts an offset (solver/jungi/table/FORMAT.md, "Jungi table files",
// "Checks a reader makes"). Each failure is one line naming the file and what is wrong. The
// frame's fields, the text fields and the index are encoded and checked by the shared container.
#include "solver/jungi/table/header.hpp"

#include "core/error.hpp"
#include "solver/common/bits.hpp"

namespace gonu::jungi {

namespace {

using table_bits::load32;
using table_bits::load64;
using table_bits::store_le;
namespace tc = table_container;

// Field offsets (FORMAT.md's table) past the container's frame: its first 40 bytes and its last 8.
enum : std::size_t {
  kGameAt = tc::kFrameHeadSize, kRulesAt = 56, kMaterialAt = 120, kGonuVersionAt = 152, kLayoutAt = 168, kBlockAt = 172,
  kIndicesAt = 176, kPositionsAt = 184, kCountsAt = 192, kLongestWinAt = 240, kLongestLossAt = 244,
  kLongestWinIndexAt = 248, kCodeBytesAt = 256, kCodecAt = 257, kBlocksAt = 264, kIndexAt = 272,
  kDataAt = 280, kDataSizeAt = 288, kReservedAt = 296, kHeaderXxhAt = 312
};
static_assert(kHeaderXxhAt + tc::kHeaderXxh3Size == kJungiTableHeaderSize, "the reserved bytes end at the container's checksum");
constexpr std::size_t kGameSize = 16, kRulesSize = 64, kMaterialSize = 32, kGonuVersionSize = 16;

std::optional<Rules> rules_of_id(const std::string& id) {
  for (const Rules& r : every_reading())
    if (rules_id(r) == id) return r;
  return std::nullopt;
}

}  // namespace

std::array<unsigned char, kJungiTableHeaderSize> encode_header(const TableFileHeader& h) {
  std::array<unsigned char, kJungiTableHeaderSize> a{};
  unsigned char* d = a.data();
  tc::put_text(d + kGameAt, kGameSize, h.game, "game");
  tc::put_text(d + kRulesAt, kRulesSize, h.rules_id, "rules id");
  tc::put_text(d + kMaterialAt, kMaterialSize, h.material_text, "material");
  tc::put_text(d + kGonuVersionAt, kGonuVersionSize, h.gonu_version, "gonu version");
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
  tc::seal(d, kJungiFormat, {h.format_version, h.file_size, h.payload_xxh3, h.index_xxh3, 0});
  return a;
}

TableFileHeader decode_header(const std::string& path, const unsigned char* d, std::uint64_t available, std::uint64_t size) {
  const tc::Frame frame = tc::check_frame(d, available, size, kJungiFormat, path);
  TableFileHeader h;
  h.format_version = frame.version;
  h.header_xxh3 = frame.header_xxh3;
  h.file_size = frame.file_size;
  h.payload_xxh3 = frame.payload_xxh3;
  h.index_xxh3 = frame.index_xxh3;
  h.game = tc::get_text(d + kGameAt, kGameSize, path);
  h.rules_id = tc::get_text(d + kRulesAt, kRulesSize, path);
  h.material_text = tc::get_text(d + kMaterialAt, kMaterialSize, path);
  h.gonu_version = tc::get_text(d + kGonuVersionAt, kGonuVersionSize, path);
  if (h.game != "jungi") throw GonuError(path + ": a table of the game '" + h.game + "', not jungi");
  const auto r = rules_of_id(h.rules_id);
  if (!r) tc::damaged(path, "rules id '" + h.rules_id + "' is no Jungi reading gonu knows");
  h.rules = *r;
  try {
    h.material = parse_material(h.material_text);
  } catch (const GonuError& e) {
    tc::damaged(path, std::string("material: ") + e.what());
  }
  if (material_text(h.material) != h.material_text) tc::damaged(path, "material '" + h.material_text + "' is not written canonically");
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
    tc::damaged(path, "codec " + std::to_string(h.codec) + " in format " + std::to_string(h.format_version) + " (" +
              std::to_string(codec) + (codec == kJungiCodecXz ? " is xz)" : " is zstd)"));
  tc::check_zero(d + kCodecAt + 1, kBlocksAt - kCodecAt - 1, "after the codec", path);
  tc::check_zero(d + kReservedAt, kHeaderXxhAt - kReservedAt, "reserved", path);
  h.blocks = load64(d + kBlocksAt);
  h.index_offset = load64(d + kIndexAt);
  h.data_offset = load64(d + kDataAt);
  h.data_size = load64(d + kDataSizeAt);
  return h;
}

void check_header_counts(const std::string& path, const TableFileHeader& h, std::uint64_t expected_indices) {
  auto bad = [&](const std::string& what) { tc::damaged(path, what); };
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
  tc::check_index_xxh3(index, 8 * (h.blocks + 1), h.index_xxh3, path);
  tc::check_block_starts(h.blocks, [&](std::uint64_t b) { return load64(index + 8 * b); }, h.data_size, 1, "data", path);
}

}  // namespace gonu::jungi
