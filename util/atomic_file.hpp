// Atomic file replacement: a reader of the target (or a crash, a kill -9, a full disk) sees the
// old file or the whole new one, never a part. The bytes go to a temporary file in the target's
// directory (the same file system, so the final step is atomic): an unnamed one (O_TMPFILE) where
// the file system supports it, which vanishes by itself if the writer dies, otherwise one named
// TARGET.gonu-tmp-PID-RANDOM, removed on every error path, on SIGINT, SIGTERM and SIGHUP (where
// the program leaves their action at the default) and, if its writer died otherwise, by the next
// write of the same target. Then fsync, link or rename into place, and fsync of the directory.
//
// Only a missing target or an existing writable regular file is replaced: a symbolic link, a
// directory, a FIFO, a device node, a socket or a read-only file is refused, so that a write never
// goes through a link or into a device, and never silently replaces what its owner protected.
//
// write_file_atomically writes bytes held in memory; AtomicFileWriter is the same file written in
// place, piece by piece (at offsets, from many threads), for files too large to hold in memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>

namespace gonu {

// A one-line reason, without the target's name (callers say what they were writing, e.g.
// "cannot write table T: " + what()); util/ knows nothing of gonu's error type.
struct FileWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ByteRange {
  const void* data = nullptr;
  std::size_t size = 0;
};

// How the temporary file is made: `any` tries an unnamed one first; `named` is for tests of the
// fallback path (stale temporaries, errors after the temporary got its name).
enum class TempFileKind { any, named };

// Whether `path` may be replaced by write_file_atomically, checked before long work: the name is
// not empty, the target is missing or a writable regular file, and a temporary file can be made
// in its directory (made and removed at once). Throws FileWriteError saying why not.
void check_atomic_target(const std::string& path, TempFileKind kind = TempFileKind::any);

// Replaces `path` with the concatenation of `parts` as described above, with mode 0666 & ~umask.
// Throws FileWriteError (refused target, or the failing step with its errno text); the target is
// then untouched and no temporary file is left.
void write_file_atomically(const std::string& path, std::initializer_list<ByteRange> parts,
                           TempFileKind kind = TempFileKind::any);

// The temporary file of a replacement of `path`, written in place; commit() puts it there. Made
// with the same refusals as write_file_atomically (the constructor throws FileWriteError); if it
// is destroyed uncommitted (an error on the way), the temporary file is removed and the target is
// untouched. write_at and read_at may be called from many threads at once on disjoint ranges.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::string& path, TempFileKind kind = TempFileKind::any);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // Writes `size` bytes at `offset` of the new file (it grows as needed; a gap reads as zeros).
  void write_at(std::uint64_t offset, const void* data, std::size_t size) const;
  // Reads back `size` bytes written before, at `offset` (for a checksum of what is on disk).
  void read_at(std::uint64_t offset, void* data, std::size_t size) const;
  // fsync, link or rename into place, fsync of the directory. Once only, after the last write.
  void commit();
  // The temporary file's path while it has one (TempFileKind::named), else empty: for other
  // processes that write their parts into it (FileRangeWriter) before this one commits.
  const std::string& temp_path() const;

 private:
  struct Temp;
  std::unique_ptr<Temp> t_;
};

// Another process's writer into the named temporary file of an AtomicFileWriter (temp_path()),
// whose owner commits it once every writer has synced: opens the existing file (never creates
// one); write_at from many threads at once on disjoint ranges. Throws FileWriteError.
class FileRangeWriter {
 public:
  explicit FileRangeWriter(const std::string& path);
  ~FileRangeWriter();
  FileRangeWriter(const FileRangeWriter&) = delete;
  FileRangeWriter& operator=(const FileRangeWriter&) = delete;
  void write_at(std::uint64_t offset, const void* data, std::size_t size) const;
  void sync();  // fsync and close; the writes are on disk when it returns

 private:
  int fd_ = -1;
};

// The prefix of every named temporary file of `path`'s base name: "BASE.gonu-tmp-".
std::string temp_file_prefix(const std::string& base_name);

}  // namespace gonu
