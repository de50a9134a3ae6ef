// Ranking the moves of a table state and following best play (rules in table_query.hpp).
#include "solver/table/query.hpp"

#include "core/error.hpp"
#include "solver/state/successors.hpp"

namespace gonu {

namespace {

long long score(const MoveAnswer& m) { return move_score(m.value, m.dist); }

[[noreturn]] void inconsistent(const Table& t, const std::string& what) {
  throw GonuError(t.path() + ": " + what + " (the table is wrong or damaged; run gonu verify)");
}

std::string describe_state(const Table& t, const Position& p) {
  std::string s = format_position(t.board(), p);
  s.insert(s.begin(), '\'');
  s += '\'';
  return s;
}

// Expands a state and looks every successor up.
void rank_moves(const Table& t, const Position& p, const Tag& tag, std::vector<MoveAnswer>& out) {
  Successor succ[kMaxMoves];
  const int k = expand_state(t.codec(), p, tag, succ);
  out.resize(std::size_t(k));
  for (int i = 0; i < k; ++i) {
    const auto e = t.find(succ[i].key);
    if (!e)
      inconsistent(t, "the state after " + format_move(t.board(), t.rules(), succ[i].move) + " from " +
                          describe_state(t, p) + " is missing");
    MoveAnswer& m = out[std::size_t(i)];
    m.move = succ[i].move;
    m.key = succ[i].key;
    m.value = mover_value(e->value);
    m.dist = m.value == Value::draw ? 0 : std::uint16_t(e->dist + 1);
    m.best = false;
  }
}

// Checks the stored value against the moves (the retrograde rule) and marks the best ones.
int mark_best(const Table& t, const Position& p, Value value, std::uint16_t dist, std::vector<MoveAnswer>& moves) {
  const int best = best_move_index(moves);
  const Value want = best < 0 ? Value::loss : moves[std::size_t(best)].value;
  const std::uint16_t want_dist = best < 0 ? 0 : moves[std::size_t(best)].dist;
  if (want != value || want_dist != dist)
    inconsistent(t, "the value of " + describe_state(t, p) + " is stored as " + value_text(value, dist) +
                        " but its moves give " + value_text(want, want_dist));
  if (best >= 0)
    for (MoveAnswer& m : moves) m.best = score(m) == score(moves[std::size_t(best)]);
  return best;
}

}  // namespace

std::string value_text(Value v, std::uint16_t dist) {
  return v == Value::draw ? "DRAW" : std::string(to_string(v)) + " in " + std::to_string(dist);
}

int best_move_index(const std::vector<MoveAnswer>& moves) {
  return moves.empty() ? -1 : int(best_first(moves).front());
}

QueryAnswer query_state(const Table& t, const Position& p, const Tag& tag, bool with_pv) {
  QueryAnswer a;
  a.position = p;
  a.tag = t.codec().tagged ? tag : Tag{};
  a.key = encode_key(t.codec(), p, a.tag);
  const auto e = t.find(a.key);
  if (!e)
    throw GonuError("position " + describe_state(t, p) + " is not reachable from the table's root under its rules (" +
                    describe(t.rules()) + ")");
  a.index = e->index;
  a.value = e->value;
  a.dist = e->dist;
  rank_moves(t, p, a.tag, a.moves);
  a.best = mark_best(t, p, a.value, a.dist, a.moves);
  if (!with_pv || a.value == Value::draw || a.best < 0) return a;

  // Best play to the end: each side plays the rule's move; the distance falls by one a ply.
  Position q = p;
  Tag qt = a.tag;
  std::uint16_t d = a.dist;
  Value v = a.value;
  std::vector<MoveAnswer> moves = a.moves;
  int best = a.best;
  while (best >= 0) {
    const MoveAnswer& m = moves[std::size_t(best)];
    a.pv.push_back(m.move);
    const Tag next = t.codec().tagged ? next_tag(t.board(), t.rules(), q, qt, m.move) : Tag{};
    q = apply_move(q, m.move);
    qt = next;
    const auto ne = t.find(m.key);
    if (!ne || ne->value != mover_value(v) || ne->dist + 1 != d)
      inconsistent(t, "the principal variation breaks after " + format_move(t.board(), t.rules(), m.move));
    v = ne->value;
    d = ne->dist;
    rank_moves(t, q, qt, moves);
    best = mark_best(t, q, v, d, moves);
  }
  if (d != 0) inconsistent(t, "the principal variation ends early");
  return a;
}

QueryAnswer query_game(const Table& t, const Game& g, bool with_pv) {
  try {
    return query_state(t, current(g), g.tag, with_pv);
  } catch (const GonuError& e) {
    const std::string what = e.what();
    if (t.codec().tagged && what.find("is not reachable") != std::string::npos)
      throw GonuError(what + "; under repetition " + to_string(t.rules().repetition) +
                      " the history decides the state, so try the moves that led to it with --history");
    throw;
  }
}

}  // namespace gonu
