// The superko search (see search.hpp for the method, SUPERKO.md for the proofs).
#include "solver/julgonu/superko/search.hpp"

#include <sys/resource.h>

#include <algorithm>

#include "core/error.hpp"

namespace gonu {

namespace {
constexpr std::uint16_t kNoDist = 0xffff;  // "no ban-free decided board on the path"

int layer_index(const Position& p) { return popcount(p.black) * 65 + popcount(p.white); }
}  // namespace

SuperkoSearch::SuperkoSearch(const Rules& rules, const BanFreeOracle& oracle, const SuperkoOptions& options)
    : rules_(rules), board_(make_board(rules.rows, rules.cols)), oracle_(oracle), options_(options) {
  arena_.resize(4096);
  t0_ = std::chrono::steady_clock::now();
}

std::uint64_t SuperkoSearch::mix(Key k) {
  // splitmix64 finalizer: the visited-set hash is the xor of mix(key) over the set.
  k += 0x9E3779B97F4A7C15ull;
  k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
  k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
  return k ^ (k >> 31);
}

std::uint16_t SuperkoSearch::pmin_top() const {
  const Segment& s = segs_.back();
  return s.pmin.empty() ? kNoDist : s.pmin.back();
}

namespace {

// The process's peak resident bytes so far (getrusage: one cheap system call).
std::uint64_t peak_resident_bytes_now() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return std::uint64_t(u.ru_maxrss) * 1024;
}

}  // namespace

void SuperkoSearch::tick() {
  ++nodes_;
  if (options_.max_nodes && nodes_ > options_.max_nodes) throw SearchAborted{"node budget"};
  if ((nodes_ & 1023) == 0) {
    if (options_.max_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() > options_.max_seconds)
      throw SearchAborted{"time budget"};
    if (options_.max_memory && (nodes_ & 0xffff) == 0 && peak_resident_bytes_now() > options_.max_memory)
      throw SearchAborted{"memory limit"};
    if (options_.progress && (nodes_ & 0xfffff) == 0) options_.progress("superko search", nodes_, 0);
  }
}

void SuperkoSearch::enter_segment(const std::vector<Position>& boards) {
  Segment s;
  std::uint16_t m = kNoDist;
  for (const Position& b : boards) {
    const Key k = oracle_.key(b);
    if (!s.keys.insert(k).second) throw GonuError("the history repeats a board: not a superko game");
    s.hash ^= mix(k);
    std::uint16_t d;
    if (oracle_.value(k, d) != Value::draw) m = std::min(m, d);
    s.pmin.push_back(m);
  }
  segs_.push_back(std::move(s));
}

void SuperkoSearch::leave_segment() { segs_.pop_back(); }

void SuperkoSearch::push(const Child& c) {
  Segment& s = segs_.back();
  s.keys.insert(c.key);
  s.hash ^= mix(c.key);
  const std::uint16_t m = c.bf != Value::draw ? std::min(pmin_top(), c.bfd) : pmin_top();
  s.pmin.push_back(m);
}

void SuperkoSearch::pop(const Child& c) {
  Segment& s = segs_.back();
  s.keys.erase(c.key);
  s.hash ^= mix(c.key);
  s.pmin.pop_back();
}

int SuperkoSearch::gen_children(const Position& p, std::size_t base) {
  if (lost_by_material(p)) return 0;
  Move moves[4 * 64];  // at most 4 steps per piece; more only under single capture (see below)
  std::vector<Move> many;
  const Move* list = moves;
  int n;
  if (rules_.capture == Capture::single) {
    many = generate_moves(board_, rules_, p);
    list = many.data();
    n = int(many.size());
  } else {
    n = generate_moves(board_, rules_, p, moves);
  }
  const Segment& seg = segs_.back();
  const std::uint16_t pm = pmin_top();
  if (arena_.size() < base + n) arena_.resize(std::max(arena_.size() * 2, base + n));
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const Move& m = list[i];
    const Position q = apply_move(p, m);
    const Key kq = oracle_.key(q);
    if (!m.captured && seg.keys.count(kq)) continue;  // superko: the board stood before
    std::uint16_t d;
    const Value bf = oracle_.value(kq, d);
    Kind kind;
    if (m.captured) {
      kind = bf != Value::draw && options_.banfree_leaves ? Kind::leaf : Kind::capture;
      targets_.emplace(kq, kind == Kind::leaf ? 2 : 0);
    } else {
      kind = bf != Value::draw && options_.banfree_leaves && pm > d ? Kind::leaf : Kind::inner;
    }
    // A board with the mover at most one piece is lost whatever the history (no search needed).
    if (lost_by_material(q)) kind = Kind::leaf;
    arena_[base + count++] = Child{m, q, kq, kind, lost_by_material(q) ? Value::loss : bf,
                                   std::uint16_t(lost_by_material(q) ? 0 : d)};
  }
  return count;
}

