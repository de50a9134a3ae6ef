// The generator: level-by-level forward sweeps over a material's positions, reading the values of
// the positions moves lead to from the table being built and from the smaller tables; the
// TableSet that holds the tables, solving a material's closure (solve) or one material whose
// reads are held (solve_alone, for runs that hold only some tables at a time).
#include "solver/jungi/generator/generator.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <set>

#include "core/error.hpp"
#include "solver/jungi/generator/reader.hpp"
#include "solver/jungi/generator/retrograde.hpp"

namespace gonu::jungi {

using namespace entry;

namespace {

constexpr std::size_t kGrain = 1024;
// What the child lists take per index, estimated: 8 bytes a move to the same material, some 80 for
// an Emperor (its two-steps), and 10 bytes of offsets and summary.
constexpr std::uint64_t kListBytesPerIndex = 700;

// Level 0: invalid indices, positions without a legal move (lost, or drawn under
// stalemate=draw), and the rest not yet known.
void first_sweep(const Rules& rules, Table& t) {
  const std::uint64_t n = t.indexer.size();
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, kGrain), [&](const tbb::blocked_range<std::uint64_t>& r) {
    Position p;
    MoveList moves;
    for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
      if (!t.indexer.decode(i, p)) {
        t.entries[i] = kInvalidEntry;
        continue;
      }
      generate_moves(rules, p, moves);
      t.entries[i] = moves.size ? kUnknown : rules.stalemate_draw ? kDraw : code(kLoss, 0);
    }
  });
}

// Level d >= 1: a position not yet known is a WIN in d if a move leads to a LOSS in d - 1 (or
// less: then it would have been found earlier, so exactly d - 1) for the opponent, a LOSS in d
// if every move leads to an opponent's WIN in d - 1 or less (the longest being d - 1). Values
// written in this sweep have distance d and are read as not yet known (Reader), and neither
// rule can be met through a value of distance d, so the result is the same in any order and for
// any number of threads. Returns how many positions it decided.
std::uint64_t sweep(const TableSet& set, const Rules& rules, Table& t, int d) {
  const std::uint64_t n = t.indexer.size();
  const Reader reader{set, rules, &t, d};
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, n, kGrain), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t decided_here) {
        Position p;
        MoveList moves;
        for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
          std::atomic_ref<std::uint16_t> entry(t.entries[i]);
          if (entry.load(std::memory_order_relaxed) != kUnknown) continue;
          t.indexer.decode(i, p);
          generate_moves(rules, p, moves);
          bool win = false, all_lose = true;
          int longest = 0;
          for (const Move& m : moves) {
            const std::uint16_t v = through_move(reader.child(apply_move(p, m)));
            if (kind(v) == kWin && dist(v) <= d) {
              win = true;
              break;
            }
            if (kind(v) == kLoss && dist(v) <= d) longest = std::max(longest, dist(v));
            else all_lose = false;
          }
          if (win || all_lose) {
            entry.store(win ? code(kWin, d) : code(kLoss, longest), std::memory_order_relaxed);
            ++decided_here;
          }
        }
        return decided_here;
      },
      std::plus<>());
}

// The explicit form, where memory allows: every position's moves generated once. A move to the
// same material is kept as the index it leads to and the best of that position's captures of what
// passed by (0: none); every other move (to a smaller material, or taking the royal) has a final
// value, and the best of those for the mover is kept once per position. The sweeps then read
// values only, with the same rules and the same results as the forward sweeps.
struct ChildLists {
  std::vector<std::uint16_t> fixed;     // per index: the best final move value for the mover (0: none)
  std::vector<std::uint64_t> begin;     // per index + 1: where its own-material children start
  std::vector<std::uint64_t> children;  // index << 16 | that child's captures of what passed by
};

constexpr std::uint64_t kListBlock = 4096;

