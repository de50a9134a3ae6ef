// Checks of what a table holds: keys read from a file well formed before they are decoded, and
// verify_table, the full check (payload checksum, keys, counts, every value re-derived), in its
// two ways (table.hpp): indexed, a block at a time with a bitmap index over the dense ids, and
// arrays, the whole table decoded (the plain reference). Both report the same first error.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "core/error.hpp"
#include "solver/julgonu/dense/board_rank.hpp"
#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/parts.hpp"
#include "solver/julgonu/dense/tagged_space.hpp"
#include "solver/julgonu/state/successors.hpp"
#include "solver/common/bits.hpp"
#include "solver/julgonu/table/table.hpp"
#include "solver/julgonu/verify.hpp"

namespace gonu {

bool tag_code_is_well_formed(const KeyCodec& c, std::uint64_t code) {
  if (code >> c.tag_bits) return false;
  for (int part = 0; part < 2; ++part) {
    const std::uint64_t v = (code >> (9 * part)) & 511u;
    if (v == 0) continue;
    const int to = int((v - 1) / 4), d = int((v - 1) % 4);
    if (to >= c.board.n || c.board.step[to][reverse_dir(d)] < 0) return false;
  }
  return pack_tag(c.board, unpack_tag(c.board, std::uint32_t(code))) == code;
}

bool key_is_well_formed(const KeyCodec& c, Key k) {
  const std::uint32_t code = std::uint32_t(k & ((Key(1) << c.tag_bits) - 1));
  k >>= c.tag_bits;
  const int B = c.board_bits;
  const Key board_part = k & ((Key(1) << B) - 1);
  unsigned __int128 p3 = 1;
  for (int i = 0; i < c.board.n; ++i) p3 *= 3;
  if (board_part >= p3) return false;
  if ((k >> B) > 1) return false;  // only the side bit above the board
  if (!c.tagged) return true;
  return tag_code_is_well_formed(c, code);
}

namespace {

using table_bits::get_bits;

// Blocks a task of the indexed passes takes: 16384 states.
constexpr std::uint64_t kChunkBlocks = 64;

TableVerifyResult failed(TableVerifyResult r, const std::string& why) {
  r.ok = false;
  r.first_error = why;
  return r;
}

// The header's counts against the states'; "" if they agree.
std::string count_mismatch(const TableVerifyResult& r, const TableHeader& h) {
  if (r.wins != h.wins || r.losses != h.losses || r.draws != h.draws)
    return "the header's win/loss/draw counts do not match the states";
  if (r.max_dist != h.max_dist) return "the header's largest distance does not match the states";
  return "";
}

void refuse_past_memory(const Table& t, std::uint64_t bytes, const std::string& what) {
  const std::uint64_t have = dense::physical_memory();
  if (have && bytes > have)
    throw GonuError("cannot verify " + t.path() + ": " + what + " need " + std::to_string(bytes >> 20) +
                    " MiB, more than this machine's " + std::to_string(have >> 20) + " MiB");
}

// ---- arrays: the whole table decoded, verify_values ----

std::uint64_t array_bytes(const TableHeader& h) { return h.states * (sizeof(Key) + sizeof(Value) + sizeof(std::uint16_t)); }

// Legal moves summed over the states (the header's edge count).
std::uint64_t count_edges(const KeyCodec& c, const std::vector<Key>& keys) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, keys.size(), 4096), std::uint64_t(0),
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t acc) {
        Successor succ[kMaxMoves];
        for (std::uint64_t i = range.begin(); i < range.end(); ++i) acc += std::uint64_t(expand_key(c, keys[i], succ));
        return acc;
      },
      [](std::uint64_t a, std::uint64_t b) { return a + b; });
}

