// libFuzzer target: Jungi's text parsers (core/jungi/: parse_position, parse_move) on arbitrary
// text, and what they lead to. Input: the first byte picks the reading's options (its low four
// bits: hobbling, optional promotion, stalemate draw, lancer queen); then line 1 a position,
// lines 2.. moves played one at a time. Only GonuError is an accepted outcome. Checked: a parsed
// position formats and parses back to itself; every legal move's notation, from-to and with its
// piece letter, parses back to that move; every predecessor of a position without first-move
// rights leads back to it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/jungi/moves.hpp"
#include "core/jungi/unmoves.hpp"

namespace {

using namespace gonu::jungi;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_jungi_notation: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_position(const Rules& r, const Position& p) {
  const std::string text = format_position(p);
  if (!(parse_position(r, text) == p)) fail("position does not round-trip", text);
  for (const Move& m : legal_moves(r, p)) {
    const std::string mt = format_move(r, p, m);
    if (!(parse_move(r, p, mt) == m)) fail("move does not round-trip", text + " " + mt);
    const std::string san = format_move_san(r, p, m);
    if (!(parse_move(r, p, san) == m)) fail("move with its piece letter does not round-trip", text + " " + san);
  }
  if (p.first_move) return;
  for (const Predecessor& x : predecessors(r, p)) {
    if (!(apply_move(x.position, x.move) == p)) fail("predecessor does not lead back", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  Rules r;
  r.hobbling = data[0] & 1;
  r.optional_promotion = data[0] & 2;
  r.stalemate_draw = data[0] & 4;
  r.lancer_queen = data[0] & 8;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t nl = text.find('\n');
  try {
    Position p = parse_position(r, text.substr(0, nl));
    check_position(r, p);
    std::string_view rest = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    while (!rest.empty()) {
      const std::size_t next = rest.find('\n');
      const std::string_view line = rest.substr(0, next);
      rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
      if (outcome(r, p) != Outcome::ongoing) break;
      p = apply_move(p, parse_move(r, p, line));
      check_position(r, p);
    }
  } catch (const gonu::GonuError&) {
  }
  return 0;
}
