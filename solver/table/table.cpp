// Table files: the writer (atomic, deterministic) and the mmap reader with its checks. The layout
// is in table_format.md; the offsets below are the ones documented there.
#include "solver/table/table.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <unistd.h>

// xxHash inlined (the Debian header supports it): the block check of a lookup hashes a few hundred
// bytes, where the call into the shared library costs as much as the hash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "solver/state/successors.hpp"
#include "solver/verify.hpp"
#include "util/version.hpp"

namespace gonu {

namespace {

constexpr char kMagic[8] = {'G', 'O', 'N', 'U', '-', 'T', 'B', 'L'};
constexpr std::uint32_t kMaxBlockSize = 16384;
constexpr std::uint64_t kPad = 16;  // zero bytes after the keys and after the values

// Header field offsets (table_format.md).
enum : std::size_t {
  kOffMagic = 0, kOffVersion = 8, kOffHeaderSize = 12, kOffFileSize = 16, kOffPayloadHash = 24,
  kOffIndexHash = 32, kOffRows = 40, kOffCols = 41, kOffCapture = 42, kOffCorner = 43,
  kOffRepetition = 44, kOffFirst = 45, kOffTagged = 46, kOffBoardBits = 47, kOffName = 48,
  kOffRulesId = 80, kOffGonuVersion = 128, kOffRootBlack = 144, kOffRootWhite = 152,
  kOffRootSide = 160, kOffRootTag = 164, kOffRootKey = 168, kOffStates = 176, kOffEdges = 184,
  kOffWins = 192, kOffLosses = 200, kOffDraws = 208, kOffMaxDist = 216, kOffValueBits = 218,
  kOffBlockSize = 220, kOffBlocks = 224, kOffIndexOffset = 232, kOffIndexSize = 240,
  kOffKeysOffset = 248, kOffKeysSize = 256, kOffValuesOffset = 264, kOffValuesSize = 272,
  kOffReserved = 280, kOffHeaderHash = 312
};
constexpr std::size_t kNameLen = 32, kRulesIdLen = 48, kVersionLen = 16;

// Little-endian loads and stores, whatever the host.
inline std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}
inline std::uint32_t load32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}
inline std::uint16_t load16(const unsigned char* p) { return std::uint16_t(p[0] | (p[1] << 8)); }
void store(unsigned char* p, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

inline std::uint64_t low_mask(unsigned width) { return width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1; }

// `width` (0..64) bits starting at bit `pos` (bit 0 = lowest bit of byte 0). Reads up to 9 bytes
// from byte pos / 8, so callers keep 16 readable bytes past the data (the sections' padding).
inline std::uint64_t get_bits(const unsigned char* p, std::uint64_t pos, unsigned width) {
  if (width == 0) return 0;
  const unsigned char* q = p + (pos >> 3);
  const unsigned shift = unsigned(pos & 7);
  std::uint64_t v = load64(q) >> shift;
  if (shift + width > 64) v |= std::uint64_t(q[8]) << (64 - shift);
  return v & low_mask(width);
}

void put_bits(std::vector<unsigned char>& buf, std::size_t base, std::uint64_t pos, std::uint64_t value,
              unsigned width) {
  for (unsigned i = 0; i < width; ++i, ++pos)
    if ((value >> i) & 1) buf[base + (pos >> 3)] |= static_cast<unsigned char>(1u << (pos & 7));
}

// Population count without a library call (the build does not assume the POPCNT instruction).
inline unsigned popcount64(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return unsigned((x * 0x0101010101010101ULL) >> 56);
}

unsigned bit_length(std::uint64_t v) { return v == 0 ? 0 : 64u - unsigned(__builtin_clzll(v)); }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

// Elias-Fano parameters of a block's keys after the first: n keys spanning `span` above it.
unsigned ef_lower_bits(std::uint64_t span, std::uint64_t n) {
  if (n == 0) return 0;
  const std::uint64_t q = span / n;
  return q == 0 ? 0 : bit_length(q) - 1;
}

// The block check: XXH3 of the block's key bytes (after the check field), seeded with the block
// number, then of its value bytes seeded with that; the low 32 bits.
std::uint32_t block_check(std::uint64_t b, const unsigned char* key_bytes, std::size_t key_len,
                          const unsigned char* value_bytes, std::size_t value_len) {
  const std::uint64_t h1 = XXH3_64bits_withSeed(key_bytes, key_len, b);
  return std::uint32_t(XXH3_64bits_withSeed(value_bytes, value_len, h1));
}

std::string fixed_string(const unsigned char* p, std::size_t len) {
  std::size_t n = 0;
  while (n < len && p[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(p), n);
}

void put_string(unsigned char* p, const std::string& s, std::size_t len, const char* what) {
  if (s.size() >= len) throw GonuError(std::string("table header: ") + what + " '" + s + "' is too long");
  std::memcpy(p, s.data(), s.size());
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string errno_text() { return std::strerror(errno); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Keys

bool key_is_well_formed(const KeyCodec& c, Key k) {
  const std::uint32_t code = std::uint32_t(k & ((Key(1) << c.tag_bits) - 1));
  k >>= c.tag_bits;
  const int B = c.board_bits;
  const Key board_part = k & ((Key(1) << B) - 1);
  unsigned __int128 p3 = 1;
  for (int i = 0; i < c.board.n; ++i) p3 *= 3;
  if (board_part >= p3) return false;
  if ((k >> B) > 1) return false;  // only the side bit above the board
  if (!c.tagged) return true;
  for (int part = 0; part < 2; ++part) {
    const std::uint32_t v = (code >> (9 * part)) & 511u;
    if (v == 0) continue;
    const int to = int((v - 1) / 4), d = int((v - 1) % 4);
    if (to >= c.board.n || c.board.step[to][reverse_dir(d)] < 0) return false;
  }
  return pack_tag(c.board, unpack_tag(c.board, code)) == code;
}

// ---------------------------------------------------------------------------------------------
// Writer

namespace {

// A new temporary file beside `path` (the same directory, so that the rename is atomic): its
// descriptor, its name in `tmp`.
int open_temp_beside(const std::string& path, std::string& tmp) {
  tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw GonuError("cannot write table " + path + ": " + errno_text());
  return fd;
}

}  // namespace

void check_table_writable(const std::string& path) {
  std::string tmp;
  ::close(open_temp_beside(path, tmp));
  ::unlink(tmp.c_str());
}

std::uint64_t write_table(const std::string& path, const Solution& s) {
  const std::uint64_t n = s.keys.size();
  if (n == 0) throw GonuError("cannot write an empty table");
  if (s.value.size() != n || s.dist.size() != n) throw GonuError("cannot write table: solution arrays differ in size");
  if (uses_tag(s.codec.rules) != s.codec.tagged || s.codec.rules.repetition == Repetition::superko)
    throw GonuError("cannot write a table for repetition " + to_string(s.codec.rules.repetition));
  std::uint32_t max_code = 0;
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i > 0 && s.keys[i - 1] >= s.keys[i]) throw GonuError("cannot write table: keys are not strictly ascending");
    if (s.value[i] == Value::draw && s.dist[i] != 0) throw GonuError("cannot write table: a draw with a distance");
    if (s.value[i] != Value::draw && s.value[i] != Value::win && s.value[i] != Value::loss)
      throw GonuError("cannot write table: an unknown value");
    max_code = std::max(max_code, value_code(s.value[i], s.dist[i]));
    max_dist = std::max(max_dist, s.dist[i]);
    (s.value[i] == Value::win ? wins : s.value[i] == Value::loss ? losses : draws) += 1;
  }
  if (!std::binary_search(s.keys.begin(), s.keys.end(), s.root_key))
    throw GonuError("cannot write table: the root is not among the states");

  const std::uint32_t B = kTableBlockSize;
  const std::uint64_t blocks = ceil_div(n, B);
  const unsigned vb = std::max(1u, bit_length(max_code));

  // Keys: encode every block into one byte string, remembering where each starts.
  std::vector<unsigned char> keys;
  std::vector<std::uint64_t> block_offset(blocks);
  keys.reserve(std::size_t(n * 2));
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t lo = b * B, hi = std::min<std::uint64_t>(n, lo + B);
    const std::uint64_t m = hi - lo, cnt = m - 1;
    const Key first = s.keys[lo];
    const std::uint64_t span = s.keys[hi - 1] - first;
    const unsigned l = ef_lower_bits(span, cnt);
    const std::uint64_t ub = cnt == 0 ? 0 : cnt + (span >> l);
    const std::size_t upper_bytes = std::size_t(ceil_div(ub, 8)), lower_bytes = std::size_t(ceil_div(cnt * l, 8));
    block_offset[b] = keys.size();
    const std::size_t base = keys.size();
    keys.resize(base + 8 + upper_bytes + lower_bytes, 0);
    keys[base + 4] = static_cast<unsigned char>(l);
    store(&keys[base + 6], ub, 2);
    for (std::uint64_t i = 0; i < cnt; ++i) {
      const std::uint64_t v = s.keys[lo + 1 + i] - first;
      const std::uint64_t up = (v >> l) + i;
      keys[base + 8 + (up >> 3)] |= static_cast<unsigned char>(1u << (up & 7));
      put_bits(keys, base + 8 + upper_bytes, i * l, v & low_mask(l), l);
    }
  }
  const std::uint64_t keys_data = keys.size();
  keys.resize(keys.size() + kPad, 0);

  // Values: fixed-width codes.
  const std::uint64_t value_data = ceil_div(n * vb, 8);
  std::vector<unsigned char> values(std::size_t(value_data + kPad), 0);
  for (std::uint64_t i = 0; i < n; ++i) put_bits(values, 0, i * vb, value_code(s.value[i], s.dist[i]), vb);

  // Block checks.
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t start = block_offset[b], end = b + 1 < blocks ? block_offset[b + 1] : keys_data;
    const std::uint64_t m = std::min<std::uint64_t>(n, (b + 1) * B) - b * B;
    const std::uint64_t vstart = b * B * vb / 8, vlen = ceil_div(m * vb, 8);
    store(&keys[start], block_check(b, &keys[start + 4], end - start - 4, &values[vstart], vlen), 4);
  }

  // Index.
  std::vector<unsigned char> index(std::size_t(blocks * 16));
  for (std::uint64_t b = 0; b < blocks; ++b) {
    store(&index[b * 16], s.keys[b * B], 8);
    store(&index[b * 16 + 8], block_offset[b], 8);
  }

  // Header.
  const Rules& r = s.codec.rules;
  unsigned char h[kTableHeaderSize] = {};
  std::memcpy(h + kOffMagic, kMagic, 8);
  store(h + kOffVersion, kTableFormatVersion, 4);
  store(h + kOffHeaderSize, kTableHeaderSize, 4);
  const std::uint64_t index_offset = kTableHeaderSize, keys_offset = index_offset + index.size(),
                      values_offset = keys_offset + keys.size(), file_size = values_offset + values.size();
  store(h + kOffFileSize, file_size, 8);
  h[kOffRows] = static_cast<unsigned char>(r.rows);
  h[kOffCols] = static_cast<unsigned char>(r.cols);
  h[kOffCapture] = r.capture == Capture::line ? 0 : 1;
  h[kOffCorner] = r.corner ? 1 : 0;
  h[kOffRepetition] = static_cast<unsigned char>(r.repetition);
  h[kOffFirst] = r.first == Side::black ? 0 : 1;
  h[kOffTagged] = s.codec.tagged ? 1 : 0;
  h[kOffBoardBits] = static_cast<unsigned char>(s.codec.board_bits);
  put_string(h + kOffName, r.name, kNameLen, "rule set name");
  put_string(h + kOffRulesId, rules_id(r), kRulesIdLen, "rules id");
  put_string(h + kOffGonuVersion, kVersion, kVersionLen, "gonu version");
  store(h + kOffRootBlack, s.root.black, 8);
  store(h + kOffRootWhite, s.root.white, 8);
  h[kOffRootSide] = s.root.to_move == Side::black ? 0 : 1;
  store(h + kOffRootTag, s.codec.tagged ? pack_tag(s.codec.board, s.root_tag) : 0, 4);
  store(h + kOffRootKey, s.root_key, 8);
  store(h + kOffStates, n, 8);
  store(h + kOffEdges, s.edges, 8);
  store(h + kOffWins, wins, 8);
  store(h + kOffLosses, losses, 8);
  store(h + kOffDraws, draws, 8);
  store(h + kOffMaxDist, max_dist, 2);
  h[kOffValueBits] = static_cast<unsigned char>(vb);
  store(h + kOffBlockSize, B, 4);
  store(h + kOffBlocks, blocks, 8);
  store(h + kOffIndexOffset, index_offset, 8);
  store(h + kOffIndexSize, index.size(), 8);
  store(h + kOffKeysOffset, keys_offset, 8);
  store(h + kOffKeysSize, keys.size(), 8);
  store(h + kOffValuesOffset, values_offset, 8);
  store(h + kOffValuesSize, values.size(), 8);
  store(h + kOffIndexHash, XXH3_64bits(index.data(), index.size()), 8);
  XXH3_state_t* st = XXH3_createState();
  if (!st) throw std::bad_alloc();
  XXH3_64bits_reset(st);
  XXH3_64bits_update(st, index.data(), index.size());
  XXH3_64bits_update(st, keys.data(), keys.size());
  XXH3_64bits_update(st, values.data(), values.size());
  store(h + kOffPayloadHash, XXH3_64bits_digest(st), 8);
  XXH3_freeState(st);
  store(h + kOffHeaderHash, XXH3_64bits(h, kOffHeaderHash), 8);

  // Write to a temporary file beside the target, fsync, rename.
  std::string tmp;
  Fd f;
  f.fd = open_temp_beside(path, tmp);
  auto fail = [&](const std::string& what) {
    const std::string why = errno_text();
    ::close(f.fd);
    f.fd = -1;
    ::unlink(tmp.c_str());
    throw GonuError("cannot write table " + path + ": " + what + ": " + why);
  };
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(f.fd, 0666 & ~mask) != 0) fail("chmod");
  auto write_all = [&](const unsigned char* p, std::size_t len) {
    while (len > 0) {
      const ssize_t w = ::write(f.fd, p, len);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail("write");
      p += w;
      len -= std::size_t(w);
    }
  };
  write_all(h, sizeof h);
  write_all(index.data(), index.size());
  write_all(keys.data(), keys.size());
  write_all(values.data(), values.size());
  if (::fsync(f.fd) != 0) fail("fsync");
  if (::close(f.fd) != 0) {
    f.fd = -1;
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw GonuError("cannot write table " + path + ": close: " + why);
  }
  f.fd = -1;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw GonuError("cannot write table " + path + ": rename: " + why);
  }
  // Make the rename durable (best effort).
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return file_size;
}

