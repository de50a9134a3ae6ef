// The Python module `gonu` (pybind11): Table(path).probe(position, history), solve(...), moves(...)
// and rule_sets(). Results are small classes with attributes, a readable repr and to_dict(), whose
// dict is the gonu program's --json output (the same object from the same builder: answers.hpp),
// and whose attributes are that object's fields. Every gonu::GonuError becomes
// gonu.Error (a ValueError); a table file that cannot be opened raises the OSError Python's open()
// would (FileNotFoundError, PermissionError, IsADirectoryError). The work is in answers.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "core/error.hpp"
#include "python/answers.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tools/julgonu/table_cli.hpp"
#include "util/version.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

// A str argument as UTF-8 bytes. A lone surrogate (from os.fsdecode, say) cannot be UTF-8: it is
// passed on as its three bytes, which the parsers then refuse by name (gonu.Error), where
// pybind11's own conversion would fail with an unrelated TypeError or RuntimeError.
struct Text {
  std::string bytes;
};

std::string utf8_of(const py::handle& s) {
  PyObject* b = PyUnicode_AsEncodedString(s.ptr(), "utf-8", "surrogatepass");
  if (!b) throw py::error_already_set();
  std::string out(PyBytes_AS_STRING(b), std::size_t(PyBytes_GET_SIZE(b)));
  Py_DECREF(b);
  return out;
}

}  // namespace

namespace pybind11::detail {
template <>
struct type_caster<Text> {
  PYBIND11_TYPE_CASTER(Text, const_name("str"));
  bool load(handle src, bool) {
    if (!src || !PyUnicode_Check(src.ptr())) return false;
    value.bytes = utf8_of(src);
    return true;
  }
  static handle cast(const Text& t, return_value_policy, handle) { return py::str(t.bytes).release(); }
};
}  // namespace pybind11::detail

namespace {

std::optional<std::string> bytes_of(const std::optional<Text>& t) {
  return t ? std::optional<std::string>(t->bytes) : std::nullopt;
}

using namespace gonu::pymod;
using gonu::Table;
using gonu::TableHeader;

// gonu.Table: a table file of either game, told apart by its magic (a Jungi table's moves into
// other materials are valued from the tables beside it: solver/jungi/table/query.hpp).
struct AnyTable {
  std::shared_ptr<Table> julgonu;
  std::shared_ptr<JungiFile> jungi;
  std::string path() const { return julgonu ? julgonu->path() : jungi->file.path(); }
};
using gonu::GonuError;

// A history as text: None, one string "b4-b3 c1-c2", or a sequence of moves.
std::string history_text(const py::object& h) {
  if (h.is_none()) return {};
  if (py::isinstance<py::str>(h)) return utf8_of(h);
  std::string s;
  for (const py::handle& m : h) {
    if (!py::isinstance<py::str>(m)) throw py::type_error("history: each move must be a str, like 'b4-b3'");
    if (!s.empty()) s += ' ';
    s += utf8_of(m);
  }
  return s;
}

using ojson = nlohmann::ordered_json;

// A JSON value as the Python value json.loads gives for it (objects keep their field order).
py::object to_python(const ojson& j) {
  switch (j.type()) {
    case ojson::value_t::null: return py::none();
    case ojson::value_t::boolean: return py::bool_(j.get<bool>());
    case ojson::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case ojson::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case ojson::value_t::number_float: return py::float_(j.get<double>());
    case ojson::value_t::string: return py::str(j.get_ref<const std::string&>());
    case ojson::value_t::array: {
      py::list l;
      for (const ojson& x : j) l.append(to_python(x));
      return l;
    }
    case ojson::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
      return d;
    }
    default: throw std::logic_error("a report holds no binary or discarded JSON values");
  }
}

// A report's field, None where the report leaves it out (as "note" without a tag).
py::object field(const ojson& j, const char* name) {
  const auto it = j.find(name);
  return it == j.end() ? py::object(py::none()) : to_python(*it);
}

std::string py_repr(const py::object& o) { return py::repr(o).cast<std::string>(); }

