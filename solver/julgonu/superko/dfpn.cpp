// Df-pn over the full superko history (see dfpn.hpp for the method, SUPERKO.md F12 for the
// transposition rule's proof). Phases of one expansion (mid): the children, classified; the loop
// that looks their numbers up and descends into the most proving child within thresholds; the
// store (a proof with its reliance, else the numbers under the exact visited set).
#include "solver/julgonu/superko/dfpn.hpp"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <unordered_map>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/symmetry.hpp"
#include "solver/julgonu/superko/dfpn_table.hpp"
#include "util/large_stack.hpp"

namespace gonu {

namespace {

constexpr std::uint64_t kInf = DfpnSearch::kInfinite;
constexpr std::uint16_t kNoDist = 0xffff;  // "no ban-free decided board on the path" / a draw
// Proofs kept per state (the lightest dropped beyond): a proof that another relies on may go, and
// the certificate's walk must then prove it again under its own history; with the jobs' proofs
// merged (solve_rounds) lists grow longer than one search makes them.
constexpr std::size_t kConditionalsPerKey = 64;

struct BudgetOut {
  const char* reason;
};

std::uint64_t add_capped(std::uint64_t a, std::uint64_t b) { return std::min(kInf, a + b); }

// splitmix64 finalizer: the visited-set hash is the xor of mix(key) over the set.
std::uint64_t mix(Key k) {
  k += 0x9E3779B97F4A7C15ull;
  k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
  k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
  return k ^ (k >> 31);
}

// Variant v of the board's 2S maps: symmetry v, or symmetry v - S followed by the colour swap.
int variant_count(const Board& b) { return 2 * symmetry_count(b); }
Position variant_image(const Board& b, int v, const Position& p) {
  const int s = symmetry_count(b);
  return v < s ? map_position(b, v, p) : swap_colours(b, map_position(b, v - s, p));
}

// The image of p with the least key under the board's symmetries and the colour swap, among the
// images that lie in the ban-free solution (so that every state below it has its true ban-free
// value; F3 needs that).
Position canonical_image(const BanFreeOracle& o, const Board& b, const Position& p) {
  Position best = p;
  Key best_key = o.key(p);
  for (int v = 1; v < variant_count(b); ++v) {
    const Position q = variant_image(b, v, p);
    const Key k = o.key(q);
    if (k < best_key && find_state(o.solution, k)) {
      best = q;
      best_key = k;
    }
  }
  return best;
}

void normalize(std::vector<Key>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

const DfpnSearch::Deps kOverflow{{}, {}, -1, true};

// A proof's source once it uses an entry from `used`: proven only while everything used is.
DfpnSource rests_on(DfpnSource sofar, DfpnSource used) {
  return sofar == DfpnSource::proven && used == DfpnSource::proven ? DfpnSource::proven : DfpnSource::derived;
}

// Whether an entry from `incoming` may replace one from `old`: a proven fact is never traded for a
// hint (were their values different, the hint would be the false one).
bool replaces(DfpnSource old, DfpnSource incoming) {
  return old != DfpnSource::proven || incoming == DfpnSource::proven;
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

}  // namespace

DfpnSearch::DfpnSearch(const BanFreeOracle& oracle, const FreshValues* fresh, const DfpnOptions& options)
    : oracle_(oracle),
      fresh_(fresh),
      options_(options),
      board_(make_board(oracle.rules.rows, oracle.rules.cols)),
      symmetries_(symmetry_count(board_)) {
  if (!options_.symmetry || !options_.symmetric_proofs || !options_.relevance) return;
  variants_ = variant_count(board_);
  // The variants' square maps as byte tables: every child's images and every push read them.
  chunks_ = (board_.n + 7) / 8;
  image_bytes_.assign(std::size_t(variants_ * chunks_), {});
  for (int v = 0; v < variants_; ++v)
    for (int c = 0; c < chunks_; ++c)
      for (int x = 0; x < 256; ++x)
        for (int i = 0; i < 8 && 8 * c + i < board_.n; ++i)
          if (x >> i & 1) {
            const int sq = 8 * c + i;
            const int to = v < symmetries_ ? map_square(board_, v, sq) : map_square(board_, 2, map_square(board_, v - symmetries_, sq));
            image_bytes_[std::size_t(v * chunks_ + c)][std::size_t(x)] |= Bits(1) << to;
          }
  // u inverts v when it maps every one-piece position of either colour back to itself.
  inverse_.resize(std::size_t(variants_));
  for (int v = 0; v < variants_; ++v)
    for (int u = 0; u < variants_; ++u) {
      bool back = true;
      for (int sq = 0; sq < board_.n && back; ++sq)
        for (const Side side : {Side::black, Side::white}) {
          Position p{};
          (side == Side::black ? p.black : p.white) = Bits(1) << sq;
          p.to_move = side;
          back = back && apply_variant(u, apply_variant(v, p)) == p;
        }
      if (back) inverse_[std::size_t(v)] = std::uint8_t(u);
    }
}

// variant_image by the tables (the colour swap: symmetry 2, as swap_colours mirrors the ranks).
Position DfpnSearch::apply_variant(int v, const Position& p) const {
  if (v == 0) return p;
  const std::array<Bits, 256>* t = &image_bytes_[std::size_t(v * chunks_)];
  Bits b = 0, w = 0;
  for (int c = 0; c < chunks_; ++c) {
    b |= t[c][(p.black >> (8 * c)) & 0xff];
    w |= t[c][(p.white >> (8 * c)) & 0xff];
  }
  return v < symmetries_ ? Position{b, w, p.to_move} : Position{w, b, other(p.to_move)};
}

Key DfpnSearch::map_key(int v, Key k) const {
  Position p;
  Tag t;
  decode_key(oracle_.solution.codec, k, p, t);
  return oracle_.key(apply_variant(v, p));
}

std::pair<Key, int> DfpnSearch::canonical_key(const Position& p) const {
  std::pair<Key, int> best{oracle_.key(p), 0};
  for (int v = 1; v < variants_; ++v) best = std::min(best, std::pair<Key, int>{oracle_.key(apply_variant(v, p)), v});
  return best;
}

void DfpnSearch::map_deps(int v, Deps& d) const {
  if (v == 0) return;
  for (Key& k : d.unvisited) k = map_key(v, k);
  for (Key& k : d.visited) k = map_key(v, k);
  normalize(d.unvisited);
  normalize(d.visited);
}

DfpnStats DfpnSearch::stats() const {
  return {nodes_, exact_.size(), conditional_count_, entries_.size(), collections_, hits_, image_hits_, subset_solved_, subset_nodes_};
}

void DfpnSearch::tick() {
  ++nodes_;
  if (limit_ && ++call_nodes_ > limit_) throw BudgetOut{"node budget"};
  if (options_.max_seconds > 0 && (nodes_ & 1023) == 0 && std::chrono::steady_clock::now() > deadline_)
    throw BudgetOut{"time budget"};
  if (checkpoint_ && (nodes_ & 1023) == 0 && std::chrono::steady_clock::now() > next_checkpoint_) {
    checkpoint_();
    next_checkpoint_ = std::chrono::steady_clock::now() + seconds(options_.checkpoint_seconds);
  }
}

void DfpnSearch::start_budget() {
  call_nodes_ = 0;
  limit_ = options_.max_nodes;
  deadline_ = std::chrono::steady_clock::now() + seconds(options_.max_seconds);
}

void DfpnSearch::set_checkpoint(std::function<void()> f) {
  checkpoint_ = std::move(f);
  next_checkpoint_ = std::chrono::steady_clock::now() + seconds(options_.checkpoint_seconds);
}

DfpnSearch::Proofs DfpnSearch::proofs() const {
  Proofs out;
  for (const auto& [k, e] : entries_) out.entries.push_back({k, e.value, e.source});
  for (const auto& [k, list] : conditional_)
    for (const Conditional& c : list) out.conditional.push_back({k, c.value, c.work, c.deps, c.source});
  for (const auto& [kh, x] : exact_)
    if (x.pn == 0 || x.dn == 0)
      out.exact.push_back({kh.first, kh.second, x.pn == 0 ? SkValue::win : SkValue::loss, x.work, x.source});
  std::sort(out.entries.begin(), out.entries.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  std::stable_sort(out.conditional.begin(), out.conditional.end(), [](const auto& a, const auto& b) {
    return std::tie(a.key, a.value, a.work, a.deps.threshold, a.deps.unvisited, a.deps.visited) <
           std::tie(b.key, b.value, b.work, b.deps.threshold, b.deps.unvisited, b.deps.visited);
  });
  std::sort(out.exact.begin(), out.exact.end(),
            [](const auto& a, const auto& b) { return std::tie(a.key, a.visited_hash) < std::tie(b.key, b.visited_hash); });
  return out;
}

void DfpnSearch::add_proofs(const Proofs& p) {
  for (const Proofs::Entry& e : p.entries) {
    const auto [it, added] = entries_.try_emplace(e.key, Fresh{e.value, e.source});
    if (!added && replaces(it->second.source, e.source)) it->second = Fresh{e.value, e.source};
  }
  for (const Proofs::Conditional& c : p.conditional) {
    auto& list = conditional_[c.key];
    const auto same = [&](const Conditional& o) {  // two jobs may prove the same thing
      return o.value == c.value && o.deps.threshold == c.deps.threshold && o.deps.unvisited == c.deps.unvisited &&
             o.deps.visited == c.deps.visited;
    };
    if (const auto it = std::find_if(list.begin(), list.end(), same); it != list.end()) {
      if (c.source == DfpnSource::proven) it->source = DfpnSource::proven;  // a hint proven since
      continue;
    }
    list.push_back(Conditional{c.deps, c.value, c.work, c.source});
    ++conditional_count_;
  }
  for (const Proofs::Exact& x : p.exact) {
    const Exact e = x.value == SkValue::win ? Exact{0, kInf, x.work, x.source} : Exact{kInf, 0, x.work, x.source};
    const auto [it, added] = exact_.try_emplace({x.key, x.visited_hash}, e);
    const bool decided = it->second.pn == 0 || it->second.dn == 0;
    if (!added && (!decided || replaces(it->second.source, x.source))) it->second = e;
  }
}

std::uint16_t DfpnSearch::pmin_top() const {
  const Segment& s = segs_.back();
  return s.pmin.empty() ? kNoDist : s.pmin.back();
}

void DfpnSearch::enter_segment(const std::vector<Position>& boards) {
  segs_.emplace_back();
  for (const Position& b : boards) {
    Child c{};
    c.pos = b;
    c.key = oracle_.key(b);
    std::uint16_t d;
    c.bfd = oracle_.value(c.key, d) != Value::draw ? d : kNoDist;
    push(c);
  }
}

void DfpnSearch::push(const Child& c) {
  Segment& s = segs_.back();
  const std::uint16_t top = pmin_top();
  s.keys.insert(c.key);
  s.hash ^= mix(c.key);
  s.pmin.push_back(std::min(top, c.bfd));
  if (variants_ == 1) return;
  s.images.resize(std::size_t(variants_ - 1));
  for (int v = 1; v < variants_; ++v) s.images[std::size_t(v - 1)].insert(oracle_.key(apply_variant(v, c.pos)));
}

void DfpnSearch::pop(const Child& c) {
  Segment& s = segs_.back();
  s.keys.erase(c.key);
  s.hash ^= mix(c.key);
  s.pmin.pop_back();
  for (int v = 1; v < variants_; ++v) s.images[std::size_t(v - 1)].erase(oracle_.key(apply_variant(v, c.pos)));
}

Position DfpnSearch::canonical(const Position& p) const {
  return options_.symmetry ? canonical_image(oracle_, board_, p) : p;
}

// The fresh value of a capture's target: the attractors' or a proven entry value (F6, F10), else
// the ban-free value when decided (F3 with the history the target alone).
SkValue DfpnSearch::fresh_value(Key k) const {
  if (fresh_) {
    const auto id = find_state(oracle_.solution, k);
    if (id && fresh_->exit_value(*id) != SkValue::unknown) return fresh_->exit_value(*id);
  }
  std::uint16_t d;
  const Value bf = oracle_.value(k, d);
  if (options_.banfree_leaves && bf != Value::draw) return bf == Value::win ? SkValue::win : SkValue::loss;
  return SkValue::unknown;
}

std::vector<DfpnSearch::Child> DfpnSearch::children(const Position& p, std::vector<Key>& excluded) {
  std::vector<Child> out;
  if (lost_by_material(p)) return out;
  const Segment& seg = segs_.back();
  const std::uint16_t pm = pmin_top();
  for (const Move& m : generate_moves(board_, oracle_.rules, p)) {
    Child c{};
    c.move = m;
    c.pos = apply_move(p, m);
    c.key = oracle_.key(c.pos);
    c.captured = m.captured != 0;
    if (!c.captured && seg.keys.count(c.key)) {  // superko: the board stood before
      excluded.push_back(c.key);
      continue;
    }
    std::uint16_t d;
    const Value bf = oracle_.value(c.key, d);
    c.bfd = bf != Value::draw ? d : kNoDist;
    c.kind = Kind::inner;
    if (lost_by_material(c.pos)) {
      c.kind = Kind::leaf;
      c.leaf = SkValue::loss;
    } else if (c.captured) {
      c.leaf = fresh_value(c.key);
      c.kind = c.leaf != SkValue::unknown ? Kind::leaf : Kind::capture;
      if (c.kind == Kind::capture) {
        c.canon = canonical(c.pos);
        c.key = oracle_.key(c.canon);
      }
    } else if (options_.banfree_leaves && bf != Value::draw && pm > d) {
      c.kind = Kind::leaf;  // F3: every decided board on the path is farther
      c.leaf = bf == Value::win ? SkValue::win : SkValue::loss;
    }
    if (c.kind == Kind::inner && variants_ == 1) {
      c.ckey = c.key;
    } else if (c.kind == Kind::inner) {
      const auto [ck, v] = canonical_key(c.pos);
      c.ckey = ck;
      c.sym = std::uint8_t(v);
    }
    if (c.kind != Kind::leaf) c.replies = initial_dn(c);
    out.push_back(c);
  }
  return out;
}

// The fewer moves a child's mover has, the sooner it is shown lost: its move count (less the move
// back, barred by superko when non-capturing) as its first dn. A guide only: values never use it.
std::uint32_t DfpnSearch::initial_dn(const Child& c) const {
  if (!options_.mobility) return 1;
  Move moves[kMaxMoves];
  const Position& p = c.kind == Kind::capture ? c.canon : c.pos;
  const int n = generate_moves(board_, oracle_.rules, p, moves);
  return std::uint32_t(std::max(1, n - (c.captured ? 0 : 1)));
}

const DfpnSearch::Fresh* DfpnSearch::find_entry(Key k) const {
  if (const auto e = entries_.find(k); e != entries_.end()) return &e->second;
  if (!base_) return nullptr;
  const auto e = base_->entries_.find(k);
  return e != base_->entries_.end() ? &e->second : nullptr;
}

const DfpnSearch::Exact* DfpnSearch::find_exact(Key k, std::uint64_t hash) const {
  if (const auto it = exact_.find({k, hash}); it != exact_.end()) return &it->second;
  if (!base_) return nullptr;
  const auto it = base_->exact_.find({k, hash});
  return it != base_->exact_.end() ? &it->second : nullptr;
}

// c's proofs are read in the frame of its canonical image: its key and the visited set's image.
// The first whose condition the history meets, a proven one before a hint (which a forged file
// may have put first).
const DfpnSearch::Conditional* DfpnSearch::conditional_hit(const Child& c, std::uint16_t pmin_child) {
  const Segment& seg = segs_.back();
  const KeySet& seen = c.sym == 0 ? seg.keys : seg.images[c.sym - 1u];
  const Key k = c.ckey;
  const auto visited = [&](Key b) { return b == k || seen.count(b) > 0; };
  const auto holds = [&](const Conditional& e) {
    return e.deps.threshold < pmin_child &&
           std::none_of(e.deps.unvisited.begin(), e.deps.unvisited.end(), visited) &&
           std::all_of(e.deps.visited.begin(), e.deps.visited.end(), visited);
  };
  const Conditional* hint = nullptr;
  const auto match = [&](const std::unordered_map<Key, std::vector<Conditional>>& table) {
    const auto it = table.find(k);
    if (it == table.end()) return false;
    for (const Conditional& e : it->second) {
      if (!holds(e)) continue;
      if (e.source == DfpnSource::proven) {
        hint = &e;
        return true;
      }
      if (!hint) hint = &e;
    }
    return false;
  };
  if (!match(conditional_) && base_) match(base_->conditional_);
  if (hint) {
    ++hits_;
    if (c.sym != 0) ++image_hits_;
  }
  return hint;
}

DfpnSearch::Numbers DfpnSearch::lookup(const Child& c) {
  auto decided = [](SkValue v, const Deps* d, DfpnSource s) {
    return v == SkValue::win ? Numbers{0, kInf, d, 0, s} : Numbers{kInf, 0, d, 0, s};
  };
  if (c.kind == Kind::leaf) return decided(c.leaf, nullptr, DfpnSource::proven);
  const Segment& seg = segs_.back();
  std::uint64_t hash = mix(c.key);
  if (c.kind == Kind::capture) {
    if (const Fresh* e = find_entry(c.key)) return decided(e->value, nullptr, e->source);
  } else {
    if (const Conditional* e = options_.relevance ? conditional_hit(c, std::min(pmin_top(), c.bfd)) : nullptr) {
      Numbers n = decided(e->value, &e->deps, e->source);
      n.sym = c.sym;
      return n;
    }
    hash ^= seg.hash;
  }
  const Exact* found = find_exact(c.key, hash);
  if (!found) return Numbers{1, c.replies, nullptr};
  const Exact& x = *found;
  return Numbers{x.pn, x.dn, x.pn == 0 || x.dn == 0 ? &kOverflow : nullptr, 0, x.source};
}

void DfpnSearch::recurse(const Child& c, std::uint64_t thpn, std::uint64_t thdn) {
  if (c.kind == Kind::capture) {
    enter_segment({c.canon});  // a new segment: no earlier board matters (F2)
    mid(c.canon, c.key, thpn, thdn);
    segs_.pop_back();
    return;
  }
  push(c);
  mid(c.pos, c.key, thpn, thdn);
  pop(c);
}

// F5's bottom-up rule: a win keeps its winning child's reliance plus that child's board unvisited;
// a loss takes the union over all children plus the excluded (visited) targets; the node's own
// board is dropped (it is visited wherever the node stands).
DfpnSearch::Deps DfpnSearch::proof_deps(Key k, const std::vector<Child>& kids, const std::vector<Numbers>& nums,
                                        const std::vector<Key>& excluded, bool win, DfpnSource& source) {
  Deps d;
  source = DfpnSource::proven;
  auto add = [&](std::size_t i) {
    const Child& c = kids[i];
    if (c.kind == Kind::capture) return;  // a fresh segment relies on nothing before it
    if (c.kind == Kind::leaf) {
      if (!c.captured && !lost_by_material(c.pos)) d.threshold = std::max<int>(d.threshold, c.bfd);
      return;
    }
    const Deps* cd = nums[i].deps ? nums[i].deps : &kOverflow;
    if (cd->overflow) d.overflow = true;
    if (d.overflow) return;
    // A proof read through the child's canonical image: its boards mapped back to this frame.
    const int back = nums[i].sym == 0 ? 0 : inverse_[nums[i].sym];
    const auto here = [&](Key b) { return back == 0 ? b : map_key(back, b); };
    for (Key u : cd->unvisited)
      if (here(u) != c.key) d.unvisited.push_back(here(u));
    for (Key v : cd->visited)
      if (here(v) != c.key) d.visited.push_back(here(v));
    d.threshold = std::max(d.threshold, cd->threshold);
  };
  if (win) {
    // The winning child whose proof relies on the least, among the proven ones if any is: a proof
    // through a hint would be one too.
    std::size_t best = kids.size();
    std::pair<bool, std::size_t> best_rank{true, ~std::size_t(0)};
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (nums[i].dn != 0) continue;
      const Deps* cd = kids[i].kind == Kind::inner ? (nums[i].deps ? nums[i].deps : &kOverflow) : nullptr;
      const std::size_t size = !cd ? 0 : cd->overflow ? ~std::size_t(0) - 1 : cd->unvisited.size() + cd->visited.size() + 1;
      const std::pair<bool, std::size_t> rank{nums[i].source != DfpnSource::proven, size};
      if (rank < best_rank) {
        best = i;
        best_rank = rank;
      }
    }
    add(best);
    source = rests_on(source, nums[best].source);
    if (!kids[best].captured) d.unvisited.push_back(kids[best].key);
  } else {
    for (std::size_t i = 0; i < kids.size(); ++i) {
      add(i);
      source = rests_on(source, nums[i].source);
    }
    d.visited.insert(d.visited.end(), excluded.begin(), excluded.end());
  }
  if (d.overflow) return kOverflow;
  normalize(d.unvisited);
  normalize(d.visited);
  d.visited.erase(std::remove(d.visited.begin(), d.visited.end(), k), d.visited.end());
  if (d.unvisited.size() + d.visited.size() > options_.max_relevant_boards) return kOverflow;
  return d;
}

void DfpnSearch::collect() {
  ++collections_;
  std::vector<std::uint64_t> works;
  works.reserve(exact_.size());
  for (const auto& [key, x] : exact_) works.push_back(x.work);
  if (!works.empty()) {
    std::nth_element(works.begin(), works.begin() + std::ptrdiff_t(works.size() / 2), works.end());
    const std::uint64_t median = works[works.size() / 2];
    std::erase_if(exact_, [&](const auto& e) { return e.second.work <= median; });
  }
  if (conditional_count_ * 2 < options_.max_table_entries) return;
  works.clear();
  for (const auto& [key, list] : conditional_)
    for (const Conditional& c : list) works.push_back(c.work);
  std::nth_element(works.begin(), works.begin() + std::ptrdiff_t(works.size() / 2), works.end());
  const std::uint64_t median = works[works.size() / 2];
  conditional_count_ = 0;
  for (auto it = conditional_.begin(); it != conditional_.end();) {
    std::erase_if(it->second, [&](const Conditional& c) { return c.work <= median; });
    conditional_count_ += it->second.size();
    it = it->second.empty() ? conditional_.erase(it) : std::next(it);
  }
}

void DfpnSearch::store(const Position& p, Key k, PnDn r, std::uint64_t work, Deps&& d) {
  if (exact_.size() + conditional_count_ >= options_.max_table_entries) collect();
  const Segment& seg = segs_.back();
  const bool proven = r.pn == 0 || r.dn == 0;
  const SkValue v = r.pn == 0 ? SkValue::win : SkValue::loss;
  if (proven && seg.keys.size() == 1) {  // the segment's first state: a fresh entry (F2)
    const auto [it, added] = entries_.try_emplace(k, Fresh{v, r.source});
    if (!added && replaces(it->second.source, r.source)) it->second = Fresh{v, r.source};
  }
  if (proven && options_.relevance && !d.overflow) {
    exact_.erase({k, seg.hash});
    const auto [ck, variant] = variants_ == 1 ? std::pair<Key, int>{k, 0} : canonical_key(p);
    map_deps(variant, d);  // kept as its canonical image
    auto& list = conditional_[ck];
    if (list.size() >= kConditionalsPerKey) {
      const auto lightest = std::min_element(list.begin(), list.end(), [](const Conditional& a, const Conditional& b) {
        return a.work < b.work;
      });
      list.erase(lightest);
      --conditional_count_;
    }
    list.push_back(Conditional{std::move(d), v, work, r.source});
    ++conditional_count_;
    return;
  }
  exact_[{k, seg.hash}] = Exact{r.pn, r.dn, work, proven ? r.source : DfpnSource::proven};
}

// One expansion within thresholds: descend into the child with the least dn (it proves the node
// soonest) until the node is decided or passes a threshold; then store.
DfpnSearch::PnDn DfpnSearch::mid(const Position& p, Key k, std::uint64_t thpn, std::uint64_t thdn) {
  tick();
  const std::uint64_t start = nodes_;
  // On a node's first expansion (no numbers yet under this history): the exact subset search.
  if (options_.subset_boards > 0 && !find_exact(k, segs_.back().hash))
    if (const std::optional<PnDn> r = subset_solve(p, k)) return *r;
  std::vector<Key> excluded;
  const std::vector<Child> kids = children(p, excluded);
  std::vector<Numbers> nums(kids.size());
  std::uint64_t pn = kInf, dn = 0;
  for (;;) {
    pn = kInf;
    dn = 0;
    std::size_t best = 0;
    std::uint64_t d2 = kInf;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      nums[i] = lookup(kids[i]);
      dn = add_capped(dn, nums[i].pn);
      if (nums[i].dn < pn) {
        d2 = pn;
        pn = nums[i].dn;
        best = i;
      } else if (nums[i].dn < d2) {
        d2 = nums[i].dn;
      }
    }
    if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
    // The child's pn is the parent's dn's share; its dn bounds the parent's pn (1 + 1/4 trick).
    const std::uint64_t child_thpn = std::min(kInf, thdn - dn + nums[best].pn);
    const std::uint64_t child_thdn = std::min(thpn, add_capped(d2, d2 / 4 + 1));
    recurse(kids[best], child_thpn, child_thdn);
  }
  PnDn out{pn, dn};
  Deps deps = pn == 0 || dn == 0 ? proof_deps(k, kids, nums, excluded, pn == 0, out.source) : Deps{};
  store(p, k, out, nodes_ - start + 1, std::move(deps));
  return out;
}

DfpnOutcome DfpnSearch::run_root(const Position& p, Key k, std::uint64_t before) {
  DfpnOutcome out;
  start_budget();
  run_with_large_stack([&] {
    try {
      for (;;) {
        const PnDn r = mid(p, k, kInf, kInf);
        if (r.pn == 0 || r.dn == 0) {
          out.value = r.pn == 0 ? SkValue::win : SkValue::loss;
          out.source = r.source;
          break;
        }
      }
    } catch (const BudgetOut& b) {
      out.stop = b.reason;
    }
  });
  segs_.clear();
  out.nodes = nodes_ - before;
  return out;
}

DfpnOutcome DfpnSearch::solve_entry(const Position& p) {
  const Key k0 = oracle_.key(p);
  if (const SkValue v = lost_by_material(p) ? SkValue::loss : fresh_value(k0); v != SkValue::unknown) return {v, 0, {}};
  const Position c = canonical(p);
  const Key k = oracle_.key(c);
  if (const Fresh* e = find_entry(k)) return {e->value, 0, {}, e->source};
  const std::uint64_t before = nodes_;
  enter_segment({c});
  return run_root(c, k, before);
}

DfpnOutcome DfpnSearch::solve_boards(const std::vector<Position>& boards) {
  if (boards.size() <= 1) return solve_entry(boards.back());
  const std::uint64_t before = nodes_;
  enter_segment(boards);
  return run_root(boards.back(), oracle_.key(boards.back()), before);
}

DfpnOutcome DfpnSearch::solve(const Game& g) { return solve_boards(g.since_capture); }

// --- threads: rounds of jobs over a frozen table (see the head) ---

void DfpnSearch::maybe_checkpoint() {
  if (!checkpoint_ || std::chrono::steady_clock::now() <= next_checkpoint_) return;
  checkpoint_();
  next_checkpoint_ = std::chrono::steady_clock::now() + seconds(options_.checkpoint_seconds);
}

std::vector<DfpnOutcome> DfpnSearch::run_jobs(const std::vector<std::vector<Position>>& jobs,
                                              const DfpnOptions& options) {
  struct Done {
    DfpnOutcome outcome;
    Proofs proofs;  // the job's own decided entries (the base's are here already)
    DfpnStats stats;
  };
  std::vector<Done> done(jobs.size());
  // max_seconds bounds the round, not each job: a job that starts late (more jobs than threads)
  // gets what is left of it, and none once it ran out.
  const auto t0 = std::chrono::steady_clock::now();
  // This search is only read while the jobs run; each job writes its own Done.
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, jobs.size(), 1),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          DfpnOptions mine = options;
          if (options.max_seconds > 0) {
            const auto spent = std::chrono::steady_clock::now() - t0;
            mine.max_seconds = options.max_seconds - std::chrono::duration<double>(spent).count();
            if (mine.max_seconds <= 0) {
              done[i].outcome.stop = "time budget";
              continue;
            }
          }
          DfpnSearch job(oracle_, fresh_, mine);
          job.base_ = this;
          done[i].outcome = job.solve_boards(jobs[i]);
          done[i].proofs = job.proofs();
          done[i].stats = job.stats();
        }
      },
      tbb::simple_partitioner());
  std::vector<DfpnOutcome> out;
  for (Done& d : done) {  // in job order: the merged table does not depend on who ran what
    add_proofs(d.proofs);
    nodes_ += d.stats.nodes;
    hits_ += d.stats.hits;
    image_hits_ += d.stats.image_hits;
    subset_solved_ += d.stats.subset_solved;
    subset_nodes_ += d.stats.subset_nodes;
    collections_ += d.stats.collections;
    out.push_back(std::move(d.outcome));
  }
  if (exact_.size() + conditional_count_ >= options_.max_table_entries) collect();
  maybe_checkpoint();
  return out;
}

