// Depth-first proof-number search (df-pn) over the full superko history (SUPERKO.md, "df-pn").
//
// A node is (state, boards since the last capture): a capture starts a new segment whose value is a
// function of its first state alone (F2), so a capture child is solved once per state (canonical,
// see Symmetry) and kept for the run.
// Symmetry (option `symmetry`): the board's symmetries and the colour swap (colours and side to move
// exchanged, ranks mirrored) send games to games, so a fresh entry is searched as its canonical
// image (the least key among its images in the ban-free solution), and a conditional proof is kept
// as its canonical image (the least key among all its images) with its boards mapped alike: a node
// reads it through its own map, its visited set kept in every image (Segment::images). Sound
// because a proof and its image are the same fact about isomorphic games (SUPERKO.md, F12).
// Leaves: a side with at most one piece; a capture onto a state whose fresh value is known (the
// layers' attractors, proven entries, or this search's own); a ban-free decided state under F3's
// distance condition. Negamax numbers: pn proves "the side to move wins", dn "it loses";
// pn = min over the children's dn, dn = sum of the children's pn.
// Transpositions, GHI-correct (the rule and its proof: SUPERKO.md, F12): a proven value is kept with
// what its proof relied on (F5's boards that must be unvisited, boards that must be visited, the
// largest ban-free distance of a leaf used) and reused only under a history that meets them; a proof
// relying on more than `max_relevant_boards` boards is kept for its exact visited set only. Unproven
// numbers are keyed by (state, hash of the visited set): never shared across histories. The table is
// bounded: when full, the unproven entries and conditional proofs of least work are dropped.
// Sources (DfpnSource): every decided entry records whether it was proven by this process from the
// rules and proven entries alone, read from a proofs file (dfpn_table.hpp: a checksum is no proof,
// so a fact read is a hint until proven again), or derived by a proof that used a read or derived
// entry. A proof is `proven` only if every entry it uses is (a win prefers a proven winning child),
// and an outcome says which its value is: a value that rests on the file is given out only once
// the certificate's walk, which proves every node again down to the rules' leaves, has finished.
// A proof is written by walking the table: certificate format 1 (write_certificate) or a proof
// graph, format 8 (dfpn_certificate.hpp); after the rounds, from the main search's merged table.
// One DfpnSearch is single-threaded and deterministic (children in generate_moves order, ties to
// the first).
// Threads (solve_rounds, solve_entries; as many as TBB allows, i.e. gonu's --threads): work is cut
// into jobs, each job an ordinary df-pn search with a private table that reads the main search's
// table as a frozen base; when every job of a round is done, their decided entries are added to
// the main table in job order. Why not one table locked per shard and written by all threads at
// once: what a thread stores would then depend on timing, so the node counts, the saved proofs
// file and, under a node budget, even which values are decided would vary from run to run. Here
// the jobs of a round and their budgets are a function of the main table at the round's start, a
// job sees only that table and its own, and the merge is in job order: the values, the tables,
// the node counts and the saved file are the same for any thread count (a time budget aside). The
// shared table needs no lock: nobody writes the base while jobs read it. Sound because a decided
// entry is a fact under its stated condition (F12) whichever search found it; the main search
// decides the root itself over the merged table, as it would over a loaded proofs file.
// The layer pass: the classes in rounds of `round_classes`, one job per class. The root
// (solve_rounds): the main search runs `round_nodes` expansions, then the jobs are the unproven
// replies to its most proving move (all of which its proof needs; else the root's unproven moves),
// at most `round_jobs`, sharing `round_nodes` (so that, were none of their proofs used, the rounds
// would cost twice the main's own expansions); the budget doubles every round.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/key_set.hpp"
#include "solver/julgonu/superko/layers.hpp"
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

// A proof the search cannot complete because a decided entry it holds is false (a node proven won
// with no losing child, ...): an internal error, unless entries were read from a proofs file
// (dfpn_table.hpp), which can hold anything whose checksum is right: then the file's fault.
struct DfpnContradiction : GonuError {
  using GonuError::GonuError;
};

