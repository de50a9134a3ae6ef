// The table reader: Table::open opens the file and checks its header's frame from a header's
// bytes read (the shared container, solver/container/), then maps the file and hands it to the
// header and index decoder (header.cpp, where every offset and count is checked), then builds the
// lookup guide; find and decode_all read one block at a time, its check verified first, its keys
// by the Elias-Fano codec.
// A mapped file that shrinks while open (truncated, or rewritten in place) would kill the process
// with SIGBUS on the next read past its new end. Instead, a SIGBUS inside a table's mapping marks
// the table changed and puts zero pages over the whole mapping; a read in progress under
// guarded_read (open, find, decode_block, the payload checksum) is abandoned there (siglongjmp)
// and throws GonuError "the table file changed while open", as does every later read. Other
// tables, and the process, go on.
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

#include "core/error.hpp"
#include "solver/common/bits.hpp"
#include "solver/container/file.hpp"
#include "solver/julgonu/table/block.hpp"
#include "solver/julgonu/table/elias_fano.hpp"
#include "solver/julgonu/table/header.hpp"
#include "solver/julgonu/table/table.hpp"

namespace gonu {

using namespace table_bits;

namespace {

// The mapped tables, for the SIGBUS handler, which may read only lock-free atomics. A slot is free
// while its begin is 0.
struct MappedRange {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<bool> changed{false};
};
constexpr int kMappedSlots = 1024;
MappedRange g_mapped[kMappedSlots];
struct sigaction g_previous_sigbus;

// The read in progress on this thread under guarded_read, where a SIGBUS in a table returns to.
thread_local sigjmp_buf* t_read_guard = nullptr;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (MappedRange& r : g_mapped) {
    const std::uintptr_t b = r.begin.load(), e = r.end.load();
    if (b == 0 || at < b || at >= e) continue;
    r.changed.store(true);
    // Zero pages in place of the file, so that no other reader faults again.
    ::mmap(reinterpret_cast<void*>(b), e - b, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (t_read_guard) siglongjmp(*t_read_guard, 1);
    return;  // an unguarded read goes on, reading zeros; its caller checks file_changed()
  }
  // Not a table's: what would have happened without this handler.
  if (g_previous_sigbus.sa_flags & SA_SIGINFO) {
    if (g_previous_sigbus.sa_sigaction) return g_previous_sigbus.sa_sigaction(sig, info, context);
  } else if (g_previous_sigbus.sa_handler != SIG_DFL && g_previous_sigbus.sa_handler != SIG_IGN) {
    return g_previous_sigbus.sa_handler(sig);
  }
  ::signal(SIGBUS, SIG_DFL);  // the faulting read runs again and ends the process as SIGBUS does
}

void install_sigbus_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;  // NODEFER: not left blocked by siglongjmp
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous_sigbus);
  });
}

int register_mapping(const unsigned char* data, std::uint64_t size) {
  install_sigbus_handler();
  const auto b = reinterpret_cast<std::uintptr_t>(data);
  for (int i = 0; i < kMappedSlots; ++i) {
    std::uintptr_t free = 0;
    if (!g_mapped[i].begin.compare_exchange_strong(free, b)) continue;
    g_mapped[i].changed.store(false);
    g_mapped[i].end.store(b + size);
    return i;
  }
  return -1;  // more tables open than slots: this one is read unguarded
}

void unregister_mapping(int slot) {
  if (slot < 0) return;
  g_mapped[slot].end.store(0);
  g_mapped[slot].changed.store(false);
  g_mapped[slot].begin.store(0);
}

}  // namespace

// Runs read(); if the table's file shrinks under it, throws "the table file changed while open".
// The objects read() made before the fault are abandoned (their memory leaks, once per table:
// every later read is refused before it starts).
template <class Read>
auto Table::guarded_read(Read&& read) const {
  check_unchanged();
  sigjmp_buf here;
  sigjmp_buf* const outer = t_read_guard;
  if (sigsetjmp(here, 0) != 0) {
    t_read_guard = outer;
    check_unchanged();
    throw GonuError(path_ + ": the table file changed while open");
  }
  t_read_guard = &here;
  struct Restore {
    sigjmp_buf* outer;
    ~Restore() { t_read_guard = outer; }
  } restore{outer};
  return read();
}

Table::Table(Table&& o) noexcept { *this = std::move(o); }

bool Table::file_changed() const { return slot_ >= 0 && g_mapped[slot_].changed.load(std::memory_order_relaxed); }

void Table::check_unchanged() const {
  if (file_changed())
    throw GonuError(path_ + ": the table file changed while open (truncated or rewritten); open it again");
}