std::vector<DfpnOutcome> DfpnSearch::solve_entries(const std::vector<Position>& roots) {
  std::vector<std::vector<Position>> jobs;
  for (const Position& p : roots) jobs.push_back({p});
  return run_jobs(jobs, options_);
}

// The unproven replies to the root's most proving move (least dn, as mid picks it; a proof of the
// root through that move needs all of them), or, when fewer than two, the root's unproven moves.
std::vector<std::vector<Position>> DfpnSearch::frontier(const std::vector<Position>& boards) {
  const auto job_of = [](const Child& c, std::vector<Position> path) {
    if (c.kind == Kind::capture) return std::vector<Position>{c.canon};
    path.push_back(c.pos);
    return path;
  };
  std::vector<std::vector<Position>> moves, replies;
  enter_segment(boards);
  std::vector<Key> excluded;
  const std::vector<Child> kids = children(boards.back(), excluded);
  std::size_t best = kids.size();
  std::uint64_t best_dn = kInf + 1;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const Numbers n = lookup(kids[i]);
    if (n.pn == 0 || n.dn == 0) continue;
    moves.push_back(job_of(kids[i], boards));
    if (n.dn < best_dn) {
      best = i;
      best_dn = n.dn;
    }
  }
  if (best < kids.size()) {
    const Child& b = kids[best];
    const std::vector<Position> path = job_of(b, boards);
    if (b.kind == Kind::capture) enter_segment(path);
    else push(b);
    std::vector<Key> ex;
    for (const Child& c : children(path.back(), ex)) {
      const Numbers n = lookup(c);
      if (n.pn != 0 && n.dn != 0) replies.push_back(job_of(c, path));
    }
  }
  segs_.clear();
  std::vector<std::vector<Position>>& out = replies.size() >= 2 ? replies : moves;
  if (out.size() > options_.round_jobs) out.resize(std::max<std::size_t>(1, options_.round_jobs));
  return std::move(out);
}

