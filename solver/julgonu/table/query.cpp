// Ranking the moves of a table state and following best play (rules in query.hpp); the short
// search that answers a tagged table's state it does not hold; the tags under which it holds a position.
#include "solver/julgonu/table/query.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/error.hpp"
#include "solver/julgonu/dense/tag_slots.hpp"
#include "solver/julgonu/state/successors.hpp"

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

// The value of a state the table may not hold (tagged tables): from the table if it holds it, else
// by negamax over its moves to the given depth, every line ending in a state the table holds (or
// a terminal one). Values found are exact and kept; a line that reaches the depth unresolved
// leaves the state unknown at that depth, and the caller deepens.
class Searcher {
 public:
  explicit Searcher(const Table& t) : t_(t) {}

  // With depth 0 this only reads the table and the values found so far; a state the search valued
  // had every successor valued too, so the moves of a searched state read from here.
  std::optional<TableEntry> value(Key key, int depth) {
    if (const auto e = t_.find(key)) return e;
    if (const auto it = known_.find(key); it != known_.end()) return it->second;
    if (depth <= 0 || expansions_ >= kMaxExpansions) return std::nullopt;
    ++expansions_;
    Position p;
    Tag tag;
    decode_key(t_.codec(), key, p, tag);
    Successor succ[kMaxMoves];
    const int k = expand_state(t_.codec(), p, tag, succ);
    TableEntry best{0, Value::loss, 0};  // no move: lost now
    for (int i = 0; i < k; ++i) {
      const auto child = value(succ[i].key, depth - 1);
      if (!child) return std::nullopt;
      const Value v = mover_value(child->value);
      const std::uint16_t d = v == Value::draw ? 0 : std::uint16_t(child->dist + 1);
      if (i == 0 || better_value(v, d, best.value, best.dist)) best = TableEntry{0, v, d};
    }
    known_.emplace(key, best);
    return best;
  }

  // The state's value by iterative deepening; throws GonuError naming the state if no search up to
  // kMaxDepth plies (or kMaxExpansions states) resolves it. Sets `plies` to the depth used.
  TableEntry resolve(Key key, const std::string& what, int& plies) {
    for (int depth = 1; depth <= kMaxDepth; ++depth)
      if (const auto e = value(key, depth)) {
        plies = depth;
        return *e;
      }
    throw GonuError(what + " is not held by the table with this history, and a search of " + std::to_string(kMaxDepth) +
                    " plies from it does not reach states the table holds");
  }

 private:
  static constexpr int kMaxDepth = 8;
  static constexpr std::uint64_t kMaxExpansions = 200'000;  // well under a second of lookups
  const Table& t_;
  std::unordered_map<Key, TableEntry> known_;
  std::uint64_t expansions_ = 0;
};

// Expands a state and looks every successor up: in the table for a state it holds (a missing
// successor is a damaged table), through the searcher for one it does not.
void rank_moves(const Table& t, const Position& p, const Tag& tag, bool stored, Searcher& search,
                std::vector<MoveAnswer>& out) {
  Successor succ[kMaxMoves];
  const int k = expand_state(t.codec(), p, tag, succ);
  out.resize(std::size_t(k));
  for (int i = 0; i < k; ++i) {
    const auto e = stored ? t.find(succ[i].key) : search.value(succ[i].key, 0);
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

bool better_value(Value a, std::uint16_t a_dist, Value b, std::uint16_t b_dist) {
  MoveAnswer x, y;
  x.value = a, x.dist = a_dist, y.value = b, y.dist = b_dist;
  return score(x) > score(y);
}

std::vector<TagValue> stored_tags(const Table& t, const Position& p) {
  std::vector<TagValue> out;
  if (!t.codec().tagged) return out;
  const Board& b = t.board();
  const Bits empty = b.all & ~occupied(p);
  // The candidate steps: mine ends on a piece of the mover, theirs on one of the waiter, each
  // from an empty neighbour (tag_slots.hpp); normal form then drops the tags that cannot occur.
  auto steps = [&](Bits side) {
    std::vector<Step> v{Step{}};
    for (Bits s = side; s; s &= s - 1)
      for (int d = 0; d < 4; ++d) {
        const int to = lowest(s), from = b.step[to][d];
        if (from >= 0 && (empty & bit(from))) v.push_back(Step{std::int8_t(from), std::int8_t(to)});
      }
    return v;
  };
  std::vector<std::uint32_t> seen;
  for (const Step& theirs : steps(waiter(p)))
    for (const Step& mine : steps(mover(p)))
      for (const bool ban : {false, true}) {
        const Tag tag = normalize_tag(b, t.rules(), p, Tag{mine, theirs, ban});
        const std::uint32_t code = pack_tag(b, tag);
        if (std::find(seen.begin(), seen.end(), code) != seen.end()) continue;
        seen.push_back(code);
        if (const auto e = t.find(encode_key(t.codec(), p, tag))) out.push_back({tag, e->index, e->value, e->dist});
      }
  std::sort(out.begin(), out.end(),
            [&](const TagValue& x, const TagValue& y) { return pack_tag(b, x.tag) < pack_tag(b, y.tag); });
  return out;
}

int best_move_index(const std::vector<MoveAnswer>& moves) {
  return moves.empty() ? -1 : int(best_first(moves).front());
}

QueryAnswer query_state(const Table& t, const Position& p, const Tag& tag, bool with_pv) {
  QueryAnswer a;
  a.position = p;
  a.tag = t.codec().tagged ? normalize_tag(t.board(), t.rules(), p, tag) : Tag{};
  a.key = encode_key(t.codec(), p, a.tag);
  Searcher search(t);
  auto e = t.find(a.key);
  if (!e && t.codec().tagged) {
    e = search.resolve(a.key, "position " + describe_state(t, p), a.searched_plies);
    a.stored = false;
  }
  if (!e)
    throw GonuError("position " + describe_state(t, p) + " is not reachable from the table's root under its rules (" +
                    describe(t.rules()) + ")");
  a.index = e->index;
  a.value = e->value;
  a.dist = e->dist;
  rank_moves(t, p, a.tag, a.stored, search, a.moves);
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
    // Below a searched state every state is held by the table or was valued by the search.
    const bool stored = a.stored || t.find(m.key).has_value();
    const auto ne = a.stored ? t.find(m.key) : search.value(m.key, 0);
    if (!ne || ne->value != mover_value(v) || ne->dist + 1 != d)
      inconsistent(t, "the principal variation breaks after " + format_move(t.board(), t.rules(), m.move));
    v = ne->value;
    d = ne->dist;
    rank_moves(t, q, qt, stored, search, moves);
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
    if (!t.codec().tagged || what.find("is not held by the table") == std::string::npos) throw;
    const std::size_t held = stored_tags(t, current(g)).size();
    if (held == 0)
      throw GonuError(what + "; it is not reachable from the table's root under its rules (" + describe(t.rules()) +
                      ") with any history");
    throw GonuError(what + "; under repetition " + to_string(t.rules().repetition) + " the history decides the state, and the table holds this position under " +
                    std::to_string(held) + " histories: give the moves that led to it with --history");
  }
}

}  // namespace gonu
