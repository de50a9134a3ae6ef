// Atomic file replacement (see atomic_file.hpp): the target check, the temporary file (unnamed or
// named), the stale-temporary sweep, and the writes, fsync, link or rename, fsync of the directory.
// AtomicFileWriter holds the steps; write_file_atomically is one writer given its parts in order.
// The temporary is opened for reading too, so that a writer can hash what it wrote.
#include "util/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>

namespace gonu {

namespace {

[[noreturn]] void fail(const std::string& step, int err) { throw FileWriteError(step + ": " + std::strerror(err)); }

struct PathParts {
  std::string dir, base;
};

PathParts split_path(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// The target must be missing, or a regular file its owner lets us write.
void check_target(const std::string& path) {
  if (path.empty()) throw FileWriteError("the file name is empty");
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;  // a missing directory is reported when the temporary is made
    fail("stat", errno);
  }
  const char* kind = S_ISLNK(st.st_mode)                          ? "a symbolic link"
                     : S_ISDIR(st.st_mode)                        ? "a directory"
                     : S_ISFIFO(st.st_mode)                       ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device node"
                     : S_ISSOCK(st.st_mode)                       ? "a socket"
                     : S_ISREG(st.st_mode)                        ? nullptr
                                                                  : "not a regular file";
  if (kind) throw FileWriteError(std::string("it is ") + kind + ", not a regular file; refusing to replace it");
  // The mode bits too, since access() says yes to root whatever they are.
  if ((st.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0)
    throw FileWriteError("it is read-only; refusing to replace it");
}

std::string random_hex() {
  static std::random_device rd;
  const std::uint64_t v = (std::uint64_t(rd()) << 32) ^ rd();
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// A fresh temporary name beside the target: DIR/BASE.gonu-tmp-PID-RANDOM.
std::string temp_name(const PathParts& p) {
  return p.dir + "/" + temp_file_prefix(p.base) + std::to_string(::getpid()) + "-" + random_hex();
}

// The named temporaries of this process, for the handler of the stop signals (SIGINT, SIGTERM,
// SIGHUP), which removes them before the process ends as the signal would end it: a writer stopped
// mid-write (the MPI writer's named temporary included) leaves nothing. The handler reads only
// lock-free atomics and fixed buffers; it is installed where the signal's action is the default,
// so a program that handles the signal itself (gonu serve) keeps its own handling.
struct TempSlot {
  std::atomic<bool> taken{false};
  std::atomic<bool> ready{false};
  char path[4096] = {};
};
constexpr int kTempSlots = 64;
TempSlot g_temp_slots[kTempSlots];
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

void remove_temps_and_stop(int sig) {
  for (TempSlot& s : g_temp_slots)
    if (s.ready.load()) ::unlink(s.path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Checked at every new name (three system calls), so that a signal whose action became the
// default since is covered too.
void install_stop_handlers() {
  for (int sig : kStopSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temps_and_stop;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

int register_temp(const std::string& name) {
  if (name.size() >= sizeof TempSlot::path) return -1;
  install_stop_handlers();
  for (int i = 0; i < kTempSlots; ++i) {
    bool free = false;
    if (!g_temp_slots[i].taken.compare_exchange_strong(free, true)) continue;
    std::memcpy(g_temp_slots[i].path, name.c_str(), name.size() + 1);
    g_temp_slots[i].ready.store(true);
    return i;
  }
  return -1;  // more temporaries at once than slots: this one is left to the next write's sweep
}

void unregister_temp(int slot) {
  if (slot < 0) return;
  g_temp_slots[slot].ready.store(false);
  g_temp_slots[slot].taken.store(false);
}

// The temporary file: its descriptor and, when it has one, its name. The destructor closes it and
// removes the name, so every error path leaves nothing; forget_name() once it is moved into place.
struct TempFile {
  int fd = -1;
  std::string name;
  int slot = -1;  // its place among the names the stop signals remove
  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!name.empty()) ::unlink(name.c_str());
    unregister_temp(slot);
  }
  void set_name(std::string n) {
    name = std::move(n);
    slot = register_temp(name);
  }
  void forget_name() {
    unregister_temp(std::exchange(slot, -1));
    name.clear();
  }
};

// An unnamed file in `dir`, if the file system has O_TMPFILE and /proc can give it a name later.
bool open_unnamed(const PathParts& p, TempFile& t) {
#ifdef O_TMPFILE
  if (::access("/proc/self/fd", X_OK) != 0) return false;
  t.fd = ::open(p.dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
  return t.fd >= 0;
#else
  (void)p;
  (void)t;
  return false;
#endif
}

void open_named(const PathParts& p, TempFile& t) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = temp_name(p);
    t.fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // umask applies
    if (t.fd >= 0) {
      t.set_name(std::move(name));
      return;
    }
    if (errno != EEXIST) fail("cannot create a temporary file in " + p.dir, errno);
  }
  fail("cannot create a temporary file in " + p.dir, EEXIST);
}

void open_temp(const PathParts& p, TempFileKind kind, TempFile& t) {
  if (kind == TempFileKind::any && open_unnamed(p, t)) return;
  open_named(p, t);
}

// Removes BASE.gonu-tmp-PID-* files whose writer PID is no longer running (killed mid-write).
void remove_stale_temps(const PathParts& p) {
  DIR* d = ::opendir(p.dir.c_str());
  if (!d) return;
  const std::string prefix = temp_file_prefix(p.base);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const char* digits = name.c_str() + prefix.size();
    char* end = nullptr;
    const long pid = std::strtol(digits, &end, 10);
    if (end == digits || *end != '-' || pid <= 0) continue;
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::unlinkat(::dirfd(d), name.c_str(), 0);
  }
  ::closedir(d);
}

// pwrite until every byte is written (a short write is retried from where it stopped).
void write_all_at(int fd, std::uint64_t offset, const void* data, std::size_t size) {
  const char* q = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t w = ::pwrite(fd, q, size, off_t(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) fail("write", errno);
    if (w == 0) fail("write", EIO);
    q += w;
    size -= std::size_t(w);
    offset += std::uint64_t(w);
  }
}

void read_all_at(int fd, std::uint64_t offset, void* data, std::size_t size) {
  char* q = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t r = ::pread(fd, q, size, off_t(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail("read back", errno);
    if (r == 0) fail("read back", EIO);  // past the end: nothing was written there
    q += r;
    size -= std::size_t(r);
    offset += std::uint64_t(r);
  }
}

// Gives the unnamed file a name: the target itself if it is missing, else a temporary name that
// is then renamed over the target (link cannot replace). Between the link and the rename a kill
// leaves a named temporary, which the next write removes.
void link_unnamed(const PathParts& p, const std::string& path, TempFile& t) {
  const std::string proc = "/proc/self/fd/" + std::to_string(t.fd);
  if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0) return;
  if (errno != EEXIST) fail("link", errno);
  for (int attempt = 0;; ++attempt) {
    std::string name = temp_name(p);
    if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      t.set_name(std::move(name));
      break;
    }
    if (errno != EEXIST || attempt == 100) fail("link", errno);
  }
  if (::rename(t.name.c_str(), path.c_str()) != 0) fail("rename", errno);
  t.forget_name();
}

void install_named(const std::string& path, TempFile& t) {
  const int fd = std::exchange(t.fd, -1);
  if (::close(fd) != 0) fail("close", errno);
  if (::rename(t.name.c_str(), path.c_str()) != 0) fail("rename", errno);
  t.forget_name();
}

// Makes the new directory entry durable (best effort: some file systems refuse a directory fsync).
void sync_directory(const PathParts& p) {
  const int dfd = ::open(p.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return;
  ::fsync(dfd);
  ::close(dfd);
}

}  // namespace

std::string temp_file_prefix(const std::string& base_name) { return base_name + ".gonu-tmp-"; }

void check_atomic_target(const std::string& path, TempFileKind kind) {
  check_target(path);
  TempFile probe;  // made and removed: the directory exists and takes new files
  open_temp(split_path(path), kind, probe);
}

struct AtomicFileWriter::Temp {
  std::string path;
  PathParts parts;
  TempFile file;
};

AtomicFileWriter::AtomicFileWriter(const std::string& path, TempFileKind kind) : t_(std::make_unique<Temp>()) {
  check_target(path);
  t_->path = path;
  t_->parts = split_path(path);
  remove_stale_temps(t_->parts);
  open_temp(t_->parts, kind, t_->file);
}

AtomicFileWriter::~AtomicFileWriter() = default;  // TempFile closes and removes what is left

void AtomicFileWriter::write_at(std::uint64_t offset, const void* data, std::size_t size) const {
  write_all_at(t_->file.fd, offset, data, size);
}

void AtomicFileWriter::read_at(std::uint64_t offset, void* data, std::size_t size) const {
  read_all_at(t_->file.fd, offset, data, size);
}

void AtomicFileWriter::commit() {
  TempFile& t = t_->file;
  if (::fsync(t.fd) != 0) fail("fsync", errno);
  if (t.name.empty()) link_unnamed(t_->parts, t_->path, t);
  else install_named(t_->path, t);
  sync_directory(t_->parts);
}

const std::string& AtomicFileWriter::temp_path() const { return t_->file.name; }

FileRangeWriter::FileRangeWriter(const std::string& path) : fd_(::open(path.c_str(), O_WRONLY | O_CLOEXEC)) {
  if (fd_ < 0) fail("open", errno);
}

FileRangeWriter::~FileRangeWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void FileRangeWriter::write_at(std::uint64_t offset, const void* data, std::size_t size) const {
  write_all_at(fd_, offset, data, size);
}

void FileRangeWriter::sync() {
  if (::fsync(fd_) != 0) fail("fsync", errno);
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail("close", errno);
}

void write_file_atomically(const std::string& path, std::initializer_list<ByteRange> parts, TempFileKind kind) {
  AtomicFileWriter w(path, kind);
  std::uint64_t at = 0;
  for (const ByteRange& r : parts) {
    w.write_at(at, r.data, r.size);
    at += r.size;
  }
  w.commit();
}

}  // namespace gonu
