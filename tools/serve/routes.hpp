// The explorer's routes on an httplib::Server: the page's assets, the JSON API (api.hpp) over the
// tables, and JSON bodies for the errors httplib answers itself and for a handler's fault. Apart
// from cmd_serve.cpp so that the HTTP fuzz target (tests/fuzz/fuzz_serve.cpp) drives the same
// handlers the program serves.
#pragma once
#include <httplib.h>

#include <cstddef>
#include <span>
#include <vector>

#include "tools/serve/api.hpp"
#include "tools/web/assets.hpp"

namespace gonu::cli {

// `served` must outlive the server; the assets are served at "/" + name ("/" for index.html).
void add_explorer_routes(httplib::Server& svr, const Served& served, std::span<const WebAsset> assets);

}  // namespace gonu::cli