// ---------------------------------------------------------------------------------------------
// Reader

Table::Table(Table&& o) noexcept { *this = std::move(o); }

Table& Table::operator=(Table&& o) noexcept {
  if (this != &o) {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
    path_ = std::move(o.path_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    h_ = std::move(o.h_);
    codec_ = o.codec_;
    guide_ = std::move(o.guide_);
    guide_base_ = o.guide_base_;
    guide_shift_ = o.guide_shift_;
  }
  return *this;
}

Table::~Table() {
  if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
}

void Table::damaged(const std::string& what) const {
  throw GonuError(path_ + ": " + what + " (the file is damaged)");
}

Table Table::open(const std::string& path) {
  Table t;
  t.path_ = path;
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) throw GonuError("cannot open table " + path + ": " + errno_text());
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw GonuError("cannot open table " + path + ": " + errno_text());
  if (!S_ISREG(st.st_mode)) throw GonuError(path + " is not a gonu table (not a regular file)");
  const std::uint64_t size = std::uint64_t(st.st_size);
  if (size < 8) throw GonuError(path + " is not a gonu table (only " + std::to_string(size) + " bytes)");
  void* m = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, f.fd, 0);
  if (m == MAP_FAILED) throw GonuError("cannot map table " + path + ": " + errno_text());
  t.data_ = static_cast<const unsigned char*>(m);
  t.size_ = size;
  ::madvise(m, size, MADV_RANDOM);
  const unsigned char* d = t.data_;

  if (std::memcmp(d + kOffMagic, kMagic, 8) != 0) throw GonuError(path + " is not a gonu table (no GONU-TBL magic)");
  if (size < kOffVersion + 8)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than a table header");
  TableHeader& h = t.h_;
  h.format_version = load32(d + kOffVersion);
  if (h.format_version > kTableFormatVersion)
    throw GonuError(path + ": table format version " + std::to_string(h.format_version) +
                    " is newer than this gonu reads (up to " + std::to_string(kTableFormatVersion) +
                    "); use a newer gonu");
  if (h.format_version == 0) t.damaged("format version 0");
  if (h.format_version == 1 && size > kOffTagged && d[kOffTagged] == 1)
    throw GonuError(path + ": table format version 1 keeps tagged state keys in an older layout; "
                    "solve again with gonu solve --out to write this table in the current format");
  if (load32(d + kOffHeaderSize) != kTableHeaderSize)
    t.damaged("header size " + std::to_string(load32(d + kOffHeaderSize)) + ", expected " +
              std::to_string(kTableHeaderSize));
  if (size < kTableHeaderSize)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " bytes, less than its " +
                    std::to_string(kTableHeaderSize) + "-byte header");
  h.header_xxh3 = load64(d + kOffHeaderHash);
  if (XXH3_64bits(d, kOffHeaderHash) != h.header_xxh3) t.damaged("header checksum mismatch");
  h.file_size = load64(d + kOffFileSize);
  if (size < h.file_size)
    throw GonuError(path + " is truncated: " + std::to_string(size) + " of " + std::to_string(h.file_size) + " bytes");
  if (size > h.file_size)
    t.damaged(std::to_string(size - h.file_size) + " bytes past the end the header gives (" +
              std::to_string(h.file_size) + ")");

  h.payload_xxh3 = load64(d + kOffPayloadHash);
  h.index_xxh3 = load64(d + kOffIndexHash);
  Rules& r = h.rules;
  r.rows = d[kOffRows];
  r.cols = d[kOffCols];
  if (d[kOffCapture] > 1 || d[kOffCorner] > 1 || d[kOffRepetition] > 2 || d[kOffFirst] > 1 || d[kOffTagged] > 1)
    t.damaged("a rule field is out of range");
  r.capture = d[kOffCapture] == 0 ? Capture::line : Capture::single;
  r.corner = d[kOffCorner] == 1;
  r.repetition = static_cast<Repetition>(d[kOffRepetition]);
  r.first = d[kOffFirst] == 0 ? Side::black : Side::white;
  h.tagged = d[kOffTagged] == 1;
  h.key_board_bits = d[kOffBoardBits];
  r.name = fixed_string(d + kOffName, kNameLen);
  h.rules_id = fixed_string(d + kOffRulesId, kRulesIdLen);
  h.gonu_version = fixed_string(d + kOffGonuVersion, kVersionLen);
  for (const std::string* text : {&r.name, &h.rules_id, &h.gonu_version})
    for (const char ch : *text)
      if (ch < 0x20 || ch > 0x7e) t.damaged("a header text field holds a byte that is not printable ASCII");
  try {
    t.codec_ = make_key_codec(r);
  } catch (const GonuError& e) {
    t.damaged(std::string("its rule set is not one gonu can read: ") + e.what());
  }
  if (h.rules_id != rules_id(r)) t.damaged("rules id '" + h.rules_id + "' does not match the rule fields");
  if (h.tagged != t.codec_.tagged || h.key_board_bits != t.codec_.board_bits) t.damaged("key layout fields disagree");
  h.root.black = load64(d + kOffRootBlack);
  h.root.white = load64(d + kOffRootWhite);
  if (d[kOffRootSide] > 1) t.damaged("root side out of range");
  h.root.to_move = d[kOffRootSide] == 0 ? Side::black : Side::white;
  if ((h.root.black & h.root.white) || ((h.root.black | h.root.white) & ~t.codec_.board.all))
    t.damaged("root position does not fit the board");
  const std::uint32_t tag_code = load32(d + kOffRootTag);
  h.root_key = load64(d + kOffRootKey);
  if (!key_is_well_formed(t.codec_, h.root_key)) t.damaged("root key is malformed");
  h.root_tag = h.tagged ? unpack_tag(t.codec_.board, tag_code) : Tag{};
  if (encode_key(t.codec_, h.root, h.root_tag) != h.root_key) t.damaged("root key does not match the root position");
  h.states = load64(d + kOffStates);
  h.edges = load64(d + kOffEdges);
  h.wins = load64(d + kOffWins);
  h.losses = load64(d + kOffLosses);
  h.draws = load64(d + kOffDraws);
  h.max_dist = load16(d + kOffMaxDist);
  h.value_bits = d[kOffValueBits];
  h.block_size = load32(d + kOffBlockSize);
  h.blocks = load64(d + kOffBlocks);
  h.index_offset = load64(d + kOffIndexOffset);
  h.index_size = load64(d + kOffIndexSize);
  h.keys_offset = load64(d + kOffKeysOffset);
  h.keys_size = load64(d + kOffKeysSize);
  h.values_offset = load64(d + kOffValuesOffset);
  h.values_size = load64(d + kOffValuesSize);
  for (std::size_t i = kOffReserved; i < kOffHeaderHash; ++i)
    if (d[i] != 0) t.damaged("reserved header bytes are not zero");

  // The layout must be exactly the one the counts imply, so no read can leave the file.
  const std::uint64_t max_states = size;  // a state costs at least one bit; a loose sanity bound
  if (h.states == 0 || h.states > max_states * 8) t.damaged("state count out of range");
  if (h.wins + h.losses + h.draws != h.states) t.damaged("win, loss and draw counts do not add up to the states");
  if (h.block_size < 8 || h.block_size > kMaxBlockSize || h.block_size % 8 != 0) t.damaged("block size out of range");
  if (h.value_bits < 1 || h.value_bits > 18 || (std::uint64_t(2) * h.max_dist + 2 < (std::uint64_t(1) << (h.value_bits - 1))))
    t.damaged("value width out of range");
  if (h.blocks != ceil_div(h.states, h.block_size)) t.damaged("block count does not match the state count");
  if (h.blocks >= (std::uint64_t(1) << 32)) t.damaged("more blocks than this gonu reads");
  if (h.index_offset != kTableHeaderSize || h.index_size != h.blocks * 16 ||
      h.keys_offset != h.index_offset + h.index_size || h.keys_size < kPad + 8 * h.blocks ||
      h.keys_size > size || h.values_offset != h.keys_offset + h.keys_size ||
      h.values_size != ceil_div(h.states * h.value_bits, 8) + kPad || h.values_offset + h.values_size != h.file_size)
    t.damaged("section layout does not match the counts");

  // The index: checksum, ascending first keys, ascending offsets inside the keys section.
  const unsigned char* index = d + h.index_offset;
  if (XXH3_64bits(index, h.index_size) != h.index_xxh3) t.damaged("index checksum mismatch");
  const std::uint64_t key_data = h.keys_size - kPad;
  for (std::uint64_t b = 0; b < h.blocks; ++b) {
    const Key first = load64(index + 16 * b);
    const std::uint64_t off = load64(index + 16 * b + 8);
    if (b == 0 ? off != 0 : (first <= load64(index + 16 * (b - 1)) || off < load64(index + 16 * (b - 1) + 8) + 8))
      t.damaged("index entry " + std::to_string(b) + " is out of order");
    if (off + 8 > key_data) t.damaged("index entry " + std::to_string(b) + " points past the keys");
  }
  // The guide: about one bucket per block.
  {
    const Key lo = load64(index), hi = load64(index + 16 * (h.blocks - 1));
    int bits = 0;
    while ((std::uint64_t(1) << bits) < h.blocks && bits < 24) ++bits;
    int shift = 0;
    while (shift < 64 && ((hi - lo) >> shift) >= (std::uint64_t(1) << bits)) ++shift;
    const std::uint64_t buckets = ((hi - lo) >> shift) + 1;
    t.guide_base_ = lo;
    t.guide_shift_ = shift;
    t.guide_.resize(std::size_t(buckets + 1));
    std::uint64_t b = 0;
    for (std::uint64_t i = 0; i < buckets; ++i) {
      const Key start = lo + (i << shift);
      while (b + 1 < h.blocks && load64(index + 16 * (b + 1)) <= start) ++b;
      t.guide_[std::size_t(i)] = std::uint32_t(b);
    }
    t.guide_[std::size_t(buckets)] = std::uint32_t(h.blocks - 1);
  }
  if (!t.find(h.root_key)) t.damaged("the root is not in the table");
  return t;
}

