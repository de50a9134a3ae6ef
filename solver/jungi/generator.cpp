// The generator: level-by-level forward sweeps over a material's positions, reading the values of
// the positions moves lead to from the table being built and from the smaller tables.
#include "solver/jungi/generator.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>

#include "core/error.hpp"

namespace gonu::jungi {

namespace {

// Entry codes (Table::entries): the result in the top two bits, the distance in the low 14.
constexpr std::uint16_t kInvalidEntry = 0, kUnknown = 1, kWin = 0x4000, kLoss = 0x8000, kDraw = 0xC000;
constexpr std::uint16_t kKindMask = 0xC000, kDistMask = 0x3FFF;
constexpr int kMaxDist = kDistMask - 1;

std::uint16_t kind(std::uint16_t c) { return c & kKindMask; }
int dist(std::uint16_t c) { return c & kDistMask; }
bool decided(std::uint16_t c) { return kind(c) == kWin || kind(c) == kLoss; }
std::uint16_t code(std::uint16_t k, int d) { return static_cast<std::uint16_t>(k | std::min(d, kMaxDist)); }

// The value of a move for its mover, from the value of the position it leads to for the opponent.
std::uint16_t through_move(std::uint16_t c) {
  if (kind(c) == kWin) return code(kLoss, dist(c) + 1);
  if (kind(c) == kLoss) return code(kWin, dist(c) + 1);
  return c;  // draw, or not yet known
}

// The best of several options for one side: the shortest win, else a draw, else the longest loss.
// An option not yet known might be anything but a win shorter than the known ones (see sweep).
struct Best {
  bool win = false, all_loss = true, unknown = false;
  int win_dist = INT_MAX, loss_dist = 0;
  void add(std::uint16_t c) {
    if (kind(c) == kWin) {
      win = true;
      win_dist = std::min(win_dist, dist(c));
    } else if (kind(c) == kLoss) {
      loss_dist = std::max(loss_dist, dist(c));
    } else {
      all_loss = false;
      unknown = unknown || c == kUnknown;
    }
  }
  std::uint16_t result() const {
    if (win) return code(kWin, win_dist);
    if (all_loss) return code(kLoss, loss_dist);
    return unknown ? kUnknown : kDraw;
  }
};

bool near_passed(const Position& c, int sq) {
  for (Set s = c.passed; s; s &= s - 1)
    if (distance(sq, lowest(s)) <= 1) return true;
  return false;
}

// Reads values of positions from the tables: `own` is the table being built (null once every
// table is final), whose entries with a distance of `level` or more were written in the current
// sweep and are read as not yet known, so that a sweep's result does not depend on the order
// (or the threads) in which it visits positions.
struct Reader {
  const TableSet& set;
  const Rules& rules;
  Table* own = nullptr;
  int level = INT_MAX;

  // The value of c for its side to move, its en-passant field ignored.
  std::uint16_t stored(const Position& c) const {
    if (c.royal[std::size_t(index(c.to_move))] < 0) return code(kLoss, 0);
    Placement pl;
    if (!placement_of(c, pl)) throw GonuError("jungi tables: a position with more than " + std::to_string(kMaxTablePieces) + " pieces");
    const bool is_own = own && pl.material == own->indexer.material();
    const Table* t = is_own ? own : set.find(pl.material);
    if (!t) throw GonuError("jungi tables: the table of " + material_text(pl.material) + " is not solved");
    const std::uint64_t i = t->indexer.encode(pl, c.to_move);
    if (i == Indexer::kInvalid) throw GonuError("jungi tables: no index for " + format_position(c));
    if (!is_own) return t->entries[i];
    const std::uint16_t e = std::atomic_ref<std::uint16_t>(own->entries[i]).load(std::memory_order_relaxed);
    return decided(e) && dist(e) >= level ? kUnknown : e;
  }

