// The Jungi table file's writer and reader (format in solver/jungi/table/FORMAT.md, "Jungi table
// files"): blocks of value codes as zstd frames (.xz streams in formats 3-4, still read), written
// atomically; read a block at a time as questions need them, into one cache of decoded blocks
// shared by every table file of the process. Opening, bounded reads, the payload's hash and the
// writer's errors are the shared container's (solver/container/file.hpp).
#include "solver/jungi/table/table_file.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <lzma.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <list>
#include <mutex>
#include <unordered_map>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <sys/stat.h>

#include "core/error.hpp"
#include "solver/common/bits.hpp"
#include "solver/container/file.hpp"
#include "solver/jungi/table/header.hpp"
#include "util/version.hpp"

namespace gonu::jungi {

namespace {

// A block's stream asks its decoder for about its dictionary (16 MiB at most as written: 2^23
// codes of 2 bytes): more is a hostile file.
constexpr std::uint64_t kLzmaMemoryLimit = std::uint64_t{64} << 20;
// zstd's level for a block of format 5: on KRvK+O's 2^16-index blocks, 1.28 times format 4's
// bytes (whose 2^23-index LZMA2 blocks take some 100 ms each to decode, against about 0.1 ms).
constexpr int kZstdLevel = 19;
// A pass over every index goes by chunks of this many (sources_of into a buffer per chunk).
constexpr std::uint64_t kPassChunk = 4096;

// Gives each 0 of `codes` the code two indices before it (the same side to move; 1 at the start).
// In parallel by chunks (of an even size), each from the first code it holds for each side to
// move; then, chunk by chunk in order, the 0s left before those (a few, as a rule) from the chunk
// before.
void fill_dont_cares(std::vector<std::uint16_t>& codes) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
  const std::uint64_t n = codes.size(), chunks = (n + kChunk - 1) / kChunk;
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    for (std::uint64_t i = c * kChunk + 2; i < std::min(n, (c + 1) * kChunk); ++i)
      if (codes[i] == 0) codes[i] = codes[i - 2];
  });
  for (std::uint64_t c = 0; c < chunks; ++c)
    for (std::uint64_t side = 0; side < 2; ++side)
      for (std::uint64_t i = c * kChunk + side; i < std::min(n, (c + 1) * kChunk) && codes[i] == 0; i += 2)
        codes[i] = i >= 2 ? codes[i - 2] : 1;
}

// The codes of codes_of (below) from a table's Table::derived bits.
std::vector<std::uint16_t> codes_by_derived_bits(const Table& t) {
  const std::uint64_t n = t.indexer.size();
  if (t.derived.size() != (n + 63) / 64) throw std::logic_error("jungi table file: derived bits not one an index");
  std::vector<std::uint16_t> codes(n);  // 0 where a don't-care goes (no code is 0)
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, kPassChunk), [&](const tbb::blocked_range<std::uint64_t>& range) {
    for (std::uint64_t i = range.begin(); i != range.end(); ++i)
      if (t.entries[i] != 0 && !t.is_derived(i)) codes[i] = file_code(t.value(i));
  });
  fill_dont_cares(codes);
  return codes;
}

// The code of every index as written: a valid index not derived its value's code; an invalid or
// derived one the code two indices before (the same side to move; 1 at the start), a don't-care
// that makes runs the compressor codes in almost nothing. Throws logic_error if a derived index's value is
// not the one derived (the rule in source_of would then be wrong).
//
// Only a placement that may hold a derived index is decoded (sources_of): one whose South royal
// stands on the e-file (a mirror image) or with an entry WIN in 1 (a royal taken has that value).
// In KRvKO that is a fifth of the placements and 16 % of the indices, overlapping: about half the
// placements or more are left undecoded, stored where valid, which their entry says (0 is
// invalid, Table::entries). So a royal-taking index whose value is not WIN in 1 goes unnoticed
// here; the tests and `gonu verify` check every value.
//
// A table the retrograde solver has just solved carries those indices (Table::derived): they are
// then taken as they are, with no placement decoded (BM_JungiTableWrite: 5.66 s against 6.42 for
// +K+E+Cv+K's file; the writing is about a sixth of a streamed run's CPU). The tests compare the
// codes both ways.
std::vector<std::uint16_t> codes_of(const Table& t, const Rules& r) {
  if (!t.derived.empty()) return codes_by_derived_bits(t);
  const std::uint64_t n = t.indexer.size();
  const std::uint16_t win_in_1 = entry_of_code(file_code({Result::win, 1}));
  std::vector<std::uint16_t> codes(n);  // 0 where a don't-care goes (no code is 0)
  auto check = [&](std::uint64_t i, const ValueSource& s) {
    const Value want = s.kind == ValueSource::royal_taken ? Value{Result::win, 1} : t.value(s.image);
    if (t.value(i) == want) return;
    Position p;
    t.indexer.decode(i, p);
    throw std::logic_error("jungi table file: index " + std::to_string(i) + " (" + format_position(p) + ") is " +
                           value_text(t.value(i)) + ", its derivation gives " + value_text(want));
  };
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, kPassChunk), [&](const tbb::blocked_range<std::uint64_t>& range) {
    // n is even (a placement's two sides to move), so even + 1 is an index.
    for (std::uint64_t even = range.begin() & ~std::uint64_t{1}; even < range.end(); even += 2) {
      const std::uint64_t from = std::max(even, range.begin()), to = std::min(even + 2, range.end());
      const bool derived = file_of(t.indexer.south_royal_square(even)) == kFiles / 2 || t.entries[even] == win_in_1 ||
                           t.entries[even + 1] == win_in_1;
      ValueSource src[2]{};
      if (derived) sources_of(t.indexer, r, from, to, src);
      for (std::uint64_t i = from; i < to; ++i) {
        const ValueSource& s = src[i - from];
        if (t.entries[i] == 0) continue;
        if (!derived || s.kind == ValueSource::stored) codes[i] = file_code(t.value(i));
        else if (s.kind != ValueSource::invalid) check(i, s);
      }
    }
  });
  fill_dont_cares(codes);
  return codes;
}

