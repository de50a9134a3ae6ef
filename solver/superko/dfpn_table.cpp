// The df-pn proofs file (see dfpn_table.hpp; the format is in SUPERKO.md, "The df-pn proofs file").
#include "solver/superko/dfpn_table.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "util/atomic_file.hpp"

namespace gonu {

namespace {

constexpr const char* kMagic = "gonu-dfpn-table 1";

// FNV-1a, 64 bits: catches a damaged or truncated file (not an adversary).
std::uint64_t fnv1a(const std::string& s, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ std::uint8_t(s[i])) * 0x100000001b3ull;
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
  return text + "checksum " + hex(fnv1a(text, text.size())) + "\n";
}

DfpnSearch::Proofs parse_dfpn_table(const Rules& rules, const std::string& text, const std::string& path) {
  const std::string where = "df-pn table " + path + ": ";
  if (text.rfind(std::string(kMagic) + "\n", 0) != 0)
    throw GonuError(where + "not a df-pn proofs file of format 1 (its first line is not '" + kMagic + "')");
  const std::size_t sum_at = text.rfind("checksum ");
  if (sum_at == std::string::npos || (sum_at > 0 && text[sum_at - 1] != '\n') ||
      text.substr(sum_at) != "checksum " + hex(fnv1a(text, sum_at)) + "\n")
    throw GonuError(where + "damaged (its checksum does not match; it was cut short or altered)");
  const std::string h = header(rules);
  if (text.compare(0, h.size(), h) != 0)
    throw GonuError(where + "written for other rules or another board (this run's are " + rules_id(rules) + ")");
  BodyReader r;
  r.in.str(text.substr(h.size(), sum_at - h.size()));
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

DfpnTableFile::DfpnTableFile(const std::string& path, const Rules& rules) : path_(path), rules_(rules) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    if (!in || !(all << in.rdbuf())) throw GonuError("cannot read df-pn table " + path);
    loaded_ = parse_dfpn_table(rules, all.str(), path);
  }
  try {
    check_atomic_target(path);
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write df-pn table " + path + ": " + e.what());
  }
}

void DfpnTableFile::attach(DfpnSearch& search) const {
  search.add_proofs(loaded_);
  search.set_checkpoint([this, &search] { save(search); });
}

void DfpnTableFile::save(const DfpnSearch& search) const {
  DfpnSearch::Proofs proofs = search.proofs();
  const std::string text = format_dfpn_table(rules_, proofs);
  try {
    write_file_atomically(path_, {ByteRange{text.data(), text.size()}});
  } catch (const FileWriteError& e) {
    throw GonuError("cannot write df-pn table " + path_ + ": " + e.what());
  }
  loaded_ = std::move(proofs);
}

}  // namespace gonu
