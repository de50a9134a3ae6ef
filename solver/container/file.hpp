// The table container's files (CONTAINER.md): opening a table file for reading (a regular file
// only), bounded reads at offsets, the header read before anything else, the payload's XXH3 over
// bytes read back a chunk at a time, and the writer's side: whether a path may be written, and
// util/atomic_file's errors as one line naming the table.
//
// Invariants: a file is read only through a descriptor of a regular file (a FIFO or a device is
// refused before anything waits on it); read_head reads and allocates at most the format's header
// size, whatever size the file claims; every failure is a GonuError of one line naming the file.
#pragma once
#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "solver/container/frame.hpp"
#include "util/atomic_file.hpp"

namespace gonu::table_container {

// A table file open for reading: its descriptor, closed with it, and its fstat at opening.
class OpenFile {
 public:
  OpenFile(int fd, const struct stat& st) : fd_(fd), st_(st) {}
  OpenFile(OpenFile&& o) noexcept : fd_(std::exchange(o.fd_, -1)), st_(o.st_) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  OpenFile& operator=(OpenFile&&) = delete;
  ~OpenFile();
  int fd() const { return fd_; }
  const struct stat& stat() const { return st_; }
  std::uint64_t size() const { return std::uint64_t(st_.st_size); }

 private:
  int fd_;
  struct stat st_;
};

// Opens `path`, a regular file: "PATH is not a NAME: not a regular file (a FIFO)" for another
// kind, "cannot open table PATH: WHY" if it cannot be opened.
OpenFile open_file(const std::string& path, const Format& f);
// Reads `size` bytes at `offset` into `out`, fewer only where the file ends; returns how many.
// "cannot read table PATH: WHY" on a read error.
std::uint64_t read_at(int fd, const std::string& path, std::uint64_t offset, unsigned char* out, std::uint64_t size);
// The first min(header_size, file size) bytes of `file`, for the frame's checks: a file of any
// claimed size costs a header's bytes to refuse.
std::vector<unsigned char> read_head(const OpenFile& file, const Format& f, const std::string& path);
// Whether `path` is a readable regular file whose first 8 bytes are f's magic (false for a
// missing file, a FIFO or a device, none of which is opened for reading).
bool starts_with_magic(const std::string& path, const Format& f);

// XXH3-64 of bytes [from, to), each chunk of at most `chunk` bytes given by read(at, out, len):
// a payload hashed as it lies on disk (written, then read back) with a buffer of one chunk.
using ReadAt = std::function<void(std::uint64_t at, unsigned char* out, std::size_t len)>;
std::uint64_t xxh3_of_range(std::uint64_t from, std::uint64_t to, const ReadAt& read,
                            std::size_t chunk = std::size_t(1) << 22);

// "cannot write table PATH: WHY", the one form of a writer's failure.
GonuError write_error(const std::string& path, const std::string& why);
// Whether a table could be written at `path` (util/atomic_file's check_atomic_target), asked
// before a long solve; throws write_error.
void check_writable(const std::string& path);
// Runs write(); util/atomic_file's FileWriteError becomes write_error, so that a writer's
// failures all read the same.
template <class Write>
decltype(auto) writing(const std::string& path, Write&& write) {
  try {
    return write();
  } catch (const FileWriteError& e) {
    throw write_error(path, e.what());
  }
}

}  // namespace gonu::table_container
