// The superko search: depth-first negamax over (position, boards since the last capture), with
//   - capture-entry memo: a state entered by a capture has no earlier board that matters, so its
//     value is a function of the state: computed once, kept for the whole run;
//   - ban-free leaves: a ban-free decided state at distance d whose history since the last capture
//     holds no ban-free decided state at distance <= d keeps its ban-free value (SUPERKO.md, F3);
//   - a transposition table keyed by (state, hash of the visited set): the value is a function of
//     the state and the set of boards since the last capture, so equal keys give equal values;
//   - move ordering: children already decided first, then by their ban-free value.
// Budgets (nodes, seconds) abort the search with SearchAborted. Internal to the superko solver.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "solver/julgonu/superko/types.hpp"
#include "solver/julgonu/superko/banfree.hpp"

namespace gonu {

struct SearchAborted {
  std::string reason;
};

struct SkOutcome {
  SkValue value = SkValue::unknown;
  std::uint32_t depth = 0;
  std::int16_t best = -1;  // WIN: index of a winning child among the node's children
};

class SuperkoSearch {
 public:
  // How a child is valued.
  enum class Kind : std::uint8_t { leaf, capture, inner };
  struct Child {
    Move move;
    Position pos;
    Key key;
    Kind kind;
    Value bf;            // ban-free value of the child (for its side to move)
    std::uint16_t bfd;   // ban-free distance
  };

  SuperkoSearch(const Rules& rules, const BanFreeOracle& oracle, const SuperkoOptions& options);

  // Value of the game's current state with its boards since the last capture.
  SkOutcome solve(const Game& g);

  // Value of a state entered by a capture (no earlier board matters); memoized.
  SkOutcome entry_value(const Position& p, Key k);

  std::uint64_t nodes() const { return nodes_; }
  std::uint64_t table_entries() const { return table_.size() + relevant_count_; }
  std::uint64_t table_clears() const { return clears_; }
  const std::unordered_map<Key, SkOutcome>& memo() const { return memo_; }
  // Capture targets met: key -> 0 unknown, 1 proven by search, 2 decided by the ban-free value.
  const std::unordered_map<Key, std::uint8_t>& capture_targets() const { return targets_; }
  // Nodes by layer: index black * 65 + white.
  const std::unordered_map<int, std::uint64_t>& layer_nodes() const { return layer_nodes_; }

  // --- the walk used by the certificate writer (certificate.cpp) ---
  struct Frame;
  // Enter the root of a segment (a capture-entry state, or the game's current state with its
  // history); leave_segment undoes it.
  void enter_segment(const std::vector<Position>& boards);
  void leave_segment();
  // The legal children of p (the top of the current segment), classified.
  std::vector<Child> children(const Position& p);
  // The order the search tries children in (indices into kids).
  std::vector<int> order(const std::vector<Child>& kids) const;
  // What a proof relied on, for reuse under other histories: boards that must be unvisited (the
  // winner's moves), boards that must be visited (the loser's moves they exclude), and the largest
  // ban-free distance of a leaf used (every visited decided board must be farther). Relative to the
  // node's own segment; `overflow`: too large to keep.
  struct Deps {
    std::vector<Key> unvisited, visited;
    int threshold = -1;
    bool overflow = false;
  };
  // The value of a child of the top of the current segment (recursing, memo and table as needed);
  // adds what the child's value relied on (seen from the parent) to *deps if given.
  SkOutcome child_value(const Child& c, Deps* deps = nullptr);
  // Push / pop a non-capturing child onto the current segment.
  void push(const Child& c);
  void pop(const Child& c);

  const Rules& rules() const { return rules_; }
  const Board& board() const { return board_; }
  const BanFreeOracle& oracle() const { return oracle_; }

 private:
  struct Segment {
    std::unordered_set<Key> keys;
    std::uint64_t hash = 0;
    std::vector<std::uint16_t> pmin;  // per board on the path: least ban-free distance of a decided board so far
  };
  struct TableKey {
    Key key;
    std::uint64_t set;
    bool operator==(const TableKey&) const = default;
  };
  struct TableHash {
    std::size_t operator()(const TableKey& t) const { return t.key * 0x9E3779B97F4A7C15ull ^ t.set; }
  };

  SkOutcome search(const Position& p, Key k, Deps* deps);  // p is the top of the current segment
  // The phases of search: a table hit (exact, then by relevance); the children valued in order
  // (into *track, when given, what the value relied on); the loser's moves to visited boards
  // (excluded only while visited); the exact table's store.
  bool probe(const TableKey& tk, Deps* deps, SkOutcome& hit);
  SkOutcome value_children(const Position& p, Deps* track);
  void add_excluded_visited(const Position& p, Deps& mine);
  void table_store(const TableKey& tk, const SkOutcome& o);
  struct Relevant {
    Deps deps;
    SkOutcome outcome;
  };
  bool relevant_hit(Key k, SkOutcome& o, Deps* deps);
  void relevant_store(Key k, const SkOutcome& o, const Deps& d);
  std::unordered_map<Key, std::vector<Relevant>> relevant_;
  std::size_t relevant_count_ = 0;
  int gen_children(const Position& p, std::size_t base);  // into arena_ from base; returns count
  void tick();
  static std::uint64_t mix(Key k);
  std::uint16_t pmin_top() const;

  Rules rules_;
  Board board_;
  const BanFreeOracle& oracle_;
  SuperkoOptions options_;
  std::vector<Segment> segs_;
  std::vector<Child> arena_;
  std::size_t arena_top_ = 0;
  std::unordered_map<TableKey, SkOutcome, TableHash> table_;
  std::unordered_map<Key, SkOutcome> memo_;
  std::unordered_map<Key, std::uint8_t> targets_;
  std::unordered_map<int, std::uint64_t> layer_nodes_;
  std::uint64_t nodes_ = 0, clears_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace gonu