namespace {

// Reads block b: its bounds, then its check. Throws (through `damaged`) on a mismatch.
template <typename Damaged>
void read_block(const unsigned char* d, const TableHeader& h, std::uint64_t b, Key& first, const unsigned char*& bytes,
                std::uint64_t& len, std::uint64_t& m, Damaged&& damaged) {
  const unsigned char* index = d + h.index_offset;
  const unsigned char* keys = d + h.keys_offset;
  first = load64(index + 16 * b);
  const std::uint64_t off = load64(index + 16 * b + 8);
  const std::uint64_t end = b + 1 < h.blocks ? load64(index + 16 * (b + 1) + 8) : h.keys_size - kPad;
  bytes = keys + off;
  len = end - off;
  m = std::min<std::uint64_t>(h.states, (b + 1) * h.block_size) - b * h.block_size;
  const std::uint64_t vstart = b * h.block_size * h.value_bits / 8, vlen = ceil_div(m * h.value_bits, 8);
  // Ask for every line of the block's keys and values at once, so their misses overlap.
  const unsigned char* vbytes = d + h.values_offset + vstart;
  for (std::uint64_t i = 0; i < len; i += 64) __builtin_prefetch(bytes + i);
  for (std::uint64_t i = 0; i < vlen; i += 64) __builtin_prefetch(vbytes + i);
  const std::uint32_t want = load32(bytes);
  if (block_check(b, bytes + 4, std::size_t(len - 4), d + h.values_offset + vstart, std::size_t(vlen)) != want)
    damaged("block " + std::to_string(b) + " failed its check");
  // The Elias-Fano part must have exactly the length its parameters give.
  const unsigned l = bytes[4];
  const std::uint64_t ub = load16(bytes + 6), cnt = m - 1;
  if (l > 63 || bytes[5] != 0 || 8 + ceil_div(ub, 8) + ceil_div(cnt * l, 8) != len || (cnt == 0) != (ub == 0) ||
      ub > 3 * cnt)
    damaged("block " + std::to_string(b) + " has an inconsistent layout");
}

}  // namespace