DfpnOutcome DfpnSearch::solve_rounds(const Game& g) {
  const DfpnOptions caller = options_;
  const std::uint64_t before = nodes_;
  const auto deadline = std::chrono::steady_clock::now() + seconds(caller.max_seconds);
  std::vector<Position> boards = g.since_capture;
  if (boards.size() <= 1) {  // a fresh root: searched as its canonical image, as solve_entry does
    const Key k0 = oracle_.key(boards.back());
    if (lost_by_material(boards.back()) || fresh_value(k0) != SkValue::unknown) return solve_entry(boards.back());
    boards = {canonical(boards.back())};
  }
  const auto nodes_left = [&] {
    const std::uint64_t used = nodes_ - before;
    return caller.max_nodes == 0 ? kInf : used >= caller.max_nodes ? 0 : caller.max_nodes - used;
  };
  const auto seconds_left = [&] {
    return std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  };
  DfpnOutcome out;
  for (std::uint64_t round = std::max<std::uint64_t>(1, caller.round_nodes);; round = std::min(kInf, round * 2)) {
    if (nodes_left() == 0) out.stop = "node budget";
    else if (caller.max_seconds > 0 && seconds_left() <= 0) out.stop = "time budget";
    if (!out.stop.empty()) break;
    options_.max_nodes = std::min(round, nodes_left());
    options_.max_seconds = caller.max_seconds > 0 ? seconds_left() : 0;
    const DfpnOutcome own = solve_boards(boards);
    if (own.value != SkValue::unknown || own.stop == "time budget") {
      out.value = own.value;
      out.stop = own.stop;
      out.source = own.source;
      break;
    }
    const std::vector<std::vector<Position>> jobs = frontier(boards);
    if (jobs.empty()) continue;
    DfpnOptions each = options_;
    // The jobs share the round's budget: at worst (none of their proofs used) the rounds cost twice
    // the main search's own expansions.
    each.max_nodes = std::min(round, nodes_left()) / jobs.size();
    if (each.max_nodes == 0) continue;  // the loop's head stops it
    if (caller.max_seconds > 0) {       // what the main search left of the time
      if (seconds_left() <= 0) continue;
      each.max_seconds = seconds_left();
    }
    run_jobs(jobs, each);
  }
  options_ = caller;
  out.nodes = nodes_ - before;
  return out;
}

