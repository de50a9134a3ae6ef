// Df-pn's exact subset search (SUPERKO.md F13): once the boards a node can still reach without a
// capture are few, its value is a function of which of them are visited, so it is solved outright
// by a memoized search over (board, visited subset of the region) instead of by proof numbers.
// Phases: the region (breadth-first from the node, through non-capturing moves to unvisited
// boards; captures and F3 leaves end it), the search over subsets, the proof's reliance.
#include <algorithm>
#include <optional>
#include <unordered_map>

#include "core/julgonu/moves.hpp"
#include "solver/julgonu/superko/dfpn.hpp"

namespace gonu {

// The region of a node: its boards (0 the node), the non-capturing moves among them, and what each
// board's other moves give at once.
struct DfpnSearch::Region {
  std::vector<Key> keys;
  std::vector<Position> boards;
  std::vector<std::vector<int>> next;   // non-capturing moves within the region
  std::vector<char> wins_at_once;       // a move to a loss for its mover: a capture or an F3 leaf
  std::vector<char> unknown;            // a capture of no known value
  std::vector<Key> leaves, visited;     // F3 leaves' boards; targets barred as visited (the node's excepted)
  int threshold = -1;                   // the farthest F3 leaf
  DfpnSource source = DfpnSource::proven;  // derived once a capture's value is a file's hint
};

namespace {

enum : std::uint8_t { kLoss = 1, kWin = 2, kUnknown = 3 };

struct TooMany {};

// (board, visited subset) -> value for the board's side to move; the subset holds the board.
struct SubsetSearch {
  const std::vector<std::vector<int>>& next;
  const std::vector<char>& wins_at_once;
  const std::vector<char>& unknown;
  std::size_t max_nodes;
  std::unordered_map<std::uint64_t, std::uint8_t> memo;

  std::uint8_t solve(int i, std::uint64_t visited) {
    if (wins_at_once[std::size_t(i)]) return kWin;
    const std::uint64_t key = visited << 6 | std::uint64_t(i);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    if (memo.size() >= max_nodes) throw TooMany{};
    bool open = unknown[std::size_t(i)];
    std::uint8_t v = kLoss;
    for (int j : next[std::size_t(i)]) {
      if (visited >> j & 1) continue;  // superko
      const std::uint8_t r = solve(j, visited | std::uint64_t(1) << j);
      if (r == kLoss) {
        v = kWin;
        break;
      }
      open = open || r == kUnknown;
    }
    if (v == kLoss && open) v = kUnknown;
    memo.emplace(key, v);
    return v;
  }
};

}  // namespace

// A capture's value for the side to move after it: the fresh value, else this search's decided
// entry (`source` then made derived where that entry is not proven).
SkValue DfpnSearch::capture_value(const Position& q, Key kq, DfpnSource& source) const {
  if (lost_by_material(q)) return SkValue::loss;
  if (const SkValue v = fresh_value(kq); v != SkValue::unknown) return v;
  const Fresh* e = find_entry(oracle_.key(canonical(q)));
  if (!e) return SkValue::unknown;
  if (e->source != DfpnSource::proven) source = DfpnSource::derived;
  return e->value;
}

// Breadth first from p (the top of the current segment); false once it passes subset_boards, or
// when an F3 leaf would not be one on every path through the region (its distance not below the
// path's nearest decided board).
bool DfpnSearch::region_of(const Position& p, Key k, Region& r) const {
  const Segment& seg = segs_.back();
  std::unordered_map<Key, int> index{{k, 0}};
  r.keys = {k};
  r.boards = {p};
  for (std::size_t i = 0; i < r.boards.size(); ++i) {
    r.next.emplace_back();
    r.wins_at_once.push_back(0);
    r.unknown.push_back(0);
    const Position b = r.boards[i];
    if (lost_by_material(b)) continue;
    for (const Move& m : generate_moves(board_, oracle_.rules, b)) {
      const Position q = apply_move(b, m);
      const Key kq = oracle_.key(q);
      if (m.captured) {
        const SkValue v = capture_value(q, kq, r.source);
        if (v == SkValue::loss) r.wins_at_once[i] = 1;
        if (v == SkValue::unknown) r.unknown[i] = 1;
        continue;
      }
      if (seg.keys.count(kq)) {
        if (kq != k) r.visited.push_back(kq);
        continue;
      }
      if (const auto it = index.find(kq); it != index.end()) {
        if (it->second != 0) r.next[i].push_back(it->second);
        continue;
      }
      std::uint16_t d;
      const Value bf = oracle_.value(kq, d);
      if (options_.banfree_leaves && bf != Value::draw) {
        if (d >= pmin_top()) return false;  // a leaf on some paths only
        r.threshold = std::max<int>(r.threshold, d);
        r.leaves.push_back(kq);
        if (bf == Value::loss) r.wins_at_once[i] = 1;
        continue;
      }
      if (r.boards.size() >= std::min<std::size_t>(options_.subset_boards, 58)) return false;  // 58: a subset and a board in 64 bits
      index.emplace(kq, int(r.boards.size()));
      r.next[i].push_back(int(r.boards.size()));
      r.keys.push_back(kq);
      r.boards.push_back(q);
    }
  }
  return true;
}

// p's value by the subset search when its region is small enough and the value is known; then
// stored with its reliance: every board of the region and every F3 leaf unvisited, every barred
// target visited, leaves no nearer than the farthest used (F5's condition, for all of them at once).
std::optional<DfpnSearch::PnDn> DfpnSearch::subset_solve(const Position& p, Key k) {
  Region r;
  if (!region_of(p, k, r)) return std::nullopt;
  SubsetSearch s{r.next, r.wins_at_once, r.unknown, options_.subset_nodes, {}};
  std::uint8_t v;
  try {
    v = s.solve(0, 1);
  } catch (const TooMany&) {
    subset_nodes_ += s.memo.size();
    return std::nullopt;
  }
  subset_nodes_ += s.memo.size();
  if (v == kUnknown) return std::nullopt;
  ++subset_solved_;
  Deps d;
  d.unvisited.assign(r.keys.begin() + 1, r.keys.end());
  d.unvisited.insert(d.unvisited.end(), r.leaves.begin(), r.leaves.end());
  d.visited = r.visited;
  d.threshold = r.threshold;
  std::sort(d.unvisited.begin(), d.unvisited.end());
  d.unvisited.erase(std::unique(d.unvisited.begin(), d.unvisited.end()), d.unvisited.end());
  std::sort(d.visited.begin(), d.visited.end());
  d.visited.erase(std::unique(d.visited.begin(), d.visited.end()), d.visited.end());
  if (d.unvisited.size() + d.visited.size() > options_.max_relevant_boards) d = Deps{{}, {}, -1, true};
  const PnDn out = v == kWin ? PnDn{0, kInfinite, r.source} : PnDn{kInfinite, 0, r.source};
  store(p, k, out, s.memo.size() + 1, std::move(d));
  return out;
}

}  // namespace gonu
