// The table header: encoding and decoding by the field table kFields, the checks of every field
// and of the section layout (overflow-safe), and the checks of the index (header.hpp).
#include "solver/julgonu/table/header.hpp"

#include <xxhash.h>

#include <cstring>

#include "core/error.hpp"
#include "solver/common/bits.hpp"

namespace gonu::table_header {

using namespace table_bits;

namespace {

constexpr char kMagic[8] = {'G', 'O', 'N', 'U', '-', 'T', 'B', 'L'};

// The header as numbers and texts by field, before they are given a meaning.
struct RawHeader {
  std::array<std::uint64_t, kFieldCount> num{};
  std::array<std::string, kFieldCount> text;
  std::uint64_t& operator[](Field f) { return num[static_cast<std::size_t>(f)]; }
  std::uint64_t operator[](Field f) const { return num[static_cast<std::size_t>(f)]; }
  std::string& str(Field f) { return text[static_cast<std::size_t>(f)]; }
  const std::string& str(Field f) const { return text[static_cast<std::size_t>(f)]; }
};

std::uint64_t load_field(const unsigned char* d, Field f) { return load_le(d + spec(f).offset, spec(f).size); }

// ---------------------------------------------------------------------------------------------
// Encoding

RawHeader to_raw(const TableHeader& h, const Board& b) {
  RawHeader r;
  const Rules& rules = h.rules;
  r[Field::format_version] = h.format_version;
  r[Field::header_size] = kTableHeaderSize;
  r[Field::file_size] = h.file_size;
  r[Field::payload_xxh3] = h.payload_xxh3;
  r[Field::index_xxh3] = h.index_xxh3;
  r[Field::rows] = std::uint64_t(rules.rows);
  r[Field::cols] = std::uint64_t(rules.cols);
  r[Field::capture] = rules.capture == Capture::line ? 0 : 1;
  r[Field::corner] = rules.corner ? 1 : 0;
  r[Field::repetition] = std::uint64_t(rules.repetition);
  r[Field::first] = rules.first == Side::black ? 0 : 1;
  r[Field::tagged] = h.tagged ? 1 : 0;
  r[Field::key_board_bits] = h.key_board_bits;
  r.str(Field::rules_name) = rules.name;
  r.str(Field::rules_id) = h.rules_id;
  r.str(Field::gonu_version) = h.gonu_version;
  r[Field::root_black] = h.root.black;
  r[Field::root_white] = h.root.white;
  r[Field::root_side] = h.root.to_move == Side::black ? 0 : 1;
  r[Field::root_tag] = h.tagged ? pack_tag(b, h.root_tag) : 0;
  r[Field::root_key] = h.root_key;
  r[Field::states] = h.states;
  r[Field::edges] = h.edges;
  r[Field::wins] = h.wins;
  r[Field::losses] = h.losses;
  r[Field::draws] = h.draws;
  r[Field::max_dist] = h.max_dist;
  r[Field::value_bits] = h.value_bits;
  r[Field::block_size] = h.block_size;
  r[Field::blocks] = h.blocks;
  r[Field::index_offset] = h.index_offset;
  r[Field::index_size] = h.index_size;
  r[Field::keys_offset] = h.keys_offset;
  r[Field::keys_size] = h.keys_size;
  r[Field::values_offset] = h.values_offset;
  r[Field::values_size] = h.values_size;
  return r;
}

}  // namespace

std::array<unsigned char, kTableHeaderSize> encode(const TableHeader& h, const Board& b) {
  const RawHeader r = to_raw(h, b);
  std::array<unsigned char, kTableHeaderSize> out{};
  for (const FieldSpec& f : kFields) {
    unsigned char* p = out.data() + f.offset;
    const std::size_t i = static_cast<std::size_t>(f.field);
    if (f.kind == Kind::magic) std::memcpy(p, kMagic, sizeof kMagic);
    if (f.kind == Kind::uint) store_le(p, r.num[i], f.size);
    if (f.kind == Kind::text) {
      if (r.text[i].size() >= f.size)
        throw GonuError(std::string("table header: ") + f.name + " '" + r.text[i] + "' is too long");
      std::memcpy(p, r.text[i].data(), r.text[i].size());
    }
  }
  const FieldSpec& hash = spec(Field::header_xxh3);
  store_le(out.data() + hash.offset, XXH3_64bits(out.data(), hash.offset), hash.size);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Decoding

void damaged(const std::string& path, const std::string& what) {
  throw GonuError(path + ": " + what + " (the file is damaged)");
}

namespace {

// What a reader checks before it trusts any field: the magic, the version, the header size, the
// header checksum, and that the file has exactly the size the header gives.
void check_prefix(const unsigned char* d, std::uint64_t size, const std::string& path) {
  if (size < 8) throw GonuError(path + " is not a gonu table (only " + std::to_string(size) + " bytes)");
  if (std::memcmp(d, kMagic, sizeof kMagic) != 0) throw GonuError(path + " is not a gonu table (no GONU-TBL magic)");
  if (size < spec(Field::file_size).offset)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than a table header");
  const std::uint64_t version = load_field(d, Field::format_version);
  if (version > kTableFormatVersion)
    throw GonuError(path + ": table format version " + std::to_string(version) + " is newer than this gonu reads (up to " +
                    std::to_string(kTableFormatVersion) + "); use a newer gonu");
  if (version == 0) damaged(path, "format version 0");
  if (version == 1 && size > spec(Field::tagged).offset && d[spec(Field::tagged).offset] == 1)
    throw GonuError(path + ": table format version 1 keeps tagged state keys in an older layout; "
                    "solve again with gonu solve --out to write this table in the current format");
  const std::uint64_t header_size = load_field(d, Field::header_size);
  if (header_size != kTableHeaderSize)
    damaged(path, "header size " + std::to_string(header_size) + ", expected " + std::to_string(kTableHeaderSize));
  if (size < kTableHeaderSize)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than its " +
                    std::to_string(kTableHeaderSize) + "-byte header");
  if (XXH3_64bits(d, spec(Field::header_xxh3).offset) != load_field(d, Field::header_xxh3))
    damaged(path, "header checksum mismatch");
  const std::uint64_t file_size = load_field(d, Field::file_size);
  if (size < file_size)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " of " + std::to_string(file_size) + " bytes");
  if (size > file_size)
    damaged(path, std::to_string(size - file_size) + " bytes past the end the header gives (" +
                      std::to_string(file_size) + ")");
}

// Every field by the table: numbers, texts (printable ASCII), zero bytes checked.
RawHeader read_fields(const unsigned char* d, const std::string& path) {
  RawHeader r;
  for (const FieldSpec& f : kFields) {
    const unsigned char* p = d + f.offset;
    const std::size_t i = static_cast<std::size_t>(f.field);
    if (f.kind == Kind::uint) r.num[i] = load_le(p, f.size);
    if (f.kind == Kind::zero)
      for (std::size_t k = 0; k < f.size; ++k)
        if (p[k] != 0) damaged(path, std::string("reserved header bytes are not zero (") + f.name + ")");
    if (f.kind == Kind::text) {
      std::size_t n = 0;
      while (n < f.size && p[n] != 0) ++n;
      r.text[i].assign(reinterpret_cast<const char*>(p), n);
      for (const char ch : r.text[i])
        if (ch < 0x20 || ch > 0x7e) damaged(path, "a header text field holds a byte that is not printable ASCII");
    }
  }
  return r;
}

// The rule set, range-checked before any value is used as an index (board size, rule codes).
void decode_rules(const RawHeader& r, Decoded& out, const std::string& path) {
  TableHeader& h = out.header;
  const std::uint64_t rows = r[Field::rows], cols = r[Field::cols];
  if (rows < 2 || cols < 2 || rows * cols > 64)
    damaged(path, "board size " + std::to_string(rows) + "x" + std::to_string(cols) + " out of range");
  if (r[Field::capture] > 1 || r[Field::corner] > 1 || r[Field::repetition] > 2 || r[Field::first] > 1 ||
      r[Field::tagged] > 1)
    damaged(path, "a rule field is out of range");
  Rules& rules = h.rules;
  rules.rows = int(rows);
  rules.cols = int(cols);
  rules.capture = r[Field::capture] == 0 ? Capture::line : Capture::single;
  rules.corner = r[Field::corner] == 1;
  rules.repetition = static_cast<Repetition>(r[Field::repetition]);
  rules.first = r[Field::first] == 0 ? Side::black : Side::white;
  rules.name = r.str(Field::rules_name);
  h.tagged = r[Field::tagged] == 1;
  h.key_board_bits = std::uint8_t(r[Field::key_board_bits]);
  h.rules_id = r.str(Field::rules_id);
  h.gonu_version = r.str(Field::gonu_version);
  try {
    out.codec = make_key_codec(rules);
  } catch (const GonuError& e) {
    damaged(path, std::string("its rule set is not one gonu can read: ") + e.what());
  }
  if (h.rules_id != rules_id(rules)) damaged(path, "rules id '" + h.rules_id + "' does not match the rule fields");
  if (h.tagged != out.codec.tagged || h.key_board_bits != out.codec.board_bits) damaged(path, "key layout fields disagree");
}

// The root: a position on the board, a well-formed tag (its parts index the board's arrays), and
// the key of both.
void decode_root(const RawHeader& r, Decoded& out, const std::string& path) {
  TableHeader& h = out.header;
  const KeyCodec& c = out.codec;
  h.root.black = r[Field::root_black];
  h.root.white = r[Field::root_white];
  if (r[Field::root_side] > 1) damaged(path, "root side out of range");
  h.root.to_move = r[Field::root_side] == 0 ? Side::black : Side::white;
  if ((h.root.black & h.root.white) || ((h.root.black | h.root.white) & ~c.board.all))
    damaged(path, "root position does not fit the board");
  const std::uint64_t tag_code = r[Field::root_tag];
  if (c.tagged ? !tag_code_is_well_formed(c, tag_code) : tag_code != 0) damaged(path, "root tag out of range");
  h.root_key = r[Field::root_key];
  if (!key_is_well_formed(c, h.root_key)) damaged(path, "root key is malformed");
  h.root_tag = c.tagged ? unpack_tag(c.board, std::uint32_t(tag_code)) : Tag{};
  if (encode_key(c, h.root, h.root_tag) != h.root_key) damaged(path, "root key does not match the root position");
}

void decode_counts(const RawHeader& r, TableHeader& h) {
  h.format_version = std::uint32_t(r[Field::format_version]);
  h.file_size = r[Field::file_size];
  h.payload_xxh3 = r[Field::payload_xxh3];
  h.index_xxh3 = r[Field::index_xxh3];
  h.header_xxh3 = r[Field::header_xxh3];
  h.states = r[Field::states];
  h.edges = r[Field::edges];
  h.wins = r[Field::wins];
  h.losses = r[Field::losses];
  h.draws = r[Field::draws];
  h.max_dist = std::uint16_t(r[Field::max_dist]);
  h.value_bits = std::uint8_t(r[Field::value_bits]);
  h.block_size = std::uint32_t(r[Field::block_size]);
  h.blocks = r[Field::blocks];
  h.index_offset = r[Field::index_offset];
  h.index_size = r[Field::index_size];
  h.keys_offset = r[Field::keys_offset];
  h.keys_size = r[Field::keys_size];
  h.values_offset = r[Field::values_offset];
  h.values_size = r[Field::values_size];
}

// The counts in range, and the layout exactly the one they give, so that no read can leave the
// file. No sum or product here can wrap around.
void check_layout(const TableHeader& h, std::uint64_t size, const std::string& path) {
  const auto cap = checked_mul(size, 8);  // a state costs at least one bit; a loose sanity bound
  if (h.states == 0 || (cap && h.states > *cap)) damaged(path, "state count out of range");
  const auto wl = checked_add(h.wins, h.losses);
  if (!wl || checked_add(*wl, h.draws) != h.states)
    damaged(path, "win, loss and draw counts do not add up to the states");
  if (h.block_size < 8 || h.block_size > kMaxBlockSize || h.block_size % 8 != 0) damaged(path, "block size out of range");
  if (h.value_bits < 1 || h.value_bits > 18 || (std::uint64_t(2) * h.max_dist + 2 < (std::uint64_t(1) << (h.value_bits - 1))))
    damaged(path, "value width out of range");
  if (h.blocks != ceil_div(h.states, h.block_size)) damaged(path, "block count does not match the state count");
  if (h.blocks >= (std::uint64_t(1) << 32)) damaged(path, "more blocks than this gonu reads");
  // From here blocks < 2^32, so blocks * 16 and the index's end fit easily.
  const auto value_bits = checked_mul(h.states, h.value_bits);
  const auto values_end = checked_add(h.values_offset, h.values_size);
  if (h.index_offset != kTableHeaderSize || h.index_size != h.blocks * 16 ||
      h.keys_offset != h.index_offset + h.index_size || h.keys_size < kSectionPad + 8 * h.blocks ||
      h.keys_size > size || checked_add(h.keys_offset, h.keys_size) != h.values_offset || !value_bits ||
      h.values_size != ceil_div(*value_bits, 8) + kSectionPad || values_end != h.file_size)
    damaged(path, "section layout does not match the counts");
}

}  // namespace