std::vector<SuperkoSearch::Child> SuperkoSearch::children(const Position& p) {
  const int n = gen_children(p, arena_top_);
  return std::vector<Child>(arena_.begin() + arena_top_, arena_.begin() + arena_top_ + n);
}

std::vector<int> SuperkoSearch::order(const std::vector<Child>& kids) const {
  auto rank = [&](const Child& c) {
    // Lower is tried first: children known to lose for their mover, then likely ones.
    if (c.kind == Kind::leaf) return c.bf == Value::loss ? 0 : 9;
    if (c.kind == Kind::capture) {
      const auto it = memo_.find(c.key);
      if (it != memo_.end()) return it->second.value == SkValue::loss ? 1 : 9;
    }
    if (c.bf == Value::loss) return 2;
    if (c.bf == Value::draw) return c.kind == Kind::capture ? 3 : 4;
    return 5;
  };
  // Among equals, fewest replies first (the opponent's moves to boards not yet visited).
  const Segment& seg = segs_.back();
  auto replies = [&](const Child& c) {
    if (lost_by_material(c.pos)) return 0;
    Move moves[4 * 64];
    if (rules_.capture == Capture::single) return int(generate_moves(board_, rules_, c.pos).size());
    const int n = generate_moves(board_, rules_, c.pos, moves);
    int k = 0;
    for (int i = 0; i < n; ++i)
      if (moves[i].captured || (!seg.keys.count(oracle_.key(apply_move(c.pos, moves[i]))) &&
                                oracle_.key(apply_move(c.pos, moves[i])) != c.key))
        ++k;
    return k;
  };
  std::vector<int> idx(kids.size()), r(kids.size()), mob(kids.size(), 0);
  for (std::size_t i = 0; i < kids.size(); ++i) {
    idx[i] = int(i);
    r[i] = rank(kids[i]);
    if (options_.mobility_order && r[i] >= 2 && r[i] <= 5) mob[i] = replies(kids[i]);
  }
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
    if (r[a] != r[b]) return r[a] < r[b];
    if (r[a] == 0) return kids[a].bfd < kids[b].bfd;  // the quickest ban-free win first
    return mob[a] < mob[b];
  });
  return idx;
}

namespace {
void add_sorted(std::vector<Key>& into, const std::vector<Key>& from, Key drop) {
  for (Key k : from)
    if (k != drop) into.push_back(k);
}
void normalize(std::vector<Key>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}
}  // namespace

SkOutcome SuperkoSearch::child_value(const Child& c, Deps* deps) {
  switch (c.kind) {
    case Kind::leaf:
      // A ban-free leaf reached by a non-capture relies on the distances of the visited boards.
      if (deps && !c.move.captured && !lost_by_material(c.pos)) deps->threshold = std::max<int>(deps->threshold, c.bfd);
      return SkOutcome{c.bf == Value::loss ? SkValue::loss : SkValue::win, c.bfd, -1};
    case Kind::capture:
      return entry_value(c.pos, c.key);  // no earlier board matters (F2)
    case Kind::inner: {
      push(c);
      Deps child;
      const SkOutcome o = search(c.pos, c.key, deps ? &child : nullptr);
      pop(c);
      if (deps) {
        if (child.overflow) deps->overflow = true;
        if (!deps->overflow) {
          add_sorted(deps->unvisited, child.unvisited, c.key);
          add_sorted(deps->visited, child.visited, c.key);  // c is visited by the move itself
          deps->threshold = std::max(deps->threshold, child.threshold);
        }
      }
      return o;
    }
  }
  return {};
}

bool SuperkoSearch::relevant_hit(Key k, SkOutcome& o, Deps* deps) {
  const auto it = relevant_.find(k);
  if (it == relevant_.end()) return false;
  const Segment& seg = segs_.back();
  const int pm = pmin_top();
  for (const Relevant& r : it->second) {
    if (r.deps.threshold >= pm) continue;
    bool ok = true;
    for (Key u : r.deps.unvisited)
      if (seg.keys.count(u)) {
        ok = false;
        break;
      }
    if (!ok) continue;
    for (Key v : r.deps.visited)
      if (!seg.keys.count(v)) {
        ok = false;
        break;
      }
    if (!ok) continue;
    o = r.outcome;
    if (deps) *deps = r.deps;
    return true;
  }
  return false;
}

void SuperkoSearch::relevant_store(Key k, const SkOutcome& o, const Deps& d) {
  if (relevant_count_ >= options_.max_table_entries) {
    relevant_.clear();
    relevant_count_ = 0;
    ++clears_;
  }
  auto& list = relevant_[k];
  if (list.size() >= 8) {
    list.erase(list.begin());
    --relevant_count_;
  }
  list.push_back(Relevant{d, o});
  ++relevant_count_;
}

