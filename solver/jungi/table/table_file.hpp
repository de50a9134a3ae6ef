// Jungi endgame tables on disk: one material's values by index (solver/jungi/generator/indexing.hpp), in a
// file of its own format (solver/jungi/table/FORMAT.md, "Jungi table files"), beside Jul-gonu's:
//
//   header (320 bytes)  magic GONU-JNG, format version, game, rules_id, material, index layout
//                       version, sizes, the solve's counts, checksums (XXH3 of header, index, payload)
//   index               (blocks + 1) 8-byte offsets of the blocks in the data section
//   data                per block of 2^23 indices (2^20 in formats 2-3), one .xz stream (LZMA2,
//                       with its CRC32; a zstd frame with its content checksum in formats 1-2) of
//                       the indices' value codes, 1 or 2 bytes each (South to move first)
//
// A value code is 1 for a draw, 2 + 2d for a loss in d plies, 3 + 2d for a win in d, for the side
// to move. Invalid indices (solver/jungi/generator/indexing.hpp) carry no value: the indexer marks them (its
// decode refuses them). Nor, from format 2, do the derived ones (source_of): a position whose side
// to move takes the enemy royal (WIN in 1), and one with South's royal on the e-file whose mirror
// image has the smaller index (its mirror's value). The writer gives both kinds the code two
// indices before (same side to move), which the compressor codes in almost nothing; a reader derives
// the value first and never returns that code.
//
// Invariants: a file written is complete or absent (util/atomic_file); a file read is refused with
// one line (GonuError) unless every header field, offset and size is consistent, its rules_id is a
// reading gonu knows (and the one asked for, when one is), its material parses to the text written
// and the index layout is this gonu's; a block is used only after its checksum and size check.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solver/jungi/generator/generator.hpp"

