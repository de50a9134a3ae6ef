// The table container both games' formats use (solver/container/): its frame sealed as the plain
// reference (tests/reference/container_plain.hpp) builds it; its checks refusing, with the
// reference's reason, every header the reference refuses (a bad magic, a wrong checksum, a short
// file, ...) and passing the others; block offsets accepted exactly when the reference accepts
// them (an index out of bounds refused); a range hashed in chunks as in one piece; text fields;
// and the file side: bounded reads, non-regular files refused, the writer's errors.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <random>

#include "core/error.hpp"
#include "solver/container/file.hpp"
#include "solver/container/frame.hpp"
#include "tests/reference/container_plain.hpp"
#include "tests/table_test_util.hpp"

using namespace gonu;
namespace tc = gonu::table_container;
namespace plain = gonu::plain_container;
using table_test::contains;

namespace {

constexpr tc::Format kSmall{{'T', 'E', 'S', 'T', '-', 'F', 'M', 'T'}, 64, 3, "test table", "test format"};
constexpr tc::Format kLarge{{'G', 'O', 'N', 'U', '-', 'X', 'Y', 'Z'}, 320, 9, "test table", "test format"};

// The message check_frame gives `head` (the first bytes of a file of `size`), or "" if it passes.
std::string frame_error(const plain::Bytes& head, std::uint64_t size, const tc::Format& f) {
  try {
    tc::check_frame(head.data(), head.size(), size, f, "t.tbl");
  } catch (const GonuError& e) {
    return e.what();
  }
  return "";
}

std::string magic_of(const tc::Format& f) { return std::string(f.magic, tc::kMagicSize); }

// A sealed header with random fields (a version the format reads) and a body of random bytes.
plain::Bytes random_header(std::mt19937_64& rng, const tc::Format& f, tc::Frame& frame) {
  frame.version = std::uint32_t(1 + rng() % f.newest_version);
  frame.file_size = f.header_size + rng() % 100000;
  frame.payload_xxh3 = rng();
  frame.index_xxh3 = rng();
  plain::Bytes body(f.header_size - tc::kFrameHeadSize - tc::kHeaderXxh3Size);
  for (unsigned char& c : body) c = static_cast<unsigned char>(rng());
  plain::Bytes head(f.header_size, 0);
  std::copy(body.begin(), body.end(), head.begin() + tc::kFrameHeadSize);
  frame.header_xxh3 = tc::seal(head.data(), f, frame);
  const plain::Bytes want =
      plain::frame(magic_of(f), frame.version, f.header_size, frame.file_size, frame.payload_xxh3, frame.index_xxh3, body);
  REQUIRE(head == want);
  return head;
}

// The message check_block_starts gives for `starts` (the last one the end of the last block).
std::string starts_error(const std::vector<std::uint64_t>& starts, std::uint64_t end, std::uint64_t min_len) {
  try {
    tc::check_block_starts(starts.size() - 1, [&](std::uint64_t b) { return starts[b]; }, end, min_len, "data", "t.tbl");
  } catch (const GonuError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("table container: a sealed header is the plain reference's frame, and its checks give its fields back", "[container]") {
  std::mt19937_64 rng(20240601);
  for (const tc::Format& f : {kSmall, kLarge}) {
    for (int trial = 0; trial < 200; ++trial) {
      tc::Frame frame;
      const plain::Bytes head = random_header(rng, f, frame);
      const tc::Frame back = tc::check_frame(head.data(), head.size(), frame.file_size, f, "t.tbl");
      CHECK(back.version == frame.version);
      CHECK(back.file_size == frame.file_size);
      CHECK(back.payload_xxh3 == frame.payload_xxh3);
      CHECK(back.index_xxh3 == frame.index_xxh3);
      CHECK(back.header_xxh3 == frame.header_xxh3);
      CHECK(back.header_xxh3 == XXH3_64bits(head.data(), f.header_size - 8));
    }
  }
}

TEST_CASE("table container: the frame's checks refuse a bad magic, a wrong checksum, a short file and the rest, one line each",
          "[container]") {
  std::mt19937_64 rng(7);
  tc::Frame frame;
  const plain::Bytes good = random_header(rng, kSmall, frame);
  const auto refused = [&](plain::Bytes head, std::uint64_t size, const std::string& part) {
    const std::string e = frame_error(head, size, kSmall);
    INFO(e);
    CHECK(contains(e, "t.tbl"));
    CHECK(contains(e, part));
    CHECK(e.find('\n') == std::string::npos);
  };
  plain::Bytes b = good;
  b[3] = 'x';
  refused(b, frame.file_size, "t.tbl is not a test table (no TEST-FMT magic)");
  refused({}, 0, "t.tbl is not a test table (only 0 bytes)");
  refused(plain::Bytes(good.begin(), good.begin() + 12), 12, "is truncated: 12 bytes, less than a table header");
  refused(plain::Bytes(good.begin(), good.begin() + 40), 40, "is truncated: 40 bytes, less than its 64-byte header");
  refused(good, frame.file_size - 1, "is truncated: " + std::to_string(frame.file_size - 1) + " of");
  refused(good, frame.file_size + 2, "2 bytes past the end the header gives");
  b = good;
  b[50] ^= 1;
  refused(b, frame.file_size, "t.tbl: header checksum mismatch (the file is damaged)");
  b = plain::frame("TEST-FMT", 4, 64, frame.file_size, 0, 0);
  refused(b, frame.file_size, "t.tbl: test format version 4 is newer than this gonu reads (up to 3)");
  b = plain::frame("TEST-FMT", 0, 64, frame.file_size, 0, 0);
  refused(b, frame.file_size, "format version 0 (the file is damaged)");
  b = plain::frame("TEST-FMT", 1, 320, frame.file_size, 0, 0);
  b.resize(64);
  refused(b, frame.file_size, "header size 320, expected 64");
  // Nothing past the first 16 bytes is needed to refuse a newer version: a format's own check of
  // an old version can come before the checksum's.
  b = plain::frame("TEST-FMT", 2, 64, frame.file_size, 0, 0);
  b.resize(16);
  CHECK(tc::check_magic_and_version(b.data(), b.size(), frame.file_size, kSmall, "t.tbl") == 2);
}

TEST_CASE("table container: the frame's checks refuse what the plain reference refuses, for its reason", "[container]") {
  std::mt19937_64 rng(99);
  for (const tc::Format& f : {kSmall, kLarge}) {
    for (int trial = 0; trial < 3000; ++trial) {
      tc::Frame frame;
      plain::Bytes head = random_header(rng, f, frame);
      std::uint64_t size = frame.file_size;
      switch (rng() % 5) {
        case 0: head[rng() % head.size()] ^= static_cast<unsigned char>(1u << (rng() % 8)); break;
        case 1: head[rng() % 16] = static_cast<unsigned char>(rng()); break;
        case 2: size = rng() % (frame.file_size + 10); break;
        case 3:  // another file size, resealed: only the file's size can refuse it
          plain::put(head, 16, rng() % (2 * frame.file_size), 8);
          plain::put(head, f.header_size - 8, XXH3_64bits(head.data(), f.header_size - 8), 8);
          break;
        default: break;
      }
      if (rng() % 4 == 0) {
        head.resize(std::size_t(rng() % head.size()));
        size = head.size();
      }
      const std::string want = plain::first_broken(head, size, magic_of(f), f.newest_version, f.header_size);
      const std::string got = frame_error(head, size, f);
      INFO("trial " << trial << ": " << got);
      if (want.empty()) CHECK(got.empty());
      else CHECK(contains(got, want));
    }
  }
}

TEST_CASE("table container: block offsets are accepted exactly when the plain reference accepts them", "[container]") {
  std::mt19937_64 rng(3);
  const std::uint64_t near_top = ~std::uint64_t(0);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::uint64_t min_len = trial % 2 ? 8 : 1;
    const std::size_t blocks = std::size_t(rng() % 6);
    std::vector<std::uint64_t> starts(blocks + 1);
    std::uint64_t at = 0;
    for (std::uint64_t& s : starts) {
      s = at;
      at += min_len + rng() % 20;
    }
    std::uint64_t end = starts.back();
    switch (rng() % 6) {
      case 0: starts[rng() % starts.size()] += rng() % 3 - 1; break;            // one off by one either way
      case 1: starts[rng() % starts.size()] = near_top - rng() % 16; break;     // near 2^64: no wrapping
      case 2: end = end + rng() % 3 - 1; break;
      case 3: std::swap(starts[rng() % starts.size()], starts[rng() % starts.size()]); break;
      default: break;
    }
    const bool ok = plain::block_starts_ok(starts, end, min_len);
    const std::string e = starts_error(starts, end, min_len);
    INFO("trial " << trial << ": " << e);
    CHECK(ok == e.empty());
    if (!ok) CHECK(contains(e, "(the file is damaged)"));
  }
}

TEST_CASE("table container: an index out of bounds or with a wrong checksum is refused, naming the entry", "[container]") {
  CHECK(contains(starts_error({0, 10, 1000}, 20, 1), "t.tbl: index entry 2 points past the data (the file is damaged)"));
  CHECK(contains(starts_error({0, 30, 40}, 20, 1), "index entry 1 points past the data"));
  CHECK(contains(starts_error({0, ~std::uint64_t(0), 20}, 20, 1), "index entry 1 points past the data"));
  CHECK(contains(starts_error({0, 12, 10}, 20, 1), "index entry 2 is out of order"));
  CHECK(contains(starts_error({5, 12, 20}, 20, 1), "index entry 0 is out of order"));
  CHECK(contains(starts_error({0, 4, 20}, 20, 8), "index entry 1 is out of order"));
  CHECK(contains(starts_error({0, 10, 19}, 20, 1), "the index does not end at the data's end"));
  CHECK(starts_error({0, 10, 20}, 20, 1).empty());
  const unsigned char index[16] = {1, 2, 3};
  CHECK_NOTHROW(tc::check_index_xxh3(index, 16, XXH3_64bits(index, 16), "t.tbl"));
  CHECK_THROWS_WITH(tc::check_index_xxh3(index, 16, XXH3_64bits(index, 15), "t.tbl"),
                    "t.tbl: index checksum mismatch (the file is damaged)");
}

TEST_CASE("table container: a range hashed a chunk at a time is the XXH3 of its bytes", "[container]") {
  std::mt19937_64 rng(11);
  std::vector<unsigned char> data(5000);
  for (unsigned char& c : data) c = static_cast<unsigned char>(rng());
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint64_t from = rng() % data.size(), to = from + rng() % (data.size() - from + 1);
    const std::size_t chunk = std::size_t(1 + rng() % 700);
    std::uint64_t next = from;  // the chunks come in order, each where the last ended
    const auto read = [&](std::uint64_t at, unsigned char* out, std::size_t len) {
      REQUIRE(at == next);
      REQUIRE(len <= chunk);
      std::copy_n(data.begin() + std::ptrdiff_t(at), len, out);
      next += len;
    };
    CHECK(tc::xxh3_of_range(from, to, read, chunk) == XXH3_64bits(data.data() + from, std::size_t(to - from)));
    CHECK(next == to);
  }
}

TEST_CASE("table container: text fields are printable ASCII padded with NULs, reserved bytes zero", "[container]") {
  unsigned char field[8] = {};
  tc::put_text(field, 8, "KRvK", "material");
  CHECK(tc::get_text(field, 8, "t.tbl") == "KRvK");
  CHECK_THROWS_WITH(tc::put_text(field, 8, "12345678", "material"), "table header: material '12345678' is too long");
  const auto refused = [](std::vector<unsigned char> bytes) {
    CHECK_THROWS_WITH(tc::get_text(bytes.data(), bytes.size(), "t.tbl"),
                      "t.tbl: a header text field is not NUL-padded printable ASCII (the file is damaged)");
  };
  refused({'a', 0x07, 0, 0});
  refused({'a', 0, 'b', 0});
  refused({'a', 0xC3, 0xA9, 0});
  const unsigned char full[4] = {'a', 'b', 'c', 'd'};  // no NUL: read, though no writer writes it
  CHECK(tc::get_text(full, 4, "t.tbl") == "abcd");
  const unsigned char zero[4] = {0, 0, 0, 0}, one[4] = {0, 0, 1, 0};
  CHECK_NOTHROW(tc::check_zero(zero, 4, "reserved", "t.tbl"));
  CHECK_THROWS_WITH(tc::check_zero(one, 4, "reserved", "t.tbl"),
                    "t.tbl: reserved header bytes are not zero (reserved) (the file is damaged)");
}

TEST_CASE("table container: a file's header is read a header's bytes at most, whatever size it claims", "[container]") {
  table_test::TempDir d;
  std::mt19937_64 rng(5);
  tc::Frame frame;
  const plain::Bytes head = random_header(rng, kLarge, frame);
  const std::string path = d.file("big.tbl");
  table_test::spit(path, std::string(head.begin(), head.end()));
  REQUIRE(::truncate(path.c_str(), off_t(1) << 40) == 0);  // a sparse terabyte: nothing of it is read
  {
    const tc::OpenFile f = tc::open_file(path, kLarge);
    CHECK(f.size() == std::uint64_t(1) << 40);
    const std::vector<unsigned char> got = tc::read_head(f, kLarge, path);
    CHECK(got == head);
    CHECK(contains(frame_error(got, f.size(), kLarge), "bytes past the end the header gives"));
    unsigned char tail[8];
    CHECK(tc::read_at(f.fd(), path, (std::uint64_t(1) << 40) - 3, tail, 8) == 3);
  }
  CHECK(tc::starts_with_magic(path, kLarge));
  CHECK(!tc::starts_with_magic(path, kSmall));
  table_test::spit(d.file("short.tbl"), std::string(head.begin(), head.begin() + 20));
  {
    const tc::OpenFile f = tc::open_file(d.file("short.tbl"), kLarge);
    const std::vector<unsigned char> got = tc::read_head(f, kLarge, d.file("short.tbl"));
    CHECK(got.size() == 20);
    CHECK(contains(frame_error(got, f.size(), kLarge), "is truncated: 20 bytes, less than its 320-byte header"));
  }
  REQUIRE(mkfifo(d.file("fifo").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(tc::open_file(d.file("fifo"), kLarge), d.file("fifo") + " is not a test table: not a regular file (a FIFO)");
  CHECK_THROWS_WITH(tc::open_file(d.path, kLarge), Catch::Contains("is not a test table: not a regular file (a directory)"));
  CHECK_THROWS_WITH(tc::open_file(d.file("missing"), kLarge), "cannot open table " + d.file("missing") + ": No such file or directory");
  CHECK(!tc::starts_with_magic(d.file("fifo"), kLarge));
  CHECK(!tc::starts_with_magic(d.file("missing"), kLarge));
}

TEST_CASE("table container: a path a table cannot be written at is refused in one line, and so is a failed write", "[container]") {
  table_test::TempDir d;
  CHECK_NOTHROW(tc::check_writable(d.file("new.tbl")));
  CHECK_THROWS_WITH(tc::check_writable(d.path), Catch::StartsWith("cannot write table " + d.path + ": "));
  CHECK_THROWS_WITH(tc::check_writable(d.file("no/such/dir.tbl")), Catch::StartsWith("cannot write table " + d.file("no/such/dir.tbl") + ": "));
  CHECK(d.list().empty());  // the check's temporary file is gone
  CHECK(tc::writing("x.tbl", [] { return 42; }) == 42);
  CHECK_THROWS_WITH(tc::writing("x.tbl", []() -> int { throw FileWriteError("No space left on device"); }),
                    "cannot write table x.tbl: No space left on device");
}