// Where the code of a block's k-th index (of `count`) is in the block's bytes: the indices with
// South to move (even) first, then those with North to move (odd), which compresses better than
// the two sides interleaved (FORMAT.md).
std::uint64_t slot_of(std::uint64_t k, std::uint64_t count) { return k % 2 ? (count + 1) / 2 + k / 2 : k / 2; }

// One block's codes as bytes, compressed into one zstd frame with its content size and checksum.
std::vector<unsigned char> compress_block(const std::vector<std::uint16_t>& codes, std::uint64_t from, std::uint64_t to,
                                          unsigned code_bytes) {
  std::vector<unsigned char> raw((to - from) * code_bytes);
  for (std::uint64_t i = from; i < to; ++i)
    table_bits::store_le(raw.data() + slot_of(i - from, to - from) * code_bytes, codes[i], code_bytes);
  thread_local std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
  std::vector<unsigned char> out(ZSTD_compressBound(raw.size()));
  const std::size_t n = ZSTD_compress2(cctx.get(), out.data(), out.size(), raw.data(), raw.size());
  if (ZSTD_isError(n)) throw GonuError(std::string("cannot write Jungi table: zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

TableFileHeader header_of(const Table& t, const Rules& r, unsigned code_bytes) {
  TableFileHeader h;
  h.format_version = kJungiTableFormatVersion;
  h.game = "jungi";
  h.rules_id = rules_id(r);
  h.material_text = material_text(t.indexer.material());
  h.gonu_version = kVersion;
  h.layout_version = kJungiIndexLayoutVersion;
  h.block_indices = kJungiBlockIndices;
  h.indices = t.indexer.size();
  h.positions = t.stats.board_positions;
  h.wins = t.stats.board_wins, h.losses = t.stats.board_losses, h.draws = t.stats.board_draws;
  h.longest_win = t.stats.longest_win;
  h.longest_loss = t.stats.longest_loss;
  h.longest_win_index = t.stats.longest_win_index;
  h.code_bytes = std::uint8_t(code_bytes);
  h.codec = kJungiCodecZstd;
  h.blocks = (h.indices + kJungiBlockIndices - 1) / kJungiBlockIndices;
  return h;
}

}  // namespace

void sources_of(const Indexer& indexer, const Rules& r, std::uint64_t from, std::uint64_t to, ValueSource* out) {
  Position p;
  Placement pl;
  // An index is a placement's times two plus the side to move: both sides share the decode, and
  // the mirror image of North to move is South's image plus one.
  for (std::uint64_t even = from & ~std::uint64_t{1}; even < to; even += 2) {
    const bool valid = indexer.decode(even, p, pl);
    const std::uint64_t image = valid && file_of(p.royal[0]) == kFiles / 2 ? indexer.encode(mirror_placement(pl), Side::south) : Indexer::kInvalid;
    // takes_royal for both sides to move from the placement's few pieces, not the whole board.
    bool takes[2] = {false, false};
    for (int k = 0; valid && k < pl.n; ++k) {
      bool& t = takes[index(side_of(pl.piece[std::size_t(k)]))];
      t = t || piece_takes_royal(r, p, pl.square[std::size_t(k)]);
    }
    for (std::uint64_t i = std::max(even, from); i < std::min(even + 2, to); ++i) {
      ValueSource& src = out[i - from];
      if (!valid) src = {ValueSource::invalid, 0};
      else if (takes[i % 2]) src = {ValueSource::royal_taken, 0};
      else if (image != Indexer::kInvalid && image + i % 2 < i) src = {ValueSource::mirror, image + i % 2};
      else src = {ValueSource::stored, 0};
    }
  }
}

std::uint16_t file_code(const Value& v) {
  switch (v.result) {
    case Result::draw: return 1;
    case Result::loss: return std::uint16_t(2 + 2 * v.dist);
    case Result::win: return std::uint16_t(3 + 2 * v.dist);
    default: return 0;
  }
}

std::uint16_t entry_of_code(std::uint16_t code) {
  // The generator's entries (generator.hpp): the result in the top two bits (1 win, 2 loss,
  // 3 draw), the distance in the low 14.
  if (code == 0) return 0;
  if (code == 1) return 0xC000;
  const std::uint16_t d = std::uint16_t((code - 2) / 2);
  return std::uint16_t((code % 2 ? 0x4000 : 0x8000) | d);
}

std::string table_file_name(const Material& m, const Rules& r) {
  std::string id = rules_id(r);
  id = id.substr(id.find('/') + 1);
  std::replace(id.begin(), id.end(), '/', '-');
  return material_text(m) + "." + id + ".gonu";
}

std::vector<Rules> readings_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) names.push_back(entry.path().filename().string());
  if (error) throw GonuError(dir + ": cannot list the directory (" + error.message() + ")");
  std::vector<Rules> out;
  for (const Rules& r : every_reading()) {
    const std::string tail = table_file_name(Material{}, r).substr(1);  // "v.<reading>.gonu" less the 'v'
    for (const std::string& n : names)
      if (n.size() > tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0) {
        out.push_back(r);
        break;
      }
  }
  return out;
}

