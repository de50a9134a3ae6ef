// The df-pn proofs file (see dfpn_table.hpp; the format is in SUPERKO.md, "The df-pn proofs file").
#include "solver/julgonu/superko/dfpn_table.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>

#include "core/error.hpp"
#include "util/atomic_file.hpp"
#include "util/regular_file.hpp"

namespace gonu {

namespace {

constexpr const char* kMagic = "gonu-dfpn-table 1";

// FNV-1a, 64 bits: catches a damaged or truncated file (not an adversary), `h` carried on over s.
constexpr std::uint64_t kFnvStart = 0xcbf29ce484222325ull;
std::uint64_t fnv1a_more(std::uint64_t h, const std::string& s) {
  for (const char c : s) h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
  return h;
}

std::string hex(std::uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

char value_char(SkValue v) { return v == SkValue::win ? 'w' : 'l'; }

std::string header(const Rules& rules) {
  return std::string(kMagic) + "\nboard " + std::to_string(rules.rows) + "x" + std::to_string(rules.cols) +
         "\nrules " + rules_id(rules) + "\n";
}

void write_keys(std::ostringstream& o, const std::vector<Key>& keys) {
  o << ' ' << keys.size();
  for (Key k : keys) o << ' ' << std::hex << k << std::dec;
}

// Reads the body's records, one a line; false on anything else.
struct BodyReader {
  std::istringstream in;
  DfpnSearch::Proofs out;

  static bool value(const std::string& t, SkValue& v) {
    if (t != "w" && t != "l") return false;
    v = t == "w" ? SkValue::win : SkValue::loss;
    return true;
  }
  static bool keys(std::istringstream& l, std::vector<Key>& v) {
    std::size_t n = 0;
    if (!(l >> n) || n > 1u << 20) return false;
    v.resize(n);
    for (Key& k : v)
      if (!(l >> std::hex >> k >> std::dec)) return false;
    return true;
  }
  bool line(const std::string& text) {
    std::istringstream l(text);
    std::string tag, v;
    if (!(l >> tag)) return false;
    if (tag == "e") {
      DfpnSearch::Proofs::Entry e{};
      if (!(l >> std::hex >> e.key >> std::dec >> v) || !value(v, e.value)) return false;
      out.entries.push_back(e);
    } else if (tag == "c") {
      DfpnSearch::Proofs::Conditional c{};
      if (!(l >> std::hex >> c.key >> std::dec >> v >> c.work >> c.deps.threshold) || !value(v, c.value) ||
          !keys(l, c.deps.unvisited) || !keys(l, c.deps.visited))
        return false;
      out.conditional.push_back(std::move(c));
    } else if (tag == "x") {
      DfpnSearch::Proofs::Exact x{};
      if (!(l >> std::hex >> x.key >> x.visited_hash >> std::dec >> v >> x.work) || !value(v, x.value)) return false;
      out.exact.push_back(x);
    } else {
      return false;
    }
    std::string rest;
    return !(l >> rest);
  }
};

}  // namespace

std::string format_dfpn_table(const Rules& rules, const DfpnSearch::Proofs& p) {
  std::ostringstream o;
  o << header(rules) << "counts " << p.entries.size() << ' ' << p.conditional.size() << ' ' << p.exact.size() << '\n';
  for (const auto& e : p.entries) o << "e " << std::hex << e.key << std::dec << ' ' << value_char(e.value) << '\n';
  for (const auto& c : p.conditional) {
    o << "c " << std::hex << c.key << std::dec << ' ' << value_char(c.value) << ' ' << c.work << ' ' << c.deps.threshold;
    write_keys(o, c.deps.unvisited);
    write_keys(o, c.deps.visited);
    o << '\n';
  }
  for (const auto& x : p.exact)
    o << "x " << std::hex << x.key << ' ' << x.visited_hash << std::dec << ' ' << value_char(x.value) << ' ' << x.work
      << '\n';
  std::string text = o.str();
  return text + "checksum " + hex(fnv1a_more(kFnvStart, text)) + "\n";
}

namespace {

// The checksum line that ends a file: "checksum " and 16 hex digits.
constexpr std::size_t kSumLine = 26;

// The head's checks, on the file's first bytes (at least header(rules).size() of them, where there
// are): its first line, then its board and rules.
void check_head(const Rules& rules, const std::string& head, const std::string& where) {
  if (head.rfind(std::string(kMagic) + "\n", 0) != 0)
    throw GonuError(where + "not a df-pn proofs file of format 1 (its first line is not '" + kMagic + "')");
  if (head.compare(0, header(rules).size(), header(rules)) != 0)
    throw GonuError(where + "written for other rules or another board (this run's are " + rules_id(rules) + ")");
}

[[noreturn]] void damaged(const std::string& where) {
  throw GonuError(where + "damaged (its checksum does not match; it was cut short or altered)");
}

// The checksum its last line holds; `line` must be that line, whole.
std::uint64_t stated_sum(const std::string& line, const std::string& where) {
  if (line.size() != kSumLine || line.rfind("checksum ", 0) != 0 || line.back() != '\n' ||
      line.find_first_not_of("0123456789abcdef", 9) != kSumLine - 1)
    damaged(where);
  return std::stoull(line.substr(9, 16), nullptr, 16);
}

// The records between the head and the checksum line.
DfpnSearch::Proofs parse_body(const std::string& body, const std::string& where) {
  BodyReader r;
  r.in.str(body);
  std::string line, counts;
  std::size_t ne = 0, nc = 0, nx = 0;
  if (!std::getline(r.in, line) || !(std::istringstream(line) >> counts >> ne >> nc >> nx) || counts != "counts")
    throw GonuError(where + "malformed counts line");
  for (std::size_t n = 1; std::getline(r.in, line); ++n)
    if (!r.line(line)) throw GonuError(where + "malformed record " + std::to_string(n));
  if (r.out.entries.size() != ne || r.out.conditional.size() != nc || r.out.exact.size() != nx)
    throw GonuError(where + "its records do not match its counts");
  return r.out;
}

// n bytes of the file from `at` (fewer at its end).
std::string read_at(int fd, std::uint64_t at, std::size_t n, const std::string& where) {
  std::string b(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    const ssize_t k = ::pread(fd, b.data() + got, n - got, off_t(at + got));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) throw GonuError(where + "cannot be read: " + std::strerror(errno));
    if (k == 0) break;
    got += std::size_t(k);
  }
  b.resize(got);
  return b;
}

// FNV-1a of the file's first n bytes, a chunk at a time.
std::uint64_t file_sum(int fd, std::uint64_t n, const std::string& where) {
  constexpr std::size_t kChunk = 1 << 20;
  std::uint64_t h = kFnvStart;
  for (std::uint64_t at = 0; at < n; at += kChunk) {
    const std::string b = read_at(fd, at, std::size_t(std::min<std::uint64_t>(kChunk, n - at)), where);
    if (b.empty()) damaged(where);  // shorter than when it was measured
    h = fnv1a_more(h, b);
  }
  return h;
}

}  // namespace

DfpnSearch::Proofs parse_dfpn_table(const Rules& rules, const std::string& text, const std::string& path) {
  const std::string where = "df-pn table " + path + ": ";
  check_head(rules, text.substr(0, header(rules).size()), where);
  if (text.size() < header(rules).size() + kSumLine) damaged(where);
  const std::size_t sum_at = text.size() - kSumLine;
  if (stated_sum(text.substr(sum_at), where) != fnv1a_more(kFnvStart, text.substr(0, sum_at))) damaged(where);
  return parse_body(text.substr(header(rules).size(), sum_at - header(rules).size()), where);
}

DfpnSearch::Proofs read_dfpn_table(const Rules& rules, const std::string& path) {
  const std::string where = "df-pn table " + path + ": ";
  std::string why;
  const int fd = open_regular_file(path, why);
  if (fd < 0) throw GonuError("cannot read df-pn table " + path + ": " + why);
  const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    ::close(*f);
    delete f;
  });
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw GonuError(where + "cannot be read: " + std::strerror(errno));
  const std::uint64_t size = std::uint64_t(st.st_size);
  // What costs nothing first: the head, then the last line; only then the bytes between, summed a
  // chunk at a time, and read whole only once they are known to be what was written.
  const std::size_t head = header(rules).size();
  check_head(rules, read_at(fd, 0, head, where), where);
  if (size < head + kSumLine) damaged(where);
  const std::uint64_t sum_at = size - kSumLine;
  if (stated_sum(read_at(fd, sum_at, kSumLine, where), where) != file_sum(fd, sum_at, where)) damaged(where);
  const std::string body = read_at(fd, head, std::size_t(sum_at - head), where);
  if (body.size() != sum_at - head) damaged(where);
  return parse_body(body, where);
}

