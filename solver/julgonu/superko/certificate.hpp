// Writes a proven superko value as a certificate: the winner's strategy as a tree per section
// (the root, and every state entered by a capture, shared), ban-free leaves justified by a table
// of the ban-free strategy with ranks. The format is in solver/julgonu/superko/SUPERKO.md; the checker
// (checker/certificate_check.cpp) reads it without this code.
#pragma once
#include <string>

#include "solver/julgonu/superko/search.hpp"

namespace gonu {

struct CertificateText {
  std::string text;
  std::uint64_t nodes = 0;
  std::string error;  // non-empty: not written (why)
};

// The lines every certificate version opens with: the version, the rules, the start, the history
// (the game's moves), the value at the game's current state and the winner (SUPERKO.md).
std::string certificate_header(const Game& g, int version, Side winner);

// The ban-free strategy below the ban-free leaves `seeds`, ranked by ban-free distance: the table
// lines of format 1 (one per state, breadth first); *entries counts them.
std::string banfree_table(const BanFreeOracle& bf, const Board& b, const Rules& r, Side winner,
                          const std::vector<Position>& seeds, std::uint64_t& entries);
// The same for seeds of either side: a state is the winner's (a move) where its ban-free value is
// WIN for the side to move, the loser's ("-") where it is LOSS. `winner_only` (format 8): the
// winner's states alone, as "POSITION MOVE" (the checker derives the rest).
std::string banfree_table(const BanFreeOracle& bf, const Board& b, const Rules& r, const std::vector<Position>& seeds,
                          std::uint64_t& entries, bool winner_only = false);

// A whole format-1 file: the header, the sections (section i starts at sections[i] with trees[i]),
// the ban-free table of `seeds`.
std::string format1_text(const Game& g, const BanFreeOracle& bf, Side winner, std::uint32_t depth,
                         const std::vector<Position>& sections, const std::vector<std::string>& trees,
                         const std::vector<Position>& seeds);

// `root` is the proven outcome of search.solve(g); the search must still hold its memo and table.
CertificateText write_certificate(SuperkoSearch& search, const Game& g, const SkOutcome& root,
                                  std::uint64_t max_nodes);

}  // namespace gonu
