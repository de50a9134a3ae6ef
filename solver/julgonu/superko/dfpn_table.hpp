// The df-pn proofs file (SUPERKO.md, "The df-pn proofs file"): a df-pn table's decided entries with
// the conditions they hold under, saved by one run and loaded by the next, so that a long search
// resumes where it stopped and a later search reuses what an earlier one proved. Unproven numbers
// (heuristics) are never saved. The file names its rules (the board among them) and a format
// version and ends in a checksum of everything before it; it is written atomically (temporary
// file, then rename), so a reader sees the old file or the whole new one.
// A checksum is no proof against a forger: what is read is a hint (DfpnSource::read), which the
// search uses but on which no value is given out until a walk has proven it again (dfpn.hpp); a
// contradiction met is the file's fault. What a save writes: at a run's end, every decided entry,
// hints and what rests on them included (the next run reads all of it as hints); at a checkpoint,
// while a contradiction may yet come, only what cannot be false or was in the file already
// (proven entries, and hints as read, not what rests on them), so that a run stopped by a
// contradiction leaves no new record resting on the file's facts.
#pragma once
#include <string>

#include "solver/julgonu/superko/dfpn.hpp"

namespace gonu {

// The file's text for these proofs under these rules, and the proofs read back from a text, which
// must name the same rules. Throws GonuError (one line, naming `path`) on another rule set's file,
// a damaged one or one not written by this code.
std::string format_dfpn_table(const Rules& rules, const DfpnSearch::Proofs& proofs);
DfpnSearch::Proofs parse_dfpn_table(const Rules& rules, const std::string& text, const std::string& path);
// The same read from the file `path`, its head, size and last line checked before more than a
// few bytes are read, its checksum summed a chunk at a time before the records are read.
DfpnSearch::Proofs read_dfpn_table(const Rules& rules, const std::string& path);

// A search's proofs file: made before the long work (it refuses at once a target that cannot be
// written, another rule set's file or a damaged one), attached to the search, saved at its end.
class DfpnTableFile {
 public:
  DfpnTableFile(const std::string& path, const Rules& rules);  // checks the target, reads the file
  const std::string& path() const { return path_; }
  // Adds what was read (or kept) to the search and makes its checkpoints write to the file.
  void attach(DfpnSearch& search) const;
  // Writes the search's decided entries (atomically), at the end of its run; a search attached
  // later (the root's df-pn after the layer pass) starts from them.
  void save(const DfpnSearch& search) const;
  // The same, but written only by write_kept(): for proofs that a certificate's walk is yet to
  // check (a fact it contradicts must not be written back).
  void keep(const DfpnSearch& search) const;
  void write_kept() const;
  // Whether what a search attached now gets holds hints (read from the file, or resting on it).
  bool hints() const;
  // A contradiction met by a search this file's facts were added to: the checksum is no proof
  // against a crafted file, so a false fact is the file's fault, thrown as one line naming it;
  // without facts read from the file, an internal error, rethrown as it is.
  [[noreturn]] void blame(const DfpnContradiction& e) const;

 private:
  // A checkpoint: the search's proven entries and hints, not those resting on hints (see the head).
  void checkpoint(const DfpnSearch& search) const;
  void write(const DfpnSearch::Proofs& p) const;

  std::string path_;
  Rules rules_;
  bool read_facts_ = false;          // the file held decided entries when read
  mutable DfpnSearch::Proofs kept_;  // read, then what was kept last
};

}  // namespace gonu
