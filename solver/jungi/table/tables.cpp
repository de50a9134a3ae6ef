// Tables (tables.hpp): the files found by name at construction, each opened on first use into a
// Table whose entries are read block by block through the shared cache (Table::read), and one
// TableSet a reading whose lookup finds them, so that a question is valued by the solver's own
// TableSet::probe (en-passant fields included) and asks for exactly the tables it reaches.
#include "solver/jungi/table/tables.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <unordered_map>

#include "core/error.hpp"

namespace gonu::jungi {

namespace {

// Thrown by a reading's lookup for a table the set does not have, caught by Tables::probe.
struct MissingTable : GonuError {
  explicit MissingTable(const Material& m) : GonuError("no table of " + material_text(m)), material(m) {}
  Material material;
};

struct MaterialHash {
  std::size_t operator()(const Material& m) const {
    std::size_t h = 0;
    for (const auto& side : m.count)
      for (const std::uint8_t c : side) h = h * 31 + c;
    return h;
  }
};

// The generator's entry of a value (0 for none).
std::uint16_t entry_of_value(const Value& v) { return entry_of_code(file_code(v)); }

// The reading and material a file name in a directory of tables stands for (table_file_name),
// if it is one.
std::optional<TableEntry> entry_of_name(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  const std::size_t dot = name.find('.');
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  Material m;
  try {
    m = parse_material(name.substr(0, dot));
  } catch (const GonuError&) {
    return std::nullopt;
  }
  for (const Rules& r : every_reading())
    if (is_canonical(m) && table_file_name(m, r) == name) return TableEntry{path.string(), r, m};
  return std::nullopt;
}

}  // namespace

// A file found, opened (or refused) on first use.
struct Opened {
  std::once_flag once;
  std::unique_ptr<TableFile> file;
  std::unique_ptr<Table> table;
  std::string error;  // the refusal, where the file was refused
  std::atomic<const Table*> ready{nullptr};
};

// One reading's tables: its set (whose lookup opens them) and where each material is.
struct Reading {
  Rules rules;
  std::unordered_map<Material, std::size_t, MaterialHash> where;  // kept material -> entry
  std::unique_ptr<TableSet> set;
};

struct Tables::State {
  std::vector<TableEntry> entries;
  std::vector<std::unique_ptr<Opened>> opened;  // by entry
  std::map<std::string, Reading> readings;      // by rules_id
  std::string first_dir;                        // for the command that makes a missing table
  std::uint64_t max_memory = 0;

  const Reading* reading(const Rules& r) const {
    const auto it = readings.find(rules_id(r));
    return it == readings.end() ? nullptr : &it->second;
  }
  // The opened table of entry k; throws GonuError with its refusal.
  const Opened& open(std::size_t k) const {
    Opened& o = *opened[k];
    std::call_once(o.once, [&] { open_entry(entries[k], o); });
    if (!o.error.empty()) throw GonuError(o.error);
    return o;
  }
  // Opens e's file, which must hold the reading and material its name says (its header decides).
  static void open_entry(const TableEntry& e, Opened& o) {
    try {
      auto file = std::make_unique<TableFile>(TableFile::open(e.path, e.rules));
      if (file->material() != e.material)
        throw GonuError(e.path + ": a table of " + file->header().material_text + ", not " + material_text(e.material));
      auto table = std::make_unique<Table>(e.rules, e.material);
      const TableFile* f = file.get();
      table->read = [f](std::uint64_t i) { return entry_of_value(f->value(i)); };
      o.file = std::move(file);
      o.table = std::move(table);
      o.ready.store(o.table.get(), std::memory_order_release);
    } catch (const GonuError& x) {
      o.error = x.what();
    }
  }
  const Table* lookup(const Reading& g, const Material& m) const {
    const auto it = g.where.find(m);
    if (it == g.where.end()) throw MissingTable(m);
    if (const Table* t = opened[it->second]->ready.load(std::memory_order_acquire)) return t;
    return open(it->second).table.get();
  }
};

namespace {

// The table files of `dir` by their names, in name order.
std::vector<TableEntry> entries_in(const std::string& dir) {
  std::error_code error;
  std::vector<std::filesystem::path> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) names.push_back(entry.path());
  if (error) throw GonuError(dir + ": cannot list the directory (" + error.message() + ")");
  std::sort(names.begin(), names.end());
  std::vector<TableEntry> out;
  for (const auto& path : names)
    if (auto e = entry_of_name(path)) out.push_back(*e);
  return out;
}

void add_directory(Tables::State& s, const std::string& dir) {
  const std::vector<TableEntry> found = entries_in(dir);
  s.entries.insert(s.entries.end(), found.begin(), found.end());
  if (s.first_dir.empty()) s.first_dir = dir;
}

void add_file(Tables::State& s, const std::string& path) {
  const TableFile f = TableFile::open(path);
  s.entries.push_back({path, f.rules(), f.material()});
}

// Sorts the entries by reading and material, keeps the first of each pair, and makes the readings.
void index_entries(Tables::State& s) {
  std::stable_sort(s.entries.begin(), s.entries.end(), [](const TableEntry& a, const TableEntry& b) {
    const std::string ra = rules_id(a.rules), rb = rules_id(b.rules);
    return ra != rb ? ra < rb : material_text(a.material) < material_text(b.material);
  });
  s.entries.erase(std::unique(s.entries.begin(), s.entries.end(),
                              [](const TableEntry& a, const TableEntry& b) { return a.rules == b.rules && a.material == b.material; }),
                  s.entries.end());
  for (std::size_t k = 0; k < s.entries.size(); ++k) {
    const TableEntry& e = s.entries[k];
    s.opened.push_back(std::make_unique<Opened>());
    Reading& g = s.readings[rules_id(e.rules)];
    g.rules = e.rules;
    g.where.emplace(e.material, k);
  }
  for (auto& [id, g] : s.readings) {
    g.set = std::make_unique<TableSet>(g.rules);
    const Reading* reading = &g;
    const Tables::State* state = &s;
    g.set->set_lookup([state, reading](const Material& m) { return state->lookup(*reading, m); });
  }
}

}  // namespace

