// The gonu version string recorded by the solver in table headers and results.
#pragma once
namespace gonu {
const char* solver_version();
}  // namespace gonu