std::string text_of(const ojson& j, const char* name) { return j.at(name).get<std::string>(); }
int int_of(const ojson& j, const char* name) { return j.at(name).get<int>(); }
// A move's or a position's value for people; a Jungi move whose table is absent has no distance.
std::string value_of(const ojson& j) {
  return j.at("distance").is_null() ? text_of(j, "value") : value_text(text_of(j, "value"), int_of(j, "distance"));
}

// One entry of a probe's "moves".
struct ProbeMove {
  ojson json;
};

std::vector<ProbeMove> probe_moves(const ProbeAnswer& p) {
  std::vector<ProbeMove> moves;
  for (const ojson& m : p.json.at("moves")) moves.push_back({m});
  return moves;
}

// "<Probe xxxx/4/4/wwww x: DRAW for black; moves a4-a3 DRAW, b4-b3 LOSS in 12; best a4-a3>"
std::string probe_repr(const ProbeAnswer& p) {
  const ojson& j = p.json;
  std::string s = "<Probe " + text_of(j, "position") + ": " + value_text(text_of(j, "value"), int_of(j, "distance")) +
                  " for " + text_of(j, "side_to_move");
  if (!j.at("game_over").is_null()) s += " (" + text_of(j, "game_over") + ")";
  const ojson& moves = j.at("moves");
  if (!moves.empty()) {
    s += "; moves";
    for (std::size_t i = 0; i < moves.size(); ++i)
      s += (i ? ", " : " ") + text_of(moves[i], "move") + " " +
           value_of(moves[i]);
  }
  if (!j.at("engine_move").is_null()) s += "; best " + text_of(j, "engine_move");
  return s + ">";
}

std::string solve_repr(const SolveAnswer& a) {
  const ojson& j = a.json;
  return "<Solution " + text_of(j.at("rules"), "name") + " " + text_of(j.at("rules"), "board") + " from " +
         text_of(j, "root") + ": " + std::to_string(j.at("states").get<std::uint64_t>()) + " states, " +
         value_text(text_of(j, "value"), int_of(j, "distance")) + " for the side to move>";
}

// Read-only attributes, one per field of the class's JSON object.
template <class T>
void def_fields(py::class_<T>& c, std::initializer_list<const char*> names) {
  for (const char* name : names)
    c.def_property_readonly(name, [name](const T& x) { return field(x.json, name); });
}

// Fields as people write the moves: Jungi's answers carry them ("san", "pv_san", ...); in
// Jul-gonu's notation a move is written one way, so there they read the from-to field.
template <class T>
void def_san_fields(py::class_<T>& c, std::initializer_list<std::pair<const char*, const char*>> names) {
  for (const auto& [name, plain] : names)
    c.def_property_readonly(name, [name, plain](const T& x) { return x.json.contains(name) ? field(x.json, name) : field(x.json, plain); });
}

py::dict table_info(const Table& t) {
  const TableHeader& h = t.header();
  return py::dict("rules"_a = to_python(gonu::cli::rules_json(h.rules)), "board"_a = board_text(h.rules),
                  "root"_a = format_position(t.board(), h.root), "states"_a = h.states, "edges"_a = h.edges,
                  "wins"_a = h.wins, "losses"_a = h.losses, "draws"_a = h.draws, "max_distance"_a = h.max_dist,
                  "format_version"_a = h.format_version, "written_by"_a = "gonu " + h.gonu_version,
                  "file_size"_a = h.file_size);
}

// Opens the file once with os.open first (O_NONBLOCK: a FIFO does not block), so that a missing or
// unreadable file raises the OSError subclass Python users expect; what is in the file is then
// Table::open's to judge.
AnyTable open_table(const py::object& path) {
  const py::module_ os = py::module_::import("os");
  const py::bytes name = os.attr("fsencode")(path);
  const std::string p = name;
  // The error names the path as text (os.fsdecode), as open(str) would, not as a bytes repr.
  const py::object text = os.attr("fsdecode")(name);
  const py::object fd = os.attr("open")(text, os.attr("O_RDONLY").cast<int>() | os.attr("O_NONBLOCK").cast<int>());
  const py::object st = os.attr("fstat")(fd);
  os.attr("close")(fd);
  if (py::module_::import("stat").attr("S_ISDIR")(st.attr("st_mode")).cast<bool>()) {
    errno = EISDIR;  // as open() would say
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, text.ptr());
    throw py::error_already_set();
  }
  py::gil_scoped_release release;
  if (gonu::jungi::is_jungi_table_file(p))
    return {nullptr, open_jungi_file(p)};
  return {std::make_shared<Table>(Table::open(p)), nullptr};
}

