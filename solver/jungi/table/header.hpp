// The Jungi table header's encoder and decoder, and the checks a reader makes on the header and
// the index before it uses any offset (internal to solver/jungi/table/).
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "solver/jungi/table/table_file.hpp"

namespace gonu::jungi {

// The 320 bytes of `h` (magic, codec and header checksum filled in).
std::array<unsigned char, kJungiTableHeaderSize> encode_header(const TableFileHeader& h);
// Decodes the header of a file of `size` bytes whose first `available` bytes (all of them, or
// the header's at least, where the file has them) are at `d`: magic, version, header checksum,
// file size, text fields, rules, material, layout version, zero bytes. Throws GonuError with one
// line.
TableFileHeader decode_header(const std::string& path, const unsigned char* d, std::uint64_t available, std::uint64_t size);
// The counts and the layout against the material's number of indices and the file's size.
void check_header_counts(const std::string& path, const TableFileHeader& h, std::uint64_t expected_indices);
// The index section's bytes (8 × (blocks + 1) at `index`): its checksum, then each block offset
// ascending and inside the data.
void check_index(const std::string& path, const TableFileHeader& h, const unsigned char* index);

}  // namespace gonu::jungi
