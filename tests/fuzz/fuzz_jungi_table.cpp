// libFuzzer target: the Jungi table reader (TableFile::open, value, load, payload_checksum_ok,
// dont_care_error) on arbitrary file bytes, and the lookup of a directory of tables
// (jungi::Tables: the bytes as the file of +Kv+K beside a good Kv+K, asked a Kv+K position whose
// King's promotion reads it, and a position of +Kv+K itself). Each input is tried twice: as given, and "restamped" -
// file_size set to the real size and the index, payload and header checksums recomputed by the
// layout of solver/jungi/table/FORMAT.md ("Jungi table files") - since a random mutation almost never survives
// the XXH3 checks, and the reader's field, layout and block checks (an .xz stream, or in the
// corpus's format 2 files a zstd frame) lie behind them. Only
// GonuError is an accepted outcome; any other exception or a sanitizer report is a finding, and
// so is a table whose values read one by one differ from the values load() gives.
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <tbb/global_control.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "solver/jungi/table/tables.hpp"

namespace {

std::uint64_t load(const std::vector<unsigned char>& f, std::size_t off) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(f[off + std::size_t(i)]) << (8 * i);
  return v;
}

void store(std::vector<unsigned char>& f, std::size_t off, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) f[off + std::size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
}

// The checksums and file_size made to match the bytes; false if the file is too short for them.
bool restamp(std::vector<unsigned char>& f) {
  if (f.size() < 320) return false;
  store(f, 16, f.size());
  const std::uint64_t blocks = load(f, 264);
  if (blocks < f.size() / 8 && 320 + 8 * (blocks + 1) <= f.size())
    store(f, 32, XXH3_64bits(f.data() + 320, std::size_t(8 * (blocks + 1))));
  store(f, 24, XXH3_64bits(f.data() + 320, f.size() - 320));
  store(f, 312, XXH3_64bits(f.data(), 312));
  return true;
}

void write_file(const std::string& path, const unsigned char* data, std::size_t size) {
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) std::abort();
  if (size && std::fwrite(data, 1, size, out) != size) std::abort();
  std::fclose(out);
}

void exercise(const std::string& path) {
  try {
    const gonu::jungi::TableFile t = gonu::jungi::TableFile::open(path);
    t.payload_checksum_ok();
    const auto table = t.load();
    t.dont_care_error();
    const std::uint64_t n = t.header().indices;
    // A loaded table keeps the file's don't-cares at invalid indices (load() decodes no index):
    // only valid indices must agree.
    for (std::uint64_t i = 0; i < n; i += 1 + n / 512) {
      const gonu::jungi::Value v = t.value(i);
      if (v.result != gonu::jungi::Result::invalid && !(v == table->value(i))) std::abort();
    }
  } catch (const gonu::GonuError&) {
  }
}

// A directory holding a good Kv+K table, made once; each input becomes its +Kv+K file.
const std::string& table_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string d = std::string(tmp && *tmp ? tmp : "/tmp") + "/gonu-fuzz-jungi-dir-" + std::to_string(getpid());
    if (mkdir(d.c_str(), 0700) != 0) std::abort();
    gonu::jungi::TableSet set{gonu::jungi::Rules{}};
    const gonu::jungi::Material m = gonu::jungi::parse_material("Kv+K");
    set.solve(m);
    gonu::jungi::write_table_file(d + "/" + gonu::jungi::table_file_name(m, set.rules()), *set.find(m), set.rules());
    return d;
  }();
  return dir;
}

void exercise_directory(const std::uint8_t* data, std::size_t size) {
  const gonu::jungi::Rules r;
  write_file(table_dir() + "/" + gonu::jungi::table_file_name(gonu::jungi::parse_material("+Kv+K"), r), data, size);
  try {
    const gonu::jungi::Tables tables({table_dir()}, std::uint64_t{1} << 20);
    tables.query(r, gonu::jungi::parse_position(r, "9/9/9/4K4/9/9/9/9/+k8 s -"));
    tables.probe(r, gonu::jungi::parse_position(r, "9/9/9/4+K4/9/9/9/9/+k8 n -"));
  } catch (const gonu::GonuError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/gonu-fuzz-jungi-table-" + std::to_string(getpid()) + ".gonu";
  }();
  write_file(path, data, size);
  exercise(path);
  exercise_directory(data, size);
  std::vector<unsigned char> f(data, data + size);
  if (restamp(f) && !std::equal(f.begin(), f.end(), data)) {
    write_file(path, f.data(), f.size());
    exercise(path);
    exercise_directory(f.data(), f.size());
  }
  return 0;
}