// Where a decided entry comes from (see the head): a search's proofs are `proven` only when
// nothing below them was read from a file; `read` and `derived` entries are hints until a walk
// proves them again.
enum class DfpnSource : std::uint8_t { proven, read, derived };

struct DfpnOptions {
  std::uint64_t max_nodes = 0;                 // per solve call (nodes = expansions); 0: none
  double max_seconds = 0;                      // per solve call, checked every 1,024 expansions; 0: none
  std::size_t max_table_entries = std::size_t(1) << 22;  // exact + conditional entries before collection
  std::size_t max_relevant_boards = 96;        // larger proofs are kept for their exact visited set only
  bool relevance = true;                       // conditional proofs shared across histories
  bool banfree_leaves = true;                  // F3 leaves
  bool symmetry = true;  // fresh entries searched as their canonical image (off for a certificate: it
                         // names the positions the game reaches)
  bool symmetric_proofs = true;  // with symmetry: conditional proofs kept as their canonical image
  bool mobility = false;  // an unsearched child's dn starts at its mover's move count (measured: decides fewer)
  // The exact subset search (SUPERKO.md F13) where a node's region (the boards it can still reach
  // without a capture) holds at most subset_boards boards (0: off; at most 58), within subset_nodes
  // (board, subset) pairs a node.
  std::size_t subset_boards = 0;
  std::size_t subset_nodes = std::size_t(1) << 16;
  double checkpoint_seconds = 60;  // between calls of the checkpoint (set_checkpoint)
  // Parallel rounds (the head): fixed, never the thread count, so that results do not depend on it.
  std::uint64_t round_nodes = 4096;  // solve_rounds: the first round's budget, the main's and each job's
  std::size_t round_jobs = 8;        // solve_rounds: jobs a round at most
  std::size_t round_classes = 16;    // dfpn_entry_layer: classes a round
};

struct DfpnOutcome {
  SkValue value = SkValue::unknown;
  std::uint64_t nodes = 0;  // expansions spent by this call
  std::string stop;         // unknown: "node budget" or "time budget"
  DfpnSource source = DfpnSource::proven;  // decided: what its value rests on
};

struct DfpnStats {
  std::uint64_t nodes = 0;        // expansions in all
  std::uint64_t exact = 0;        // entries keyed by (state, visited set), unproven or proven
  std::uint64_t conditional = 0;  // proofs kept with their history condition
  std::uint64_t entries = 0;      // fresh-entry values proven (capture targets, roots without history)
  std::uint64_t collections = 0;  // times the table was full and its light entries dropped
  std::uint64_t hits = 0;         // conditional proofs found by a look-up (their condition met)
  std::uint64_t image_hits = 0;   // of them, read through the node's image under a symmetry or the colour swap
  std::uint64_t subset_solved = 0;  // nodes decided by the exact subset search
  std::uint64_t subset_nodes = 0;   // the (board, subset) pairs it searched, decided or not
};

class DfpnSearch {
 public:
  static constexpr std::uint64_t kInfinite = std::uint64_t(1) << 40;  // pn or dn of a decided node

  // `fresh` (may be null): the layers' attractors and proven entry values, read at capture edges.
  DfpnSearch(const BanFreeOracle& oracle, const FreshValues* fresh, const DfpnOptions& options);

  // The value of the game's current state with its boards since the last capture (on a thread with
  // a large stack). Unknown when the node budget ran out; the tables keep what was proven.
  DfpnOutcome solve(const Game& g);
  // The value of p entered fresh (by a capture, or as a root with no history).
  DfpnOutcome solve_entry(const Position& p);
  // solve(g) by rounds of parallel jobs (the head): the same value; nodes counts the jobs' too;
  // max_nodes and max_seconds bound the whole call.
  DfpnOutcome solve_rounds(const Game& g);
  // solve_entry of each root, in parallel, each within max_nodes, against this search's table;
  // then their proofs added to it in the roots' order (the head).
  std::vector<DfpnOutcome> solve_entries(const std::vector<Position>& roots);

