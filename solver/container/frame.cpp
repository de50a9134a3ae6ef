// The frame's encoder and its checks (frame.hpp), in the order a reader must make them: nothing
// past the first 16 bytes is read before the magic and the version pass, nothing past the header
// before its checksum does.
#include "solver/container/frame.hpp"

#include <xxhash.h>

#include <cstring>

#include "core/error.hpp"
#include "solver/common/bits.hpp"

namespace gonu::table_container {

using table_bits::load32;
using table_bits::load64;
using table_bits::store_le;

namespace {

std::size_t checksum_at(const Format& f) { return f.header_size - kHeaderXxh3Size; }

std::string text_of(const Format& f) { return std::string(f.magic, kMagicSize); }

}  // namespace

std::uint64_t seal(unsigned char* header, const Format& f, const Frame& frame) {
  std::memcpy(header + kMagicAt, f.magic, kMagicSize);
  store_le(header + kVersionAt, frame.version, 4);
  store_le(header + kHeaderSizeAt, f.header_size, 4);
  store_le(header + kFileSizeAt, frame.file_size, 8);
  store_le(header + kPayloadXxh3At, frame.payload_xxh3, 8);
  store_le(header + kIndexXxh3At, frame.index_xxh3, 8);
  const std::uint64_t sum = XXH3_64bits(header, checksum_at(f));
  store_le(header + checksum_at(f), sum, kHeaderXxh3Size);
  return sum;
}

void damaged(const std::string& path, const std::string& what) {
  throw GonuError(path + ": " + what + " (the file is damaged)");
}

std::uint32_t check_magic_and_version(const unsigned char* head, std::uint64_t available, std::uint64_t size,
                                      const Format& f, const std::string& path) {
  if (available < kMagicSize)
    throw GonuError(path + " is not a " + f.name + " (only " + std::to_string(size) + " bytes)");
  if (std::memcmp(head + kMagicAt, f.magic, kMagicSize) != 0)
    throw GonuError(path + " is not a " + f.name + " (no " + text_of(f) + " magic)");
  if (available < kFileSizeAt)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than a table header");
  const std::uint32_t version = load32(head + kVersionAt);
  if (version > f.newest_version)
    throw GonuError(path + ": " + f.version_name + " version " + std::to_string(version) +
                    " is newer than this gonu reads (up to " + std::to_string(f.newest_version) + "); use a newer gonu");
  if (version == 0) damaged(path, "format version 0");
  return version;
}

Frame check_sealed(const unsigned char* head, std::uint64_t available, std::uint64_t size, const Format& f,
                   const std::string& path) {
  const std::uint32_t header_size = load32(head + kHeaderSizeAt);
  if (header_size != f.header_size)
    damaged(path, "header size " + std::to_string(header_size) + ", expected " + std::to_string(f.header_size));
  if (available < f.header_size)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than its " +
                    std::to_string(f.header_size) + "-byte header");
  Frame frame;
  frame.header_xxh3 = load64(head + checksum_at(f));
  if (XXH3_64bits(head, checksum_at(f)) != frame.header_xxh3) damaged(path, "header checksum mismatch");
  frame.version = load32(head + kVersionAt);
  frame.file_size = load64(head + kFileSizeAt);
  frame.payload_xxh3 = load64(head + kPayloadXxh3At);
  frame.index_xxh3 = load64(head + kIndexXxh3At);
  if (size < frame.file_size)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " of " + std::to_string(frame.file_size) + " bytes");
  if (size > frame.file_size)
    damaged(path, std::to_string(size - frame.file_size) + " bytes past the end the header gives (" +
                      std::to_string(frame.file_size) + ")");
  return frame;
}

Frame check_frame(const unsigned char* head, std::uint64_t available, std::uint64_t size, const Format& f,
                  const std::string& path) {
  check_magic_and_version(head, available, size, f, path);
  return check_sealed(head, available, size, f, path);
}

void put_text(unsigned char* field, std::size_t size, const std::string& text, const char* name) {
  // One NUL at least, so that a reader finds the text's end inside the field.
  if (text.size() >= size) throw GonuError(std::string("table header: ") + name + " '" + text + "' is too long");
  std::memcpy(field, text.data(), text.size());
}

std::string get_text(const unsigned char* field, std::size_t size, const std::string& path) {
  std::size_t n = 0;
  while (n < size && field[n] >= 0x20 && field[n] <= 0x7E) ++n;
  for (std::size_t i = n; i < size; ++i)
    if (field[i] != 0) damaged(path, "a header text field is not NUL-padded printable ASCII");
  return std::string(reinterpret_cast<const char*>(field), n);
}

void check_zero(const unsigned char* field, std::size_t size, const char* name, const std::string& path) {
  for (std::size_t i = 0; i < size; ++i)
    if (field[i] != 0) damaged(path, std::string("reserved header bytes are not zero (") + name + ")");
}

void check_index_xxh3(const unsigned char* index, std::uint64_t size, std::uint64_t expected, const std::string& path) {
  if (XXH3_64bits(index, std::size_t(size)) != expected) damaged(path, "index checksum mismatch");
}

}  // namespace gonu::table_container