namespace gonu::jungi {

// 1: every valid index's code stored; 2: derived indices (source_of) hold don't-cares; 3: blocks
// as .xz streams (codec 2) instead of zstd frames (codec 1); 4: blocks of 2^23 indices, LZMA2's
// hash-chain match finder (FORMAT.md, "Format 4"); 5: blocks of 2^16 indices as zstd frames, so
// that a question decodes a little (about 0.1 ms a block) for each position it reads, and the
// header's counts of the whole board (TableStats::board_positions).
constexpr std::uint32_t kJungiTableFormatVersion = 5;
constexpr std::uint8_t kJungiCodecZstd = 1, kJungiCodecXz = 2;
constexpr std::uint32_t kJungiTableHeaderSize = 320;
// indexing.hpp's layout: 1 counted every piece over all 81 squares (South's royal over 45); 2, the
// squares each piece can stand on alone (by ordinal).
constexpr std::uint32_t kJungiIndexLayoutVersion = 2;
constexpr std::uint32_t kJungiBlockIndices = 1u << 16;  // 2^23 in format 4, 2^20 in formats 2-3, 65,536 in format 1
// The largest block a reader accepts: a block is decoded whole, into memory.
constexpr std::uint32_t kJungiMaxBlockIndices = 1u << 23;

struct TableFileHeader {
  std::uint32_t format_version = 0;
  std::uint64_t file_size = 0;
  std::uint64_t payload_xxh3 = 0, index_xxh3 = 0, header_xxh3 = 0;
  std::string game;           // "jungi"
  std::string rules_id;       // rules_id(rules)
  std::string material_text;  // material_text(material)
  std::string gonu_version;
  Rules rules;
  Material material;
  std::uint32_t layout_version = 0;
  std::uint32_t block_indices = 0;
  // From format 5 the counts are of the whole board, each distinct position once
  // (TableStats::board_positions); before, of the valid indices (a position with South's royal
  // off the e-file stands for its mirror image too).
  std::uint64_t indices = 0, positions = 0;
  std::array<std::uint64_t, 2> wins{}, losses{}, draws{};  // by side to move: 0 South, 1 North
  bool counts_whole_board() const { return format_version >= 5; }
  std::int32_t longest_win = -1;  // plies; -1: no win
  std::int32_t longest_loss = 0;
  std::uint64_t longest_win_index = 0;
  std::uint8_t code_bytes = 0;    // 1 or 2
  std::uint8_t codec = 0;         // kJungiCodecZstd (formats 1-2 and 5) or kJungiCodecXz (formats 3-4)
  std::uint64_t blocks = 0;
  std::uint64_t index_offset = 0, data_offset = 0, data_size = 0;
};

// The file name of a material's table in a directory of tables: "KRvK.nohobble-compulsory-
// stalemate-loss-lancer-standard.gonu" (material text, then the reading's rules_id without its
// "jungi/" and with '-' joining its parts; '+' kept).
std::string table_file_name(const Material& m, const Rules& r);
// The readings of which `dir` holds a table file, by its files' names (table_file_name), in no
// set order; throws GonuError if `dir` cannot be listed.
std::vector<Rules> readings_in(const std::string& dir);
// The file in `dir` of the table of the position `read` gives under the one reading of dir's
// tables: that of its material or of its colour flip (gonu query DIR POSITION). Throws GonuError
// (one line) if `dir` holds no Jungi table, tables of several readings, or none of that material.
std::string table_file_for(const std::string& dir, const std::function<Position(const Rules&)>& read);
// Whether `path` is a readable regular file that starts with the Jungi table magic (FIFOs and
// other non-regular files are not opened for reading; false for them, as for a missing file).
bool is_jungi_table_file(const std::string& path);

// Writes the table of `t` (solved under `r`) atomically: a temporary file in the target's
// directory, renamed into place; nothing is left on an error or SIGINT. Refuses a target that is
// not a writable regular file. Throws GonuError. Returns the file size. Bytes depend only on t.
std::uint64_t write_table_file(const std::string& path, const Table& t, const Rules& r);
// Writes the table file at `path` again in this gonu's format, its values unchanged (gonu repack),
// unless it is in this format already: its payload checksum checked; a format 2 file's codes
// compressed again block by block, each block of the new encoding read back and compared with the
// old; a format 1 file read whole (every derived index's value checked, as gonu verify does) and
// encoded as a solve writes it, its values read back and compared at every valid index; and only
// then written atomically in its place. Throws GonuError for a damaged file, logic_error if the
// encoding does not read back (nothing is written then).
struct RepackResult {
  std::uint32_t old_format;
  std::uint64_t old_bytes;
  std::uint32_t new_format;
  std::uint64_t new_bytes;
};
RepackResult repack_table_file(const std::string& path);
// Whether write_table_file could write `path` is the container's check_writable
// (solver/container/file.hpp), the same for both games' tables.

// source_of (solver/jungi/generator/generator.hpp) for every index of [from, to) into out[0 .. to - from),
// an invalid index `invalid`.
// A pass over a whole table (load, write, verify) goes through here: the two sides to move of a
// placement are decoded once and its mirror image encoded from the placement, cheaper than
// decode and source_of index by index (which the tests compare it with).
void sources_of(const Indexer& indexer, const Rules& r, std::uint64_t from, std::uint64_t to, ValueSource* out);

// What TableFile::load learns on its pass over every index when asked (gonu verify's checks).
struct LoadCheck {
  std::uint64_t positions = 0;  // valid indices
  std::array<std::uint64_t, 2> wins{}, losses{}, draws{};  // by side to move: 0 South, 1 North
  // The same of the whole board (TableStats::board_positions), and the longest distances.
  std::uint64_t board_positions = 0;
  std::array<std::uint64_t, 2> board_wins{}, board_losses{}, board_draws{};
  std::int32_t longest_win = -1, longest_loss = 0;
  std::uint64_t longest_win_index = 0;
  std::string dont_care_error;  // dont_care_error()'s answer
};

// The decoded blocks of every table file a process reads go through one cache, bounded in bytes
// (the least recently used dropped first): a question reads a few blocks of each table it
// touches, and a long-running server holds what its questions reuse. 256 MiB unless set.
void set_block_cache_limit(std::uint64_t bytes);
std::uint64_t block_cache_limit();
std::uint64_t block_cache_bytes();  // held now

class TableFile {
 public:
  // Reads and checks the header (a few hundred bytes, before anything else is read or allocated)
  // and the index (not the blocks: each is read and checked when a question needs it, the file
  // opened again then and refused if it has changed since). `expected`, when given, is the
  // reading the caller needs: a table of another is refused.
  static TableFile open(const std::string& path, const std::optional<Rules>& expected = std::nullopt);
  // The same checks of a file's bytes already in memory (`path` names it in messages).
  static TableFile from_bytes(const std::string& path, std::vector<unsigned char> bytes, const std::optional<Rules>& expected);
  TableFile(TableFile&&) noexcept;
  TableFile& operator=(TableFile&&) noexcept;
  ~TableFile();