// --- the certificate (format 1) ---

struct DfpnSearch::Walk {
  Side winner;
  std::uint64_t max_nodes, nodes = 0;
  std::unordered_map<Key, int> ids;  // capture-entry sections by key
  std::vector<Position> sections;    // 0 is the root
  std::vector<Position> seeds;       // ban-free leaves
};

namespace {
struct TooLarge {};
}  // namespace

// The child's numbers, proven: from the table, else searched again (the table may have dropped it).
DfpnSearch::Numbers DfpnSearch::ensure(const Child& c) {
  Numbers n = lookup(c);
  while (n.pn != 0 && n.dn != 0) {
    recurse(c, kInf, kInf);
    n = lookup(c);
  }
  return n;
}

// p is the top of the current segment; returns the longest line below it.
std::uint32_t DfpnSearch::write_node(const Position& p, Walk& w, std::string& out) {
  if (++w.nodes > w.max_nodes) throw TooLarge{};
  std::vector<Key> excluded;
  const std::vector<Child> kids = children(p, excluded);
  if (kids.empty()) {
    out += "T\n";
    return 0;
  }
  std::uint32_t depth = 0;
  if (p.to_move == w.winner) {
    std::size_t pick = kids.size();
    for (std::size_t i = 0; i < kids.size() && pick == kids.size(); ++i)
      if (lookup(kids[i]).dn == 0) pick = i;
    for (std::size_t i = 0; i < kids.size() && pick == kids.size(); ++i)
      if (ensure(kids[i]).dn == 0) pick = i;
    if (pick == kids.size()) throw DfpnContradiction("df-pn certificate: a node proven won has no losing child (internal error)");
    out += "W " + format_move(board_, oracle_.rules, kids[pick].move) + "\n";
    write_child(kids[pick], w, out, depth);
    return depth + 1;
  }
  out += "L " + std::to_string(kids.size()) + "\n";
  for (const Child& c : kids) {
    if (ensure(c).pn != 0) throw DfpnContradiction("df-pn certificate: a loser's move is not proven lost (internal error)");
    out += format_move(board_, oracle_.rules, c.move) + " ";
    std::uint32_t d = 0;
    write_child(c, w, out, d);
    depth = std::max(depth, d);
  }
  return depth + 1;
}

