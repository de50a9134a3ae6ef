// One process's order, the dependency waves and the deal of a wave's tables to processes
// (schedule.hpp).
#include "solver/jungi/generator/schedule.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace gonu::jungi {

namespace {

// A material's family: its pieces by kind (promoted or not) for each side, the lesser of it and
// its colour flip's.
using Family = std::array<std::array<int, kTypes / 2>, 2>;
Family family_of(const Material& m) {
  Family f{};
  for (std::size_t side = 0; side < 2; ++side)
    for (std::size_t type = 0; type < std::size_t(kTypes); ++type) f[side][type / 2] += m.count[side][type];
  return std::min(f, Family{f[1], f[0]});
}

}  // namespace

std::vector<Material> run_order(const std::vector<Material>& targets) {
  std::vector<Material> order;
  std::set<Material> seen;
  for (const Material& t : targets)
    for (const Material& x : kept_closure(t))
      if (seen.insert(x).second) order.push_back(x);
  // Each material's closure lists what it reads first, so a stable sort by (pieces, the family's
  // first place) keeps every read before its reader: a promotion's table is of the same family,
  // a capture's of fewer pieces.
  std::map<Family, std::size_t> first;
  for (std::size_t k = 0; k < order.size(); ++k) first.emplace(family_of(order[k]), k);
  std::stable_sort(order.begin(), order.end(), [&](const Material& a, const Material& b) {
    return std::pair(a.pieces(), first.at(family_of(a))) < std::pair(b.pieces(), first.at(family_of(b)));
  });
  return order;
}

std::map<Material, int> dependency_waves(const std::set<Material>& all) {
  std::map<Material, int> wave;
  std::vector<Material> order(all.begin(), all.end());
  // material_closure's order (fewer pieces, then fewer unpromoted) puts each material after the
  // materials it leads to.
  std::stable_sort(order.begin(), order.end(), [](const Material& a, const Material& b) {
    return std::pair(a.pieces(), a.unpromoted()) < std::pair(b.pieces(), b.unpromoted());
  });
  for (const Material& m : order) {
    int w = 0;
    for (const Material& n : next_materials(m)) w = std::max(w, wave.at(canonical(n)) + 1);
    wave[m] = w;
  }
  return wave;
}

std::vector<int> deal_by_size(const std::vector<std::uint64_t>& sizes, int processes) {
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::vector<std::uint64_t> load(std::size_t(std::max(processes, 1)), 0);
  std::vector<int> owner(sizes.size(), 0);
  for (const std::size_t item : order) {
    const auto least = std::min_element(load.begin(), load.end());  // the first of equal loads
    owner[item] = int(least - load.begin());
    *least += sizes[item];
  }
  return owner;
}

}  // namespace gonu::jungi