ChildLists build_lists(const TableSet& set, const Rules& rules, const Table& t) {
  const std::uint64_t n = t.indexer.size();
  const Reader final_reader{set, rules};
  ChildLists lists;
  lists.fixed.assign(n, kInvalidEntry);
  const std::uint64_t blocks = (n + kListBlock - 1) / kListBlock;
  std::vector<std::vector<std::uint64_t>> items(blocks);
  std::vector<std::vector<std::uint32_t>> counts(blocks);
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    Position p;
    MoveList moves;
    Placement pl;
    for (std::uint64_t i = b * kListBlock; i < std::min(n, (b + 1) * kListBlock); ++i) {
      std::uint32_t own = 0;
      if (t.entries[i] == kUnknown) {
        t.indexer.decode(i, p);
        generate_moves(rules, p, moves);
        Best fixed;
        bool any_fixed = false;
        for (const Move& m : moves) {
          const Position c = apply_move(p, m);
          const bool royal_taken = c.royal[std::size_t(index(c.to_move))] < 0;
          if (!royal_taken && placement_of(c, pl) && pl.material == t.indexer.material()) {
            bool alone = false;
            const std::uint16_t captures = c.passed ? final_reader.passed_by_captures(c, alone) : kInvalidEntry;
            if (!alone) {
              items[b].push_back(t.indexer.encode(pl, c.to_move) << 16 | captures);
              ++own;
              continue;
            }
            fixed.add(through_move(captures));
          } else {
            fixed.add(through_move(final_reader.child(c)));
          }
          any_fixed = true;
        }
        if (any_fixed) lists.fixed[i] = fixed.result();
      }
      counts[b].push_back(own);
    }
  });
  lists.begin.assign(n + 1, 0);
  std::uint64_t at = 0, i = 0;
  for (std::uint64_t b = 0; b < blocks; ++b)
    for (const std::uint32_t c : counts[b]) lists.begin[++i] = (at += c);
  lists.children.reserve(at);
  for (auto& block : items) {
    lists.children.insert(lists.children.end(), block.begin(), block.end());
    std::vector<std::uint64_t>().swap(block);
  }
  return lists;
}

// sweep's level d over the child lists.
std::uint64_t sweep_lists(const ChildLists& lists, Table& t, int d) {
  const std::uint64_t n = t.indexer.size();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, n, kGrain), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t decided_here) {
        for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
          std::atomic_ref<std::uint16_t> entry(t.entries[i]);
          if (entry.load(std::memory_order_relaxed) != kUnknown) continue;
          Best best;
          if (lists.fixed[i] != kInvalidEntry) best.add(lists.fixed[i]);
          for (std::uint64_t k = lists.begin[i]; k < lists.begin[i + 1]; ++k) {
            const std::uint64_t item = lists.children[k];
            std::uint16_t v = std::atomic_ref<std::uint16_t>(t.entries[item >> 16]).load(std::memory_order_relaxed);
            if (decided(v) && dist(v) >= d) v = kUnknown;
            if (const auto captures = static_cast<std::uint16_t>(item & 0xFFFF); captures != kInvalidEntry) {
              Best with_field;
              with_field.add(v);
              with_field.add(captures);
              v = with_field.result();
            }
            best.add(through_move(v));
          }
          const std::uint16_t v = best.result();
          if ((kind(v) == kWin || kind(v) == kLoss) && dist(v) <= d) {
            entry.store(kind(v) == kWin ? code(kWin, d) : v, std::memory_order_relaxed);
            ++decided_here;
          }
        }
        return decided_here;
      },
      std::plus<>());
}

// The levels the sweeps take on a solved table: level d decides the positions of distance d, and
// the last is the first that decides none past the longest distance of the other tables + 2.
int sweeps_taken(const Table& t, int longest_elsewhere) {
  std::vector<std::uint64_t> at(kDistMask + 2, 0);
  for (const std::uint16_t e : t.entries)
    if (decided(e)) ++at[std::size_t(dist(e))];
  int d = 1;
  while (at[std::size_t(d)] != 0 || d <= longest_elsewhere + 2) ++d;
  return d;
}

void count(const Table& t, TableStats& s) {
  s.indices = t.indexer.size();
  for (std::uint64_t i = 0; i < s.indices; ++i) {
    const std::uint16_t e = t.entries[i];
    if (e == kInvalidEntry) continue;
    const std::size_t side = i % 2;
    const std::uint64_t board = file_of(t.indexer.south_royal_square(i)) == kFiles / 2 ? 1 : 2;  // TableStats::board_positions
    ++s.positions;
    s.board_positions += board;
    if (kind(e) == kWin) {
      ++s.wins[side];
      s.board_wins[side] += board;
      if (dist(e) > s.longest_win) s.longest_win = dist(e), s.longest_win_index = i;
    } else if (kind(e) == kLoss) {
      ++s.losses[side];
      s.board_losses[side] += board;
      s.longest_loss = std::max(s.longest_loss, dist(e));
    } else {
      ++s.draws[side];
      s.board_draws[side] += board;
    }
  }
}

}  // namespace

std::string value_text(const Value& v) {
  switch (v.result) {
    case Result::win: return "WIN in " + std::to_string(v.dist);
    case Result::loss: return "LOSS in " + std::to_string(v.dist);
    case Result::draw: return "DRAW";
    default: return "invalid";
  }
}

ValueSource source_of(const Indexer& indexer, const Rules& r, std::uint64_t index, const Position& p) {
  if (takes_royal(r, p)) return {ValueSource::royal_taken, 0};
  if (file_of(p.royal[0]) == kFiles / 2) {
    const std::uint64_t m = indexer.encode(mirror_position(p));
    if (m < index) return {ValueSource::mirror, m};
  }
  return {ValueSource::stored, 0};
}

