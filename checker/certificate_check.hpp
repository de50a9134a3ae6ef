// The superko certificate checker, written apart from the superko solver (it uses only core/: the
// move generator and the Game record with its superko legality). It replays the winner's
// strategy of a certificate against every legal choice of the loser with the full board history,
// and checks the ban-free leaves against the certificate's table of a ranked ban-free strategy.
// Format and soundness argument: solver/superko.md.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

#include "core/rules.hpp"

namespace gonu {

struct CertificateCheck {
  bool ok = false;
  std::string message;      // the first flaw, or a one-line summary when ok
  std::string rules_id;     // as the certificate names it (empty if unreadable)
  std::string value;        // WIN / LOSS for the side to move at the root, as claimed
  std::string winner;       // black / white
  std::uint64_t nodes = 0;  // tree nodes replayed
  std::uint64_t sections = 0, table_entries = 0;
};

CertificateCheck check_certificate(std::istream& in);
CertificateCheck check_certificate_file(const std::string& path);

}  // namespace gonu
