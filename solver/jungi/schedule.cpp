// The dependency waves and the deal of a wave's tables to processes (schedule.hpp).
#include "solver/jungi/schedule.hpp"

#include <algorithm>
#include <numeric>

namespace gonu::jungi {

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
