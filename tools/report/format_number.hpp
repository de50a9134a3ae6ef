// Numbers for people: 3412738 -> "3,412,738".
#pragma once
#include <cstdint>
#include <string>

namespace gonu::cli {

inline std::string with_commas(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), 1, ',');
  return s;
}

}  // namespace gonu::cli