TableVerifyResult verify_arrays(const Table& t, const ProgressFn& progress) {
  TableVerifyResult r;
  const TableHeader& h = t.header();
  refuse_past_memory(t, array_bytes(h), "its " + std::to_string(h.states) + " states decoded (11 bytes a state)");
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  t.decode_all(keys, value, dist, progress);
  const KeyCodec& c = t.codec();
  const std::uint64_t n = keys.size();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i > 0 && keys[i - 1] >= keys[i]) return failed(r, "state " + std::to_string(i) + ": keys are not strictly ascending");
    if (!key_is_well_formed(c, keys[i])) return failed(r, "state " + std::to_string(i) + ": malformed key");
    if (value[i] == Value::win) ++r.wins;
    else if (value[i] == Value::loss) ++r.losses;
    else ++r.draws;
    r.max_dist = std::max(r.max_dist, dist[i]);
  }
  r.states = n;
  if (const std::string why = count_mismatch(r, h); !why.empty()) return failed(r, why);
  if (!std::binary_search(keys.begin(), keys.end(), h.root_key)) return failed(r, "the root is not in the table");
  const VerifyResult v = verify_values(c, keys.data(), value.data(), dist.data(), n, progress);
  if (!v.ok) return failed(r, v.first_error);
  r.edges = count_edges(c, keys);
  if (r.edges != h.edges) return failed(r, "the header's edge count does not match the states' moves");
  return r;
}

// ---- indexed: a bitmap index over the dense ids, a block at a time ----

// The key -> state number map: the table's states' dense ids set in a RankedBits, whose rank of an
// id is then the state's number (ids follow key order in both spaces).
//   untagged: the id is the side, then the board's rank among the boards with at most the root's
//     pieces of each colour (SideBoardIds);
//   tagged: the id is the board's slot base plus the tag's slot on it (TaggedSpace, tag_slots.hpp),
//     so the bitmap has a bit per tag slot, reachable or not, and the slot bases 8 bytes a board
//     (5x4 encyclopedia: 4.8 billion slots and 33 million boards, 911 MiB, 3.6 bits a state of
//     its table).
// A key whose board has more pieces than the root's, or whose tag's steps are not steps of its
// board, has no id: the table is then one the ids cannot number (crafted), given to the arrays.
class StateIndex {
 public:
  StateIndex(const KeyCodec& c, const Position& root, std::uint32_t root_code)
      : c_(c), ids_(c.board.n, popcount(root.black), popcount(root.white)), bits_(0) {
    if (c.tagged) {
      space_.emplace(c.board, root, root_code);
      space_->index_slots();
    }
    bits_ = dense::RankedBits(c.tagged ? space_->size() : 2 * ids_.boards());
  }
  static std::uint64_t bytes_for(const KeyCodec& c, const Position& root, std::uint32_t root_code) {
    if (!c.tagged) {
      const BoardRank rank(c.board.n, popcount(root.black), popcount(root.white));
      return dense::RankedBits::bytes_for(2 * rank.size());
    }
    const dense::TaggedSpace space(c.board, root, root_code);  // sizes only
    return dense::RankedBits::bytes_for(space.size()) + space.bytes();
  }
  // The dense id of a well-formed key, or nothing if the ids cannot number it.
  std::optional<std::uint64_t> id(Key k) const {
    Position p;
    Tag t;
    decode_key(c_, k, p, t);
    if (!ids_.inside(p)) return std::nullopt;
    if (!space_) return ids_.id(p);
    const std::uint32_t code = std::uint32_t(k & ((Key(1) << c_.tag_bits) - 1));
    if (!steps_on_board(p, code)) return std::nullopt;
    return space_->base(space_->board_id(p)) + space_->slot(p, code);
  }
  // The ids of a state's successors, in expand_state's move order (a successor has no more
  // pieces than its state, so each has one); `moves` and `ids` hold kMaxMoves.
  int successors(Key k, Move* moves, std::uint64_t* ids) const {
    if (space_) {
      Successor succ[kMaxMoves];
      const int n = expand_key(c_, k, succ);
      for (int m = 0; m < n; ++m) moves[m] = succ[m].move, ids[m] = *id(succ[m].key);
      return n;
    }
    Position p, next[kMaxMoves];
    Tag tag;
    decode_key(c_, k, p, tag);
    const int n = expand_untagged(c_, p, moves, next);
    for (int m = 0; m < n; ++m) ids[m] = ids_.id(next[m]);
    return n;
  }
  dense::RankedBits& bits() { return bits_; }
  const dense::RankedBits& bits() const { return bits_; }