Table& Table::operator=(Table&& o) noexcept {
  if (this != &o) {
    unregister_mapping(slot_);
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
    path_ = std::move(o.path_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    slot_ = std::exchange(o.slot_, -1);
    h_ = std::move(o.h_);
    codec_ = o.codec_;
    guide_ = std::move(o.guide_);
    guide_base_ = o.guide_base_;
    guide_shift_ = o.guide_shift_;
  }
  return *this;
}

Table::~Table() {
  unregister_mapping(slot_);
  if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
}

void Table::damaged(const std::string& what) const {
  check_unchanged();
  table_container::damaged(path_, what);
}

namespace {

// Maps the regular file `path` read-only once its header's frame passes (from a header's bytes
// read, whatever size the file claims), so a file mapped holds a header at least.
void map_file(const std::string& path, const unsigned char*& data, std::uint64_t& size) {
  const table_container::OpenFile f = table_container::open_file(path, table_header::kFormat);
  size = f.size();
  const std::vector<unsigned char> head = table_container::read_head(f, table_header::kFormat, path);
  table_header::check_frame(head.data(), head.size(), size, path);
  void* m = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, f.fd(), 0);
  if (m == MAP_FAILED) throw GonuError("cannot map table " + path + ": " + std::strerror(errno));
  ::madvise(m, size, MADV_RANDOM);
  data = static_cast<const unsigned char*>(m);
}

}  // namespace

Table Table::open(const std::string& path) {
  Table t;
  t.path_ = path;
  map_file(path, t.data_, t.size_);  // unmapped by t's destructor if a check below throws
  if (t.data_) t.slot_ = register_mapping(t.data_, t.size_);
  t.guarded_read([&t, &path] {
    table_header::Decoded d = table_header::decode(t.data_, t.size_, path);
    t.h_ = std::move(d.header);
    t.codec_ = d.codec;
    table_header::check_index(t.data_, t.h_, path);
    t.build_guide();
    return 0;
  });
  if (!t.find(t.h_.root_key)) t.damaged("the root is not in the table");
  return t;
}

// The guide: about one bucket a block over [first key of block 0, first key of the last block].
void Table::build_guide() {
  const unsigned char* index = data_ + h_.index_offset;
  const Key lo = load64(index), hi = load64(index + 16 * (h_.blocks - 1));
  int bits = 0;
  while ((std::uint64_t(1) << bits) < h_.blocks && bits < 24) ++bits;
  int shift = 0;
  while (shift < 64 && ((hi - lo) >> shift) >= (std::uint64_t(1) << bits)) ++shift;
  const std::uint64_t buckets = ((hi - lo) >> shift) + 1;
  guide_base_ = lo;
  guide_shift_ = shift;
  guide_.resize(std::size_t(buckets + 1));
  std::uint64_t b = 0;
  for (std::uint64_t i = 0; i < buckets; ++i) {
    const Key start = lo + (i << shift);
    while (b + 1 < h_.blocks && load64(index + 16 * (b + 1)) <= start) ++b;
    guide_[std::size_t(i)] = std::uint32_t(b);
  }
  guide_[std::size_t(buckets)] = std::uint32_t(h_.blocks - 1);
}

// The last block whose first key is <= k (k >= guide_base_): between the guide's entries for k's
// bucket and the next one (the next bucket's first key lies in or after the block k lies in).
std::uint64_t Table::block_of(Key k) const {
  const unsigned char* index = data_ + h_.index_offset;
  const std::uint64_t bucket = std::min<std::uint64_t>((k - guide_base_) >> guide_shift_, guide_.size() - 2);
  std::uint64_t lo = guide_[std::size_t(bucket)], hi = std::uint64_t(guide_[std::size_t(bucket) + 1]) + 1;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (load64(index + 16 * mid) <= k) lo = mid;
    else hi = mid;
  }
  return lo;
}