  // Format 1 (SUPERKO.md) for the value `value` that solve(g) proved, walked through the table
  // (what it forgot is proven again, within the node budget): the winner's proven move, every move
  // of the loser, ban-free leaves (B, with the table), captures as sections. Needs a search without
  // fresh values (`fresh` null: its leaves are then F3's alone) and with symmetry off.
  CertificateText write_certificate(const Game& g, SkValue value, std::uint64_t max_nodes);

  // Runs f on a thread with a large stack with `history` (the boards since the last capture, the
  // node last) as the current segment and a fresh node budget for what f proves again through the
  // table: a proof's writer (dfpn_certificate.hpp). The budget's reason if it ran out, else empty.
  std::string walk(const std::vector<Position>& history, const std::function<void()>& f);

  DfpnStats stats() const;

  // The table's decided entries (never unproven numbers), each with the condition it holds under:
  // fresh entries (by key), conditional proofs, proofs kept for one exact visited set (by its hash).
  struct Proofs;
  Proofs proofs() const;
  // Adds decided entries (from proofs() of a search on the same rules, or a file's): facts under
  // their conditions, used as if this search had found them, each keeping its source; a proven
  // entry is never replaced by one of another source.
  void add_proofs(const Proofs& p);
  void set_max_nodes(std::uint64_t n) { options_.max_nodes = n; }
  void set_max_seconds(double s) { options_.max_seconds = s; }
  // Called during a search every checkpoint_seconds (checked every 1,024 expansions), e.g. to save
  // its proofs (dfpn_table.hpp): the tables hold only what is stored whole at that point.
  void set_checkpoint(std::function<void()> f);

  // One proof's reliance (SUPERKO.md, F5), relative to the node's own segment.
  struct Deps {
    std::vector<Key> unvisited, visited;
    int threshold = -1;  // largest ban-free distance of a non-capture F3 leaf used
    bool overflow = false;  // too large: valid for the exact visited set only
  };

 private:
  friend class DfpnProofBuilder;  // writes the proof graph (dfpn_certificate.cpp) from the table
  enum class Kind : std::uint8_t { leaf, capture, inner };
  struct Child {
    Move move;
    Position pos;
    Key key;        // inner: the board's key; capture: the canonical image's key
    Kind kind;
    bool captured;
    SkValue leaf;   // leaf: its value for its side to move
    std::uint16_t bfd;  // ban-free distance (leaf threshold), kNoDist for draws
    Position canon;     // capture: the canonical image searched
    Key ckey;           // inner, proofs shared under the symmetries: the key of its canonical image
    std::uint8_t sym;   // ... and the variant that maps it there (0: the identity)
    std::uint32_t replies;  // unsearched: its initial dn (its mover's moves, the one back excluded)
  };
  struct Numbers {
    std::uint64_t pn = 1, dn = 1;
    const Deps* deps = nullptr;  // proven: what it relied on (null: nothing)
    std::uint8_t sym = 0;        // deps are of the child's image under this variant (0: its own)
    DfpnSource source = DfpnSource::proven;  // proven: where the entry read comes from
  };
  struct Segment {
    KeySet keys;
    std::uint64_t hash = 0;
    std::vector<std::uint16_t> pmin;
    std::vector<KeySet> images;  // images[v - 1]: the keys' images under variant v
  };
  struct Exact {
    std::uint64_t pn, dn, work;
    DfpnSource source = DfpnSource::proven;  // of a decided one
  };
  struct Conditional {
    Deps deps;
    SkValue value;
    std::uint64_t work;
    DfpnSource source;
  };
  struct Fresh {  // a fresh entry's value
    SkValue value;
    DfpnSource source;
  };
  struct PairHash {
    std::size_t operator()(const std::pair<Key, std::uint64_t>& t) const {
      return t.first * 0x9E3779B97F4A7C15ull ^ t.second;
    }
  };