std::string table_file_for(const std::string& dir, const std::function<Position(const Rules&)>& read) {
  const std::vector<Rules> readings = readings_in(dir);
  if (readings.empty()) throw GonuError(dir + " is a directory with no Jungi table in it");
  if (readings.size() > 1) throw GonuError(dir + " holds Jungi tables of " + std::to_string(readings.size()) + " readings: name the table file");
  const Rules& r = readings.front();
  const Material m = material_of(read(r)), kept = canonical(m);
  const std::string path = dir + "/" + table_file_name(kept, r);
  if (!is_jungi_table_file(path))
    throw GonuError(dir + " holds no table of " + material_text(m) + (m == kept ? "" : " (kept as " + material_text(kept) + ")") + " for " +
                    describe(r));
  return path;
}

bool is_jungi_table_file(const std::string& path) { return table_container::starts_with_magic(path, kJungiFormat); }

namespace {

// The file of header h (its offsets, sizes and checksums filled in here) and its blocks' frames.
std::vector<unsigned char> assemble(TableFileHeader h, const std::vector<std::vector<unsigned char>>& frames) {
  h.index_offset = kJungiTableHeaderSize;
  h.data_offset = h.index_offset + 8 * (h.blocks + 1);
  std::vector<unsigned char> file(h.data_offset);
  for (std::uint64_t b = 0; b < h.blocks; ++b) {
    file.insert(file.end(), frames[b].begin(), frames[b].end());
    table_bits::store_le(file.data() + h.index_offset + 8 * (b + 1), file.size() - h.data_offset, 8);
  }
  h.data_size = file.size() - h.data_offset;
  h.file_size = file.size();
  h.index_xxh3 = XXH3_64bits(file.data() + h.index_offset, h.data_offset - h.index_offset);
  h.payload_xxh3 = XXH3_64bits(file.data() + h.index_offset, h.file_size - h.index_offset);
  const auto head = encode_header(h);
  std::copy(head.begin(), head.end(), file.begin());
  return file;
}

// The whole file of t (solved under r): header, index, data.
std::vector<unsigned char> encode_table(const Table& t, const Rules& r) {
  const std::uint64_t n = t.indexer.size();
  if (t.entries.size() != n) throw GonuError("cannot write Jungi table: the table is not solved");
  const std::vector<std::uint16_t> codes = codes_of(t, r);
  const std::uint16_t largest = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, n, kPassChunk), std::uint16_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint16_t m) {
        for (std::uint64_t i = range.begin(); i != range.end(); ++i) m = std::max(m, codes[i]);
        return m;
      },
      [](std::uint16_t a, std::uint16_t b) { return std::max(a, b); });
  const unsigned code_bytes = largest < 256 ? 1 : 2;
  const TableFileHeader h = header_of(t, r, code_bytes);
  std::vector<std::vector<unsigned char>> frames(h.blocks);
  tbb::parallel_for(std::uint64_t{0}, h.blocks, [&](std::uint64_t b) {
    frames[b] = compress_block(codes, b * h.block_indices, std::min(n, (b + 1) * h.block_indices), code_bytes);
  });
  return assemble(h, frames);
}

// The codes of indices [from, to) of a file, from the blocks that hold them.
std::vector<std::uint16_t> codes_between(const TableFile& f, std::uint64_t from, std::uint64_t to) {
  const std::uint64_t s = f.header().block_indices;
  std::vector<std::uint16_t> out;
  out.reserve(to - from);
  for (std::uint64_t b = from / s; b * s < to; ++b) {
    const std::vector<std::uint16_t> codes = f.block_codes(b);
    const std::uint64_t first = b * s;
    out.insert(out.end(), codes.begin() + std::ptrdiff_t(std::max(from, first) - first),
               codes.begin() + std::ptrdiff_t(std::min(to, first + codes.size()) - first));
  }
  return out;
}

