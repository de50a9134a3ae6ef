// A set of Jungi endgame tables opened once and asked many questions, as a directory of Syzygy
// tables is: directories (every Jungi table file in them, found by its name) and single files,
// each file opened on its first use, its header checked then (a damaged or hostile file is
// refused alone, naming itself; the others are still answered). A question reads the blocks of
// the positions it asks about into one cache of decoded blocks shared by every table of the set,
// bounded by `max_memory` (the least recently used blocks are dropped first; nothing fails for
// lack of memory). Thread-safe: any number of threads may ask at once.
//
// A file's header decides what it is (its reading and material), never its name: a file named for
// one material or reading that holds another is refused where it is looked up.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solver/jungi/table/query.hpp"
#include "solver/jungi/table/table_file.hpp"

namespace gonu::jungi {

// The default bound on the decoded blocks a set holds.
constexpr std::uint64_t kDefaultTablesMemory = std::uint64_t{1} << 30;

// One table file found by a Tables, by its name (a file given by itself: by its header).
struct TableEntry {
  std::string path;
  Rules rules;
  Material material;  // kept (canonical)
};

class Tables {
 public:
  // Every Jungi table file in the directories of `paths` (by table_file_name: other files are
  // skipped) and every file of `paths` (read by its header). Throws GonuError (one line) for a
  // path that is neither a directory nor a Jungi table file, or when no table is found at all.
  explicit Tables(const std::vector<std::string>& paths, std::uint64_t max_memory = kDefaultTablesMemory);
  ~Tables();
  Tables(const Tables&) = delete;
  Tables& operator=(const Tables&) = delete;

  // The tables found, by reading (rules_id) then material text; the readings, each once, in
  // that order.
  const std::vector<TableEntry>& entries() const;
  std::vector<Rules> readings() const;
  // The one reading of the set; throws GonuError (one line) when it holds several.
  const Rules& only_reading() const;

  // The table of m's kept material under r, opened on first use (its header and index checked);
  // nullptr if the set has none. Throws GonuError (one line naming the file) for a file refused.
  const TableFile* table(const Rules& r, const Material& m) const;
  // The value of p for its side to move (an en-passant field read as TableSet::probe reads it);
  // nullopt, with `missing` set to the material text, when a table it needs is absent.
  std::optional<Value> probe(const Rules& r, const Position& p, std::string* missing = nullptr) const;
  // Value, every move valued and ranked, and with `with_pv` the principal variation (which stops,
  // saying why in PositionAnswer::pv_end, where it would leave the tables at hand). Throws
  // GonuError (one line) for a position with first-move rights, without both royals, or whose
  // own value needs an absent table (naming it and the command that makes it).
  PositionAnswer query(const Rules& r, const Position& p, bool with_pv = true) const;

  // Bytes of decoded blocks held now, and the bound.
  std::uint64_t held_bytes() const;
  std::uint64_t max_memory() const;

  struct State;

 private:
  std::unique_ptr<State> s_;
};

// The Jungi table files of `dir` (by name: table_file_name), in an order where every table comes
// after the tables its moves lead to (fewer pieces first, then fewer unpromoted pieces), ties by
// name. Throws GonuError if dir cannot be listed.
std::vector<std::string> table_files_in_order(const std::string& dir);

// The command that makes the table of m under r in `dir` (said where a table is missing).
std::string solve_command(const Rules& r, const Material& m, const std::string& dir);

}  // namespace gonu::jungi
