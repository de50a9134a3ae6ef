// What gonu perft reports, counted by each game's part (julgonu_perft in
// tools/julgonu/julgonu_cli.hpp, jungi_perft in tools/jungi/jungi_cli.hpp) and printed, as text or
// JSON, by the command both games share (tools/cli/cmd_perft.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gonu::cli {

struct PerftDivided {
  std::string move;  // the first move, in the game's from-to notation
  std::uint64_t nodes;
};

struct PerftCount {
  std::string game;        // "julgonu" | "jungi"
  std::string rules;       // the rules in one line
  std::string position;    // the position counted from, in notation
  std::string start_note;  // why the start is provisional, or empty (said, and "provisional_start" in JSON)
  std::vector<PerftDivided> divided;  // with --divide: the count under each first move
  std::uint64_t nodes = 0;            // without --divide: the count (with it, the sum)
};

}  // namespace gonu::cli