std::optional<TableEntry> Table::find(Key k) const {
  const unsigned char* index = data_ + h_.index_offset;
  // The last block whose first key is <= k: between the guide's entries for k's bucket and the
  // next one (the next bucket's first key lies in or after the block k lies in).
  if (k < guide_base_) return std::nullopt;
  const std::uint64_t bucket = std::min<std::uint64_t>((k - guide_base_) >> guide_shift_, guide_.size() - 2);
  std::uint64_t lo = guide_[std::size_t(bucket)], hi = std::uint64_t(guide_[std::size_t(bucket) + 1]) + 1;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (load64(index + 16 * mid) <= k) lo = mid;
    else hi = mid;
  }
  const std::uint64_t b = lo;
  Key first;
  const unsigned char* bytes;
  std::uint64_t len, m;
  read_block(data_, h_, b, first, bytes, len, m, [&](const std::string& w) { damaged(w); });

  std::uint64_t j = 0;
  const std::uint64_t v = k - first;
  if (v != 0) {
    const unsigned l = bytes[4];
    const std::uint64_t ub = load16(bytes + 6), cnt = m - 1;
    if (cnt == 0) return std::nullopt;
    const unsigned char* upper = bytes + 8;
    const unsigned char* lower = upper + ceil_div(ub, 8);
    const std::uint64_t high = v >> l, low = v & low_mask(l);
    // Position just after the high-th zero of the upper bitmap, and the ones before it.
    std::uint64_t pos = 0, ones = 0;
    if (high > 0) {
      std::uint64_t need = high;
      bool found = false;
      for (std::uint64_t w = 0; w * 64 < ub; ++w) {
        const unsigned valid = unsigned(std::min<std::uint64_t>(64, ub - w * 64));
        const std::uint64_t word = load64(upper + 8 * w) & low_mask(valid);
        const unsigned pc = popcount64((word));
        const unsigned zeros = valid - pc;
        if (zeros < need) {
          need -= zeros;
          ones += pc;
          continue;
        }
        std::uint64_t x = ~word & low_mask(valid);
        for (std::uint64_t r = 1; r < need; ++r) x &= x - 1;
        const unsigned p = unsigned(__builtin_ctzll(x));
        ones += popcount64((word & low_mask(p)));
        pos = w * 64 + p + 1;
        found = true;
        break;
      }
      if (!found) return std::nullopt;
    }
    // The run of ones from pos is the bucket `high`; its low parts ascend.
    for (;; ++pos, ++ones) {
      if (pos >= ub || !((upper[pos >> 3] >> (pos & 7)) & 1)) return std::nullopt;
      if (ones >= cnt) damaged("block " + std::to_string(b) + " has too many keys");
      const std::uint64_t lw = get_bits(lower, ones * l, l);
      if (lw == low) {
        j = ones + 1;
        break;
      }
      if (lw > low) return std::nullopt;
    }
  }
  const std::uint64_t i = b * h_.block_size + j;
  const std::uint32_t code = std::uint32_t(get_bits(data_ + h_.values_offset, i * h_.value_bits, h_.value_bits));
  TableEntry e;
  e.index = i;
  if (code == 0) return e;
  const std::uint32_t dist = (code - 1) / 2;
  if (dist > h_.max_dist) damaged("state " + std::to_string(i) + " has a distance past the table's largest");
  e.value = (code - 1) % 2 ? Value::win : Value::loss;
  e.dist = std::uint16_t(dist);
  return e;
}