  struct PnDn {
    std::uint64_t pn, dn;
    DfpnSource source = DfpnSource::proven;  // decided: what its proof rests on
  };
  DfpnOutcome run_root(const Position& p, Key k, std::uint64_t nodes_before);
  // The search of the segment `boards` (the last one the node): solve_entry when it is one board.
  DfpnOutcome solve_boards(const std::vector<Position>& boards);
  // The jobs' segments for a round of solve_rounds (see the head).
  std::vector<std::vector<Position>> frontier(const std::vector<Position>& boards);
  // Each segment searched by its own DfpnSearch over this one's table (options: the jobs'), in
  // parallel; their proofs and counts then added here in order.
  std::vector<DfpnOutcome> run_jobs(const std::vector<std::vector<Position>>& jobs, const DfpnOptions& options);
  void maybe_checkpoint();
  // This table's entry, else the base's (a job reads the main search's table).
  const Fresh* find_entry(Key k) const;
  const Exact* find_exact(Key k, std::uint64_t hash) const;
  PnDn mid(const Position& p, Key k, std::uint64_t thpn, std::uint64_t thdn);
  // The legal children of p (top of the current segment), classified; `excluded` gets the targets
  // of non-capturing moves barred by superko.
  std::vector<Child> children(const Position& p, std::vector<Key>& excluded);
  Numbers lookup(const Child& c);
  std::uint32_t initial_dn(const Child& c) const;
  const Conditional* conditional_hit(const Child& c, std::uint16_t pmin_child);
  void recurse(const Child& c, std::uint64_t thpn, std::uint64_t thdn);
  // The proof's reliance once p is decided, from its children's (F5's bottom-up rule), and in
  // `source` what the children it uses rest on.
  Deps proof_deps(Key k, const std::vector<Child>& kids, const std::vector<Numbers>& nums,
                  const std::vector<Key>& excluded, bool win, DfpnSource& source);
  void store(const Position& p, Key k, PnDn r, std::uint64_t work, Deps&& d);
  // Variants (symmetry, then the colour swap): 0 the identity; variants_ is 1 unless proofs are
  // shared under them.
  Position apply_variant(int v, const Position& p) const;
  Key map_key(int v, Key k) const;
  std::pair<Key, int> canonical_key(const Position& p) const;  // least key among p's images, its variant
  void map_deps(int v, Deps& d) const;
  void collect();
  void push(const Child& c);
  void pop(const Child& c);
  void enter_segment(const std::vector<Position>& boards);
  std::uint16_t pmin_top() const;
  Position canonical(const Position& p) const;
  SkValue fresh_value(Key k) const;
  void tick();
  void start_budget();  // the node and time budgets of one call start now
  struct Walk;
  std::uint32_t write_node(const Position& p, Walk& w, std::string& out);
  void write_child(const Child& c, Walk& w, std::string& out, std::uint32_t& depth);
  Numbers ensure(const Child& c);
  // The exact subset search (dfpn_subset.cpp): the node's value when its region is small, stored.
  struct Region;
  std::optional<PnDn> subset_solve(const Position& p, Key k);
  bool region_of(const Position& p, Key k, Region& r) const;
  SkValue capture_value(const Position& q, Key kq, DfpnSource& source) const;

  const BanFreeOracle& oracle_;
  const FreshValues* fresh_;
  const DfpnSearch* base_ = nullptr;  // a job's: the main search, not written while the job runs
  DfpnOptions options_;
  Board board_;
  int symmetries_;
  int variants_ = 1;
  std::vector<std::uint8_t> inverse_;  // of each variant
  int chunks_ = 0;                      // bytes of a board's bit set
  std::vector<std::array<Bits, 256>> image_bytes_;  // [v * chunks_ + c][byte]: where byte c's squares go
  std::vector<Segment> segs_;
  std::unordered_map<std::pair<Key, std::uint64_t>, Exact, PairHash> exact_;
  std::unordered_map<Key, std::vector<Conditional>> conditional_;
  std::size_t conditional_count_ = 0;
  std::unordered_map<Key, Fresh> entries_;
  std::uint64_t nodes_ = 0, call_nodes_ = 0, collections_ = 0, hits_ = 0, image_hits_ = 0, subset_solved_ = 0, subset_nodes_ = 0;
  std::uint64_t limit_ = 0;
  std::chrono::steady_clock::time_point deadline_;  // of the current call, when max_seconds > 0
  std::function<void()> checkpoint_;
  std::chrono::steady_clock::time_point next_checkpoint_;
};

