// Jungi table questions: a position's value and its moves' from a family of tables read on demand
// from one directory, the principal variation, and the full check of a table.
#include "solver/jungi/table/query.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <climits>

#include "core/error.hpp"
#include "solver/common/move_order.hpp"

namespace gonu::jungi {

namespace {

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The materials whose tables a probe of c reads: its own, and with an en-passant field those its
// captures of what passed by lead to (a capture that also promotes: two steps of next_materials).
std::vector<Material> materials_read(const Position& c) {
  std::vector<Material> out{material_of(c)};
  if (c.passed)
    for (const Material& x : next_materials(out.front())) {
      out.push_back(x);
      for (const Material& y : next_materials(x)) out.push_back(y);
    }
  return out;
}

// The value of c for its side to move, or nullopt with `missing` set when a table it needs is
// absent. The caller holds the family's lock.
std::optional<Value> probe_family(const TableFamily& f, const Position& c, std::string& missing) {
  if (c.royal[0] >= 0 && c.royal[1] >= 0) {
    for (const Material& m : materials_read(c)) {
      if (f.ensure(m)) continue;
      missing = material_text(m);
      return std::nullopt;
    }
  }
  const Value v = f.set.probe(c);
  if (v.result == Result::invalid) throw GonuError("no table value for " + format_position(c) + " (the table is damaged?)");
  return v;
}

MoveValue move_value(const Rules& r, const Probe& probe, const Position& p, const Move& m) {
  MoveValue mv{m, format_move(r, p, m), format_move_san(r, p, m), false, gonu::Value::draw, 0, {}};
  const Position next = apply_move(p, m);
  // A move that takes the enemy royal ends the game: the position after it is lost for its side
  // to move whatever any table holds.
  const auto v = next.royal[std::size_t(index(next.to_move))] < 0 ? std::optional<Value>(Value{Result::loss, 0})
                                                                   : probe(next, mv.unknown_material);
  if (!v) return mv;
  mv.known = true;
  mv.value = mover_value(game_value(v->result));
  mv.dist = mv.value == gonu::Value::draw ? 0 : std::uint16_t(v->dist + 1);
  return mv;
}

// Known moves best first (best_first), then the unknown ones in move order.
std::vector<std::size_t> rank(const std::vector<MoveValue>& moves) {
  std::vector<MoveValue> known;
  std::vector<std::size_t> where, unknown;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (moves[i].known) {
      known.push_back(moves[i]);
      where.push_back(i);
    } else {
      unknown.push_back(i);
    }
  }
  std::vector<std::size_t> order;
  for (const std::size_t k : best_first(known)) order.push_back(where[k]);
  order.insert(order.end(), unknown.begin(), unknown.end());
  return order;
}

// The value and moves of p (no principal variation).
PositionAnswer answer_moves(const Rules& r, const Probe& probe, const Position& p, const MissingText& missing_text) {
  PositionAnswer a;
  a.position = p;
  std::string missing;
  const auto v = probe(p, missing);
  if (!v) throw GonuError(missing_text(missing));
  a.value = game_value(v->result);
  a.dist = a.value == gonu::Value::draw ? 0 : std::uint16_t(v->dist);
  for (const Move& m : legal_moves(r, p)) a.moves.push_back(move_value(r, probe, p, m));
  a.order = rank(a.moves);
  if (outcome(r, p, &a.end) == Outcome::ongoing) a.end.clear();
  return a;
}

// The first move of p, in move order, whose value is p's own (value v, distance d for p's side to
// move): the best move (best_first keeps move order among equals). nullopt if no move known
// reaches it, with `missing` naming a table an unknown move needs.
std::optional<Move> best_move(const Rules& r, const Probe& probe, const Position& p, gonu::Value v, std::uint16_t d, std::string& missing) {
  for (const Move& m : legal_moves(r, p)) {
    const MoveValue mv = move_value(r, probe, p, m);
    if (!mv.known) {
      if (missing.empty()) missing = mv.unknown_material;
      continue;
    }
    if (mv.value == v && mv.dist == d) return m;
  }
  return std::nullopt;
}

// Best play from a decided position to its end, one best move a ply (best_move: only the moves up
// to the best are valued), while the tables at hand give one; pv_end says why it stops short.
void principal_variation(const Rules& r, const Probe& probe, PositionAnswer& a) {
  if (a.value == gonu::Value::draw) return;
  Position p = a.position;
  gonu::Value v = a.value;
  std::uint16_t d = a.dist;
  while (d > 0) {
    std::string missing;
    const auto m = best_move(r, probe, p, v, d, missing);
    if (!m) {
      if (missing.empty()) throw GonuError("no move of " + format_position(p) + " reaches its value " + value_text(v, d) + " (a table is damaged)");
      a.pv_end = "the best line leaves the tables at hand here: it needs the table of " + missing;
      return;
    }
    a.pv.push_back(format_move(r, p, *m));
    p = apply_move(p, *m);
    v = mover_value(v);
    --d;
    if (p.royal[0] < 0 || p.royal[1] < 0) return;
  }
}

}  // namespace