RuleChoice rule_choice(const std::string& rules, const std::optional<std::string>& capture,
                       const std::optional<bool>& corner, const std::optional<std::string>& repetition,
                       const std::optional<std::string>& board, const std::optional<std::string>& first) {
  return RuleChoice{rules, capture, repetition, board, first, corner};
}

void bind_moves(py::module_& m) {
  py::class_<MoveInfo>(m, "Move", "A legal move in notation, as people write it (san), and the squares it captures.")
      .def_readonly("move", &MoveInfo::move, "in notation (Jungi: from-to, 'a6-a7')")
      .def_readonly("san", &MoveInfo::san, "as people write it (Jungi: 'Qa6-a7=+Q'; Jul-gonu: the same as move)")
      .def_readonly("captures", &MoveInfo::captures)
      .def("to_dict", [](const MoveInfo& x) { return py::dict("move"_a = x.move, "san"_a = x.san, "captures"_a = x.captures); })
      .def("__repr__", [](const MoveInfo& x) {
        return "Move(" + py_repr(py::str(x.move)) + (x.san == x.move ? "" : ", san=" + py_repr(py::str(x.san))) +
               ", captures=" + py_repr(py::cast(x.captures)) + ")";
      });

  py::class_<ProbeMove> move(m, "ProbeMove", "A legal move with its value and distance for the side that makes it.");
  def_fields(move, {"move", "captures", "value", "distance", "best", "rank"});
  def_san_fields(move, {{"san", "move"}});
  move.def("to_dict", [](const ProbeMove& x) { return to_python(x.json); })
      .def("__repr__", [](const ProbeMove& x) {
        return "<ProbeMove " + text_of(x.json, "move") + ": " +
               value_of(x.json) +
               (x.json.at("best").get<bool>() ? ", best>" : ">");
      });
}

void bind_probe(py::module_& m) {
  py::class_<ProbeAnswer> probe(m, "Probe", "A table's answer for one state: the fields of `gonu query --json`.");
  def_fields(probe, {"game", "material", "table", "rules", "start", "history", "position", "side_to_move", "history_decides_state",
                     "note", "game_over", "best", "engine_move", "pv", "pv_end", "stored", "searched_plies",
                     "histories"});
  def_san_fields(probe, {{"best_san", "best"}, {"engine_move_san", "engine_move"}, {"pv_san", "pv"}});
  probe.def_property_readonly("value", [](const ProbeAnswer& p) { return field(p.json, "value"); },
                              "'WIN', 'LOSS' or 'DRAW' for the side to move")
      .def_property_readonly("distance", [](const ProbeAnswer& p) { return field(p.json, "distance"); },
                             "plies to the end with perfect play; 0 for a draw")
      .def_property_readonly("moves", &probe_moves, "every legal move best first (the fastest win, draws, the slowest loss), as ProbeMove")
      .def("to_dict", [](const ProbeAnswer& p) { return to_python(p.json); },
           "the gonu-query/1 object of `gonu query --json`")
      .def("__repr__", &probe_repr);
}

void bind_solution(py::module_& m) {
  py::class_<SolveAnswer> solution(m, "Solution", "A solved rule set: the fields of `gonu solve --json`.");
  def_fields(solution, {"rules", "root", "history", "states", "edges", "wins", "losses", "draws", "max_distance",
                        "value", "distance", "moves", "verified", "engine", "estimated_peak_bytes", "seconds",
                        "peak_bytes", "bytes_per_state"});
  solution.def_readonly("wins_by_distance", &SolveAnswer::wins_by_distance, "states won in d plies, at index d")
      .def_readonly("losses_by_distance", &SolveAnswer::losses_by_distance, "states lost in d plies, at index d")
      .def("to_dict", [](const SolveAnswer& a) { return to_python(a.json); },
           "the gonu-solve/1 object of `gonu solve --json`")
      .def("__repr__", &solve_repr);
}