// The decided entries of a df-pn table, in a plain form (sorted: the same table gives the same list),
// each with its source: `read` unless a search's proofs() made it (a file keeps no sources: a
// forger could write any).
struct DfpnSearch::Proofs {
  struct Entry {
    Key key;
    SkValue value;
    DfpnSource source = DfpnSource::read;
  };
  struct Conditional {
    Key key;
    SkValue value;
    std::uint64_t work;
    Deps deps;
    DfpnSource source = DfpnSource::read;
  };
  struct Exact {
    Key key;
    std::uint64_t visited_hash;  // the hash of the segment's visited set (the node's board included)
    SkValue value;
    std::uint64_t work;
    DfpnSource source = DfpnSource::read;
  };
  std::vector<Entry> entries;
  std::vector<Conditional> conditional;
  std::vector<Exact> exact;

  // Drops the entries whose source `drop` is true of.
  template <class F>
  void erase_if_source(F drop) {
    const auto of = [&](const auto& e) { return drop(e.source); };
    std::erase_if(entries, of);
    std::erase_if(conditional, of);
    std::erase_if(exact, of);
  }
};

// The df-pn pass over one material layer's capture-entry states left open by the attractors: one
// search per symmetry class (its canonical state as a fresh root), the table shared across them:
// the classes in rounds of `round_classes`, searched in parallel, each round's proofs added in
// class order (the head), so the report does not depend on the thread count. With max_seconds, the
// pass's time budget: each round gets what is left, and no round starts after it ran out (then the
// report depends on the time, and says so in `stop`). A class whose value rests on a proofs file's
// facts (DfpnSource) is not counted proven: it is kept apart, open, until a walk proves it again.
struct DfpnLayerReport {
  struct Class {
    Position pos;  // the canonical state
    SkValue value;
    std::uint64_t members;
  };
  int black = 0, white = 0;
  std::uint64_t capture_entry = 0;   // states of the layer that a capture of the solution enters
  std::uint64_t open = 0;            // of them, left open by the attractor
  std::uint64_t classes = 0;         // open states up to the board symmetries
  std::uint64_t win = 0, loss = 0;   // classes proven (for the side to move)
  std::uint64_t states_win = 0, states_loss = 0;  // states proven (every member of a proven class)
  std::uint64_t nodes = 0;           // expansions in all
  std::uint64_t max_class_nodes = 0; // the most a decided class took
  double seconds = 0;
  DfpnStats table;                   // at the end
  std::vector<std::pair<Position, SkValue>> decided;  // each decided class's canonical state and value
  std::vector<Class> unchecked;      // classes decided only through a file's facts (counted open)
  std::uint64_t certified = 0;       // with a certificate: of them, proven again and written (format 8)
  std::uint64_t classes_run = 0;     // classes whose search started (all, unless the time ran out)
  std::string stop;                  // "time budget" when it stopped a class or a round; else empty

  // Counts class c proven (won or lost, its members, the decided list).
  void add_decided(const Class& c);
};

class DfpnTableFile;
// `table` (may be null): the proofs file the search loads, checkpoints to and is saved to at its end
// (`save_at_end` false: only kept for the next search attached, written by the caller later).
DfpnLayerReport dfpn_entry_layer(const BanFreeOracle& oracle, const FreshValues& fresh, int black, int white,
                                 const DfpnOptions& options, const DfpnTableFile* table = nullptr,
                                 bool save_at_end = true);

}  // namespace gonu