Value Table::value(std::uint64_t i) const {
  const std::uint16_t e = entries.at(i);
  if (e == kInvalidEntry || e == kUnknown) return {};
  const Result r = kind(e) == kWin ? Result::win : kind(e) == kLoss ? Result::loss : Result::draw;
  return {r, r == Result::draw ? 0 : dist(e)};
}

std::size_t TableSet::MaterialHash::operator()(const Material& m) const {
  // The counts eight bytes at a time, each word mixed in by a multiply: a few cycles, where a
  // byte-by-byte hash would cost more than the lookup it saves.
  constexpr std::size_t kBytes = sizeof m.count;
  std::array<std::uint64_t, (kBytes + 7) / 8> words{};
  std::memcpy(words.data(), m.count.data(), kBytes);
  std::uint64_t h = 0;
  for (const std::uint64_t w : words) h = (h ^ w) * 0x9E3779B97F4A7C15u;
  return std::size_t(h ^ (h >> 29));
}

const Table* TableSet::find(const Material& m) const {
  const auto it = tables_.find(m);
  return it == tables_.end() ? nullptr : it->second.get();
}

std::uint16_t TableSet::entry(const Placement& pl, Side to_move) const {
  // Only kept materials are held: a material found is kept, else its flip is asked for.
  const Table* t = find(pl.material);
  bool kept = t != nullptr;
  if (!kept) t = find(flipped(pl.material));
  if (!t && lookup_) {
    kept = is_canonical(pl.material);
    t = lookup_(canonical(pl.material));
  }
  if (!t) throw GonuError("jungi tables: the table of " + material_text(canonical(pl.material)) + " is not solved");
  const std::uint64_t i = kept ? t->indexer.encode(pl, to_move) : t->indexer.encode_flipped(pl, other(to_move));
  if (i == Indexer::kInvalid) throw GonuError("jungi tables: a placement of " + material_text(pl.material) + " has no index");
  if (t->read) return t->read(i);
  if (!t->derive_on_read) return t->entries[i];
  Position p;
  t->indexer.decode(i, p);
  const ValueSource s = source_of(t->indexer, rules_, i, p);
  if (s.kind == ValueSource::royal_taken) return code(kWin, 1);
  return t->entries[s.kind == ValueSource::mirror ? s.image : i];
}

const Table& TableSet::adopt(std::unique_ptr<Table> table) {
  const Material m = table->indexer.material();
  if (find(m)) throw GonuError("jungi tables: the table of " + material_text(m) + " is held already");
  if (!is_canonical(m))
    throw GonuError("jungi tables: " + material_text(m) + " is kept as its colour flip " + material_text(flipped(m)));
  if (table->entries.size() != table->indexer.size() && !table->read)
    throw GonuError("jungi tables: the table of " + material_text(m) + " has " + std::to_string(table->entries.size()) +
                    " entries for " + std::to_string(table->indexer.size()) + " indices");
  return *(tables_[m] = std::move(table));
}

