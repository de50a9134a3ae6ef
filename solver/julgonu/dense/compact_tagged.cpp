// The compact engine for the tagged rule sets (repetition immediate, undo): the dense tagged
// engine's phases (tagged_space.hpp) over CompactStore, so that its memory is per reachable state
// rather than per tag slot (on 5x4 only one slot in forty is ever reached):
//   RankedBits over the slots (1.14 bits a slot), the slot bases and list marks (12 bytes a board
//   id), CompactCells (3 bytes a reached state) and the level lists.
// The phases:
//   1. reach, claiming in the bits (tagged_reach.cpp; a level's states listed by id, as there are
//      no cells yet: ranks are known only when the search is over), then the mirror images;
//   2. the bits' ranks finished, the cells allocated for the reached count, and a pass setting
//      each canonical reached state's successor count (count_successors);
//   3. retrograde (tagged_retrograde.cpp), cells by rank;
//   4. the result: the arrays as the dense engine fills them (tagged_readoff.cpp), or, when the
//      options ask for the compact form, a StateSource that owns the space, bits and cells and
//      reads states in key order from them (tagged_read.hpp).
// Memory is checked against the limit (SolveOptions::max_memory, else the machine's) before the
// bits are allocated, and again when the reach has counted the states, before the cells.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <memory>

#include "core/error.hpp"
#include "solver/julgonu/dense/dense_solve.hpp"
#include "solver/julgonu/dense/tagged_count.hpp"
#include "solver/julgonu/dense/tagged_read.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"

namespace gonu {

namespace dense {

namespace {

constexpr std::uint64_t kBlock = 1 << 14;  // boards per task of the passes over every board

// The solved set in the engine's own form: owns the key codec (whose board the space refers
// to), the space and the store. States are numbered by rank, which is key order.
class CompactTaggedSource final : public StateSource {
 public:
  CompactTaggedSource(const KeyCodec& c, const Position& root, std::uint32_t root_code)
      : codec(c), space(codec.board, root, root_code), store(0) {}
  CompactTaggedSource(const CompactTaggedSource&) = delete;
  CompactTaggedSource& operator=(const CompactTaggedSource&) = delete;

  // The boards of the first and the last state, walked in order, each read within [lo, hi)'s ids.
  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    if (lo >= hi) return;
    const std::uint64_t first = store.reached.select(lo), last = store.reached.select(hi - 1);
    std::size_t at = 0;
    space.walk(space.board_of(first), space.board_of(last) + 1, [&](std::uint64_t bid, const Position& p) {
      read_board(space, store, codec, bid, p, first, last + 1, [&](Key k, Value v, std::uint16_t d) {
        keys[at] = k;
        value[at] = v;
        dist[at] = d;
        ++at;
      });
    });
  }

  // The key's board and tag turned into a slot, every part checked (a key of no state of the
  // space, or a tag not in normal form for its board, is simply not found).
  std::optional<std::uint64_t> find(Key k) const override {
    const Key tag_mask = (Key(1) << codec.tag_bits) - 1;
    Position p;
    Tag none;
    decode_key(codec, k & ~tag_mask, p, none);
    if ((p.black | p.white) & ~codec.board.all || (p.black & p.white) || !space.inside(p) ||
        encode_board_side(codec, p) != k >> codec.tag_bits)
      return std::nullopt;
    const std::uint32_t code = std::uint32_t(k & tag_mask);
    const BoardSteps steps(codec.board, p);
    std::uint32_t mi = 0, ti = 0;
    if (!step_index(steps.mine, steps.a, code & 511u, mi) || !step_index(steps.theirs, steps.c, (code >> 9) & 511u, ti))
      return std::nullopt;
    const std::uint64_t id =
        space.base(space.board_id(p)) + (std::uint64_t(code >> 18) * (steps.c + 1) + ti) * (steps.a + 1) + mi;
    if (!store.reached.test(id)) return std::nullopt;
    return store.reached.rank(id);
  }

  KeyCodec codec;
  TaggedSpace space;
  CompactStore store;