py::dict jungi_info(const JungiFile& f) {
  const gonu::jungi::TableFileHeader& h = f.file.header();
  return py::dict("game"_a = "jungi", "rules_id"_a = h.rules_id, "material"_a = h.material_text, "indices"_a = h.indices,
                  "positions"_a = h.positions, "wins"_a = py::make_tuple(h.wins[0], h.wins[1]),
                  "losses"_a = py::make_tuple(h.losses[0], h.losses[1]), "draws"_a = py::make_tuple(h.draws[0], h.draws[1]),
                  "max_distance"_a = std::max(h.longest_win, h.longest_loss), "format_version"_a = h.format_version,
                  "written_by"_a = "gonu " + h.gonu_version, "file_size"_a = h.file_size);
}

void bind_table(py::module_& m) {
  py::class_<AnyTable>(m, "Table", "An endgame table file written by `gonu solve --out FILE` (Jul-gonu or Jungi).")
      .def(py::init(&open_table), "path"_a)
      .def_static("of_position", [](const py::object& directory, const Text& position) {
             const std::string dir = py::bytes(py::module_::import("os").attr("fsencode")(directory));
             std::string path;
             {
               py::gil_scoped_release release;
               path = gonu::jungi::table_file_for(dir, [&](const gonu::jungi::Rules& r) { return gonu::jungi::parse_position(r, position.bytes); });
             }
             return open_table(py::bytes(path));
           }, "directory"_a, "position"_a,
           "The Jungi table of POSITION's material (or of its colour flip) in DIRECTORY, a directory of the tables "
           "of one reading as `gonu solve --game jungi --dir` writes them.")
      .def_property_readonly("path", &AnyTable::path)
      .def_property_readonly("game", [](const AnyTable& t) { return t.jungi ? "jungi" : "julgonu"; })
      .def_property_readonly("info", [](const AnyTable& t) { return t.jungi ? jungi_info(*t.jungi) : table_info(*t.julgonu); },
                             "the header: rules, counts, format (Jul-gonu: board and root; Jungi: material)")
      .def("__len__", [](const AnyTable& t) { return t.jungi ? t.jungi->file.header().positions : t.julgonu->size(); })
      .def("probe", [](const AnyTable& t, const std::optional<Text>& position, const py::object& history) {
             if (!t.jungi) return probe(*t.julgonu, bytes_of(position), history_text(history));
             if (!position) throw GonuError("a Jungi table's probe needs a position (of " + t.jungi->file.header().material_text + ")");
             const std::string moves = history_text(history);
             py::gil_scoped_release release;
             return jungi_probe(*t.jungi, position->bytes, moves);
           }, "position"_a = py::none(), "history"_a = py::none(),
           "The value of POSITION (default: the table's root; a Jungi table needs one) after HISTORY (a str or a "
           "list of moves), every legal move with its value best first, the best moves and the principal variation.")
      .def("__repr__", [](const AnyTable& t) {
        if (t.jungi)
          return "<Table " + py_repr(py::str(t.path())) + ": jungi " + t.jungi->file.header().material_text + ", " +
                 std::to_string(t.jungi->file.header().positions) + " positions>";
        return "<Table " + py_repr(py::str(t.path())) + ": " + t.julgonu->rules().name + " " +
               board_text(t.julgonu->rules()) + ", " + std::to_string(t.julgonu->size()) + " states>";
      });
}

// gonu.Tables: Jungi tables of directories and files, opened once (solver/jungi/table/tables.hpp).
struct PyTables {
  std::shared_ptr<const gonu::jungi::Tables> tables;
};

// A path, or a sequence of paths, as file names; a path that does not exist raises
// FileNotFoundError with the path as text.
std::vector<std::string> existing_paths(const py::object& paths) {
  const py::module_ os = py::module_::import("os");
  std::vector<py::object> list;
  if (py::isinstance<py::str>(paths) || py::isinstance<py::bytes>(paths) || py::hasattr(paths, "__fspath__")) list.push_back(paths);
  else
    for (const py::handle& p : paths) list.push_back(py::reinterpret_borrow<py::object>(p));
  std::vector<std::string> out;
  for (const py::object& p : list) {
    if (!os.attr("path").attr("exists")(p).cast<bool>()) {
      const py::object text = os.attr("fsdecode")(p);
      PyErr_SetObject(PyExc_FileNotFoundError,
                      py::make_tuple(ENOENT, os.attr("strerror")(ENOENT), text).ptr());
      throw py::error_already_set();
    }
    out.push_back(py::bytes(os.attr("fsencode")(p)));
  }
  return out;
}

