// The Python module `gonu` (pybind11): Table(path).probe(position, history), solve(...), moves(...)
// and rule_sets(). Results are small classes with attributes, a readable repr and to_dict(), whose
// dict has the same fields as the gonu program's --json output. Every gonu::GonuError becomes
// gonu.Error (a ValueError); a table file that cannot be opened raises the OSError Python's open()
// would (FileNotFoundError, PermissionError, IsADirectoryError). The work is in answers.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "core/error.hpp"
#include "python/answers.hpp"
#include "util/version.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

using namespace gonu::pymod;
using gonu::Table;
using gonu::TableHeader;
using gonu::GonuError;

// A history as text: None, one string "b4-b3 c1-c2", or a sequence of moves.
std::string history_text(const py::object& h) {
  if (h.is_none()) return {};
  if (py::isinstance<py::str>(h)) return h.cast<std::string>();
  std::string s;
  for (const py::handle& m : h) {
    if (!py::isinstance<py::str>(m)) throw py::type_error("history: each move must be a str, like 'b4-b3'");
    if (!s.empty()) s += ' ';
    s += m.cast<std::string>();
  }
  return s;
}

py::dict rules_dict(const RulesInfo& r, bool with_id) {
  py::dict d;
  d["name"] = r.name;
  if (with_id) d["id"] = r.id;
  d["board"] = r.board;
  d["capture"] = r.capture;
  d["corner"] = r.corner;
  d["repetition"] = r.repetition;
  d["first"] = r.first;
  return d;
}

py::object or_none(const std::optional<std::string>& s) { return s ? py::object(py::str(*s)) : py::object(py::none()); }

std::string py_repr(const py::object& o) { return py::repr(o).cast<std::string>(); }

py::dict probe_move_dict(const ProbeMove& m) {
  return py::dict("move"_a = m.move, "captures"_a = m.captures, "value"_a = m.value, "distance"_a = m.distance,
                  "best"_a = m.best);
}

// The gonu-query/1 object of tools/README-query.md, field for field and in its order.
py::dict probe_dict(const ProbeAnswer& p) {
  py::dict d;
  d["schema"] = "gonu-query/1";
  d["table"] = p.table;
  d["rules"] = rules_dict(p.rules, true);
  d["start"] = p.start;
  d["history"] = p.history;
  d["position"] = p.position;
  d["side_to_move"] = p.side_to_move;
  d["history_decides_state"] = p.history_decides_state;
  if (p.note) d["note"] = *p.note;
  d["value"] = p.value;
  d["distance"] = p.distance;
  d["game_over"] = or_none(p.game_over);
  py::list moves;
  for (const ProbeMove& m : p.moves) moves.append(probe_move_dict(m));
  d["moves"] = moves;
  d["best"] = p.best;
  d["engine_move"] = or_none(p.engine_move);
  d["pv"] = p.pv;
  d["pv_end"] = or_none(p.pv_end);
  return d;
}

// "<Probe xxxx/4/4/wwww x: DRAW for black; moves a4-a3 DRAW, b4-b3 LOSS in 12; best a4-a3>"
std::string probe_repr(const ProbeAnswer& p) {
  std::string s = "<Probe " + p.position + ": " + value_text(p.value, p.distance) + " for " + p.side_to_move;
  if (p.game_over) s += " (" + *p.game_over + ")";
  if (!p.moves.empty()) {
    s += "; moves";
    for (std::size_t i = 0; i < p.moves.size(); ++i)
      s += (i ? ", " : " ") + p.moves[i].move + " " + value_text(p.moves[i].value, p.moves[i].distance);
  }
  if (p.engine_move) s += "; best " + *p.engine_move;
  return s + ">";
}

py::dict solve_dict(const SolveAnswer& a) {
  py::dict d;
  d["rules"] = rules_dict(a.rules, false);
  d["root"] = a.root;
  if (a.history) d["history"] = *a.history;
  d["states"] = a.states;
  d["edges"] = a.edges;
  d["wins"] = a.wins;
  d["losses"] = a.losses;
  d["draws"] = a.draws;
  d["max_distance"] = a.max_distance;
  d["value"] = a.value;
  d["distance"] = a.distance;
  py::list moves;
  for (const RootMove& m : a.moves) moves.append(py::dict("move"_a = m.move, "value"_a = m.value, "distance"_a = m.distance));
  d["moves"] = moves;
  if (a.verified) d["verified"] = *a.verified;
  if (a.table_file) d["table"] = py::dict("file"_a = *a.table_file, "bytes"_a = a.table_bytes);
  return d;
}