Tables::Tables(const std::vector<std::string>& paths, std::uint64_t max_memory) : s_(std::make_unique<State>()) {
  s_->max_memory = max_memory;
  for (const std::string& p : paths) {
    std::error_code error;
    if (std::filesystem::is_directory(p, error)) add_directory(*s_, p);
    else if (is_jungi_table_file(p)) add_file(*s_, p);
    else if (!std::filesystem::exists(p, error)) throw GonuError(p + ": no such file or directory");
    else throw GonuError(p + " is neither a directory nor a Jungi table file");
  }
  if (s_->entries.empty()) {
    std::string list;
    for (const std::string& p : paths) list += (list.empty() ? "" : ", ") + p;
    throw GonuError("no Jungi table in " + (list.empty() ? std::string("(nothing given)") : list));
  }
  index_entries(*s_);
  set_block_cache_limit(max_memory);
}

Tables::~Tables() = default;

const std::vector<TableEntry>& Tables::entries() const { return s_->entries; }

std::vector<Rules> Tables::readings() const {
  std::vector<Rules> out;
  for (const auto& [id, g] : s_->readings) out.push_back(g.rules);
  return out;
}

const Rules& Tables::only_reading() const {
  if (s_->readings.size() != 1) {
    std::string ids;
    for (const auto& [id, g] : s_->readings) ids += (ids.empty() ? "" : ", ") + id;
    throw GonuError("the tables are of " + std::to_string(s_->readings.size()) + " readings (" + ids + "): name the reading");
  }
  return s_->readings.begin()->second.rules;
}

const TableFile* Tables::table(const Rules& r, const Material& m) const {
  const Reading* g = s_->reading(r);
  if (!g) return nullptr;
  const auto it = g->where.find(canonical(m));
  return it == g->where.end() ? nullptr : s_->open(it->second).file.get();
}

std::optional<Value> Tables::probe(const Rules& r, const Position& p, std::string* missing) const {
  const Reading* g = s_->reading(r);
  if (!g) {
    if (missing) *missing = material_text(material_of(p));
    return std::nullopt;
  }
  try {
    const Value v = g->set->probe(p);
    if (v.result == Result::invalid) throw GonuError("no table value for " + format_position(p) + " (a table is damaged?)");
    return v;
  } catch (const MissingTable& x) {
    if (missing) *missing = material_text(x.material);
    return std::nullopt;
  }
}

PositionAnswer Tables::query(const Rules& r, const Position& p, bool with_pv) const {
  if (p.royal[0] < 0 || p.royal[1] < 0) throw GonuError("a position needs both royals for a table");
  if (p.first_move)
    throw GonuError("the tables hold no first-move rights (the position's fourth field): write the position without it");
  const std::string dir = s_->first_dir.empty() ? "DIR" : s_->first_dir;
  const auto missing_text = [&](const std::string& m) {
    return "no table of " + m + " for " + describe(r) + " here; make it with: " + solve_command(r, parse_material(m), dir);
  };
  const Probe probe = [&](const Position& c, std::string& missing) { return this->probe(r, c, &missing); };
  return answer_position(r, probe, p, with_pv, missing_text);
}

std::uint64_t Tables::held_bytes() const { return block_cache_bytes(); }
std::uint64_t Tables::max_memory() const { return s_->max_memory; }

std::vector<std::string> table_files_in_order(const std::string& dir) {
  std::vector<TableEntry> found = entries_in(dir);
  const auto key = [](const TableEntry& e) { return std::pair{e.material.pieces(), e.material.unpromoted()}; };
  std::stable_sort(found.begin(), found.end(), [&](const TableEntry& a, const TableEntry& b) { return key(a) < key(b); });
  std::vector<std::string> out;
  for (const TableEntry& e : found) out.push_back(e.path);
  return out;
}

std::string solve_command(const Rules& r, const Material& m, const std::string& dir) {
  std::string c = "gonu solve --game jungi --material " + material_text(m);
  if (r.hobbling) c += " --hobbling on";
  if (r.optional_promotion) c += " --promotion optional";
  if (r.stalemate_draw) c += " --stalemate draw";
  if (r.lancer_queen) c += " --lancer queen";
  return c + " --dir " + dir;
}

}  // namespace gonu::jungi
