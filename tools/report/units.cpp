// Byte sizes read, counts, durations and progress lines written (units.hpp).
#include "tools/report/units.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace gonu::cli {

namespace {

constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::uint64_t>::max();

// The bytes of a unit (lower case), or nothing if it is not one.
std::optional<std::uint64_t> unit_bytes(const std::string& unit) {
  if (unit.empty() || unit == "b") return 1;
  static const char kPrefixes[] = "kmgt";
  const char* p = unit.size() <= 3 ? std::strchr(kPrefixes, unit[0]) : nullptr;
  if (!p || *p == '\0') return std::nullopt;
  const int power = int(p - kPrefixes) + 1;
  const std::string rest = unit.substr(1);
  std::uint64_t base = 0;
  if (rest.empty() || rest == "ib") base = 1024;
  else if (rest == "b") base = 1000;
  else return std::nullopt;
  std::uint64_t bytes = 1;
  for (int i = 0; i < power; ++i) bytes *= base;
  return bytes;
}

std::string printed(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(const std::string& text) {
  std::size_t i = 0;
  std::uint64_t whole = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    const std::uint64_t d = std::uint64_t(text[i] - '0');
    if (whole > (kMaxBytes - d) / 10) return std::nullopt;
    whole = whole * 10 + d;
  }
  if (i == 0) return std::nullopt;  // a size starts with a digit
  double fraction = 0, scale = 0.1;
  const bool has_point = i < text.size() && text[i] == '.';
  if (has_point) {
    const std::size_t first = ++i;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, scale /= 10)
      fraction += double(text[i] - '0') * scale;
    if (i == first) return std::nullopt;  // "1." or "1.G"
  }
  std::string unit = text.substr(i);
  for (char& c : unit) c = char(std::tolower(static_cast<unsigned char>(c)));
  const std::optional<std::uint64_t> per = unit_bytes(unit);
  if (!per || (has_point && *per == 1)) return std::nullopt;  // no fractions of a byte
  if (whole > kMaxBytes / *per) return std::nullopt;
  const std::uint64_t bytes = whole * *per;
  const auto extra = std::uint64_t(fraction * double(*per));  // below one unit, at most 2^40
  if (bytes > kMaxBytes - extra) return std::nullopt;
  return bytes + extra;
}

std::string short_count(double n) {
  static const char* kSuffixes[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (k < 5 && n >= 999.5) {
    n /= 1000;
    ++k;
  }
  if (k == 0) return printed("%.0f", n);
  return printed(n < 99.95 ? "%.1f" : "%.0f", n) + kSuffixes[k];
}

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds > 1e9) return "?";
  const long long s = std::max(0LL, std::llround(seconds));
  char buf[64];
  if (s < 60) std::snprintf(buf, sizeof buf, "%llds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  else if (s < 86400) std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  else std::snprintf(buf, sizeof buf, "%lldd%02lldh", s / 86400, s % 86400 / 3600);
  return buf;
}

std::string format_progress(const std::string& phase, std::uint64_t done, std::uint64_t total, double seconds) {
  // What a phase counts: the superko search the nodes of its tree, the compact engine's passes
  // over the dense space its ids, every other phase states.
  const std::string items = phase == "superko search"                           ? "nodes"
                            : phase == "count moves" || phase == "mark reached" ? "ids"
                            : phase.rfind("strategy tree", 0) == 0             ? "searches"
                                                                                : "states";
  std::string line = phase + std::string(phase.size() < 11 ? 11 - phase.size() : 1, ' ');
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  if (total > 0) {
    line += printed("%5.1f%%", std::min(100.0, 100.0 * double(done) / double(total)));
  } else {
    if (done == 0) return phase;  // a phase that reports only that it began
    line += short_count(double(done)) + " " + items;
  }
  if (rate > 0) line += "  " + short_count(rate) + " " + items + "/s";
  if (total > done && rate > 0) line += "  ETA " + duration_text(double(total - done) / rate);
  return line;
}

namespace {
std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
}  // namespace

std::string seconds_text(double seconds) {
  return fixed(seconds, seconds < 0.0995 ? 3 : seconds < 9.995 ? 2 : seconds < 99.95 ? 1 : 0) + " s";
}

std::string bytes_text(std::uint64_t bytes) {
  const double mib = double(bytes) / double(1 << 20);
  if (mib >= 1024) return fixed(mib / 1024, 1) + " GiB";
  return fixed(mib, mib < 9.95 ? 1 : 0) + " MiB";
}

std::uint64_t peak_resident_bytes() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return std::uint64_t(u.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace gonu::cli