void bind_tables(py::module_& m) {
  py::class_<PyTables>(m, "Tables",
                       "Jungi endgame tables of directories and files, opened once and probed many times: each table "
                       "is opened on first use and read a block at a time into one cache of decoded blocks, at most "
                       "max_memory bytes (the least recently used dropped first).")
      .def(py::init([](const py::object& paths, std::uint64_t max_memory) {
             const std::vector<std::string> files = existing_paths(paths);
             py::gil_scoped_release release;
             return PyTables{std::make_shared<const gonu::jungi::Tables>(files, max_memory)};
           }),
           "paths"_a, "max_memory"_a = gonu::jungi::kDefaultTablesMemory)
      .def("probe", [](const PyTables& t, const Text& position, const py::object& history, const std::string& reading) {
             const std::string moves = history_text(history);
             py::gil_scoped_release release;
             return jungi_probe(*t.tables, reading, position.bytes, moves);
           }, "position"_a, "history"_a = py::none(), "reading"_a = "",
           "The answer for POSITION after HISTORY from the table of its material (reading: a rules id such as "
           "'jungi/nohobble/compulsory/stalemate-loss/lancer-standard', needed where the set holds several): "
           "the fields of `gonu query --json`.")
      .def("value", [](const PyTables& t, const Text& position, const std::string& reading) {
             std::optional<gonu::jungi::Value> v;
             std::string missing;
             {
               py::gil_scoped_release release;
               const gonu::jungi::Rules r = jungi_reading(*t.tables, reading);
               v = t.tables->probe(r, gonu::jungi::parse_position(r, position.bytes), &missing);
             }
             if (!v) throw GonuError("no table of " + missing + " in the set");
             return py::make_tuple(std::string(gonu::to_string(gonu::jungi::game_value(v->result))), v->dist);
           }, "position"_a, "reading"_a = "",
           "(value, distance) of POSITION for its side to move: 'WIN', 'LOSS' or 'DRAW' and plies to the end.")
      .def_property_readonly("readings", [](const PyTables& t) {
             std::vector<std::string> ids;
             for (const gonu::jungi::Rules& r : t.tables->readings()) ids.push_back(gonu::jungi::rules_id(r));
             return ids;
           }, "the readings (rules ids) of the tables found")
      .def_property_readonly("materials", [](const PyTables& t) {
             py::list out;
             for (const gonu::jungi::TableEntry& e : t.tables->entries())
               out.append(py::dict("material"_a = gonu::jungi::material_text(e.material), "reading"_a = gonu::jungi::rules_id(e.rules),
                                   "path"_a = e.path));
             return out;
           }, "every table found: its material, reading and file")
      .def_property_readonly("held_bytes", [](const PyTables& t) { return t.tables->held_bytes(); },
                             "bytes of decoded blocks held now")
      .def("__len__", [](const PyTables& t) { return t.tables->entries().size(); })
      .def("__repr__", [](const PyTables& t) {
        return "<Tables: " + std::to_string(t.tables->entries().size()) + " Jungi tables, " + std::to_string(t.tables->readings().size()) +
               (t.tables->readings().size() == 1 ? " reading>" : " readings>");
      });
}

