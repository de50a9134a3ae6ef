// The table header and index decoder (internal to solver/julgonu/table/). One field table, kFields, gives
// each header field's offset, size, kind and name; the encoder and the decoder both walk it, and a
// compile-time check makes sure the fields tile the 320 bytes with no gap or overlap. The frame's
// fields (magic, version, sizes, the three checksums) are the shared container's
// (solver/container/frame.hpp), which writes and checks them; a second compile-time check makes
// sure kFields puts them where the container does.
//
// Everything a reader later trusts is checked here, once, with arithmetic that cannot wrap
// around: every offset, length and count against the file size and against each other, every
// field that indexes an array (board size, rule codes, the root's tag) against its range, and
// every index entry against the keys section. Table::find and decode_all rely on that.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include "solver/container/frame.hpp"
#include "solver/julgonu/table/table.hpp"

namespace gonu::table_header {

constexpr std::uint64_t kSectionPad = 16;       // zero bytes after the keys and after the values
constexpr std::uint32_t kMaxBlockSize = 16384;  // the largest block size a reader accepts

enum class Field : std::uint8_t {
  magic, format_version, header_size, file_size, payload_xxh3, index_xxh3,
  rows, cols, capture, corner, repetition, first, tagged, key_board_bits,
  rules_name, rules_id, gonu_version,
  root_black, root_white, root_side, zero_after_root_side, root_tag, root_key,
  states, edges, wins, losses, draws, max_dist, value_bits, zero_after_value_bits,
  block_size, blocks, index_offset, index_size, keys_offset, keys_size, values_offset, values_size,
  reserved, header_xxh3
};

// magic: the 8 bytes GONU-TBL; uint: little-endian; text: printable ASCII, NUL-padded (at least
// one NUL); zero: bytes that must be zero.
enum class Kind : std::uint8_t { magic, uint, text, zero };

struct FieldSpec {
  Field field;
  std::size_t offset, size;
  Kind kind;
  const char* name;
};

// In file order (FORMAT.md, "Header").
inline constexpr FieldSpec kFields[] = {
    {Field::magic, 0, 8, Kind::magic, "magic"},
    {Field::format_version, 8, 4, Kind::uint, "format version"},
    {Field::header_size, 12, 4, Kind::uint, "header size"},
    {Field::file_size, 16, 8, Kind::uint, "file size"},
    {Field::payload_xxh3, 24, 8, Kind::uint, "payload checksum"},
    {Field::index_xxh3, 32, 8, Kind::uint, "index checksum"},
    {Field::rows, 40, 1, Kind::uint, "rows"},
    {Field::cols, 41, 1, Kind::uint, "columns"},
    {Field::capture, 42, 1, Kind::uint, "capture"},
    {Field::corner, 43, 1, Kind::uint, "corner"},
    {Field::repetition, 44, 1, Kind::uint, "repetition"},
    {Field::first, 45, 1, Kind::uint, "first player"},
    {Field::tagged, 46, 1, Kind::uint, "tagged"},
    {Field::key_board_bits, 47, 1, Kind::uint, "key board bits"},
    {Field::rules_name, 48, 32, Kind::text, "rule set name"},
    {Field::rules_id, 80, 48, Kind::text, "rules id"},
    {Field::gonu_version, 128, 16, Kind::text, "gonu version"},
    {Field::root_black, 144, 8, Kind::uint, "root black"},
    {Field::root_white, 152, 8, Kind::uint, "root white"},
    {Field::root_side, 160, 1, Kind::uint, "root side"},
    {Field::zero_after_root_side, 161, 3, Kind::zero, "bytes after the root side"},
    {Field::root_tag, 164, 4, Kind::uint, "root tag"},
    {Field::root_key, 168, 8, Kind::uint, "root key"},
    {Field::states, 176, 8, Kind::uint, "states"},
    {Field::edges, 184, 8, Kind::uint, "edges"},
    {Field::wins, 192, 8, Kind::uint, "wins"},
    {Field::losses, 200, 8, Kind::uint, "losses"},
    {Field::draws, 208, 8, Kind::uint, "draws"},
    {Field::max_dist, 216, 2, Kind::uint, "largest distance"},
    {Field::value_bits, 218, 1, Kind::uint, "value width"},
    {Field::zero_after_value_bits, 219, 1, Kind::zero, "byte after the value width"},
    {Field::block_size, 220, 4, Kind::uint, "block size"},
    {Field::blocks, 224, 8, Kind::uint, "blocks"},
    {Field::index_offset, 232, 8, Kind::uint, "index offset"},
    {Field::index_size, 240, 8, Kind::uint, "index size"},
    {Field::keys_offset, 248, 8, Kind::uint, "keys offset"},
    {Field::keys_size, 256, 8, Kind::uint, "keys size"},
    {Field::values_offset, 264, 8, Kind::uint, "values offset"},
    {Field::values_size, 272, 8, Kind::uint, "values size"},
    {Field::reserved, 280, 32, Kind::zero, "reserved"},
    {Field::header_xxh3, 312, 8, Kind::uint, "header checksum"},
};
inline constexpr std::size_t kFieldCount = std::size(kFields);

constexpr const FieldSpec& spec(Field f) { return kFields[static_cast<std::size_t>(f)]; }

// The fields tile the header in enum order: each starts where the previous ended, numbers fit
// 64 bits, and the last ends at kTableHeaderSize.
constexpr bool fields_tile_the_header() {
  std::size_t at = 0;
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    const FieldSpec& f = kFields[i];
    if (static_cast<std::size_t>(f.field) != i || f.offset != at || f.size == 0) return false;
    if (f.kind == Kind::uint && f.size > 8) return false;
    at += f.size;
  }
  return at == kTableHeaderSize;
}
static_assert(fields_tile_the_header(), "kFields must tile the header");