 private:
  // Whether the tag's mine step ends on a piece of the side to move and its theirs step on one of
  // the opponent's, each next to the empty point it came from: the steps tag_slot ranks.
  bool steps_on_board(const Position& p, std::uint32_t code) const {
    const Board& b = c_.board;
    const Bits empty = b.all & ~occupied(p);
    const auto is_step = [&](Bits pieces, std::uint32_t step) {
      if (step == 0) return true;
      const int to = int((step - 1) / 4), d = int((step - 1) % 4);
      return ((pieces & shift(b, empty, d)) >> to & 1) != 0;
    };
    return is_step(mover(p), code & 511u) && is_step(waiter(p), (code >> 9) & 511u);
  }

  const KeyCodec& c_;
  SideBoardIds ids_;
  std::optional<dense::TaggedSpace> space_;
  dense::RankedBits bits_;
};

// Whether the indexed way applies to the table: keys of a board BoardRank ranks.
bool indexable(const Table& t) { return t.board().n <= 32; }

// The root's tag code (the TaggedSpace's mirror test reads it; 0 for untagged tables).
std::uint32_t root_code(const Table& t) {
  return std::uint32_t(t.header().root_key & ((Key(1) << t.codec().tag_bits) - 1));
}

// One block decoded, into buffers of the header's block size.
struct BlockStates {
  std::vector<Key> keys;
  std::vector<Value> value;
  std::vector<std::uint16_t> dist;
  std::uint64_t first = 0, count = 0;
  void decode(const Table& t, std::uint64_t b) {
    const TableHeader& h = t.header();
    keys.assign(h.block_size, 0);
    value.assign(h.block_size, Value::draw);
    dist.assign(h.block_size, 0);
    first = b * h.block_size;
    count = std::min<std::uint64_t>(h.states - first, h.block_size);
    t.decode_block(b, keys.data(), value.data(), dist.data());
  }
};

// The lowest error of a parallel pass: by state number, then by the order of the checks at that
// state (`rank`), so the message is the one a serial pass would give first.
struct LowestError {
  std::mutex m;
  std::atomic<std::uint64_t> state{~std::uint64_t(0)};
  int rank = 0;
  std::string why;
  void offer(std::uint64_t i, int r, const std::string& what) {
    std::lock_guard<std::mutex> lock(m);
    if (i < state.load() || (i == state.load() && r < rank)) state.store(i), rank = r, why = what;
  }
  bool any() const { return state.load() != ~std::uint64_t(0); }
  // No error below state i has been found (states past a known error need no checking).
  bool before(std::uint64_t i) const { return i < state.load(std::memory_order_relaxed); }
};

struct IndexCounts {
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint16_t max_dist = 0;
  bool outside = false;  // a state the ids cannot number (StateIndex::id)
};

// Pass 1 on block b: decoded (a damaged block's error kept by its number), its states checked in
// order (keys ascending, within the block and into the next block's first key; well formed) and
// counted, and their ids set in the index.
void index_block(const Table& t, std::uint64_t b, BlockStates& blk, StateIndex& index, IndexCounts& counts,
                 LowestError& damaged, LowestError& wrong) {
  try {
    blk.decode(t, b);
  } catch (const GonuError& e) {
    damaged.offer(b, 0, e.what());
    return;
  }
  const KeyCodec& c = t.codec();
  for (std::uint64_t j = 0; j < blk.count; ++j) {
    const std::uint64_t i = blk.first + j;
    if (j > 0 && blk.keys[j - 1] >= blk.keys[j]) return wrong.offer(i, 0, "keys are not strictly ascending");
    if (!key_is_well_formed(c, blk.keys[j])) return wrong.offer(i, 1, "malformed key");
    if (blk.value[j] == Value::win) ++counts.wins;
    else if (blk.value[j] == Value::loss) ++counts.losses;
    else ++counts.draws;
    counts.max_dist = std::max(counts.max_dist, blk.dist[j]);
    if (const auto id = index.id(blk.keys[j])) index.bits().claim(*id);
    else counts.outside = true;
  }
  if (b + 1 < t.header().blocks && blk.keys[blk.count - 1] >= t.block_first_key(b + 1))
    wrong.offer(blk.first + blk.count, 0, "keys are not strictly ascending");
}