void DfpnSearch::write_child(const Child& c, Walk& w, std::string& out, std::uint32_t& depth) {
  if (c.kind == Kind::leaf) {
    std::uint16_t d = 0;
    if (!lost_by_material(c.pos)) oracle_.value(c.key, d);
    if (lost_by_material(c.pos) || d == 0) {
      out += "T\n";
    } else {
      out += "B\n";  // F3 (a capture's target: F3 with its own board as the history)
      w.seeds.push_back(c.pos);
      depth = d;
    }
  } else if (c.kind == Kind::capture) {
    const auto [it, added] = w.ids.emplace(c.key, int(w.sections.size()));
    if (added) w.sections.push_back(c.pos);
    out += "R " + std::to_string(it->second) + "\n";
  } else {
    push(c);
    depth = write_node(c.pos, w, out);
    pop(c);
  }
}

CertificateText DfpnSearch::write_certificate(const Game& g, SkValue value, std::uint64_t max_nodes) {
  CertificateText out;
  if (fresh_ || options_.symmetry) {
    out.error = "df-pn certificate: the search must run without fresh values and symmetry";
    return out;
  }
  const Position& p0 = current(g);
  Walk w;
  w.winner = value == SkValue::win ? p0.to_move : other(p0.to_move);
  w.max_nodes = max_nodes;
  w.sections.push_back(p0);
  if (g.since_capture.size() == 1) w.ids.emplace(oracle_.key(p0), 0);  // shared only when entered fresh
  std::vector<std::string> trees;
  std::uint32_t depth = 0;
  start_budget();
  run_with_large_stack([&] {
    try {
      for (std::size_t i = 0; i < w.sections.size(); ++i) {
        std::string t;
        enter_segment(i == 0 ? g.since_capture : std::vector<Position>{w.sections[i]});
        const std::uint32_t d = write_node(w.sections[i], w, t);
        if (i == 0) depth = d;
        segs_.clear();
        trees.push_back(std::move(t));
      }
    } catch (const TooLarge&) {
      out.error = "the certificate would exceed " + std::to_string(max_nodes) + " nodes";
    } catch (const BudgetOut& b) {
      out.error = std::string("re-proving what the table forgot ran past the ") + b.reason;
    }
  });
  segs_.clear();
  if (!out.error.empty()) return out;
  out.text = format1_text(g, oracle_, w.winner, depth, w.sections, trees, w.seeds);
  out.nodes = w.nodes;
  return out;
}