namespace {

// One block as read: its first key, where its states and values are, its list of keys.
struct BlockView {
  Key first = 0;
  table_block::Geometry g;
  ef::List keys;
};

// Reads block b: its check first, then its Elias-Fano head. The bounds come from the index,
// which check_index proved to lie inside the keys section with at least 8 bytes a block.
BlockView read_block(const unsigned char* d, const TableHeader& h, std::uint64_t b, const std::string& path) {
  const unsigned char* index = d + h.index_offset;
  BlockView v;
  v.first = load64(index + 16 * b);
  const std::uint64_t off = load64(index + 16 * b + 8);
  const std::uint64_t end = b + 1 < h.blocks ? load64(index + 16 * (b + 1) + 8) : h.keys_size - table_header::kSectionPad;
  const unsigned char* bytes = d + h.keys_offset + off;
  const std::uint64_t len = end - off;
  v.g = table_block::geometry(b, h.states, h.block_size, h.value_bits);
  const unsigned char* vbytes = d + h.values_offset + v.g.value_start;
  // Ask for every line of the block's keys and values at once, so their misses overlap.
  for (std::uint64_t i = 0; i < len; i += 64) __builtin_prefetch(bytes + i);
  for (std::uint64_t i = 0; i < v.g.value_len; i += 64) __builtin_prefetch(vbytes + i);
  const std::size_t c = table_block::kCheckBytes;
  if (table_block::check(b, bytes + c, std::size_t(len - c), vbytes, std::size_t(v.g.value_len)) != load32(bytes))
    table_container::damaged(path, "block " + std::to_string(b) + " failed its check");
  if (!ef::parse(bytes + c, len - c, v.g.states - 1, v.keys))
    table_container::damaged(path, "block " + std::to_string(b) + " has an inconsistent layout");
  return v;
}

}  // namespace

std::optional<TableEntry> Table::find(Key k) const {
  return guarded_read([&] { return find_mapped(k); });
}

std::optional<TableEntry> Table::find_mapped(Key k) const {
  if (k < guide_base_) return std::nullopt;
  const std::uint64_t b = block_of(k);
  const BlockView blk = read_block(data_, h_, b, path_);
  std::uint64_t j = 0;  // the state's place in the block; 0 is the block's first key
  if (const std::uint64_t v = k - blk.first; v != 0) {
    std::uint64_t i = 0;
    const ef::Status st = ef::find(blk.keys, v, i);
    if (st == ef::Status::too_many) damaged("block " + std::to_string(b) + " has too many keys");
    if (st != ef::Status::ok) return std::nullopt;
    j = i + 1;
  }
  const std::uint64_t i = blk.g.first_state + j;
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

void Table::decode_block(std::uint64_t b, Key* keys, Value* value, std::uint16_t* dist) const {
  guarded_read([&] {
    decode_mapped_block(b, keys, value, dist);
    return 0;
  });
}

void Table::decode_mapped_block(std::uint64_t b, Key* keys, Value* value, std::uint16_t* dist) const {
  const BlockView blk = read_block(data_, h_, b, path_);
  const std::string name = "block " + std::to_string(b);
  keys[0] = blk.first;
  switch (ef::decode(blk.keys, keys + 1)) {
    case ef::Status::too_many: damaged(name + " has too many keys");
    case ef::Status::too_few: damaged(name + " has too few keys");
    case ef::Status::out_of_range: damaged(name + " holds a key out of range");
    default: break;
  }
  for (std::uint64_t i = 1; i < blk.g.states; ++i) {
    if (keys[i] == 0 || keys[i] > ~blk.first) damaged(name + " holds a key out of range");
    keys[i] += blk.first;
  }
  for (std::uint64_t j = 0; j < blk.g.states; ++j) {
    const std::uint64_t s = blk.g.first_state + j;
    const std::uint32_t code = std::uint32_t(get_bits(data_ + h_.values_offset, s * h_.value_bits, h_.value_bits));
    if (code == 0) continue;
    const std::uint32_t d = (code - 1) / 2;
    if (d > 0xffff) damaged("state " + std::to_string(s) + " has a distance out of range");
    value[j] = (code - 1) % 2 ? Value::win : Value::loss;
    dist[j] = std::uint16_t(d);
  }
}

Key Table::block_first_key(std::uint64_t b) const { return load64(data_ + h_.index_offset + 16 * b); }

void Table::decode_all(std::vector<Key>& keys, std::vector<Value>& value, std::vector<std::uint16_t>& dist,
                       const ProgressFn& progress) const {
  const std::uint64_t n = h_.states;
  keys.assign(n, 0);
  value.assign(n, Value::draw);
  dist.assign(n, 0);
  for (std::uint64_t b = 0; b < h_.blocks; ++b) {
    const std::uint64_t base = b * h_.block_size;
    decode_block(b, keys.data() + base, value.data() + base, dist.data() + base);
    if (progress && b % 4096 == 0) progress("decode", std::min<std::uint64_t>(n, base + h_.block_size), n);
  }
}

bool Table::payload_checksum_ok() const {
  return guarded_read([&] {
    return XXH3_64bits(data_ + kTableHeaderSize, std::size_t(h_.file_size - kTableHeaderSize)) == h_.payload_xxh3;
  });
}

}  // namespace gonu
