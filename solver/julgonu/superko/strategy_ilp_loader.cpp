// make_ilp_solver (strategy_ilp.hpp) from the CBC module (cbc/strategy_ilp.cpp), loaded on the
// first ILP solve: CBC's libraries are mapped into a process only when it asks for them (the
// server, the queries and every other command start without them). The module is looked for
// beside the program or library that holds this code (a build's bin/), then in the installed
// place, the library folder's gonu/ (GONU_CBC_MODULE_FROM_BIN: that folder relative to the
// program's); the first that loads is kept for the process's life (never unloaded: its solvers'
// code must outlive them).
#include <dlfcn.h>
#include <link.h>

#include <climits>
#include <cstdlib>

#include <mutex>
#include <string>

#include "core/error.hpp"
#include "solver/julgonu/superko/strategy_ilp.hpp"

namespace gonu {

namespace {

constexpr const char* kModule = "libgonu_superko_cbc.so";
using MakeSolver = StrategySolver* (*)(bool);

// The folder of the file (program or shared object) this function's code was loaded from, links
// resolved. The program itself has an empty name in its link map (dladdr would give argv[0],
// which a run through PATH leaves without a folder): /proc/self/exe names it.
std::string own_folder() {
  Dl_info info{};
  link_map* map = nullptr;
  if (!dladdr1(reinterpret_cast<void*>(&own_folder), &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP)) return ".";
  const char* name = map && map->l_name && *map->l_name ? map->l_name : "/proc/self/exe";
  char resolved[PATH_MAX];
  if (!realpath(name, resolved)) return ".";
  const std::string file = resolved;
  return file.substr(0, file.rfind('/'));
}

// The module's entry point, or a GonuError naming the places tried and dlopen's last complaint.
MakeSolver load_module() {
  const std::string dir = own_folder();
  const std::string places[] = {dir + "/" + kModule, dir + "/" GONU_CBC_MODULE_FROM_BIN "/" + kModule};
  std::string why;
  for (const std::string& path : places) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      why = dlerror();
      continue;
    }
    if (void* entry = dlsym(handle, "gonu_make_ilp_solver")) return reinterpret_cast<MakeSolver>(entry);
    why = path + " has no gonu_make_ilp_solver";
  }
  throw GonuError("superko strategy: the ILP back end (CBC) could not be loaded (" + why +
                  "); --strategy-solver sat needs no module");
}

}  // namespace

std::unique_ptr<StrategySolver> make_ilp_solver(bool minimize) {
  static std::once_flag once;
  static MakeSolver make = nullptr;
  std::call_once(once, [] { make = load_module(); });
  return std::unique_ptr<StrategySolver>(make(minimize));
}

}  // namespace gonu
