// The superko certificate checker, written apart from the superko solver so that a proof is
// checked by code that did not make it: it includes only core/ (the move generator, notation, and
// the Game record with its superko legality) and util/ (a large stack for deep trees), and links
// only gonu_core and gonu_util; checker/CMakeLists.txt says so and the build fails on any other
// include (cmake/check_layers.cmake). It replays the winner's strategy of a certificate against
// every legal choice of the loser with the full board history, and checks the ban-free leaves
// against the certificate's table of a ranked ban-free strategy, or the memoryless strategies of
// formats 2 and 3 by their conditions, the strategies with memory of format 7 on their
// (state, label) graph, and format 8's proof graph block by block, each block's condition on the
// history checked wherever it is used. Format and soundness argument: solver/julgonu/superko/SUPERKO.md.
// Files: certificate_read (the file read into plain data), strategy_check (formats 2 and 3's
// strategies), memory_check (format 7's strategy with memory), tree_check (the trees of formats 1
// and 3), graph_check (format 8's proof graph), certificate_check.cpp (this front door).
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "core/julgonu/rules.hpp"

namespace gonu {

struct CertificateCheck {
  bool ok = false;
  std::string message;      // the first flaw, or a one-line summary when ok
  std::string rules_id;     // as the certificate names it (empty if unreadable)
  std::string value;        // WIN / LOSS for the side to move at the root, as claimed
  std::string winner;       // black / white
  std::uint64_t nodes = 0;  // tree nodes replayed
  std::uint64_t sections = 0, table_entries = 0;
  std::uint64_t exits = 0;  // format 6: captures walked onto proven entries (the play goes on under their blocks)
  std::uint64_t entries = 0;  // format 8: capture-entry values proven (each checked from its own board)
  std::vector<std::string> entry_lines;  // format 8, when ok: "entry POSITION VALUE ..." per entry
};

CertificateCheck check_certificate(std::istream& in);
CertificateCheck check_certificate_file(const std::string& path);

}  // namespace gonu
