// A plain reference for the table container (solver/container/CONTAINER.md), written apart from
// solver/container/: a header's frame built byte by byte, the frame's rules as one function that
// names the first rule a header breaks, and the index's block offsets judged by their lengths in
// 128-bit arithmetic, where nothing can wrap around. The container's code is fast and careful
// about overflow; this is slow and obvious, so that the two agree only if both follow the rules.
#pragma once
#include <xxhash.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gonu::plain_container {

using Bytes = std::vector<unsigned char>;

inline void put(Bytes& b, std::size_t at, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + std::size_t(i)] = static_cast<unsigned char>((v >> (8 * i)) & 0xFF);
}
inline std::uint64_t get(const Bytes& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v * 256 + b[at + std::size_t(i)];
  return v;
}

// A header of `header_size` bytes: magic, version, header size, file size, the payload's and
// the index's checksums, `body` from byte 40, and the XXH3 of everything before the last 8.
inline Bytes frame(const std::string& magic, std::uint32_t version, std::uint32_t header_size, std::uint64_t file_size,
                   std::uint64_t payload_xxh3, std::uint64_t index_xxh3, const Bytes& body = {}) {
  Bytes b(header_size, 0);
  for (std::size_t i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(magic[i]);
  put(b, 8, version, 4);
  put(b, 12, header_size, 4);
  put(b, 16, file_size, 8);
  put(b, 24, payload_xxh3, 8);
  put(b, 32, index_xxh3, 8);
  for (std::size_t i = 0; i < body.size() && 40 + i < header_size - 8; ++i) b[40 + i] = body[i];
  put(b, header_size - 8, XXH3_64bits(b.data(), header_size - 8), 8);
  return b;
}

// The first rule a file of `size` bytes whose first bytes are `head` breaks, as the phrase the
// container's message holds, or "" if it breaks none (CONTAINER.md, "Checks").
inline std::string first_broken(const Bytes& head, std::uint64_t size, const std::string& magic, std::uint32_t newest,
                                std::uint32_t header_size) {
  if (head.size() < 8) return "is not a";
  if (std::string(head.begin(), head.begin() + 8) != magic) return "magic";
  if (head.size() < 16) return "less than a table header";
  const std::uint64_t version = get(head, 8, 4);
  if (version > newest) return "is newer than this gonu reads";
  if (version == 0) return "format version 0";
  if (get(head, 12, 4) != header_size) return "header size";
  if (head.size() < header_size) return "-byte header";
  if (XXH3_64bits(head.data(), header_size - 8) != get(head, header_size - 8, 8)) return "header checksum mismatch";
  const std::uint64_t file_size = get(head, 16, 8);
  if (size < file_size) return "is truncated";
  if (size > file_size) return "bytes past the end";
  return "";
}

// Whether `starts` (block b's first byte, then one past the last block's last) describe blocks of
// at least `min_len` bytes each from 0 to `end`.
inline bool block_starts_ok(const std::vector<std::uint64_t>& starts, std::uint64_t end, std::uint64_t min_len) {
  if (starts.empty() || starts.front() != 0 || starts.back() != end) return false;
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
    const __int128 len = __int128(starts[b + 1]) - __int128(starts[b]);
    if (len < __int128(min_len)) return false;
  }
  return true;
}

}  // namespace gonu::plain_container
