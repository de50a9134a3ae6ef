// Endgame tables on disk: every state reachable from a root under one rule set, with its value and
// distance, in a file that is read with mmap and searched without solving again. The byte layout
// is documented field by field in solver/julgonu/table/FORMAT.md (with its version history); in short:
//
//   header (320 bytes)  magic, format version, rule set, root, counts, layout, checksums
//   index               one 16-byte entry per block of 256 states: first key, where its keys are
//   keys                per block: a 4-byte check, then the other keys as Elias-Fano codes
//   values              one fixed-width code per state (value and distance), bit-packed
//
// Integrity: opening checks the magic, the version, the size, the header checksum and the index
// checksum (so it reads no more than the header and the index); every lookup checks the 32-bit
// check of the block it reads (its keys and values) before it uses a byte of it; verify_payload
// checks the XXH3 of the whole payload. Every failure is a GonuError with a one-line message.
//
// The code, one job a file: header.{hpp,cpp} (the field table, the header and index decoder that
// checks every offset and count), elias_fano.{hpp,cpp} (the key codec), block.hpp (a block's
// geometry and check), writer.cpp (its phases in write_phases.hpp), reader.cpp (Table),
// verify_table.cpp, query.{hpp,cpp}.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/progress.hpp"
#include "solver/common/value.hpp"
#include "solver/julgonu/state/solution.hpp"
#include "solver/julgonu/state/state_key.hpp"

namespace gonu {

constexpr std::uint32_t kTableFormatVersion = 2;
constexpr std::uint32_t kTableHeaderSize = 320;
constexpr std::uint32_t kTableBlockSize = 256;  // states per block, as written

struct TableHeader {
  std::uint32_t format_version = 0;
  std::uint64_t file_size = 0;
  std::uint64_t payload_xxh3 = 0;  // XXH3-64 of bytes [header_size, file_size)
  std::uint64_t index_xxh3 = 0;    // XXH3-64 of the index section
  std::uint64_t header_xxh3 = 0;   // XXH3-64 of header bytes [0, header_size - 8)
  Rules rules;                     // with the rule set's name
  std::string rules_id;            // rules_id(rules), stored for people and cross-checked
  std::string gonu_version;        // kVersion of the writer
  Position root;
  Tag root_tag;                    // empty unless the rules use a tag
  Key root_key = 0;
  std::uint64_t states = 0, edges = 0, wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  std::uint8_t value_bits = 0;     // width of a value code
  std::uint8_t key_board_bits = 0; // B of state_key.hpp
  bool tagged = false;
  std::uint32_t block_size = 0;
  std::uint64_t blocks = 0;
  std::uint64_t index_offset = 0, index_size = 0;
  std::uint64_t keys_offset = 0, keys_size = 0;
  std::uint64_t values_offset = 0, values_size = 0;
};

// One state found in a table: its number (rank in key order), value for the side to move, and
// distance in plies (0 for draws).
struct TableEntry {
  std::uint64_t index = 0;
  Value value = Value::draw;
  std::uint16_t dist = 0;
};

// Writes a solution as a table, atomically (util/atomic_file.hpp: a temporary file in the same
// directory, fsync, link or rename into place; nothing is left on any error). Refuses a target
// that is not a writable regular file (a symlink, FIFO, device, directory, read-only file).
// Throws GonuError on I/O errors. The bytes depend only on the solution (never on threads or
// time). Returns the file size.
// Whether it could write `path` is the container's check_writable (solver/container/file.hpp),
// the same for both games' tables.
std::uint64_t write_table(const std::string& path, const Solution& s);

class Table {
 public:
  // Maps the file and checks the header and the index; throws GonuError naming what is wrong
  // (not a table, newer format version, truncated, checksum mismatch, inconsistent header).
  static Table open(const std::string& path);
  Table(Table&& o) noexcept;
  Table& operator=(Table&& o) noexcept;
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table();

  const TableHeader& header() const { return h_; }
  const KeyCodec& codec() const { return codec_; }
  const Board& board() const { return codec_.board; }
  const Rules& rules() const { return h_.rules; }
  std::uint64_t size() const { return h_.states; }
  const std::string& path() const { return path_; }

  // The state with this key, or nullopt if the table does not hold it. Checks the block it reads;
  // throws GonuError if that block is damaged.
  std::optional<TableEntry> find(Key k) const;

  // Decodes every key, value and distance in key order (block checks applied); for verify.
  void decode_all(std::vector<Key>& keys, std::vector<Value>& value, std::vector<std::uint16_t>& dist,
                  const ProgressFn& progress = {}) const;

