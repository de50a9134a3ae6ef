// A process's states of an untagged distributed solve read straight from its compact form, the
// way the compact engine's result streams into its table (compact_untagged.cpp): no record per
// state is ever built, so the read-off holds about what the retrograde held.
//
// A process owns the ids [lo, hi) of the dense space. Its reached states there are
//   - its canonical states (Part::bits), whose values are in its cells;
//   - the mirror images of those, when the image is in its range too (read from the same cell);
//   - the mirror images of other processes' canonical states, whose values those processes sent:
//     RemoteImages, one word each (image_word), in runs each sorted by offset.
// `reached` marks all three by id - lo; a state's number in the range is its rank there, which
// is key order (ids follow key order). Reads walk the ids and take the remote values in order.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/julgonu/dense/compact_store.hpp"
#include "solver/julgonu/dense/untagged_space.hpp"
#include "solver/julgonu/mpi/part.hpp"
#include "solver/julgonu/state/solution.hpp"

namespace gonu::mpi {

// A value and distance as one word: value | dist << 2 (18 bits).
constexpr unsigned kValueWordBits = 18;
inline std::uint64_t value_word(Value v, std::uint16_t dist) { return std::uint64_t(v) | std::uint64_t(dist) << 2; }

// A mirror image's value sent to the process holding the image: its offset in that process's
// range, then its value word. Ranges stay far below 2^46 ids.
inline std::uint64_t image_word(std::uint64_t offset, std::uint64_t value_word) {
  return offset << kValueWordBits | value_word;
}

struct RemoteImages {
  std::vector<Boards> runs;  // image words, each run sorted (offsets differ across all runs)
};

// The remote images' values in offset order from a starting offset: each run's next word, the
// one whose offset comes up next taken from whichever run holds it. One per reader.
class RemoteCursor {
 public:
  RemoteCursor(const RemoteImages& remote, std::uint64_t from);
  // The value word of the image at this offset, which must be the next one (in offset order).
  std::uint64_t take(std::uint64_t offset);

 private:
  const std::vector<Boards>& runs_;
  std::vector<std::size_t> at_;
};

// The reached states of the part's range, marked by id - lo: its canonical states, their images
// in the range, and the remote images. The caller finishes nothing: returned finished.
dense::RankedBits mark_reached(const dense::Space& space, const Part& part, const RemoteImages& remote);

// The range's states as a StateSource (numbers from 0 in the range). It keeps references to
// codec, space and part, which must outlive it; reached (from mark_reached) and remote it owns.
std::shared_ptr<const StateSource> range_source(const KeyCodec& codec, const dense::Space& space, const Part& part,
                                                dense::RankedBits reached, RemoteImages remote);

}  // namespace gonu::mpi
