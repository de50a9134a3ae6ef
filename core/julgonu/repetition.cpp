// Tag codes back to tags (the transitions, asked for at every edge of a solve, are inline in the header).
#include "core/julgonu/repetition.hpp"

namespace gonu {

Tag unpack_tag(const Board& b, std::uint32_t c) {
  auto step = [&](std::uint32_t v) -> Step {
    if (v == 0) return Step{};
    const int to = int((v - 1) / 4), d = int((v - 1) % 4);
    return Step{b.step[to][reverse_dir(d)], std::int8_t(to)};
  };
  Tag t;
  t.mine = step(c & 511u);
  t.theirs = step((c >> 9) & 511u);
  t.ban = (c >> 18) & 1u;
  return t;
}

}  // namespace gonu