std::string solve_repr(const SolveAnswer& a) {
  return "<Solution " + a.rules.name + " " + a.rules.board + " from " + a.root + ": " + std::to_string(a.states) +
         " states, " + value_text(a.value, a.distance) + " for the side to move>";
}

py::dict table_info(const Table& t) {
  const TableHeader& h = t.header();
  return py::dict("rules"_a = rules_dict(rules_info(h.rules), true), "board"_a = rules_info(h.rules).board,
                  "root"_a = format_position(t.board(), h.root), "states"_a = h.states, "edges"_a = h.edges,
                  "wins"_a = h.wins, "losses"_a = h.losses, "draws"_a = h.draws, "max_distance"_a = h.max_dist,
                  "format_version"_a = h.format_version, "written_by"_a = "gonu " + h.gonu_version,
                  "file_size"_a = h.file_size);
}

// Opens the file once with Python's open() first, so that a missing or unreadable file raises the
// OSError subclass Python users expect; what is in the file is then Table::open's to judge.
std::shared_ptr<Table> open_table(const py::object& path) {
  const std::string p = py::module_::import("os").attr("fspath")(path).cast<std::string>();
  py::module_::import("builtins").attr("open")(p, "rb").attr("close")();
  py::gil_scoped_release release;
  return std::make_shared<Table>(Table::open(p));
}

RuleChoice rule_choice(const std::string& rules, const std::optional<std::string>& capture,
                       const std::optional<bool>& corner, const std::optional<std::string>& repetition,
                       const std::optional<std::string>& board, const std::optional<std::string>& first) {
  return RuleChoice{rules, capture, repetition, board, first, corner};
}

void bind_moves(py::module_& m) {
  py::class_<MoveInfo>(m, "Move", "A legal move in notation and the squares it captures.")
      .def_readonly("move", &MoveInfo::move)
      .def_readonly("captures", &MoveInfo::captures)
      .def("to_dict", [](const MoveInfo& x) { return py::dict("move"_a = x.move, "captures"_a = x.captures); })
      .def("__repr__", [](const MoveInfo& x) {
        return "Move(" + py_repr(py::str(x.move)) + ", captures=" + py_repr(py::cast(x.captures)) + ")";
      });

  py::class_<ProbeMove>(m, "ProbeMove", "A legal move with its value and distance for the side that makes it.")
      .def_readonly("move", &ProbeMove::move)
      .def_readonly("captures", &ProbeMove::captures)
      .def_readonly("value", &ProbeMove::value)
      .def_readonly("distance", &ProbeMove::distance)
      .def_readonly("best", &ProbeMove::best)
      .def("to_dict", &probe_move_dict)
      .def("__repr__", [](const ProbeMove& x) {
        return "<ProbeMove " + x.move + ": " + value_text(x.value, x.distance) + (x.best ? ", best>" : ">");
      });
}

void bind_probe(py::module_& m) {
  py::class_<ProbeAnswer>(m, "Probe", "A table's answer for one state: the fields of `gonu query --json`.")
      .def_readonly("table", &ProbeAnswer::table)
      .def_property_readonly("rules", [](const ProbeAnswer& p) { return rules_dict(p.rules, true); })
      .def_readonly("start", &ProbeAnswer::start)
      .def_readonly("history", &ProbeAnswer::history)
      .def_readonly("position", &ProbeAnswer::position)
      .def_readonly("side_to_move", &ProbeAnswer::side_to_move)
      .def_readonly("history_decides_state", &ProbeAnswer::history_decides_state)
      .def_readonly("note", &ProbeAnswer::note)
      .def_readonly("value", &ProbeAnswer::value, "'WIN', 'LOSS' or 'DRAW' for the side to move")
      .def_readonly("distance", &ProbeAnswer::distance, "plies to the end with perfect play; 0 for a draw")
      .def_readonly("game_over", &ProbeAnswer::game_over)
      .def_readonly("moves", &ProbeAnswer::moves)
      .def_readonly("best", &ProbeAnswer::best)
      .def_readonly("engine_move", &ProbeAnswer::engine_move)
      .def_readonly("pv", &ProbeAnswer::pv)
      .def_readonly("pv_end", &ProbeAnswer::pv_end)
      .def("to_dict", &probe_dict, "the gonu-query/1 object of `gonu query --json`")
      .def("__repr__", &probe_repr);
}