void Table::decode_all(std::vector<Key>& keys, std::vector<Value>& value, std::vector<std::uint16_t>& dist,
                       const ProgressFn& progress) const {
  const std::uint64_t n = h_.states;
  keys.assign(n, 0);
  value.assign(n, Value::draw);
  dist.assign(n, 0);
  for (std::uint64_t b = 0; b < h_.blocks; ++b) {
    Key first;
    const unsigned char* bytes;
    std::uint64_t len, m;
    read_block(data_, h_, b, first, bytes, len, m, [&](const std::string& w) { damaged(w); });
    const std::uint64_t base = b * h_.block_size;
    keys[base] = first;
    const unsigned l = bytes[4];
    const std::uint64_t ub = load16(bytes + 6), cnt = m - 1;
    const unsigned char* upper = bytes + 8;
    const unsigned char* lower = upper + ceil_div(ub, 8);
    std::uint64_t i = 0, zeros = 0;
    for (std::uint64_t pos = 0; pos < ub; ++pos) {
      if (!((upper[pos >> 3] >> (pos & 7)) & 1)) {
        ++zeros;
        continue;
      }
      if (i >= cnt) damaged("block " + std::to_string(b) + " has too many keys");
      const unsigned __int128 v = ((unsigned __int128)zeros << l) | get_bits(lower, i * l, l);
      const unsigned __int128 k = (unsigned __int128)first + v;
      if (v == 0 || (k >> 64) != 0) damaged("block " + std::to_string(b) + " holds a key out of range");
      keys[base + 1 + i] = Key(k);
      ++i;
    }
    if (i != cnt) damaged("block " + std::to_string(b) + " has too few keys");
    for (std::uint64_t j = 0; j < m; ++j) {
      const std::uint32_t code =
          std::uint32_t(get_bits(data_ + h_.values_offset, (base + j) * h_.value_bits, h_.value_bits));
      if (code == 0) continue;
      const std::uint32_t d = (code - 1) / 2;
      if (d > 0xffff) damaged("state " + std::to_string(base + j) + " has a distance out of range");
      value[base + j] = (code - 1) % 2 ? Value::win : Value::loss;
      dist[base + j] = std::uint16_t(d);
    }
    if (progress && b % 4096 == 0) progress("decode", base + m, n);
  }
}

