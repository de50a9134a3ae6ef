// The table container's frame (CONTAINER.md): the part of a table file's header and index that
// both games' formats share, encoded and checked once here. A header is `Format::header_size`
// bytes; the frame holds its first 40 bytes (magic, format version, header size, file size, XXH3
// of the payload, XXH3 of the index) and its last 8 (XXH3 of the bytes before them); a format's
// own fields lie between. All numbers are little-endian.
//
// Invariants: a sealed header's checksum covers every byte before it, the frame's fields
// included; a frame passes its checks only if the magic, the version range, the header size, the
// checksum and the file size all hold, each failure one line (GonuError) naming the file. Nothing
// here knows either game: a format describes itself by a Format.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gonu::table_container {

// Where the frame's fields are; the header checksum is at header_size - 8.
constexpr std::size_t kMagicAt = 0, kMagicSize = 8, kVersionAt = 8, kHeaderSizeAt = 12, kFileSizeAt = 16,
                      kPayloadXxh3At = 24, kIndexXxh3At = 32, kFrameHeadSize = 40, kHeaderXxh3Size = 8;

// What tells one format's files from another's, and how its messages name it.
struct Format {
  char magic[kMagicSize];        // ASCII, not NUL-terminated: "GONU-TBL"
  std::uint32_t header_size;     // the header's bytes, the frame's included
  std::uint32_t newest_version;  // a reader refuses a larger one
  const char* name;              // "gonu table": "PATH is not a gonu table"
  const char* version_name;      // "table format": "PATH: table format version 7 is newer ..."
};

// The frame's numbers (the magic and the header size are the format's).
struct Frame {
  std::uint32_t version = 0;
  std::uint64_t file_size = 0;
  std::uint64_t payload_xxh3 = 0;  // of bytes [header_size, file_size)
  std::uint64_t index_xxh3 = 0;    // of the index section, wherever the format puts it
  std::uint64_t header_xxh3 = 0;   // of header bytes [0, header_size - 8); set by seal, read by the checks
};

// Writes the frame's fields into `header` (f.header_size bytes, the format's own fields already
// written), then the header checksum over everything before it. Returns that checksum.
std::uint64_t seal(unsigned char* header, const Format& f, const Frame& frame);

// The first checks of a file of `size` bytes whose first `available` bytes (all of them, or at
// least the header's where the file has that many) are at `head`: at least 8 bytes and the magic
// ("PATH is not a NAME"), at least 16 bytes ("truncated"), the version from 1 to newest_version.
// Returns the version. A format with a check of its own that must come before the checksum's
// (an old version refused with advice) makes it between this and check_sealed.
std::uint32_t check_magic_and_version(const unsigned char* head, std::uint64_t available, std::uint64_t size,
                                      const Format& f, const std::string& path);
// The rest, once check_magic_and_version passed: the header size the format's, the whole header
// there, its checksum, and the file exactly the size the header gives.
Frame check_sealed(const unsigned char* head, std::uint64_t available, std::uint64_t size, const Format& f,
                   const std::string& path);
// Both, in that order.
Frame check_frame(const unsigned char* head, std::uint64_t available, std::uint64_t size, const Format& f,
                  const std::string& path);

// "PATH: WHAT (the file is damaged)", the one form of every damage found in a table file.
[[noreturn]] void damaged(const std::string& path, const std::string& what);

// A text field of `size` bytes: printable ASCII, then NULs. put_text writes at least one NUL (a
// text of `size` bytes or more throws GonuError "table header: NAME 'TEXT' is too long"; the
// field starts zeroed). get_text refuses any other byte, and a byte after the first NUL that is
// not NUL ("a header text field is not NUL-padded printable ASCII").
void put_text(unsigned char* field, std::size_t size, const std::string& text, const char* name);
std::string get_text(const unsigned char* field, std::size_t size, const std::string& path);
// Reserved bytes, which a writer leaves zero: "reserved header bytes are not zero (NAME)".
void check_zero(const unsigned char* field, std::size_t size, const char* name, const std::string& path);

// The index section's `size` bytes at `index` against the header's index_xxh3 ("index checksum
// mismatch").
void check_index_xxh3(const unsigned char* index, std::uint64_t size, std::uint64_t expected, const std::string& path);

// The block offsets of an index: block b of `blocks` spans [start(b), start(b + 1)) of a section
// of `end` bytes, start(blocks) being where the last block ends (a format whose index does not
// store that gives `end`). Refuses unless start(0) = 0, every block has at least `min_len` bytes
// and the last ends at `end`: "index entry B is out of order", "index entry B points past the
// SECTION", "the index does not end at the SECTION's end". No subtraction comes before the
// comparison that keeps it from wrapping around, so any 64-bit offsets are safe.
template <class Start>
void check_block_starts(std::uint64_t blocks, Start&& start, std::uint64_t end, std::uint64_t min_len,
                        const char* section, const std::string& path) {
  std::uint64_t prev = 0;
  for (std::uint64_t b = 0; b <= blocks; ++b) {
    const std::uint64_t at = start(b);
    if (b == 0 ? at != 0 : (at < prev || at - prev < min_len))
      damaged(path, "index entry " + std::to_string(b) + " is out of order");
    if (at > end || (b < blocks && end - at < min_len))
      damaged(path, "index entry " + std::to_string(b) + " points past the " + section);
    prev = at;
  }
  if (prev != end) damaged(path, std::string("the index does not end at the ") + section + "'s end");
}

}  // namespace gonu::table_container
