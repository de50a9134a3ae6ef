// libFuzzer target: the df-pn proofs file reader (solver/julgonu/superko/dfpn_table.hpp), for the rules of
// 5x2 `soldiers` (the corpus's files), on arbitrary bytes. Each input is read twice: from memory
// (parse_dfpn_table) and from a file (read_dfpn_table, which reads its head and last line first and
// sums the rest in chunks); both must give the same proofs or both refuse. Then it is tried again
// "restamped" - its last line replaced by the checksum of everything before it - since a random
// mutation almost never survives the checksum, and the record parser lies behind it. Only GonuError
// is an accepted outcome; any other exception or a sanitizer report is a finding, and so is proofs
// read back that do not write the same text again.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/julgonu/rules.hpp"
#include "solver/julgonu/superko/dfpn_table.hpp"

namespace {

const gonu::Rules& fuzz_rules() {
  static const gonu::Rules r = [] {
    gonu::Rules x = gonu::rules_by_name("soldiers");
    x.rows = 5;
    x.cols = 2;
    return x;
  }();
  return r;
}

void write_file(const std::string& path, const std::string& bytes) {
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) std::abort();
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size()) std::abort();
  std::fclose(out);
}

// The proofs' text as written again, or none where the reader refused.
template <class Read>
std::optional<std::string> read_back(Read read) {
  try {
    return gonu::format_dfpn_table(fuzz_rules(), read());
  } catch (const gonu::GonuError&) {
    return std::nullopt;
  }
}

void exercise(const std::string& text, const std::string& path) {
  const auto from_text = read_back([&] { return gonu::parse_dfpn_table(fuzz_rules(), text, "fuzz"); });
  write_file(path, text);
  const auto from_file = read_back([&] { return gonu::read_dfpn_table(fuzz_rules(), path); });
  if (from_text != from_file) std::abort();
  if (from_text && read_back([&] { return gonu::parse_dfpn_table(fuzz_rules(), *from_text, "again"); }) != from_text)
    std::abort();
}

// The bytes with their last line (from the last "checksum ", if any) replaced by the right one.
std::string restamp(const std::string& text) {
  const std::size_t at = text.rfind("checksum ");
  const std::string body = at == std::string::npos ? text : text.substr(0, at);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : body) h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
  char sum[17];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(h));
  return body + "checksum " + sum + "\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/gonu-fuzz-dfpn-table-" + std::to_string(getpid()) + ".dfpn";
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  exercise(text, path);
  const std::string stamped = restamp(text);
  if (stamped != text) exercise(stamped, path);
  return 0;
}
