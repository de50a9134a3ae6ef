// gonu's one error type: every bad input (position text, move, rule flag, table file) throws
// GonuError with a one-line message that names the problem and its place; tools print it and exit 1.
// Messages quote input, which may be any bytes, so the message is made printable once, here: valid
// UTF-8 is kept whole, every other byte and every control character is written \xNN. Every message
// is then safe on a terminal, in JSON (whose encoder rejects invalid UTF-8) and as a Python str.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gonu {

// The length (1..4) of the valid UTF-8 character that starts text[at], or 0 where the byte there
// starts none (a stray continuation byte, an overlong form, a surrogate, a truncated sequence).
inline std::size_t utf8_char_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return std::uint8_t(text[i]); };
  const std::uint8_t b0 = byte(at);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 == 0xE0) n = 3, lo = 0xA0;
  else if (b0 >= 0xE1 && b0 <= 0xEC) n = 3;
  else if (b0 == 0xED) n = 3, hi = 0x9F;  // not a surrogate
  else if (b0 >= 0xEE && b0 <= 0xEF) n = 3;
  else if (b0 == 0xF0) n = 4, lo = 0x90;
  else if (b0 >= 0xF1 && b0 <= 0xF3) n = 4;
  else if (b0 == 0xF4) n = 4, hi = 0x8F;  // at most U+10FFFF
  else return 0;
  if (at + n > text.size()) return 0;
  if (byte(at + 1) < lo || byte(at + 1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  return n;
}

// text with valid UTF-8 characters kept whole and every other byte, and every ASCII control
// character but the tab, written as \xNN.
inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::uint8_t c = std::uint8_t(text[i]);
    const std::size_t n = utf8_char_length(text, i);
    if (n == 0 || (n == 1 && ((c < 0x20 && c != '\t') || c == 0x7F))) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

struct GonuError : std::runtime_error {
  explicit GonuError(const std::string& what) : std::runtime_error(printable(what)) {}
  explicit GonuError(const char* what) : std::runtime_error(printable(what)) {}
};

}  // namespace gonu