// Pass 1 over every block. Throws the lowest damaged block's GonuError (decode_all would have
// met it first); returns the counts, or the lowest state error in `wrong`.
IndexCounts index_states(const Table& t, StateIndex& index, LowestError& wrong, const ProgressFn& progress) {
  const TableHeader& h = t.header();
  tbb::enumerable_thread_specific<BlockStates> blocks;
  tbb::enumerable_thread_specific<IndexCounts> counts;
  LowestError damaged;
  std::atomic<std::uint64_t> done{0};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, h.blocks, kChunkBlocks), [&](const auto& r) {
    for (std::uint64_t b = r.begin(); b < r.end(); ++b)
      index_block(t, b, blocks.local(), index, counts.local(), damaged, wrong);
    const std::uint64_t d = done.fetch_add(r.size()) + r.size();
    if (progress && r.begin() % 4096 < r.size()) progress("decode", std::min(h.states, d * h.block_size), h.states);
  });
  if (damaged.any()) throw GonuError(damaged.why);
  IndexCounts all;
  for (const IndexCounts& x : counts) {
    all.wins += x.wins;
    all.losses += x.losses;
    all.draws += x.draws;
    all.max_dist = std::max(all.max_dist, x.max_dist);
    all.outside = all.outside || x.outside;
  }
  return all;
}

// A block's successors, looked up in three sweeps so that the memory reads of many overlap (the
// bitmap's lines, then the value codes, are prefetched a sweep ahead of their use): per state,
// its successors' ids, then their state numbers (kMissing if not in the table), then the values.
struct BlockSuccessors {
  static constexpr std::uint64_t kMissing = ~std::uint64_t(0);
  std::vector<std::uint64_t> number;  // by successor: its id, then its state number
  std::vector<std::uint32_t> start;   // state j's successors: [start[j], start[j + 1])
  Move moves[kMaxMoves];
  std::uint64_t ids[kMaxMoves];

  void look_up(const Table& t, const StateIndex& index, const BlockStates& blk) {
    number.clear();
    start.clear();
    for (std::uint64_t j = 0; j < blk.count; ++j) {
      start.push_back(std::uint32_t(number.size()));
      const int k = index.successors(blk.keys[j], moves, ids);
      for (int m = 0; m < k; ++m) {
        index.bits().prefetch(ids[m]);
        number.push_back(ids[m]);
      }
    }
    start.push_back(std::uint32_t(number.size()));
    const unsigned vb = t.header().value_bits;
    for (std::uint64_t& x : number) {
      x = index.bits().test(x) ? index.bits().rank(x) : kMissing;
      if (x != kMissing) __builtin_prefetch(t.value_codes() + x * vb / 8);
    }
  }

  // "" if state j's value is what its successors' values give, else what is wrong.
  std::string check(const Table& t, const StateIndex& index, const BlockStates& blk, std::uint64_t j) {
    const unsigned vb = t.header().value_bits;
    SuccessorRule rule;
    for (std::uint32_t m = start[j]; m < start[j + 1]; ++m) {
      if (number[m] == kMissing) return "successor after " + format_move(t.board(), t.rules(), move(index, blk, j, m - start[j])) + " is missing";
      const std::uint64_t code = get_bits(t.value_codes(), number[m] * vb, vb);
      if (code == 0) rule.add(Value::draw, 0);
      else rule.add((code - 1) % 2 ? Value::win : Value::loss, std::uint16_t((code - 1) / 2));
    }
    return rule.check(int(start[j + 1] - start[j]), blk.value[j], blk.dist[j]);
  }

