// The Jungi table header's encoder and decoder, and the checks a reader makes on the header and
// the index before it uses any offset (internal to solver/jungi/table/). The header's frame
// (magic, version, sizes, the three checksums) and the index's checks are the shared
// container's (solver/container/frame.hpp); the fields between are Jungi's.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "solver/container/frame.hpp"
#include "solver/jungi/table/table_file.hpp"

namespace gonu::jungi {

// What tells a Jungi table from another file, for the container's checks.
inline constexpr table_container::Format kJungiFormat{{'G', 'O', 'N', 'U', '-', 'J', 'N', 'G'},
                                                      kJungiTableHeaderSize, kJungiTableFormatVersion,
                                                      "gonu Jungi table", "Jungi table format"};

// The 320 bytes of `h` (magic, codec and header checksum filled in: the container seals it).
std::array<unsigned char, kJungiTableHeaderSize> encode_header(const TableFileHeader& h);
// Decodes the header of a file of `size` bytes whose first `available` bytes (all of them, or
// the header's at least, where the file has them) are at `d`: the container's frame (magic,
// version, header size, header checksum, file size), then text fields, rules, material, layout
// version, zero bytes. Throws GonuError with one line.
TableFileHeader decode_header(const std::string& path, const unsigned char* d, std::uint64_t available, std::uint64_t size);
// The counts and the layout against the material's number of indices and the file's size.
void check_header_counts(const std::string& path, const TableFileHeader& h, std::uint64_t expected_indices);
// The index section's bytes (8 × (blocks + 1) at `index`): its checksum, then each block offset
// ascending and inside the data, the last at its end (the container's checks).
void check_index(const std::string& path, const TableFileHeader& h, const unsigned char* index);

}  // namespace gonu::jungi