std::string DfpnSearch::walk(const std::vector<Position>& history, const std::function<void()>& f) {
  std::string stop;
  start_budget();
  run_with_large_stack([&] {
    try {
      enter_segment(history);
      f();
    } catch (const BudgetOut& b) {
      stop = b.reason;
    }
  });
  segs_.clear();
  return stop;
}

void DfpnLayerReport::add_decided(const Class& c) {
  (c.value == SkValue::win ? win : loss) += 1;
  (c.value == SkValue::win ? states_win : states_loss) += c.members;
  decided.emplace_back(c.pos, c.value);
}

namespace {

// Every state of the solution decoded, by id; and which of them some capture of the solution enters.
void decode_and_mark_targets(const BanFreeOracle& oracle, const Board& board, std::vector<Position>& pos,
                             std::vector<char>& target) {
  const Solution& sol = oracle.solution;
  pos.resize(sol.keys.size());
  target.assign(sol.keys.size(), 0);
  for (std::size_t i = 0; i < sol.keys.size(); ++i) {
    Tag t;
    decode_key(sol.codec, sol.keys[i], pos[i], t);
  }
  for (const Position& p : pos) {
    if (lost_by_material(p)) continue;
    for (const Move& m : generate_moves(board, oracle.rules, p))
      if (m.captured)
        if (const auto id = find_state(sol, oracle.key(apply_move(p, m)))) target[*id] = 1;
  }
}

// The layer's capture-entry states left open, by symmetry class in order of their first member:
// each class's canonical state and its number of members.
struct OpenClasses {
  std::vector<Position> reps;
  std::vector<std::uint64_t> members;
};

OpenClasses open_classes(const BanFreeOracle& oracle, const FreshValues& fresh, const Board& board,
                         const std::vector<Position>& pos, const std::vector<char>& target, DfpnLayerReport& rep) {
  OpenClasses out;
  std::unordered_map<Key, std::size_t> class_of;
  for (std::size_t i = 0; i < pos.size(); ++i) {
    const Position& p = pos[i];
    if (popcount(p.black) != rep.black || popcount(p.white) != rep.white || !target[i]) continue;
    ++rep.capture_entry;
    if (fresh.method[i] != FreshMethod::none || (!fresh.entry.empty() && fresh.entry[i] != SkValue::unknown)) continue;
    ++rep.open;
    const Position c = canonical_image(oracle, board, p);
    const auto [it, added] = class_of.emplace(oracle.key(c), out.reps.size());
    if (added) {
      out.reps.push_back(c);
      out.members.push_back(0);
    }
    ++out.members[it->second];
  }
  return out;
}

}  // namespace

