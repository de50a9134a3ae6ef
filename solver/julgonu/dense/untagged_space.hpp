// The untagged engines' space (untagged.cpp: dense cells by id; compact_untagged.cpp: cells by
// rank among the reached states): ids by board rank, and the file mirror.
#pragma once
#include <algorithm>
#include <cstdint>

#include "solver/julgonu/dense/board_rank.hpp"
#include "solver/julgonu/dense/parts.hpp"

namespace gonu::dense {

// Ids, and the file mirror. When the root is its own mirror image (the start is), the reached
// set is closed under the mirror and mirror images have equal values, so only canonical states
// (the smaller packed board of the pair) are expanded and analysed; the others are read off
// their images at the end. Otherwise every state is its own canonical form.
class Space {
 public:
  Space(const Board& b, const Position& root)
      : ids_(b.n, popcount(root.black), popcount(root.white)), mirror_(b) {
    mirror_on_ = mirror(pack(root)) == pack(root);
  }
  std::uint64_t size() const { return 2 * ids_.boards(); }
  std::uint64_t id(const Position& p) const { return ids_.id(p); }
  Position position(std::uint64_t id) const { return ids_.position(id); }
  template <class Visit>
  void walk(std::uint64_t lo, std::uint64_t hi, Visit&& visit) const {  // visit(id, position), in order
    ids_.walk(lo, hi, visit);
  }
  bool inside(const Position& p) const { return ids_.inside(p); }
  bool mirroring() const { return mirror_on_; }
  // A packed board's canonical form, the other board of its pair (the same if its own image), and
  // its orbit (states it stands for: 2 unless mirroring is off or it is its own image), all from
  // one mirror image: the mirror is a good part of the work per edge.
  struct Pair {
    std::uint64_t canonical, image;
    bool kept;  // the board was canonical
    int orbit;
  };
  [[gnu::always_inline]] Pair pair(std::uint64_t w) const {
    if (!mirror_on_) return Pair{w, w, true, 1};
    const std::uint64_t m = mirror(w);  // min and max, no branch: the choice is a coin toss
    return Pair{std::min(w, m), std::max(w, m), w <= m, m != w ? 2 : 1};
  }
  int orbit(const Position& p) const { return pair(pack(p)).orbit; }
  std::uint64_t boards() const { return ids_.boards(); }  // the ids of White to move start here

 private:
  std::uint64_t mirror(std::uint64_t w) const { return mirror_.board(w); }
  SideBoardIds ids_;
  FileMirror mirror_;
  bool mirror_on_ = false;
};

}  // namespace gonu::dense