gonu::Value game_value(Result r) {
  return r == Result::win ? gonu::Value::win : r == Result::loss ? gonu::Value::loss : gonu::Value::draw;
}

bool TableFamily::ensure(const Material& wanted) const {
  const Material m = canonical(wanted);  // a material's positions are read from its kept flip
  if (set.find(m)) return true;
  if (std::find(absent.begin(), absent.end(), m) != absent.end()) return false;
  const std::string path = dir + "/" + table_file_name(m, file.rules());
  if (!is_jungi_table_file(path)) {
    absent.push_back(m);
    return false;
  }
  const TableFile t = TableFile::open(path, file.rules());
  if (t.material() != m) throw GonuError(path + ": a table of " + t.header().material_text + ", not " + material_text(m));
  // A question reads a few of its positions, and so does a verification of the table its moves
  // come from (its captures and promotions; every 1000th placement's, as a rule).
  set.adopt(t.load_stored());
  return true;
}

TableFamily open_family(const std::string& path, bool check) {
  TableFile file = TableFile::open(path);
  const Rules r = file.rules();
  TableFamily f{std::move(file), directory_of(path), TableSet(r), {}, {}};
  if (check) f.check.emplace();
  f.set.adopt(f.check ? f.file.load(&*f.check) : f.file.load_stored());
  return f;
}

bool is_best(const PositionAnswer& a, const MoveValue& m) { return m.known && m.value == a.value && m.dist == a.dist; }

namespace {

// The family's probe (its lock held by the caller).
Probe family_probe(const TableFamily& f) {
  return [&f](const Position& c, std::string& missing) { return probe_family(f, c, missing); };
}

}  // namespace

MoveValue value_move(const TableFamily& f, const Position& p, const Move& m) {
  std::lock_guard<std::mutex> hold(*f.lock);
  return move_value(f.file.rules(), family_probe(f), p, m);
}

PositionAnswer answer_position(const Rules& r, const Probe& probe, const Position& p, bool with_pv, const MissingText& missing_text) {
  PositionAnswer a = answer_moves(r, probe, p, missing_text);
  if (with_pv) principal_variation(r, probe, a);
  return a;
}

PositionAnswer query_position(const TableFamily& f, const Position& p, bool with_pv, bool any_material) {
  if (p.royal[0] < 0 || p.royal[1] < 0) throw GonuError("a position needs both royals for a table");
  if (!any_material && canonical(material_of(p)) != f.file.material())
    throw GonuError("the position is of " + material_text(material_of(p)) + ", the table of " + f.file.header().material_text +
                    " (and of its colour flip)");
  if (p.first_move)
    throw GonuError("the tables hold no first-move rights (the position's fourth field): write the position without it");
  std::lock_guard<std::mutex> hold(*f.lock);
  const auto missing_text = [&](const std::string& m) {
    return "the value of " + format_position(p) + " needs the table of " + m + ", not in " + f.dir;
  };
  return answer_position(f.file.rules(), family_probe(f), p, with_pv, missing_text);
}

namespace {

// The value a position's successors give it (the generator's rule: the shortest win, else a
// draw, else the longest loss; no move: outcome()).
std::optional<Value> derived(const TableFamily& f, const Position& p, std::string& missing) {
  const std::vector<Move> moves = legal_moves(f.file.rules(), p);
  if (moves.empty()) return outcome(f.file.rules(), p) == Outcome::draw ? Value{Result::draw, 0} : Value{Result::loss, 0};
  int win = INT_MAX, loss = -1;
  bool draw = false;
  for (const Move& m : moves) {
    const auto v = probe_family(f, apply_move(p, m), missing);
    if (!v) return std::nullopt;
    if (v->result == Result::loss) win = std::min(win, v->dist + 1);
    else if (v->result == Result::win) loss = std::max(loss, v->dist + 1);
    else draw = true;
  }
  if (win != INT_MAX) return Value{Result::win, win};
  if (!draw) return Value{Result::loss, loss};
  return Value{Result::draw, 0};
}

// Every statistic the header states about the table, against what the load's pass found: the
// counts (of the whole board from format 5, of the valid indices before), the longest win, its
// first index, and the longest loss. "" if they agree, else the first that does not, in one line.
std::string header_stats_error(const TableFileHeader& h, const LoadCheck& c) {
  const bool board = h.counts_whole_board();
  const bool counts = board ? c.board_positions == h.positions && c.board_wins == h.wins && c.board_losses == h.losses && c.board_draws == h.draws
                            : c.positions == h.positions && c.wins == h.wins && c.losses == h.losses && c.draws == h.draws;
  if (!counts) return "the header's counts are not the table's";
  if (c.longest_win != h.longest_win)
    return "the header's longest win (" + std::to_string(h.longest_win) + " plies) is not the table's (" + std::to_string(c.longest_win) + ")";
  if (c.longest_win >= 0 && c.longest_win_index != h.longest_win_index)
    return "the header's longest win is at index " + std::to_string(h.longest_win_index) + ", the table's first at " +
           std::to_string(c.longest_win_index);
  if (c.longest_loss != h.longest_loss)
    return "the header's longest loss (" + std::to_string(h.longest_loss) + " plies) is not the table's (" + std::to_string(c.longest_loss) + ")";
  return "";
}

}  // namespace