  const TableFileHeader& header() const { return h_; }
  const Rules& rules() const { return h_.rules; }
  const Material& material() const { return h_.material; }
  const Indexer& indexer() const { return *indexer_; }
  const std::string& path() const { return path_; }

  // The value of an index (Result::invalid for an invalid or out-of-range index), from the cache
  // of decoded blocks; thread-safe. Throws GonuError if the block it decodes is damaged.
  Value value(std::uint64_t index) const;
  // The value of a position of this material or of its colour flip (read flipped), its
  // en-passant field ignored (TableSet::probe reads the field); Result::invalid if the position
  // is of another material.
  Value value(const Position& p) const;
  // The whole table decoded into the generator's form (stats from the header), for
  // TableSet::adopt: every index decoded, the derived ones given their value (source_of). Its
  // invalid indices hold the file's don't-care codes, not 0: nothing reads them (a position's
  // index is valid; verify and count skip what decode refuses). Throws GonuError for a damaged
  // block or a code 0.
  // With `check`, what gonu verify wants of every index is learnt on the same pass (LoadCheck).
  std::unique_ptr<Table> load(LoadCheck* check = nullptr) const;
  // The table as stored, its derived indices not derived (Table::derive_on_read: TableSet::entry
  // derives each as it reads it): a few blocks' decoding, where load spends several times that
  // on its pass over every index. For the tables a few questions read (query, play, the explorer,
  // Python, and gonu verify beside the table it checks); a solve, which reads most indices, and
  // gonu verify for the table it checks want load.
  std::unique_ptr<Table> load_stored() const;
  // XXH3 of the whole payload, compared with the header's.
  bool payload_checksum_ok() const;
  // What gonu verify checks of the codes a reader does not return: each invalid index (and, in
  // format 2, each derived one) holds the code two indices before (1 at the start), each derived
  // one of format 1 the code derived. "" if so, else the first index that does not, in one line.
  // Throws GonuError for a damaged block.
  // (A load's check: it reads the table whole.)
  std::string dont_care_error() const;
  // The codes of block b as stored, by index (don't-cares included), once the block passes its
  // checks; throws GonuError for a damaged block.
  std::vector<std::uint16_t> block_codes(std::uint64_t b) const;

 private:
  // Block b decoded: its codes' bytes as stored (code_bytes each, slot order; FORMAT.md), after
  // the codec's checks; block_count(b) codes; code_in reads the k-th of `count` from such bytes.
  std::vector<unsigned char> block_bytes(std::uint64_t b) const;
  std::uint64_t block_count(std::uint64_t b) const;
  std::uint16_t code_in(const std::vector<unsigned char>& raw, std::uint64_t count, std::uint64_t k) const;
  TableFile() = default;
  // The header's and the index's checks, and the indexer (open and from_bytes).
  void init(const TableFileHeader& h, const std::optional<Rules>& expected);
  // load's check of index i (its source s, its entry as read and the one read two indices before;
  // `entries` with the derived ones filled up to i), added to `part`.
  void check_loaded(std::uint64_t i, const ValueSource& s, std::uint16_t as_read, std::uint16_t two_before,
                   const std::vector<std::uint16_t>& entries, LoadCheck& part) const;
  // use(first index, codes) for every block, in parallel; the first block's error (a GonuError
  // from decoding or from use) is thrown once all are done.
  void for_each_block(const std::function<void(std::uint64_t, const std::vector<std::uint16_t>&)>& use) const;
  std::uint16_t code(std::uint64_t index) const;
  // Bytes [offset, offset + size) of the file (checked to lie inside it by the caller), as a
  // vector or into `out`.
  std::vector<unsigned char> read_bytes(std::uint64_t offset, std::uint64_t size) const;
  void read_into(std::uint64_t offset, unsigned char* out, std::uint64_t size) const;
  std::string path_;
  // A file given as bytes (from_bytes) is read from them; one opened is read from its path,
  // which must still name the file opened (device, inode, size and modification time).
  std::shared_ptr<const std::vector<unsigned char>> memory_;
  struct Identity {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const Identity&) const = default;
  } identity_;
  std::vector<unsigned char> index_;  // the index section, checked
  TableFileHeader h_;
  std::unique_ptr<Indexer> indexer_;
  std::uint64_t serial_ = 0;  // this opening's key in the block cache
};

// A value code as stored (0 for an invalid index), and back into the generator's entry form.
std::uint16_t file_code(const Value& v);
std::uint16_t entry_of_code(std::uint16_t code);

}  // namespace gonu::jungi