DfpnTableFile::DfpnTableFile(const std::string& path, const Rules& rules) : path_(path), rules_(rules) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    kept_ = read_dfpn_table(rules, path);
    read_facts_ = !kept_.entries.empty() || !kept_.conditional.empty() || !kept_.exact.empty();
  }
  try {
    check_atomic_target(path);
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write df-pn table " + path + ": " + e.what());
  }
}

void DfpnTableFile::attach(DfpnSearch& search) const {
  search.add_proofs(kept_);
  search.set_checkpoint([this, &search] { checkpoint(search); });
}

void DfpnTableFile::save(const DfpnSearch& search) const {
  keep(search);
  write_kept();
}

void DfpnTableFile::keep(const DfpnSearch& search) const { kept_ = search.proofs(); }

void DfpnTableFile::write_kept() const { write(kept_); }

void DfpnTableFile::checkpoint(const DfpnSearch& search) const {
  DfpnSearch::Proofs p = search.proofs();
  p.erase_if_source([](DfpnSource s) { return s == DfpnSource::derived; });
  write(p);
}

bool DfpnTableFile::hints() const {
  const auto hint = [](const auto& e) { return e.source != DfpnSource::proven; };
  return std::any_of(kept_.entries.begin(), kept_.entries.end(), hint) ||
         std::any_of(kept_.conditional.begin(), kept_.conditional.end(), hint) ||
         std::any_of(kept_.exact.begin(), kept_.exact.end(), hint);
}

void DfpnTableFile::write(const DfpnSearch::Proofs& p) const {
  const std::string text = format_dfpn_table(rules_, p);
  try {
    write_file_atomically(path_, {ByteRange{text.data(), text.size()}});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write df-pn table " + path_ + ": " + e.what());
  }
}

void DfpnTableFile::blame(const DfpnContradiction& e) const {
  if (!read_facts_) throw e;
  std::string what = e.what();
  const std::string internal = " (internal error)";
  if (what.ends_with(internal)) what.resize(what.size() - internal.size());
  throw GonuError("df-pn table " + path_ + ": holds a false fact, which the search contradicts (" + what +
                  "); the file was altered or damaged: delete it");
}

}  // namespace gonu