FamilyVerifyResult verify_family(const TableFamily& f, std::uint64_t every, const ProgressFn& progress) {
  FamilyVerifyResult r;
  const TableFileHeader& h = f.file.header();
  if (!f.file.payload_checksum_ok()) return {false, "payload checksum mismatch", 0, {}, {}, {}};
  LoadCheck check;
  if (f.check) {
    check = *f.check;
  } else {  // its table was read as stored: read whole, with the check, for t.value below
    f.set.release(f.file.material());
    f.set.adopt(f.file.load(&check));
  }
  if (!check.dont_care_error.empty()) return {false, check.dont_care_error, 0, {}, {}, {}};
  // Every table one move leads to must be there. Those further away (a move's capture of what
  // passed by, an Emperor's two captures) are read now where present: the parallel loop below
  // then only reads the family, and names an absent one where a position needs it.
  for (const Material& x : next_materials(f.file.material()))
    if (!f.ensure(x)) return {false, "needs the table of " + material_text(x) + ", not in " + f.dir, 0, {}, {}, {}};
  for (const Material& x : material_closure(f.file.material())) f.ensure(x);
  const Table& t = *f.set.find(f.file.material());
  // The counts are the load's; every `every`-th placement (both sides to move) is re-derived.
  r.positions = check.positions, r.wins = check.wins, r.losses = check.losses, r.draws = check.draws;
  const std::uint64_t placements = (h.indices + 1) / 2, sampled = (placements + every - 1) / every;
  constexpr std::uint64_t kChunk = 4096;
  const std::uint64_t chunks = (sampled + kChunk - 1) / kChunk;
  std::vector<FamilyVerifyResult> parts(chunks);
  std::atomic<std::uint64_t> done{0};
  const std::string phase = "verify " + h.material_text;
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    FamilyVerifyResult& part = parts[c];
    if (progress) progress(phase.c_str(), done.fetch_add(kChunk) , sampled);
    Position p;
    for (std::uint64_t k = c * kChunk; k < std::min(sampled, (c + 1) * kChunk) && part.ok; ++k) {
      for (std::uint64_t i = 2 * k * every; i < std::min(h.indices, 2 * k * every + 2) && part.ok; ++i) {
        if (!t.indexer.decode(i, p)) break;
        const Value stored = t.value(i);
        ++part.derived;
        std::string missing;
        const auto want = derived(f, p, missing);
        if (!want || !(*want == stored))
          part = {false, "index " + std::to_string(i) + " (" + format_position(p) + "): stored " + value_text(stored) + ", its moves give " +
                             (want ? value_text(*want) : "nothing (the table of " + missing + " is absent)"), 0, {}, {}, {}};
      }
    }
  });
  for (const FamilyVerifyResult& part : parts) {
    if (!part.ok) return part;
    r.derived += part.derived;
  }
  const std::string header_error = header_stats_error(h, check);
  if (!header_error.empty()) return {false, header_error, r.positions, r.wins, r.losses, r.draws};
  return r;
}

bool verify_families(const std::vector<std::string>& paths, std::uint64_t every, std::uint64_t max_bytes,
                     const std::function<void(const TableFamily&, const FamilyVerifyResult&)>& done, const ProgressFn& progress) {
  std::optional<TableSet> held;
  std::string held_dir;
  for (const std::string& path : paths) {
    TableFile file = TableFile::open(path);
    const std::string dir = directory_of(path);
    TableSet set = held && held_dir == dir && held->rules() == file.rules() ? std::move(*held) : TableSet(file.rules());
    held.reset();
    const Material m = file.material();
    if (set.held_bytes() > max_bytes) {
      const std::vector<Material> reads = kept_closure(m);
      for (const Material& x : set.held())
        if (std::find(reads.begin(), reads.end(), x) == reads.end()) set.release(x);
    }
    set.release(m);  // read again, with the check
    TableFamily f{std::move(file), dir, std::move(set), {}, LoadCheck{}};
    f.set.adopt(f.file.load(&*f.check));
    const FamilyVerifyResult r = verify_family(f, every, progress);
    done(f, r);
    if (!r.ok) return false;
    held.emplace(std::move(f.set));
    held_dir = dir;
  }
  return true;
}

}  // namespace gonu::jungi