SkOutcome SuperkoSearch::entry_value(const Position& p, Key k) {
  const auto it = memo_.find(k);
  if (it != memo_.end()) return it->second;
  enter_segment({p});
  const SkOutcome o = search(p, k, nullptr);
  leave_segment();
  memo_[k] = o;
  targets_[k] = 1;
  return o;
}

bool SuperkoSearch::probe(const TableKey& tk, Deps* deps, SkOutcome& hit) {
  if (!options_.transpositions) return false;
  const auto it = table_.find(tk);
  if (it != table_.end()) {
    if (deps) deps->overflow = true;  // the exact table holds only proofs too large to track
    hit = it->second;
    return true;
  }
  return options_.relevance && relevant_hit(tk.key, hit, deps);
}

SkOutcome SuperkoSearch::value_children(const Position& p, Deps* track) {
  const std::size_t base = arena_top_;
  const int n = gen_children(p, base);
  if (n == 0) return SkOutcome{SkValue::loss, 0, -1};
  std::vector<Child> kids(arena_.begin() + base, arena_.begin() + base + n);
  arena_top_ = base + n;
  const std::vector<int> idx = order(kids);
  SkOutcome out{SkValue::loss, 0, -1};
  std::uint32_t longest = 0;
  bool won = false;
  for (int i : idx) {
    Deps child;
    const SkOutcome o = child_value(kids[i], track ? &child : nullptr);
    if (o.value == SkValue::loss) {
      out = SkOutcome{SkValue::win, o.depth + 1, std::int16_t(i)};
      won = true;
      if (track) {
        // Only this child matters, and that its board is still free.
        *track = std::move(child);
        if (!kids[i].move.captured) track->unvisited.push_back(kids[i].key);
      }
      break;
    }
    longest = std::max(longest, o.depth + 1);
    if (track) {
      if (child.overflow) track->overflow = true;
      if (!track->overflow) {
        add_sorted(track->unvisited, child.unvisited, 0);
        add_sorted(track->visited, child.visited, 0);
        track->threshold = std::max(track->threshold, child.threshold);
      }
    }
  }
  if (!won) out = SkOutcome{SkValue::loss, longest, -1};
  arena_top_ = base;
  return out;
}

void SuperkoSearch::add_excluded_visited(const Position& p, Deps& mine) {
  Move moves[4 * 64];
  std::vector<Move> many;
  const Move* list = moves;
  int nm;
  if (rules_.capture == Capture::single) {
    many = generate_moves(board_, rules_, p);
    list = many.data();
    nm = int(many.size());
  } else {
    nm = generate_moves(board_, rules_, p, moves);
  }
  for (int j = 0; j < nm; ++j) {
    if (list[j].captured) continue;
    const Key kq = oracle_.key(apply_move(p, list[j]));
    if (segs_.back().keys.count(kq)) mine.visited.push_back(kq);
  }
}

void SuperkoSearch::table_store(const TableKey& tk, const SkOutcome& o) {
  if (!options_.transpositions) return;
  if (table_.size() >= options_.max_table_entries) {
    table_.clear();
    ++clears_;
  }
  table_.emplace(tk, o);
}

// One node, in phases: the budget and the trivial loss; the tables; the children; what the value
// relied on; where it is kept (with its dependencies when small enough, else the exact table).
SkOutcome SuperkoSearch::search(const Position& p, Key k, Deps* deps) {
  tick();
  ++layer_nodes_[layer_index(p)];
  if (lost_by_material(p)) return SkOutcome{SkValue::loss, 0, -1};
  const TableKey tk{k, segs_.back().hash};
  SkOutcome hit;
  if (probe(tk, deps, hit)) return hit;
  Deps mine;
  Deps* track = options_.relevance && options_.transpositions ? &mine : nullptr;
  const SkOutcome out = value_children(p, track);
  if (track && !mine.overflow && out.value == SkValue::loss) {
    // The loser's moves to visited boards stay excluded only while those boards are visited.
    add_excluded_visited(p, mine);
  }
  if (track && !mine.overflow) {
    normalize(mine.unvisited);
    normalize(mine.visited);
    mine.visited.erase(std::remove(mine.visited.begin(), mine.visited.end(), k), mine.visited.end());
    if (mine.unvisited.size() + mine.visited.size() > options_.max_relevant_boards) mine.overflow = true;
  }
  if (track && !mine.overflow) {
    relevant_store(k, out, mine);
    if (deps) *deps = mine;
    return out;
  }
  if (deps) deps->overflow = true;
  table_store(tk, out);
  return out;
}

SkOutcome SuperkoSearch::solve(const Game& g) {
  const Position& p = current(g);
  const Key k = oracle_.key(p);
  if (g.since_capture.size() == 1) return entry_value(p, k);
  enter_segment(g.since_capture);
  const SkOutcome o = search(p, k, nullptr);
  leave_segment();
  return o;
}

}  // namespace gonu
