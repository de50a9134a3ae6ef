// The directory of Jungi tables the query benchmarks ask (bench_jungi_query.cpp, bench_python.cpp)
// and random positions of its 4-piece tables, the same for both (seeded).
//
// The directory is GONU_BENCH_JUNGI_DIR, else KRvKO's closure (35 tables, 16 of four pieces),
// solved once into build/bench-tables/KRvKO by the gonu program beside the benchmark (some
// minutes; kept for the next run).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/jungi/table/tables.hpp"

namespace gonu::bench {

inline std::string program_dir() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
}

// The directory of tables: made by the gonu program beside this one where it is not complete.
inline const std::string& tables_dir() {
  static const std::string dir = [] {
    if (const char* d = std::getenv("GONU_BENCH_JUNGI_DIR")) return std::string(d);
    const std::string out = program_dir() + "/../bench-tables/KRvKO";
    std::filesystem::create_directories(out);
    // (Built by appending: GCC 12 warns wrongly of an overlap in "'" + std::string.)
    std::string cmd = program_dir();
    cmd.insert(cmd.begin(), '\'');
    cmd += "/gonu' solve --game jungi --material KRvKO --quiet --dir '" + out + "' >/dev/null";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot solve KRvKO's closure into " + out);
    return out;
  }();
  return dir;
}

// Random valid positions of the directory's 4-piece tables (no field, no first-move rights).
inline std::vector<jungi::Position> random_positions(const jungi::Tables& t, std::size_t n) {
  std::vector<const jungi::TableFile*> four;
  for (const jungi::TableEntry& e : t.entries())
    if (e.material.pieces() == 4) four.push_back(t.table(e.rules, e.material));
  if (four.empty()) throw std::runtime_error(tables_dir() + " holds no table of four pieces");
  std::mt19937_64 rng(7);
  std::vector<jungi::Position> out;
  while (out.size() < n) {
    const jungi::TableFile& f = *four[rng() % four.size()];
    jungi::Position p;
    if (f.indexer().decode(rng() % f.header().indices, p) && !jungi::legal_moves(f.rules(), p).empty()) out.push_back(p);
  }
  return out;
}

}  // namespace gonu::bench