  // decode_all's step, for readers that go a block at a time: block b's keys, values and
  // distances into arrays of header().block_size entries (the first state is b * block_size;
  // the last block may have fewer). Throws GonuError, as decode_all, for a damaged block.
  void decode_block(std::uint64_t b, Key* keys, Value* value, std::uint16_t* dist) const;
  // The first key of block b < header().blocks, from the index.
  Key block_first_key(std::uint64_t b) const;
  // The values section: state i's code (value_code) is header().value_bits bits at bit
  // i * value_bits (table_bits::get_bits; the section's padding makes that read safe).
  const unsigned char* value_codes() const { return data_ + h_.values_offset; }

  // XXH3 of the whole payload, compared with the header's; false if it differs.
  bool payload_checksum_ok() const;

  // Whether the file shrank under the mapping since open (a read past its end was caught: the
  // mapping reads zeros since). find, decode_block and payload_checksum_ok then throw GonuError
  // "the table file changed while open"; readers of value_codes() call check_unchanged after.
  bool file_changed() const;
  void check_unchanged() const;

 private:
  Table() = default;
  [[noreturn]] void damaged(const std::string& what) const;
  template <class Read>
  auto guarded_read(Read&& read) const;
  std::optional<TableEntry> find_mapped(Key k) const;
  void decode_mapped_block(std::uint64_t b, Key* keys, Value* value, std::uint16_t* dist) const;
  void build_guide();
  std::uint64_t block_of(Key k) const;
  std::string path_;
  const unsigned char* data_ = nullptr;
  std::uint64_t size_ = 0;
  int slot_ = -1;  // the mapping's place among those the SIGBUS handler guards; -1: none
  TableHeader h_;
  KeyCodec codec_;
  // A guide built at open from the index: the keys' range cut into 2^k equal buckets, and for
  // each the block holding the bucket's first key, so a lookup searches a few index entries.
  std::vector<std::uint32_t> guide_;
  Key guide_base_ = 0;
  int guide_shift_ = 0;
};

// A key that decodes to a state of the codec's board (board digits < 3^n, a well-formed tag in
// normal-form range). Keys read from a file are checked with this before they are decoded.
bool key_is_well_formed(const KeyCodec& c, Key k);
// A pack_tag code whose steps land on the codec's board (so unpack_tag indexes its arrays only in
// range) and that is in normal form; for tagged codecs.
bool tag_code_is_well_formed(const KeyCodec& c, std::uint64_t code);

// Value codes as stored: 0 draw, 1 + 2 * dist + (value == win) otherwise.
inline std::uint32_t value_code(Value v, std::uint16_t dist) {
  return v == Value::draw ? 0u : 1u + 2u * dist + (v == Value::win ? 1u : 0u);
}

// The full check of a table: header, payload checksum, every key well formed, the counts of the
// header recomputed, the root present, and every value and distance re-derived from the
// successors' values read from the same file (the rule of solver/julgonu/verify.hpp), and the edge count.
// The error reported is the lowest-numbered state's, whatever the thread count.
//
// Two ways, with the same checks and messages:
//   - indexed: for tables of boards of up to 32 points. A bitmap over the dense ids of the
//     root's piece counts (solver/julgonu/dense: side and board rank, and for tagged tables the tag's
//     slot on its board) with per-line ranks maps a key to its state number (ids follow key
//     order), built by one pass over the blocks; the successors' values are then read straight
//     from the file. Memory: 1.14 bits an id (4x4 free: 0.6 MB; 5x5: 458 MB; tagged tables a bit
//     per tag slot and 8 bytes a board: 5x4 encyclopedia 911 MiB), no per-state array.
//   - arrays: the whole table decoded into arrays (11 bytes a state) and verify_values, which
//     binary-searches the keys: the plain reference, and for tables whose bitmap would be larger.
// Either refuses, with a one-line GonuError before it allocates, a table whose arrays or bitmap
// would not fit in the machine's physical memory.
enum class TableVerifyMethod {
  automatic,  // indexed where it applies and its bitmap is no larger than the arrays, else arrays
  indexed,    // throws GonuError if the table is not one it applies to
  arrays,
};
struct TableVerifyResult {
  bool ok = true;
  std::string first_error;
  std::uint64_t states = 0, edges = 0, wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
};
TableVerifyResult verify_table(const Table& t, const ProgressFn& progress = {},
                               TableVerifyMethod method = TableVerifyMethod::automatic);

}  // namespace gonu