// What tells a Jul-gonu table from another file, for the container's checks.
inline constexpr table_container::Format kFormat{
    {'G', 'O', 'N', 'U', '-', 'T', 'B', 'L'}, kTableHeaderSize, kTableFormatVersion, "gonu table", "table format"};

// The fields the container writes and checks.
constexpr bool in_frame(Field f) {
  return f == Field::magic || f == Field::format_version || f == Field::header_size || f == Field::file_size ||
         f == Field::payload_xxh3 || f == Field::index_xxh3 || f == Field::header_xxh3;
}
static_assert(spec(Field::magic).offset == table_container::kMagicAt && spec(Field::format_version).offset == table_container::kVersionAt &&
                  spec(Field::header_size).offset == table_container::kHeaderSizeAt && spec(Field::file_size).offset == table_container::kFileSizeAt &&
                  spec(Field::payload_xxh3).offset == table_container::kPayloadXxh3At &&
                  spec(Field::index_xxh3).offset == table_container::kIndexXxh3At &&
                  spec(Field::header_xxh3).offset == kTableHeaderSize - table_container::kHeaderXxh3Size,
              "kFields must put the frame's fields where the container does");

// The header's bytes for h (its root tag packed on board b), sealed by the container (its frame's
// fields and header_xxh3 written last). Throws GonuError if a text field is too long.
std::array<unsigned char, kTableHeaderSize> encode(const TableHeader& h, const Board& b);

struct Decoded {
  TableHeader header;
  KeyCodec codec;
};

// The container's checks of the header at `head` (the first `available` bytes of a file of
// `size`), with this format's own between the version's and the checksum's: version 1 with
// tagged keys refused, saying to solve again. Throws GonuError naming `path`.
table_container::Frame check_frame(const unsigned char* head, std::uint64_t available, std::uint64_t size,
                                   const std::string& path);

// Decodes and checks the header of a file of `size` bytes at d (see the top of this file and
// FORMAT.md, "Checks a reader makes"). Throws GonuError naming `path` and what is wrong.
Decoded decode(const unsigned char* d, std::uint64_t size, const std::string& path);

// Checks the index of a decoded header: its checksum, first keys strictly ascending, and every
// block's key bytes inside the keys section, at least 8 of them. Throws GonuError naming `path`.
void check_index(const unsigned char* d, const TableHeader& h, const std::string& path);

}  // namespace gonu::table_header
