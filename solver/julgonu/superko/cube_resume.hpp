// The resume file of cube and conquer (cube.hpp): every strategy search of the tree, written as it
// finishes, so that a run stopped (killed, or by --max-searches) continues where it was.
//
// Format, version 1: text, one record per line, each line ending in '\n'.
//
//   gonu-superko-resume 1
//   rules RULES_ID                        (core's rules_id: RxC/capture/corner/superko/first)
//   start POSITION                        (two tokens, e.g. xx/2/ww x)
//   history N MOVE...                     (moves from the start to the tree's root)
//   method cube STRATEGY_METHOD layers L  (injective | lazy | lazy-local; --strategy-layers, -1: all)
//   end-header
//   search PATH SIDE STATUS SECONDS BUDGET VARIABLES CLAUSES REACH PAIRED RANKED VERSION NOTE BLOCK
//   ...
//
// PATH: the tree's moves from the root, joined by ',' ('-' at the root). SIDE: black | white, the
// winner the search is for. STATUS: found | none | budget | n/a. SECONDS: what it took; BUDGET: the
// --strategy-seconds it ran under (0: none). VARIABLES ... RANKED: the SAT instance and, when
// found, the strategy's counts. VERSION: the block's certificate format (2, or 4 for the lazy
// methods). NOTE: the search's note with spaces as '_' ('-': none). BLOCK: the rest of the line,
// the found strategy's "strategy ... ranked ..." lines joined by ';' ('-' when not found).
//
// The header must match the run's byte for byte (another rule set, start, history, method or layer
// confinement is another instance: refused). The depth and the budget are not in it: a rerun may go
// deeper, and a record of status budget is searched again when the new budget is larger (or none).
// A record is one write followed by a flush, so a killed run leaves at most a last line without its
// '\n': it is ignored, and cut off before the next record is appended. Any other malformed line is
// an error (the file was not written by this code).
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/julgonu/game.hpp"
#include "solver/julgonu/superko/strategy.hpp"

namespace gonu {

// One finished strategy search of the tree: at the node reached by `path` from the root, for `side`.
struct CubeRecord {
  std::string path = "-";
  Side side = Side::black;
  StrategyStatus status = StrategyStatus::not_applicable;
  double seconds = 0, budget = 0;
  std::uint64_t variables = 0, clauses = 0, reach = 0, paired = 0, ranked = 0;
  int version = 2;
  std::string note;
  std::string block;  // found: the format-2 (or 4) block, lines ending in '\n'
};

std::string resume_header(const Game& root, StrategyMethod method, int layers);
std::string format_record(const CubeRecord& r);  // one line, with its '\n'
// nullopt when the line (without its '\n') is not a record.
std::optional<CubeRecord> parse_record(const std::string& line);

// The file, open for appending. The records read back are kept by (path, side): a final answer
// (found, none, n/a) over a budget one, and among budget ones the largest budget (0 counts as none).
class ResumeFile {
 public:
  // Creates the file with the header when it is absent or empty; else checks the header and reads
  // the records. Throws GonuError (one line) on another instance's file or a malformed one.
  ResumeFile(const std::string& path, const std::string& header);
  ~ResumeFile();
  ResumeFile(const ResumeFile&) = delete;
  ResumeFile& operator=(const ResumeFile&) = delete;

  // The record kept for (path, side), if any.
  const CubeRecord* find(const std::string& path, Side side) const;
  std::size_t size() const { return kept_.size(); }
  // Appends a record and flushes it (thread-safe).
  void append(const CubeRecord& r);

 private:
  void keep(CubeRecord r);
  std::string path_;
  std::FILE* file_ = nullptr;
  std::mutex mutex_;
  std::map<std::pair<std::string, int>, CubeRecord> kept_;
};

// Whether a kept record answers a search with this budget (seconds; 0: none): a final answer always;
// a budget one when the new budget is no larger than the one it ran out of.
bool record_answers(const CubeRecord& r, double budget);

}  // namespace gonu
