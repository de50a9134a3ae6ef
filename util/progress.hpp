// Progress reports from long solver phases; the tool decides whether and how to show them.
#pragma once
#include <cstdint>
#include <functional>

namespace gonu {

// phase name, items done, items known so far (0 if unknown)
using ProgressFn = std::function<void(const char* phase, std::uint64_t done, std::uint64_t total)>;

}  // namespace gonu