  // The value of c (reached by a move) for its side to move, with its en-passant field.
  //
  // Positions with an en-passant field are not stored. The field changes only the moves onto
  // passed squares by the pieces that capture what passed by (Pawn, Veteran, Queen, Empress, King,
  // Emperor): each becomes a capture of the piece that just moved (for a Pawn's diagonal, a move
  // that did not exist). So the value of C with its field is the best, for C's mover, of the
  // stored value of C without it and of the values of its captures of what passed by, which lead
  // to smaller materials (or take the royal), already solved: the approach of Syzygy's generator
  // for chess's en passant. This takes the plain step onto a passed square, which the capture
  // replaces, to be no better than the capture (it only removes an enemy piece besides); the
  // plain reference solver (tests/reference/jungi_endgame_plain.hpp), which evaluates positions
  // with fields by their own moves, checks that on the materials of the tests. Under
  // stalemate=draw, a C without moves is a draw stored, but with captures of what passed by it
  // has moves: then those alone count.
  std::uint16_t child(const Position& c) const {
    if (c.royal[std::size_t(index(c.to_move))] < 0) return code(kLoss, 0);
    const std::uint16_t base = stored(c);
    if (!c.passed) return base;
    Best best;
    bool captures = false;
    for (int sq = 0; sq < kSquares; ++sq) {
      const Piece x = c.cell[std::size_t(sq)];
      if (x == kEmpty || side_of(x) != c.to_move || !captures_passed_by(type_of(x)) || !near_passed(c, sq)) continue;
      MoveList moves;
      generate_piece_moves(rules, c, sq, moves);
      for (const Move& m : moves) {
        if (m.kind != MoveKind::passed_by) continue;
        captures = true;
        best.add(through_move(child(apply_move(c, m))));  // leads to a position without a field
      }
    }
    if (!captures) return base;
    if (!(rules.stalemate_draw && base == kDraw && no_moves_without_field(c))) best.add(base);
    return best.result();
  }

  bool no_moves_without_field(Position c) const {
    c.passed = 0;
    c.passed_end = kNoSquare;
    MoveList moves;
    generate_moves(rules, c, moves);
    return moves.size == 0;
  }
};

constexpr std::size_t kGrain = 1024;

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

void count(const Table& t, TableStats& s) {
  s.indices = t.indexer.size();
  for (std::uint64_t i = 0; i < s.indices; ++i) {
    const std::uint16_t e = t.entries[i];
    if (e == kInvalidEntry) continue;
    const std::size_t side = i % 2;
    ++s.positions;
    if (kind(e) == kWin) {
      ++s.wins[side];
      if (dist(e) > s.longest_win) s.longest_win = dist(e), s.longest_win_index = i;
    } else if (kind(e) == kLoss) {
      ++s.losses[side];
      s.longest_loss = std::max(s.longest_loss, dist(e));
    } else {
      ++s.draws[side];
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

Value Table::value(std::uint64_t i) const {
  const std::uint16_t e = entries.at(i);
  if (e == kInvalidEntry || e == kUnknown) return {};
  const Result r = kind(e) == kWin ? Result::win : kind(e) == kLoss ? Result::loss : Result::draw;
  return {r, r == Result::draw ? 0 : dist(e)};
}

const Table* TableSet::find(const Material& m) const {
  const auto it = tables_.find(m);
  return it == tables_.end() ? nullptr : it->second.get();
}

std::uint64_t TableSet::bytes_needed(const Material& m) const {
  long double bytes = 0;
  for (const Material& x : material_closure(m))
    if (!find(x)) bytes += static_cast<long double>(Indexer(rules_, x).size()) * sizeof(std::uint16_t);
  return bytes > 1.8e19L ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

const Table& TableSet::solve(const Material& m, const TableOptions& options) {
  std::uint64_t held = 0;
  for (const auto& [x, t] : tables_) held += t->entries.size() * sizeof(std::uint16_t);
  const std::uint64_t need = bytes_needed(m);
  const std::uint64_t limit = options.max_memory ? options.max_memory : physical_memory_bytes();
  if (limit && (need > limit || held + need > limit))
    throw GonuError("material " + material_text(m) + ": its tables need " + std::to_string(need) + " bytes more (" +
                    std::to_string(held) + " held), past the memory limit of " + std::to_string(limit) + " bytes");
  for (const Material& x : material_closure(m)) {
    if (find(x)) continue;
    solve_one(x);
    if (options.on_solved) options.on_solved(*find(x));
  }
  return *find(m);
}

void TableSet::solve_one(const Material& m) {
  const auto t0 = std::chrono::steady_clock::now();
  auto table = std::make_unique<Table>(rules_, m);
  Table& t = *table;
  t.entries.assign(t.indexer.size(), kUnknown);
  // Past the longest distance in the tables moves lead to (plus a capture of what passed by and
  // the move itself), a sweep that decides nothing is the last: no child can then have the
  // distance a later level needs.
  int longest_elsewhere = 0;
  for (const auto& [x, other] : tables_)
    longest_elsewhere = std::max({longest_elsewhere, other->stats.longest_win, other->stats.longest_loss});
  first_sweep(rules_, t);
  int d = 1;
  for (;; ++d) {
    if (d >= kMaxDist) throw GonuError("material " + material_text(m) + ": distances pass " + std::to_string(kMaxDist));
    if (sweep(*this, rules_, t, d) == 0 && d > longest_elsewhere + 2) break;
  }
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