  // State j's m-th move (expanded again: only for a message).
  Move move(const StateIndex& index, const BlockStates& blk, std::uint64_t j, std::uint32_t m) {
    index.successors(blk.keys[j], moves, ids);
    return moves[m];
  }
};

// Pass 2: every state's value re-derived (the lowest wrong state in `wrong`); the edge count.
std::uint64_t check_values(const Table& t, const StateIndex& index, LowestError& wrong, const ProgressFn& progress) {
  const TableHeader& h = t.header();
  tbb::enumerable_thread_specific<BlockStates> blocks;
  tbb::enumerable_thread_specific<BlockSuccessors> successors;
  tbb::enumerable_thread_specific<std::uint64_t> edges(0);
  std::atomic<std::uint64_t> done{0};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, h.blocks, kChunkBlocks), [&](const auto& r) {
    BlockStates& blk = blocks.local();
    BlockSuccessors& succ = successors.local();
    for (std::uint64_t b = r.begin(); b < r.end() && wrong.before(b * h.block_size); ++b) {
      blk.decode(t, b);  // pass 1 decoded it without error
      succ.look_up(t, index, blk);
      edges.local() += succ.number.size();
      for (std::uint64_t j = 0; j < blk.count && wrong.before(blk.first + j); ++j)
        if (const std::string why = succ.check(t, index, blk, j); !why.empty())
          wrong.offer(blk.first + j, 0, state_error(t.codec(), blk.first + j, blk.keys[j], why));
    }
    const std::uint64_t d = done.fetch_add(r.size()) + r.size();
    if (progress && r.begin() % 4096 < r.size()) progress("verify", std::min(h.states, d * h.block_size), h.states);
  });
  std::uint64_t total = 0;
  for (const std::uint64_t e : edges) total += e;
  return total;
}

TableVerifyResult verify_indexed(const Table& t, const ProgressFn& progress) {
  TableVerifyResult r;
  const TableHeader& h = t.header();
  refuse_past_memory(t, StateIndex::bytes_for(t.codec(), h.root, root_code(t)), "its index of the dense ids");
  StateIndex index(t.codec(), h.root, root_code(t));
  LowestError wrong;
  const IndexCounts c = index_states(t, index, wrong, progress);
  if (wrong.any()) return failed(r, "state " + std::to_string(wrong.state.load()) + ": " + wrong.why);
  if (c.outside) return verify_arrays(t, progress);  // a crafted table: states the ids cannot number
  r.states = h.states;
  r.wins = c.wins;
  r.losses = c.losses;
  r.draws = c.draws;
  r.max_dist = c.max_dist;
  if (const std::string why = count_mismatch(r, h); !why.empty()) return failed(r, why);
  const std::optional<std::uint64_t> root = index.id(h.root_key);
  if (!root || !index.bits().test(*root)) return failed(r, "the root is not in the table");
  index.bits().finish();
  const std::uint64_t edges = check_values(t, index, wrong, progress);
  if (wrong.any()) return failed(r, wrong.why);
  r.edges = edges;
  if (r.edges != h.edges) return failed(r, "the header's edge count does not match the states' moves");
  return r;
}

}  // namespace

TableVerifyResult verify_table(const Table& t, const ProgressFn& progress, TableVerifyMethod method) {
  if (!t.payload_checksum_ok()) return failed({}, "payload checksum mismatch (the file is damaged)");
  if (method == TableVerifyMethod::indexed && !indexable(t))
    throw GonuError("cannot verify " + t.path() + " by its dense ids: only tables of boards of up to 32 points");
  const bool indexed = method == TableVerifyMethod::indexed ||
                       (method == TableVerifyMethod::automatic && indexable(t) &&
                        StateIndex::bytes_for(t.codec(), t.header().root, root_code(t)) <= array_bytes(t.header()));
  const TableVerifyResult r = indexed ? verify_indexed(t, progress) : verify_arrays(t, progress);
  t.check_unchanged();  // the values read straight from the mapping may have been zeros since
  return r;
}

}  // namespace gonu