// use(first index, codes) over a file's codes in spans of whole blocks of both the file's size
// and `size` (the larger of the two, where the other divides it: each of the file's blocks is
// then decoded once; else spans of `size`), in parallel.
void for_each_span(const TableFile& f, std::uint64_t size, const std::function<void(std::uint64_t, const std::vector<std::uint16_t>&)>& use) {
  const std::uint64_t s = f.header().block_indices, n = f.header().indices;
  std::uint64_t span = std::max(s, size);
  if (span % s || span % size) span = size;  // sizes that do not divide: a file's block may be read twice
  tbb::parallel_for(std::uint64_t{0}, (n + span - 1) / span, [&](std::uint64_t k) {
    use(k * span, codes_between(f, k * span, std::min(n, (k + 1) * span)));
  });
}

// The header's counts from a load's check: of the whole board, as this format writes them.
void set_board_counts(TableFileHeader& h, const LoadCheck& c) {
  h.positions = c.board_positions;
  h.wins = c.board_wins, h.losses = c.board_losses, h.draws = c.board_draws;
}

// A file of format 2 or later in this format: the same codes (derived and invalid indices hold
// the same don't-cares), in this format's blocks, each compressed from the codes of the old blocks
// it spans, and the counts of the whole board the load's check `c` found.
std::vector<unsigned char> transcode(const TableFile& old, const LoadCheck& c) {
  TableFileHeader h = old.header();
  set_board_counts(h, c);
  h.format_version = kJungiTableFormatVersion;
  h.codec = kJungiCodecZstd;
  h.gonu_version = kVersion;
  h.block_indices = kJungiBlockIndices;
  h.blocks = (h.indices + kJungiBlockIndices - 1) / kJungiBlockIndices;
  std::vector<std::vector<unsigned char>> frames(h.blocks);
  for_each_span(old, h.block_indices, [&](std::uint64_t first, const std::vector<std::uint16_t>& codes) {
    for (std::uint64_t k = 0; k < codes.size(); k += h.block_indices)
      frames[(first + k) / h.block_indices] = compress_block(codes, k, std::min<std::uint64_t>(codes.size(), k + h.block_indices), h.code_bytes);
  });
  return assemble(h, frames);
}

void write_bytes(const std::string& path, const std::vector<unsigned char>& file) {
  table_container::writing(path, [&] { write_file_atomically(path, {{file.data(), file.size()}}); });
}

}  // namespace

std::uint64_t write_table_file(const std::string& path, const Table& t, const Rules& r) {
  const std::vector<unsigned char> file = encode_table(t, r);
  write_bytes(path, file);
  return file.size();
}

RepackResult repack_table_file(const std::string& path) {
  const TableFile old = TableFile::open(path);
  RepackResult out{old.header().format_version, old.header().file_size, kJungiTableFormatVersion, old.header().file_size};
  if (old.header().format_version == kJungiTableFormatVersion) return out;
  if (!old.payload_checksum_ok()) throw GonuError(path + ": payload checksum mismatch (the file is damaged)");
  const auto changed = [&](const std::string& where) { return std::logic_error("jungi repack: " + path + ": " + where + " reads back changed"); };
  // A load with its check, for the counts of the whole board (older formats count indices) and
  // the don't-cares' check.
  LoadCheck check;
  const std::unique_ptr<Table> t = old.load(&check);
  if (!check.dont_care_error.empty()) throw GonuError(path + ": " + check.dont_care_error);
  std::vector<unsigned char> file;
  if (old.header().format_version >= 2) {
    // The codes as they were, block by block: what the new file's reader decodes is compared.
    file = transcode(old, check);
    const TableFile fresh = TableFile::from_bytes(path, file, old.rules());
    for_each_span(old, fresh.header().block_indices, [&](std::uint64_t first, const std::vector<std::uint16_t>& codes) {
      if (codes_between(fresh, first, first + codes.size()) != codes) throw changed("the blocks from index " + std::to_string(first));
    });
  } else {
    // Format 1 holds the derived indices' values: the table read whole (checking them) is
    // written as a solve writes it, and its values read back compared at every valid index.
    t->stats.board_positions = check.board_positions;
    t->stats.board_wins = check.board_wins, t->stats.board_losses = check.board_losses, t->stats.board_draws = check.board_draws;
    file = encode_table(*t, old.rules());
    const std::unique_ptr<Table> back = TableFile::from_bytes(path, file, old.rules()).load();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, t->indexer.size(), kPassChunk), [&](const tbb::blocked_range<std::uint64_t>& range) {
      Position p;
      for (std::uint64_t i = range.begin(); i != range.end(); ++i)
        if (back->entries[i] != t->entries[i] && t->indexer.decode(i, p)) throw changed("index " + std::to_string(i));
    });
  }
  write_bytes(path, file);
  out.new_bytes = file.size();
  return out;
}

