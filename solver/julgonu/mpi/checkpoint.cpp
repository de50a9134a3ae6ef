// The restart point files (checkpoint.hpp). A file: a header (magic, signature, the Part's scalars,
// the sizes of its arrays) and then the arrays' bytes as they lie in memory: the bitmap's lines,
// the cells' two arrays, the frontier, the terminal lists and the level lists. Read back on the
// same machine type only (the bytes are native-endian), as a cluster's nodes are.
#include "solver/julgonu/mpi/checkpoint.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>

#include "core/error.hpp"
#include "util/atomic_file.hpp"

namespace gonu::mpi {

namespace {

constexpr char kMagic[] = "gonu-mpi-part/1\n";

std::string file_of(const std::string& dir, int rank, std::uint32_t step) {
  return dir + "/part-" + std::to_string(rank) + ".step-" + std::to_string(step);
}

template <class T>
void put(std::string& out, const T& x) {
  out.append(reinterpret_cast<const char*>(&x), sizeof(T));
}

// The Part's arrays in file order (their sizes go in the header in the same order).
std::vector<const Boards*> lists(const Part& pt) {
  return {&pt.frontier, &pt.terminal[0], &pt.terminal[1], &pt.level[0][0], &pt.level[0][1], &pt.level[1][0],
          &pt.level[1][1]};
}

struct File {
  std::FILE* f;
  std::string path;
  void read(void* to, std::size_t bytes) const {
    if (bytes && std::fread(to, 1, bytes, f) != bytes) throw GonuError("restart point " + path + " is cut short");
  }
  template <class T>
  T get() const {
    T x;
    read(&x, sizeof(T));
    return x;
  }
};

}  // namespace

void save_part(const std::string& dir, const std::string& signature, int rank, const Part& pt) {
  std::filesystem::create_directories(dir);
  std::string head(kMagic);
  put(head, std::uint64_t(signature.size()));
  head += signature;
  for (const std::uint64_t x : {pt.lo, pt.hi, std::uint64_t(pt.stage), std::uint64_t(pt.side), std::uint64_t(pt.step),
                                std::uint64_t(pt.levels), std::uint64_t(pt.d), pt.states, pt.edges,
                                std::uint64_t(pt.bits.bytes()), pt.cells.size()})
    put(head, x);
  const auto l = lists(pt);
  for (const Boards* b : l) put(head, std::uint64_t(b->size()));
  auto range = [](const Boards* b) { return ByteRange{b->data(), b->size() * 8}; };
  try {
    write_file_atomically(file_of(dir, rank, pt.step),
                          {ByteRange{head.data(), head.size()}, ByteRange{pt.bits.raw(), pt.bits.bytes()},
                           ByteRange{pt.cells.raw_state(), pt.cells.size()},
                           ByteRange{pt.cells.raw_dist(), pt.cells.size() * 2}, range(l[0]), range(l[1]), range(l[2]),
                           range(l[3]), range(l[4]), range(l[5]), range(l[6])});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write restart point " + file_of(dir, rank, pt.step) + ": " + e.what());
  }
}

void remove_part(const std::string& dir, int rank, std::uint32_t step) {
  std::error_code ignored;
  std::filesystem::remove(file_of(dir, rank, step), ignored);
}

std::optional<std::uint32_t> newest_step(const std::string& dir, int rank) {
  std::optional<std::uint32_t> newest;
  std::error_code e;
  const std::regex name("part-" + std::to_string(rank) + "\\.step-([0-9]+)");
  for (const auto& entry : std::filesystem::directory_iterator(dir, e)) {
    std::smatch m;
    const std::string base = entry.path().filename().string();
    if (!std::regex_match(base, m, name)) continue;
    const auto step = std::uint32_t(std::stoul(m[1].str()));
    if (!newest || step > *newest) newest = step;
  }
  return newest;
}

void load_part(const std::string& dir, const std::string& signature, int rank, std::uint32_t step, Part& pt) {
  const std::string path = file_of(dir, rank, step);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw GonuError("cannot read restart point " + path);
  const File in{f.get(), path};
  std::string magic(sizeof(kMagic) - 1, '\0');
  in.read(magic.data(), magic.size());
  if (magic != kMagic) throw GonuError(path + " is not a gonu restart point");
  const auto length = in.get<std::uint64_t>();
  if (length > 4096) throw GonuError(path + " is not a gonu restart point");
  std::string sig(std::size_t(length), '\0');
  in.read(sig.data(), sig.size());
  if (sig != signature)
    throw GonuError("restart point " + path + " is of another run (" + sig + "), not of this one (" + signature + ")");
  std::uint64_t x[11];
  for (auto& v : x) v = in.get<std::uint64_t>();
  if (x[0] != pt.lo || x[1] != pt.hi) throw GonuError("restart point " + path + " holds other ids");
  pt.stage = Stage(x[2]);
  pt.side = Side(x[3]);
  pt.step = std::uint32_t(x[4]);
  pt.levels = std::uint32_t(x[5]);
  pt.d = std::uint32_t(x[6]);
  pt.states = x[7];
  pt.edges = x[8];
  pt.bits = dense::RankedBits(pt.hi - pt.lo);
  if (x[9] != pt.bits.bytes()) throw GonuError("restart point " + path + " has a bitmap of another size");
  pt.cells = dense::CompactCells(x[10]);
  std::uint64_t sizes[7];
  for (auto& v : sizes) v = in.get<std::uint64_t>();
  in.read(pt.bits.raw(), pt.bits.bytes());
  in.read(pt.cells.raw_state(), pt.cells.size());
  in.read(pt.cells.raw_dist(), pt.cells.size() * 2);
  Boards* l[7] = {&pt.frontier, &pt.terminal[0], &pt.terminal[1], &pt.level[0][0], &pt.level[0][1], &pt.level[1][0],
                  &pt.level[1][1]};
  for (int i = 0; i < 7; ++i) {
    l[i]->resize(std::size_t(sizes[i]));
    in.read(l[i]->data(), l[i]->size() * 8);
  }
  pt.bits.finish();
}

}  // namespace gonu::mpi
