// A process's states read from its compact form (range_source.hpp).
#include "solver/julgonu/mpi/range_source.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

namespace gonu::mpi {

namespace {

using namespace dense;

constexpr std::uint64_t kIdChunk = std::uint64_t(1) << 16;  // ids per task of a pass over the range

class RangeSource final : public StateSource {
 public:
  RangeSource(const KeyCodec& codec, const Space& space, const Part& part, RankedBits reached, RemoteImages remote)
      : codec_(codec), space_(space), part_(part), reached_(std::move(reached)), remote_(std::move(remote)) {}

  void read(std::uint64_t lo, std::uint64_t hi, Key* keys, Value* value, std::uint16_t* dist) const override {
    if (lo >= hi) return;
    const std::uint64_t a = reached_.select(lo), b = reached_.select(hi - 1) + 1;
    RemoteCursor remote(remote_, a);
    std::uint64_t i = 0;
    space_.walk(part_.lo + a, part_.lo + b, [&](std::uint64_t id, const Position& p) {
      const std::uint64_t off = id - part_.lo;
      if (!reached_.test(off)) return;
      const std::uint64_t w = part_.bits.test(off) ? cell_word(off) : image_value(p, off, remote);
      keys[i] = encode_board_side(codec_, p);
      value[i] = Value(w & 3u);
      dist[i] = std::uint16_t(w >> 2);
      ++i;
    });
  }

  std::optional<std::uint64_t> find(Key k) const override {
    Position p;
    Tag tag;
    decode_key(codec_, k, p, tag);
    if (!space_.inside(p)) return std::nullopt;
    const std::uint64_t id = space_.id(p);
    if (id < part_.lo || id >= part_.hi || !reached_.test(id - part_.lo)) return std::nullopt;
    return reached_.rank(id - part_.lo);
  }

 private:
  // The value word of the canonical state at offset off of the range.
  std::uint64_t cell_word(std::uint64_t off) const {
    const std::uint64_t cell = part_.bits.rank(off);
    return value_word(part_.cells.value(cell), part_.cells.dist(cell));
  }
  // A mirror image's: its canonical form's cell when that is in the range, else the value sent.
  std::uint64_t image_value(const Position& p, std::uint64_t off, RemoteCursor& remote) const {
    const std::uint64_t c = space_.id(unpack(space_.pair(pack(p)).canonical, p.to_move));
    if (c >= part_.lo && c < part_.hi) return cell_word(c - part_.lo);
    return remote.take(off);
  }

  const KeyCodec& codec_;
  const Space& space_;
  const Part& part_;
  RankedBits reached_;
  RemoteImages remote_;
};

}  // namespace

RemoteCursor::RemoteCursor(const RemoteImages& remote, std::uint64_t from) : runs_(remote.runs), at_(runs_.size()) {
  for (std::size_t j = 0; j < runs_.size(); ++j)
    at_[j] = std::size_t(std::lower_bound(runs_[j].begin(), runs_[j].end(), from << kValueWordBits) - runs_[j].begin());
}

std::uint64_t RemoteCursor::take(std::uint64_t offset) {
  constexpr std::uint64_t kValueMask = (std::uint64_t(1) << kValueWordBits) - 1;
  for (std::size_t j = 0; j < runs_.size(); ++j)
    if (at_[j] < runs_[j].size() && runs_[j][at_[j]] >> kValueWordBits == offset) return runs_[j][at_[j]++] & kValueMask;
  throw std::logic_error("a reached mirror image whose value no process sent");
}

RankedBits mark_reached(const Space& space, const Part& part, const RemoteImages& remote) {
  RankedBits reached(part.hi - part.lo);
  const std::uint64_t chunks = (part.hi - part.lo + kIdChunk - 1) / kIdChunk;
  tbb::parallel_for(std::uint64_t(0), chunks, [&](std::uint64_t c) {
    const std::uint64_t a = part.lo + c * kIdChunk, b = std::min(part.hi, a + kIdChunk);
    space.walk(a, b, [&](std::uint64_t id, const Position& p) {
      if (!part.bits.test(id - part.lo)) return;
      reached.claim(id - part.lo);
      const Space::Pair q = space.pair(pack(p));
      if (q.orbit != 2) return;
      const std::uint64_t image = space.id(unpack(q.image, p.to_move));
      if (image >= part.lo && image < part.hi) reached.claim(image - part.lo);
    });
  });
  for (const Boards& run : remote.runs)
    tbb::parallel_for(std::size_t(0), run.size(), [&](std::size_t i) { reached.claim(run[i] >> kValueWordBits); });
  reached.finish();
  return reached;
}

std::shared_ptr<const StateSource> range_source(const KeyCodec& codec, const Space& space, const Part& part,
                                                RankedBits reached, RemoteImages remote) {
  return std::make_shared<RangeSource>(codec, space, part, std::move(reached), std::move(remote));
}

}  // namespace gonu::mpi