DfpnLayerReport dfpn_entry_layer(const BanFreeOracle& oracle, const FreshValues& fresh, int black, int white,
                                 const DfpnOptions& options, const DfpnTableFile* table, bool save_at_end) {
  const auto t0 = std::chrono::steady_clock::now();
  DfpnLayerReport rep;
  rep.black = black;
  rep.white = white;
  const Board board = make_board(oracle.rules.rows, oracle.rules.cols);
  std::vector<Position> pos;
  std::vector<char> target;
  decode_and_mark_targets(oracle, board, pos, target);
  const OpenClasses classes = open_classes(oracle, fresh, board, pos, target, rep);
  rep.classes = classes.reps.size();
  DfpnSearch search(oracle, &fresh, options);
  if (table) table->attach(search);
  const std::size_t per_round = std::max<std::size_t>(1, options.round_classes);
  const auto seconds_left = [&] {
    return options.max_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (std::size_t first = 0; first < classes.reps.size(); first += per_round) {
    if (options.max_seconds > 0) {  // each round within what is left of the pass's time
      if (seconds_left() <= 0) {
        rep.stop = "time budget";
        break;
      }
      search.set_max_seconds(seconds_left());
    }
    const std::size_t end = std::min(classes.reps.size(), first + per_round);
    const std::vector<Position> roots(classes.reps.begin() + std::ptrdiff_t(first),
                                      classes.reps.begin() + std::ptrdiff_t(end));
    const std::vector<DfpnOutcome> outs = search.solve_entries(roots);  // in parallel (dfpn.hpp)
    rep.classes_run += roots.size();
    for (std::size_t c = first; c < end; ++c) {
      const DfpnOutcome& o = outs[c - first];
      if (o.stop == "time budget") rep.stop = o.stop;
      if (o.value == SkValue::unknown) continue;
      const DfpnLayerReport::Class decided{classes.reps[c], o.value, classes.members[c]};
      if (o.source != DfpnSource::proven) {  // a hint's value: open until a walk proves it
        rep.unchecked.push_back(decided);
        continue;
      }
      rep.add_decided(decided);
      rep.max_class_nodes = std::max(rep.max_class_nodes, o.nodes);
    }
  }
  if (table) save_at_end ? table->save(search) : table->keep(search);
  rep.table = search.stats();
  rep.nodes = rep.table.nodes;
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

}  // namespace gonu
