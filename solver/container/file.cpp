// Table files on disk (file.hpp): opened through util/regular_file, read with pread (so that
// reads at offsets from many threads share one descriptor), hashed a chunk at a time.
#include "solver/container/file.hpp"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>

#include "util/regular_file.hpp"

namespace gonu::table_container {

OpenFile::~OpenFile() {
  if (fd_ >= 0) ::close(fd_);
}

OpenFile open_file(const std::string& path, const Format& f) {
  std::string why;
  const int fd = open_regular_file(path, why);
  if (fd < 0 && why.starts_with("not a regular file")) throw GonuError(path + " is not a " + f.name + ": " + why);
  if (fd < 0) throw GonuError("cannot open table " + path + ": " + why);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    throw GonuError("cannot open table " + path + ": " + std::strerror(error));
  }
  return OpenFile(fd, st);
}

std::uint64_t read_at(int fd, const std::string& path, std::uint64_t offset, unsigned char* out, std::uint64_t size) {
  std::uint64_t got = 0;
  while (got < size) {
    const ssize_t n = ::pread(fd, out + got, std::size_t(size - got), off_t(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw GonuError("cannot read table " + path + ": " + std::strerror(errno));
    if (n == 0) break;
    got += std::uint64_t(n);
  }
  return got;
}

std::vector<unsigned char> read_head(const OpenFile& file, const Format& f, const std::string& path) {
  std::vector<unsigned char> head(std::size_t(std::min<std::uint64_t>(f.header_size, file.size())));
  // A file that grew since its fstat is read no further than its size then; one that shrank
  // gives fewer bytes, which the checks see as a short header.
  head.resize(std::size_t(read_at(file.fd(), path, 0, head.data(), head.size())));
  return head;
}

bool starts_with_magic(const std::string& path, const Format& f) {
  std::string why;
  const int fd = open_regular_file(path, why);
  if (fd < 0) return false;
  char magic[kMagicSize] = {};
  const bool yes = ::read(fd, magic, kMagicSize) == ssize_t(kMagicSize) && std::memcmp(magic, f.magic, kMagicSize) == 0;
  ::close(fd);
  return yes;
}

std::uint64_t xxh3_of_range(std::uint64_t from, std::uint64_t to, const ReadAt& read, std::size_t chunk) {
  const std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(), XXH3_freeState);
  if (!state) throw std::bad_alloc();
  XXH3_64bits_reset(state.get());
  std::vector<unsigned char> buf(std::size_t(std::min<std::uint64_t>(chunk, to > from ? to - from : 0)));
  for (std::uint64_t at = from; at < to;) {
    const std::size_t len = std::size_t(std::min<std::uint64_t>(buf.size(), to - at));
    read(at, buf.data(), len);
    XXH3_64bits_update(state.get(), buf.data(), len);
    at += len;
  }
  return XXH3_64bits_digest(state.get());
}

GonuError write_error(const std::string& path, const std::string& why) {
  return GonuError("cannot write table " + path + ": " + why);
}

void check_writable(const std::string& path) {
  writing(path, [&] { check_atomic_target(path); });
}

}  // namespace gonu::table_container