std::uint64_t TableSet::bytes_needed(const Material& m) const {
  long double bytes = 0, largest = 0;
  for (const Material& x : kept_closure(m))
    if (!find(x)) {
      const auto size = static_cast<long double>(Indexer(rules_, x).size());
      bytes += size * sizeof(std::uint16_t);
      largest = std::max(largest, size);
    }
  bytes += largest * kSolverBytesPerIndex;
  return bytes > 1.8e19L ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

namespace {

std::uint64_t memory_limit(const TableOptions& options) { return options.max_memory ? options.max_memory : physical_memory_bytes(); }

// The method that solves x: retrograde unless asked otherwise. Child lists take some 8 bytes a
// move: where a table's lists would pass a quarter of the limit, the forward sweeps generate the
// moves again at every level instead.
SweepMethod method_for(const Rules& rules, const Material& x, const TableOptions& options) {
  const SweepMethod method = options.sweeps == SweepMethod::automatic ? SweepMethod::retrograde : options.sweeps;
  const std::uint64_t limit = memory_limit(options);
  if (method == SweepMethod::lists && limit && Indexer(rules, x).size() * kListBytesPerIndex > limit / 4) return SweepMethod::forward;
  return method;
}

}  // namespace

std::vector<Material> materials_read(const Material& m) {
  std::set<Material> out;
  for (const Material& n : next_materials(m))
    if (n.pieces() == m.pieces()) out.insert(canonical(n));  // one promotion
  std::set<Material> frontier{m};
  for (int step = 0; step < 4; ++step) {
    std::set<Material> next;
    for (const Material& x : frontier)
      for (const Material& n : next_materials(x)) next.insert(n);
    for (const Material& n : next)
      if (n.pieces() < m.pieces()) out.insert(canonical(n));
    frontier = std::move(next);
  }
  return {out.begin(), out.end()};
}

const Table& TableSet::solve(const Material& m, const TableOptions& options) {
  const std::uint64_t held = held_bytes();
  const std::uint64_t need = bytes_needed(m);
  const std::uint64_t limit = memory_limit(options);
  if (limit && (need > limit || held + need > limit))
    throw GonuError("material " + material_text(m) + ": its tables need " + std::to_string(need) + " bytes more (" +
                    std::to_string(held) + " held), past the memory limit of " + std::to_string(limit) + " bytes");
  for (const Material& x : kept_closure(m)) {
    if (find(x)) continue;
    solve_one(x, method_for(rules_, x, options), options);
    if (options.on_solved) options.on_solved(*find(x));
  }
  return *find(canonical(m));
}

const Table& TableSet::solve_alone(const Material& wanted, const TableOptions& options) {
  const Material m = canonical(wanted);  // only kept materials are held
  if (const Table* t = find(m)) return *t;
  for (const Material& x : materials_read(m))
    if (!find(x))
      throw GonuError("jungi tables: solving " + material_text(m) + " reads the table of " + material_text(x) + ", which is not held");
  solve_one(m, method_for(rules_, m, options), options);
  if (options.on_solved) options.on_solved(*find(m));
  return *find(m);
}

void TableSet::release(const Material& m) { tables_.erase(m); }

std::vector<Material> TableSet::held() const {
  std::vector<Material> out;
  for (const auto& [x, t] : tables_) out.push_back(x);
  return out;
}

std::uint64_t TableSet::held_bytes() const {
  std::uint64_t held = 0;
  for (const auto& [x, t] : tables_) held += t->entries.size() * sizeof(std::uint16_t) + t->derived.size() * sizeof(std::uint64_t);
  return held;
}

void TableSet::drop_derived(const Material& m) {
  if (const auto it = tables_.find(m); it != tables_.end()) std::vector<std::uint64_t>().swap(it->second->derived);
}

void TableSet::solve_one(const Material& m, SweepMethod method, const TableOptions& options) {
  const LevelReport& on_level = options.on_level;
  const auto t0 = std::chrono::steady_clock::now();
  auto table = std::make_unique<Table>(rules_, m);
  Table& t = *table;
  // Past the longest distance in the tables moves lead to (plus a capture of what passed by and
  // the move itself), a sweep that decides nothing is the last: no child can then have the
  // distance a later level needs. Taken over the tables m reads alone, not every table held, so
  // that the levels (and stats.sweeps) do not depend on what else a run holds.
  int longest_elsewhere = 0;
  for (const Material& x : materials_read(m))
    if (const Table* other = find(x))
      longest_elsewhere = std::max({longest_elsewhere, other->stats.longest_win, other->stats.longest_loss});
  if (method == SweepMethod::retrograde) {
    solve_retrograde(*this, t, on_level, options.keep_derived);
    t.stats.retrograde = true;
    t.stats.sweeps = sweeps_taken(t, longest_elsewhere);
    count(t, t.stats);
    t.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tables_.emplace(m, std::move(table));
    return;
  }
  t.entries.assign(t.indexer.size(), kUnknown);
  first_sweep(rules_, t);
  const bool lists = method == SweepMethod::lists;
  ChildLists child_lists;
  if (lists) child_lists = build_lists(*this, rules_, t);
  int d = 1;
  for (;; ++d) {
    if (d >= kMaxDist) throw GonuError("material " + material_text(m) + ": distances pass " + std::to_string(kMaxDist));
    const std::uint64_t decided_now = lists ? sweep_lists(child_lists, t, d) : sweep(*this, rules_, t, d);
    if (on_level) on_level(m, d, decided_now, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (decided_now == 0 && d > longest_elsewhere + 2) break;
  }
  t.stats.child_lists = lists;
  for (std::uint16_t& e : t.entries)
    if (e == kUnknown) e = kDraw;
  t.stats.sweeps = d;
  count(t, t.stats);
  t.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  tables_.emplace(m, std::move(table));
}

Value TableSet::probe(const Position& p) const {
  const std::uint16_t c = Reader{*this, rules_}.child(p);
  if (c == kInvalidEntry || c == kUnknown) return {};
  const Result r = kind(c) == kWin ? Result::win : kind(c) == kLoss ? Result::loss : Result::draw;
  return {r, r == Result::draw ? 0 : dist(c)};
}

}  // namespace gonu::jungi