namespace {

// A block of formats 1-2: one zstd frame (its magic, then the frame header descriptor, whose bit 2
// is the content checksum flag: RFC 8878 3.1.1.1.1), of exactly the block's content size and the
// range's length, that decodes with its checksum.
template <class Damaged>
void decode_zstd(const unsigned char* in, std::size_t size, std::vector<unsigned char>& raw, const Damaged& damaged) {
  const bool one_frame = size >= 6 && table_bits::load32(in) == ZSTD_MAGICNUMBER && (in[4] & 0x04) &&
                         ZSTD_getFrameContentSize(in, size) == raw.size() && ZSTD_findFrameCompressedSize(in, size) == size;
  if (!one_frame) throw damaged("is not one checksummed zstd frame of " + std::to_string(raw.size()) + " bytes");
  thread_local std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  const std::size_t n = ZSTD_decompressDCtx(dctx.get(), raw.data(), raw.size(), in, size);
  if (ZSTD_isError(n) || n != raw.size()) throw damaged(std::string("does not decode: ") + (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short"));
}

// A block of formats 3-4: one .xz stream with a CRC32 check (the stream flags' check ID 1, as
// written: none, CRC64 and SHA-256 are refused) filling the range exactly, decoding (its check
// verified, its decoder within kLzmaMemoryLimit) to exactly the block's content size.
template <class Damaged>
void decode_xz(const unsigned char* in, std::size_t size, std::vector<unsigned char>& raw, const Damaged& damaged) {
  if (size >= 8 && std::memcmp(in, "\xFD" "7zXZ\0", 6) == 0 && (in[6] != 0 || in[7] != LZMA_CHECK_CRC32))
    throw damaged("is an .xz stream without a CRC32 check");
  std::uint64_t limit = kLzmaMemoryLimit;
  std::size_t in_pos = 0, out_pos = 0;
  const lzma_ret ret = lzma_stream_buffer_decode(&limit, 0, nullptr, in, &in_pos, size, raw.data(), &out_pos, raw.size());
  if (ret == LZMA_OK && in_pos == size && out_pos == raw.size()) return;
  const char* why = ret == LZMA_OK ? (in_pos != size ? "bytes after its stream" : "short")
                    : ret == LZMA_FORMAT_ERROR ? "not an .xz stream"
                    : ret == LZMA_DATA_ERROR ? "corrupt data"
                    : ret == LZMA_BUF_ERROR ? "truncated, or longer than its block"
                    : ret == LZMA_MEMLIMIT_ERROR ? "it asks for too much memory"
                    : ret == LZMA_OPTIONS_ERROR ? "options this gonu does not read"
                    : "liblzma error";
  throw damaged(std::string("does not decode: ") + why + " (" + std::to_string(raw.size()) + " bytes expected)");
}

}  // namespace

TableFile::TableFile(TableFile&&) noexcept = default;
TableFile& TableFile::operator=(TableFile&&) noexcept = default;
TableFile::~TableFile() = default;

namespace {

// The cache of decoded blocks (set_block_cache_limit), keyed by a table opening's serial and the
// block number; least recently used first out.
class BlockCache {
 public:
  using Block = std::shared_ptr<const std::vector<unsigned char>>;  // a block's bytes as stored
  Block find(std::uint64_t serial, std::uint64_t b) {
    std::lock_guard<std::mutex> hold(mutex_);
    const auto it = map_.find({serial, b});
    if (it == map_.end()) return nullptr;
    lru_.splice(lru_.begin(), lru_, it->second.at);
    return it->second.block;
  }
  void add(std::uint64_t serial, std::uint64_t b, Block block) {
    std::lock_guard<std::mutex> hold(mutex_);
    const Key k{serial, b};
    if (map_.count(k)) return;  // another thread decoded it meanwhile
    lru_.push_front(k);
    bytes_ += size_of(*block);
    map_.emplace(k, Entry{std::move(block), lru_.begin()});
    evict();
  }
  void set_limit(std::uint64_t bytes) {
    std::lock_guard<std::mutex> hold(mutex_);
    limit_ = bytes;
    evict();
  }
  std::uint64_t limit() {
    std::lock_guard<std::mutex> hold(mutex_);
    return limit_;
  }
  std::uint64_t bytes() {
    std::lock_guard<std::mutex> hold(mutex_);
    return bytes_;
  }

 private:
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return std::size_t((k.first * 0x9E3779B97F4A7C15u) ^ k.second); }
  };
  struct Entry {
    Block block;
    std::list<Key>::iterator at;
  };
  static std::uint64_t size_of(const std::vector<unsigned char>& v) { return v.size() + 64; }
  // Drops the least recently used blocks past the limit, keeping the newest (a question in hand).
  void evict() {
    while (bytes_ > limit_ && lru_.size() > 1) {
      const auto it = map_.find(lru_.back());
      bytes_ -= size_of(*it->second.block);
      map_.erase(it);
      lru_.pop_back();
    }
  }
  std::mutex mutex_;
  std::list<Key> lru_;
  std::unordered_map<Key, Entry, KeyHash> map_;
  std::uint64_t bytes_ = 0, limit_ = std::uint64_t{256} << 20;
};

BlockCache& block_cache() {
  static BlockCache cache;
  return cache;
}

std::uint64_t next_serial() {
  static std::atomic<std::uint64_t> serial{0};
  return ++serial;
}

}  // namespace

