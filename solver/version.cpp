// Identifies the solver library build (tables record it in their header).
#include "solver/version.hpp"

namespace gonu {
const char* solver_version() { return "0.1.0"; }
}  // namespace gonu