Decoded decode(const unsigned char* d, std::uint64_t size, const std::string& path) {
  check_prefix(d, size, path);
  const RawHeader r = read_fields(d, path);
  Decoded out;
  decode_rules(r, out, path);
  decode_root(r, out, path);
  decode_counts(r, out.header);
  check_layout(out.header, size, path);
  return out;
}

void check_index(const unsigned char* d, const TableHeader& h, const std::string& path) {
  const unsigned char* index = d + h.index_offset;
  if (XXH3_64bits(index, h.index_size) != h.index_xxh3) damaged(path, "index checksum mismatch");
  const std::uint64_t key_data = h.keys_size - kSectionPad;  // check_layout: keys_size >= kSectionPad
  Key prev_first = 0;
  std::uint64_t prev_off = 0;
  for (std::uint64_t b = 0; b < h.blocks; ++b) {
    const Key first = load64(index + 16 * b);
    const std::uint64_t off = load64(index + 16 * b + 8);
    // Subtractions only after the comparison that keeps them from wrapping around.
    if (b == 0 ? off != 0 : (first <= prev_first || off < prev_off || off - prev_off < 8))
      damaged(path, "index entry " + std::to_string(b) + " is out of order");
    if (off > key_data || key_data - off < 8) damaged(path, "index entry " + std::to_string(b) + " points past the keys");
    prev_first = first;
    prev_off = off;
  }
}

}  // namespace gonu::table_header
