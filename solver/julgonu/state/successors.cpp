// Successors of a state under the ban-free and tagged repetition rules.
#include "solver/julgonu/state/successors.hpp"

namespace gonu {

int expand_state(const KeyCodec& c, const Position& p, const Tag& t, Successor* out) {
  if (lost_by_material(p)) return 0;
  Move moves[kMaxMoves];
  const int n = generate_moves(c.board, c.rules, p, moves);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    const Move& m = moves[i];
    if (c.tagged && tag_bans(c.rules, t, m)) continue;
    const Position q = apply_move(p, m);
    const Tag nt = c.tagged ? next_tag(c.board, c.rules, p, t, m) : Tag{};
    out[k++] = Successor{m, encode_key(c, q, nt)};
  }
  return k;
}

int expand_untagged(const KeyCodec& c, const Position& p, Move* moves, Position* out) {
  if (lost_by_material(p)) return 0;
  const int n = generate_moves(c.board, c.rules, p, moves);
  for (int i = 0; i < n; ++i) out[i] = apply_move(p, moves[i]);
  return n;
}

int expand_key(const KeyCodec& c, Key k, Successor* out) {
  Position p;
  Tag t;
  decode_key(c, k, p, t);
  return expand_state(c, p, t, out);
}

}  // namespace gonu
