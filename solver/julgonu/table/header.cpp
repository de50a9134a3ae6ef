// The table header: encoding and decoding by the field table kFields, the checks of every field
// and of the section layout (overflow-safe), and the checks of the index (header.hpp). The frame's
// fields are written and checked by the shared container (solver/container/frame.hpp).
#include "solver/julgonu/table/header.hpp"

#include "core/error.hpp"
#include "solver/common/bits.hpp"

namespace gonu::table_header {

using namespace table_bits;
using table_container::damaged;

namespace {

// The header as numbers and texts by field, before they are given a meaning.
struct RawHeader {
  std::array<std::uint64_t, kFieldCount> num{};
  std::array<std::string, kFieldCount> text;
  std::uint64_t& operator[](Field f) { return num[static_cast<std::size_t>(f)]; }
  std::uint64_t operator[](Field f) const { return num[static_cast<std::size_t>(f)]; }
  std::string& str(Field f) { return text[static_cast<std::size_t>(f)]; }
  const std::string& str(Field f) const { return text[static_cast<std::size_t>(f)]; }
};

// ---------------------------------------------------------------------------------------------
// Encoding

RawHeader to_raw(const TableHeader& h, const Board& b) {
  RawHeader r;
  const Rules& rules = h.rules;
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
    if (in_frame(f.field)) continue;
    if (f.kind == Kind::uint) store_le(p, r.num[i], f.size);
    if (f.kind == Kind::text) table_container::put_text(p, f.size, r.text[i], f.name);
  }
  table_container::seal(out.data(), kFormat, {h.format_version, h.file_size, h.payload_xxh3, h.index_xxh3, 0});
  return out;
}

// ---------------------------------------------------------------------------------------------
// Decoding

table_container::Frame check_frame(const unsigned char* head, std::uint64_t available, std::uint64_t size,
                                   const std::string& path) {
  const std::uint32_t version = table_container::check_magic_and_version(head, available, size, kFormat, path);
  const std::size_t tagged = spec(Field::tagged).offset;
  if (version == 1 && available > tagged && head[tagged] == 1)
    throw GonuError(path + ": table format version 1 keeps tagged state keys in an older layout; "
                    "solve again with gonu solve --out to write this table in the current format");
  return table_container::check_sealed(head, available, size, kFormat, path);
}

namespace {

// Every field but the frame's by the table: numbers, texts (printable ASCII), zero bytes checked.
RawHeader read_fields(const unsigned char* d, const std::string& path) {
  RawHeader r;
  for (const FieldSpec& f : kFields) {
    const unsigned char* p = d + f.offset;
    const std::size_t i = static_cast<std::size_t>(f.field);
    if (in_frame(f.field)) continue;
    if (f.kind == Kind::uint) r.num[i] = load_le(p, f.size);
    if (f.kind == Kind::zero) table_container::check_zero(p, f.size, f.name, path);
    if (f.kind == Kind::text) r.text[i] = table_container::get_text(p, f.size, path);
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

void decode_counts(const RawHeader& r, const table_container::Frame& frame, TableHeader& h) {
  h.format_version = frame.version;
  h.file_size = frame.file_size;
  h.payload_xxh3 = frame.payload_xxh3;
  h.index_xxh3 = frame.index_xxh3;
  h.header_xxh3 = frame.header_xxh3;
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
  const table_container::Frame frame = check_frame(d, size, size, path);
  const RawHeader r = read_fields(d, path);
  Decoded out;
  decode_rules(r, out, path);
  decode_root(r, out, path);
  decode_counts(r, frame, out.header);
  check_layout(out.header, size, path);
  return out;
}

void check_index(const unsigned char* d, const TableHeader& h, const std::string& path) {
  const unsigned char* index = d + h.index_offset;
  table_container::check_index_xxh3(index, h.index_size, h.index_xxh3, path);
  // Each block has at least its check and its head: 8 key bytes.
  const std::uint64_t key_data = h.keys_size - kSectionPad;  // check_layout: keys_size >= kSectionPad
  table_container::check_block_starts(
      h.blocks, [&](std::uint64_t b) { return b < h.blocks ? load64(index + 16 * b + 8) : key_data; }, key_data, 8,
      "keys", path);
  for (std::uint64_t b = 1; b < h.blocks; ++b)
    if (load64(index + 16 * b) <= load64(index + 16 * (b - 1)))
      damaged(path, "index entry " + std::to_string(b) + " is out of order");
}

}  // namespace gonu::table_header