void bind_solution(py::module_& m) {
  py::class_<SolveAnswer>(m, "Solution", "A solved rule set: the fields of `gonu solve --json`.")
      .def_property_readonly("rules", [](const SolveAnswer& a) { return rules_dict(a.rules, false); })
      .def_readonly("root", &SolveAnswer::root)
      .def_readonly("history", &SolveAnswer::history)
      .def_readonly("states", &SolveAnswer::states)
      .def_readonly("edges", &SolveAnswer::edges)
      .def_readonly("wins", &SolveAnswer::wins)
      .def_readonly("losses", &SolveAnswer::losses)
      .def_readonly("draws", &SolveAnswer::draws)
      .def_readonly("max_distance", &SolveAnswer::max_distance)
      .def_readonly("value", &SolveAnswer::value)
      .def_readonly("distance", &SolveAnswer::distance)
      .def_property_readonly("moves", [](const SolveAnswer& a) {
        py::list l;
        for (const RootMove& x : a.moves) l.append(py::dict("move"_a = x.move, "value"_a = x.value, "distance"_a = x.distance));
        return l;
      })
      .def_readonly("verified", &SolveAnswer::verified)
      .def_readonly("wins_by_distance", &SolveAnswer::wins_by_distance, "states won in d plies, at index d")
      .def_readonly("losses_by_distance", &SolveAnswer::losses_by_distance, "states lost in d plies, at index d")
      .def("to_dict", &solve_dict, "the object of `gonu solve --json`")
      .def("__repr__", &solve_repr);
}

void bind_table(py::module_& m) {
  py::class_<Table, std::shared_ptr<Table>>(m, "Table", "An endgame table file written by `gonu solve --out FILE`.")
      .def(py::init(&open_table), "path"_a)
      .def_property_readonly("path", &Table::path)
      .def_property_readonly("info", &table_info, "the header: rules, board, root, counts, format")
      .def("__len__", [](const Table& t) { return t.size(); })
      .def("probe", [](const Table& t, const std::optional<std::string>& position, const py::object& history) {
             return probe(t, position, history_text(history));
           }, "position"_a = py::none(), "history"_a = py::none(),
           "The value of POSITION (default: the table's root) after HISTORY (a str or a list of moves), "
           "every legal move with its value, the best moves and the principal variation.")
      .def("__repr__", [](const Table& t) {
        return "<Table " + py_repr(py::str(t.path())) + ": " + t.rules().name + " " + rules_info(t.rules()).board +
               ", " + std::to_string(t.size()) + " states>";
      });
}

void bind_functions(py::module_& m) {
  m.def("solve", [](const std::string& rules, const std::optional<std::string>& board, int threads,
                    const std::optional<std::string>& position, const py::object& history,
                    const std::optional<std::string>& capture, const std::optional<bool>& corner,
                    const std::optional<std::string>& repetition, const std::optional<std::string>& first,
                    const std::string& engine, std::uint64_t max_states, bool verify,
                    const std::optional<std::string>& out) {
          SolveRequest q{rule_choice(rules, capture, corner, repetition, board, first), position, std::nullopt,
                         threads, engine, max_states, verify, out};
          if (!history.is_none()) q.history = history_text(history);
          py::gil_scoped_release release;  // a solve may take minutes; other threads run meanwhile
          return solve_rules(q);
        },
        "rules"_a = "free", "board"_a = py::none(), "threads"_a = 0, "position"_a = py::none(),
        "history"_a = py::none(), "capture"_a = py::none(), "corner"_a = py::none(), "repetition"_a = py::none(),
        "first"_a = py::none(), "engine"_a = "auto", "max_states"_a = 0, "verify"_a = false, "out"_a = py::none(),
        "Solves a rule set as `gonu solve` does: from the start, or from POSITION after HISTORY; "
        "board 'RxC' (default: the rule set's, or POSITION's); threads 0 for all cores; "
        "out writes a table file.");
  m.def("moves", [](const std::string& position, const std::string& rules, const py::object& history,
                    const std::optional<std::string>& capture, const std::optional<bool>& corner,
                    const std::optional<std::string>& repetition, const std::optional<std::string>& first) {
          return legal_move_list(rule_choice(rules, capture, corner, repetition, std::nullopt, first), position,
                                 history_text(history));
        },
        "position"_a, "rules"_a = "free", "history"_a = py::none(), "capture"_a = py::none(),
        "corner"_a = py::none(), "repetition"_a = py::none(), "first"_a = py::none(),
        "The legal moves of POSITION after HISTORY (repetition bans applied), in move order, each "
        "with the squares it captures; empty when the game is over.");
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
            "written by `gonu solve --out`; solve(...) solves a rule set; moves(...) lists legal moves. "
            "Bad input raises gonu.Error (a ValueError); an unreadable file raises OSError.";
  m.attr("__version__") = gonu::kVersion;
  py::register_exception<gonu::GonuError>(m, "Error", PyExc_ValueError);
  bind_moves(m);
  bind_probe(m);
  bind_solution(m);
  bind_table(m);
  bind_functions(m);
}