bool Table::payload_checksum_ok() const {
  return XXH3_64bits(data_ + kTableHeaderSize, std::size_t(h_.file_size - kTableHeaderSize)) == h_.payload_xxh3;
}

// ---------------------------------------------------------------------------------------------
// Verification

TableVerifyResult verify_table(const Table& t, const ProgressFn& progress) {
  TableVerifyResult r;
  const TableHeader& h = t.header();
  auto fail = [&](const std::string& why) {
    r.ok = false;
    r.first_error = why;
    return r;
  };
  if (!t.payload_checksum_ok()) return fail("payload checksum mismatch (the file is damaged)");
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  t.decode_all(keys, value, dist, progress);
  const KeyCodec& c = t.codec();
  const std::uint64_t n = keys.size();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i > 0 && keys[i - 1] >= keys[i]) return fail("state " + std::to_string(i) + ": keys are not strictly ascending");
    if (!key_is_well_formed(c, keys[i])) return fail("state " + std::to_string(i) + ": malformed key");
    if (value[i] == Value::win) ++r.wins;
    else if (value[i] == Value::loss) ++r.losses;
    else ++r.draws;
    r.max_dist = std::max(r.max_dist, dist[i]);
  }
  r.states = n;
  if (r.wins != h.wins || r.losses != h.losses || r.draws != h.draws)
    return fail("the header's win/loss/draw counts do not match the states");
  if (r.max_dist != h.max_dist) return fail("the header's largest distance does not match the states");
  if (!std::binary_search(keys.begin(), keys.end(), h.root_key)) return fail("the root is not in the table");
  const VerifyResult v = verify_values(c, keys.data(), value.data(), dist.data(), n, progress);
  if (!v.ok) return fail(v.first_error);
  r.edges = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, n, 4096), std::uint64_t(0),
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t acc) {
        Successor succ[kMaxMoves];
        for (std::uint64_t i = range.begin(); i < range.end(); ++i) acc += std::uint64_t(expand_key(c, keys[i], succ));
        return acc;
      },
      [](std::uint64_t a, std::uint64_t b) { return a + b; });
  if (r.edges != h.edges) return fail("the header's edge count does not match the states' moves");
  return r;
}

}  // namespace gonu