void set_block_cache_limit(std::uint64_t bytes) { block_cache().set_limit(bytes); }
std::uint64_t block_cache_limit() { return block_cache().limit(); }
std::uint64_t block_cache_bytes() { return block_cache().bytes(); }

namespace {

// A file's identity as fstat gives it (TableFile::Identity): what must not change while it is open.
template <class Identity>
Identity identity_of(const struct stat& st) {
  return {std::uint64_t(st.st_dev), std::uint64_t(st.st_ino), std::uint64_t(st.st_size),
          std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace

TableFile TableFile::open(const std::string& path, const std::optional<Rules>& expected) {
  const table_container::OpenFile f = table_container::open_file(path, kJungiFormat);
  // The magic and the header first, a few hundred bytes whatever the file's size claims: its
  // checksum and its file size are checked before anything else is read or allocated.
  const std::vector<unsigned char> head = table_container::read_head(f, kJungiFormat, path);
  const TableFileHeader h = decode_header(path, head.data(), head.size(), f.size());
  TableFile t;
  t.path_ = path;
  t.identity_ = identity_of<Identity>(f.stat());
  t.init(h, expected);
  return t;
}

TableFile TableFile::from_bytes(const std::string& path, std::vector<unsigned char> bytes, const std::optional<Rules>& expected) {
  TableFile t;
  t.path_ = path;
  t.memory_ = std::make_shared<const std::vector<unsigned char>>(std::move(bytes));
  const std::vector<unsigned char>& b = *t.memory_;
  t.init(decode_header(path, b.data(), b.size(), b.size()), expected);
  return t;
}

void TableFile::init(const TableFileHeader& h, const std::optional<Rules>& expected) {
  h_ = h;
  if (expected && !(*expected == h_.rules))
    throw GonuError(path_ + ": a table of the reading " + h_.rules_id + ", not " + rules_id(*expected));
  try {
    indexer_ = std::make_unique<Indexer>(h_.rules, h_.material);
  } catch (const GonuError& e) {
    throw GonuError(path_ + ": " + e.what() + " (the file is damaged)");
  }
  check_header_counts(path_, h_, indexer_->size());
  Position p;
  if (h_.longest_win >= 0 && !indexer_->decode(h_.longest_win_index, p))
    throw GonuError(path_ + ": the longest win's index " + std::to_string(h_.longest_win_index) + " is no position (the file is damaged)");
  index_ = read_bytes(h_.index_offset, 8 * (h_.blocks + 1));
  check_index(path_, h_, index_.data());
  serial_ = next_serial();
}

std::vector<unsigned char> TableFile::read_bytes(std::uint64_t offset, std::uint64_t size) const {
  std::vector<unsigned char> out(size);
  read_into(offset, out.data(), size);
  return out;
}

void TableFile::read_into(std::uint64_t offset, unsigned char* out, std::uint64_t size) const {
  if (memory_) {
    std::copy_n(memory_->begin() + std::ptrdiff_t(offset), size, out);
    return;
  }
  const table_container::OpenFile f = table_container::open_file(path_, kJungiFormat);
  if (!(identity_of<Identity>(f.stat()) == identity_)) throw GonuError(path_ + ": the file has changed since it was opened");
  if (table_container::read_at(f.fd(), path_, offset, out, size) != size)
    throw GonuError(path_ + ": the file has changed since it was opened (truncated)");
}

std::vector<unsigned char> TableFile::block_bytes(std::uint64_t b) const {
  const std::uint64_t from = table_bits::load64(index_.data() + 8 * b);
  const std::uint64_t to = table_bits::load64(index_.data() + 8 * (b + 1));
  auto damaged = [&](const std::string& what) {
    return GonuError(path_ + ": block " + std::to_string(b) + " " + what + " (the file is damaged; gonu verify checks it)");
  };
  const std::vector<unsigned char> in = read_bytes(h_.data_offset + from, to - from);
  std::vector<unsigned char> raw(std::size_t(block_count(b) * h_.code_bytes));
  if (h_.codec == kJungiCodecXz) decode_xz(in.data(), in.size(), raw, damaged);
  else decode_zstd(in.data(), in.size(), raw, damaged);
  return raw;
}

std::uint64_t TableFile::block_count(std::uint64_t b) const {
  return std::min<std::uint64_t>(h_.block_indices, h_.indices - b * h_.block_indices);
}

std::uint16_t TableFile::code_in(const std::vector<unsigned char>& raw, std::uint64_t count, std::uint64_t k) const {
  return std::uint16_t(table_bits::load_le(raw.data() + slot_of(k, count) * h_.code_bytes, h_.code_bytes));
}

std::vector<std::uint16_t> TableFile::block_codes(std::uint64_t b) const {
  const std::vector<unsigned char> raw = block_bytes(b);
  const std::uint64_t count = block_count(b);
  std::vector<std::uint16_t> codes(count);
  for (std::uint64_t k = 0; k < count; ++k) codes[k] = code_in(raw, count, k);
  return codes;
}

// The block's bytes are cached as stored (1 or 2 bytes a code, in the file's slot order): a table
// of 1-byte codes holds half the memory it would as 16-bit codes, and a first probe skips the
// conversion of the whole block.
std::uint16_t TableFile::code(std::uint64_t index) const {
  const std::uint64_t b = index / h_.block_indices;
  BlockCache& cache = block_cache();
  BlockCache::Block block = cache.find(serial_, b);
  if (!block) {
    block = std::make_shared<const std::vector<unsigned char>>(block_bytes(b));
    cache.add(serial_, b, block);
  }
  return code_in(*block, block_count(b), index % h_.block_indices);
}

namespace {
Value value_of_code(std::uint16_t c) {
  const std::uint16_t e = entry_of_code(c);
  const int d = e & 0x3FFF;
  switch (e & 0xC000) {
    case 0x4000: return {Result::win, d};
    case 0x8000: return {Result::loss, d};
    default: return {Result::draw, 0};
  }
}
}  // namespace

Value TableFile::value(std::uint64_t index) const {
  Position p;
  if (index >= h_.indices || !indexer_->decode(index, p)) return {};
  const ValueSource src = source_of(*indexer_, h_.rules, index, p);
  if (src.kind == ValueSource::royal_taken) return {Result::win, 1};
  const std::uint64_t at = src.kind == ValueSource::mirror ? src.image : index;
  const std::uint16_t c = code(at);
  if (c == 0) throw GonuError(path_ + ": valid index " + std::to_string(at) + " has no value (the file is damaged)");
  return value_of_code(c);
}

Value TableFile::value(const Position& p) const {
  Placement pl;
  if (!placement_of(p, pl)) return {};
  // A position of the flipped material is this table's position flipped, the other side to move.
  const bool flip = pl.material != h_.material;
  if (flip && flipped(pl.material) != h_.material) return {};
  const std::uint64_t i = flip ? indexer_->encode(flip_placement(pl), other(p.to_move)) : indexer_->encode(pl, p.to_move);
  return i == Indexer::kInvalid ? Value{} : value(i);
}

void TableFile::for_each_block(const std::function<void(std::uint64_t, const std::vector<std::uint16_t>&)>& use) const {
  std::vector<std::string> errors(h_.blocks);
  tbb::parallel_for(std::uint64_t{0}, h_.blocks, [&](std::uint64_t b) {
    try {
      use(b * h_.block_indices, block_codes(b));
    } catch (const GonuError& e) {
      errors[b] = e.what();
    }
  });
  for (const std::string& e : errors)
    if (!e.empty()) throw GonuError(e);
}

namespace {

// entry_of_code's inverse (0 for 0).
std::uint16_t code_of_entry(std::uint16_t e) {
  if (e == 0) return 0;
  if ((e & 0xC000) == 0xC000) return 1;
  return std::uint16_t((e & 0x4000 ? 3 : 2) + 2 * (e & 0x3FFF));
}

}  // namespace

std::unique_ptr<Table> TableFile::load_stored() const {
  auto t = std::make_unique<Table>(h_.rules, h_.material);
  t->entries.assign(h_.indices, 0);
  // Every index has a code (an invalid or derived one its don't-care), so a 0 is damage.
  for_each_block([&](std::uint64_t first, const std::vector<std::uint16_t>& codes) {
    for (std::uint64_t k = 0; k < codes.size(); ++k) {
      if (codes[k] == 0) throw GonuError(path_ + ": index " + std::to_string(first + k) + " has no value (the file is damaged)");
      t->entries[first + k] = entry_of_code(codes[k]);
    }
  });
  t->derive_on_read = true;
  TableStats& s = t->stats;
  s.indices = h_.indices;
  if (h_.counts_whole_board()) {  // the counts of the valid indices are not stored then
    s.board_positions = h_.positions;
    s.board_wins = h_.wins, s.board_losses = h_.losses, s.board_draws = h_.draws;
  } else {
    s.positions = h_.positions;
    s.wins = h_.wins, s.losses = h_.losses, s.draws = h_.draws;
  }
  s.longest_win = h_.longest_win, s.longest_loss = h_.longest_loss, s.longest_win_index = h_.longest_win_index;
  return t;
}

std::unique_ptr<Table> TableFile::load(LoadCheck* check) const {
  std::unique_ptr<Table> t = load_stored();
  t->derive_on_read = false;
  // The derived indices take their values; a mirror image read is stored, so never written here.
  // A don't-care is checked against the entry as read two indices before it: those of the two
  // indices before each chunk are kept before any chunk is filled.
  const std::uint64_t chunks = (h_.indices + kPassChunk - 1) / kPassChunk;
  std::vector<std::uint16_t> before(2 * chunks, entry_of_code(1));
  for (std::uint64_t c = 1; check && c < chunks; ++c)
    before[2 * c] = t->entries[c * kPassChunk - 2], before[2 * c + 1] = t->entries[c * kPassChunk - 1];
  std::vector<LoadCheck> parts(check ? chunks : 0);
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    const std::uint64_t from = c * kPassChunk, to = std::min(h_.indices, from + kPassChunk);
    std::vector<ValueSource> src(to - from);
    sources_of(*indexer_, h_.rules, from, to, src.data());
    std::uint16_t read[2] = {before[2 * c], before[2 * c + 1]};  // as read two indices back, by parity
    for (std::uint64_t i = from; i < to; ++i) {
      const ValueSource& s = src[i - from];
      const std::uint16_t as_read = t->entries[i];
      if (s.kind == ValueSource::invalid) t->entries[i] = 0;  // as a solve leaves it (Table::entries)
      else if (s.kind == ValueSource::royal_taken) t->entries[i] = entry_of_code(file_code({Result::win, 1}));
      else if (s.kind == ValueSource::mirror) t->entries[i] = t->entries[s.image];
      if (check) check_loaded(i, s, as_read, read[i % 2], t->entries, parts[c]);
      read[i % 2] = as_read;
    }
  });
  for (const LoadCheck& part : parts) {  // in index order: the first longest win is kept
    check->positions += part.positions;
    check->board_positions += part.board_positions;
    for (std::size_t side = 0; side < 2; ++side) {
      check->wins[side] += part.wins[side], check->losses[side] += part.losses[side], check->draws[side] += part.draws[side];
      check->board_wins[side] += part.board_wins[side], check->board_losses[side] += part.board_losses[side];
      check->board_draws[side] += part.board_draws[side];
    }
    if (part.longest_win > check->longest_win) check->longest_win = part.longest_win, check->longest_win_index = part.longest_win_index;
    check->longest_loss = std::max(check->longest_loss, part.longest_loss);
    if (check->dont_care_error.empty()) check->dont_care_error = part.dont_care_error;
  }
  return t;
}

void TableFile::check_loaded(std::uint64_t i, const ValueSource& s, std::uint16_t as_read, std::uint16_t two_before,
                            const std::vector<std::uint16_t>& entries, LoadCheck& part) const {
  if (s.kind != ValueSource::invalid) {
    const std::uint16_t e = entries[i];
    const std::uint64_t board = file_of(indexer_->south_royal_square(i)) == kFiles / 2 ? 1 : 2;  // TableStats::board_positions
    (e >> 14 == 1 ? part.wins : e >> 14 == 2 ? part.losses : part.draws)[i % 2]++;
    (e >> 14 == 1 ? part.board_wins : e >> 14 == 2 ? part.board_losses : part.board_draws)[i % 2] += board;
    ++part.positions;
    part.board_positions += board;
    const std::int32_t d = e & 0x3FFF;
    if (e >> 14 == 1 && d > part.longest_win) part.longest_win = d, part.longest_win_index = i;
    if (e >> 14 == 2) part.longest_loss = std::max(part.longest_loss, d);
  }
  if (s.kind == ValueSource::stored || !part.dont_care_error.empty()) return;
  // A don't-care, except a derived index of format 1, which holds its value.
  const bool value_held = s.kind != ValueSource::invalid && h_.format_version == 1;
  std::uint16_t want = two_before;
  if (value_held) want = s.kind == ValueSource::royal_taken ? entry_of_code(file_code({Result::win, 1})) : entries[s.image];
  if (as_read == want) return;
  Position p;
  part.dont_care_error = "index " + std::to_string(i) + (indexer_->decode(i, p) ? " (" + format_position(p) + ")" : std::string(" (invalid)")) +
                         " holds the code " + std::to_string(code_of_entry(as_read)) + ", not its " + (value_held ? "derived" : "don't-care") +
                         " code " + std::to_string(code_of_entry(want));
}

std::string TableFile::dont_care_error() const {
  LoadCheck check;
  load(&check);
  return check.dont_care_error;
}

bool TableFile::payload_checksum_ok() const {
  // Read in chunks of 16 MiB, so that a large table's check holds little.
  const auto read = [&](std::uint64_t at, unsigned char* out, std::size_t len) { read_into(at, out, len); };
  return table_container::xxh3_of_range(kJungiTableHeaderSize, h_.file_size, read, std::size_t{16} << 20) == h_.payload_xxh3;
}

}  // namespace gonu::jungi