void bind_functions(py::module_& m) {
  m.def("solve", [](const std::string& rules, const std::optional<std::string>& board, int threads,
                    const std::optional<Text>& position, const py::object& history,
                    const std::optional<std::string>& capture, const std::optional<bool>& corner,
                    const std::optional<std::string>& repetition, const std::optional<std::string>& first,
                    const std::string& engine, std::uint64_t max_states, bool verify,
                    const std::optional<std::string>& out, std::uint64_t max_memory) {
          SolveRequest q{rule_choice(rules, capture, corner, repetition, board, first), bytes_of(position), std::nullopt,
                         threads, engine, max_states, max_memory, verify, out};
          if (!history.is_none()) q.history = history_text(history);
          py::gil_scoped_release release;  // a solve may take minutes; other threads run meanwhile
          return solve_rules(q);
        },
        "rules"_a = "free", "board"_a = py::none(), "threads"_a = 0, "position"_a = py::none(),
        "history"_a = py::none(), "capture"_a = py::none(), "corner"_a = py::none(), "repetition"_a = py::none(),
        "first"_a = py::none(), "engine"_a = "auto", "max_states"_a = 0, "verify"_a = false, "out"_a = py::none(),
        "max_memory"_a = 0,
        "Solves a rule set as `gonu solve` does: from the start, or from POSITION after HISTORY; "
        "board 'RxC' (default: the rule set's, or POSITION's); threads 0 for all cores; "
        "engine 'auto', 'dense', 'compact' or 'graph'; out writes a table file; a solve whose estimated "
        "peak memory passes max_memory bytes (0: the machine's physical memory) is refused before it starts.");
  m.def("moves", [](const Text& position, const std::string& rules, const py::object& history,
                    const std::optional<std::string>& capture, const std::optional<bool>& corner,
                    const std::optional<std::string>& repetition, const std::optional<std::string>& first,
                    const std::string& game, const std::optional<bool>& hobbling, const std::optional<std::string>& promotion,
                    const std::optional<std::string>& stalemate, const std::optional<std::string>& lancer) {
          const bool julgonu_parts = rules != "free" || capture || corner || repetition || first;
          const bool jungi_parts = hobbling || promotion || stalemate || lancer;
          if (game == "jungi") {
            if (julgonu_parts) throw GonuError("rules, capture, corner, repetition and first are Jul-gonu's: a Jungi reading takes hobbling, promotion, stalemate and lancer");
            return jungi_move_list({hobbling, promotion, stalemate, lancer}, position.bytes, history_text(history));
          }
          if (game != "julgonu") throw GonuError("game is 'julgonu' or 'jungi', not '" + game + "'");
          if (jungi_parts) throw GonuError("hobbling, promotion, stalemate and lancer are Jungi's (game='jungi')");
          return legal_move_list(rule_choice(rules, capture, corner, repetition, std::nullopt, first), position.bytes,
                                 history_text(history));
        },
        "position"_a, "rules"_a = "free", "history"_a = py::none(), "capture"_a = py::none(),
        "corner"_a = py::none(), "repetition"_a = py::none(), "first"_a = py::none(), "game"_a = "julgonu",
        "hobbling"_a = py::none(), "promotion"_a = py::none(), "stalemate"_a = py::none(), "lancer"_a = py::none(),
        "The legal moves of POSITION after HISTORY (repetition bans applied), in move order, each "
        "with its notation (move), as people write it (san) and the squares it captures; empty when the game "
        "is over. game='jungi' reads a Jungi position (the reading: hobbling True|False, promotion "
        "'compulsory'|'optional', stalemate 'loss'|'draw', lancer 'standard'|'queen').");
  m.def("rule_sets", [] {
        py::dict d;
        for (const gonu::NamedRules& n : gonu::named_rule_sets()) d[py::str(n.rules.name)] = gonu::describe(n.rules);
        return d;
      }, "The named rule sets, each with its parts in one line (as `gonu rules`).");
}

}  // namespace

// The classes first, so that the functions' signatures in help() name them.
PYBIND11_MODULE(gonu, m) {
  m.doc() = "gonu: exact solutions of Jul-gonu. Table(path).probe(position) reads an endgame table "
            "written by `gonu solve --out` (Jul-gonu's, or a Jungi material's from `gonu solve --game jungi`); "
            "solve(...) solves a rule set; moves(...) lists legal moves. "
            "Bad input raises gonu.Error (a ValueError); an unreadable file raises OSError.";
  m.attr("__version__") = gonu::kVersion;
  py::register_exception<gonu::GonuError>(m, "Error", PyExc_ValueError);
  bind_moves(m);
  bind_probe(m);
  bind_solution(m);
  bind_table(m);
  bind_tables(m);
  bind_functions(m);
}