 private:
  // A step code's index in a board's ascending list, 1-based (0: no step); false if not listed.
  static bool step_index(const std::uint32_t* steps, std::uint32_t n, std::uint32_t code, std::uint32_t& index) {
    if (!code) return (index = 0, true);
    const std::uint32_t* at = std::lower_bound(steps, steps + n, code);
    if (at == steps + n || *at != code) return false;
    index = std::uint32_t(at - steps) + 1;
    return true;
  }
};

std::size_t memory_limit(const SolveOptions& options) {
  return options.max_memory ? std::size_t(options.max_memory) : physical_memory();
}

// The bytes held through the reach (the bits, slot bases and list marks), refused before any is
// allocated if over the limit.
std::size_t reach_need(const TaggedSpace& space, std::size_t limit) {
  const std::size_t need = RankedBits::bytes_for(space.size()) + space.bytes() + space.board_ids() * 4;
  if (limit && need > limit)
    throw GonuError("the compact space of this root has " + std::to_string(space.size()) + " tag slots and needs " +
                    std::to_string(need >> 20) + " MiB for its bitmap and board tables, more than the limit's " +
                    std::to_string(limit >> 20) + " MiB");
  return need;
}

// The bytes of the reached states' cells; refused if they, and the arrays if asked for, do not
// fit beside `need`.
std::size_t cells_need(std::uint64_t states, std::size_t need, bool arrays, std::size_t limit) {
  const std::size_t cells = CompactCells::bytes_for(states), more = cells + (arrays ? std::size_t(states) * 11 : 0);
  if (limit && need + more > limit)
    throw GonuError(std::to_string(states) + " reached states need " + std::to_string(more >> 20) + " MiB (" +
                    (arrays ? "3 bytes a state for the cells, 11 for the result" : "3 bytes a state for the cells") +
                    ") beside the solver's " + std::to_string(need >> 20) + " MiB, more than the limit's " +
                    std::to_string(limit >> 20) + " MiB");
  return cells;
}

// The counts of the compact form (every state, mirror images included), from the source itself.
void count_source(Solution& s, const CompactTaggedSource& src) {
  struct Counts {
    std::uint64_t by_value[3] = {0, 0, 0};
    std::uint16_t max_dist = 0;
  };
  tbb::enumerable_thread_specific<Counts> parts;
  const std::uint64_t boards = src.space.board_ids(), blocks = (boards + kBlock - 1) / kBlock;
  tbb::parallel_for(std::uint64_t(0), blocks, [&](std::uint64_t blk) {
    Counts& c = parts.local();
    src.space.walk(blk * kBlock, std::min(boards, (blk + 1) * kBlock), [&](std::uint64_t bid, const Position& p) {
      read_board(src.space, src.store, src.codec, bid, p, 0, src.space.size(), [&](Key, Value v, std::uint16_t d) {
        ++c.by_value[std::uint8_t(v)];
        c.max_dist = std::max(c.max_dist, d);
      });
    });
  });
  for (const Counts& c : parts) {
    s.draws += c.by_value[std::uint8_t(Value::draw)];
    s.wins += c.by_value[std::uint8_t(Value::win)];
    s.losses += c.by_value[std::uint8_t(Value::loss)];
    s.max_dist = std::max(s.max_dist, c.max_dist);
  }
}

}  // namespace

}  // namespace dense

// The phases (above): the checks, the reach, the cells, the retrograde, the result.
Solution solve_compact_tagged(const Game& from, const SolveOptions& options) {
  using namespace dense;
  Solution s;
  s.codec = make_key_codec(from.rules);
  if (!s.codec.tagged || !dense_engine_applies(from.rules))
    throw GonuError("the compact tagged engine solves only repetition immediate or undo, on up to 27 points");
  s.root = current(from);
  s.root_tag = from.tag;
  s.root_key = encode_key(s.codec, s.root, s.root_tag);
  const std::uint32_t root_code = pack_tag(s.codec.board, s.root_tag);
  const auto held = std::make_shared<CompactTaggedSource>(s.codec, s.root, root_code);
  TaggedSpace& space = held->space;
  CompactStore& store = held->store;
  const std::size_t limit = memory_limit(options);
  const bool arrays = !options.compact_result;
  const std::size_t need = reach_need(space, limit);
  store.reached = RankedBits(space.size());
  space.index_slots();
  TaggedRunOf<CompactStore> t(s, options, space, store, root_code, need);
  t.state_bytes = double(CompactCells::bytes_for(1)) + (arrays ? 11.0 : 0.0);
  reach(t);
  if (space.mirroring()) mark_images(t);
  const std::uint64_t states = store.reached.finish();
  t.need += cells_need(states, need, arrays, limit);  // the arrays' bytes read_off adds
  store.cells = CompactCells(states);
  count_successors(t, 0, space.board_ids());
  retrograde(t);
  if (arrays) {
    read_off_tagged(t);
    return s;
  }
  s.states = states;
  count_source(s, *held);
  s.peak_bytes = t.need;
  s.source = held;
  return s;
}

}  // namespace gonu
