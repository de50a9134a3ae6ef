// The explorer's API answers: find the table, bound the request, replay the game, build the JSON.
// Bad input is a 4xx with one line naming it; the caller never sees an exception from here.
#include "tools/serve/api.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include "core/error.hpp"
#include "solver/jungi/generator/material.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/julgonu/certificate_query.hpp"
#include "tools/jungi/jungi_query_json.hpp"
#include "tools/julgonu/query_json.hpp"
#include "tools/julgonu/table_cli.hpp"

namespace gonu::cli {

namespace {

using ojson = nlohmann::ordered_json;

// The file's name without the directory and `extension`.
std::string file_stem(const std::string& path, const std::string& extension = ".gonu") {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (name.size() > extension.size() && name.ends_with(extension)) name.resize(name.size() - extension.size());
  return name.empty() ? "table" : name;
}

// Every answer is valid UTF-8: text from a request or a file name that is not is written with U+FFFD.
std::string json_text(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

ApiAnswer ok(const ojson& j) { return {200, json_text(j)}; }

// An error of a served table with the table's file named by its id: answers never show where the
// server keeps its files.
ApiAnswer table_error(const ServedTable& t, const std::string& message) {
  std::string out = message;
  const std::string& path = t.path();
  for (std::size_t at = out.find(path); !path.empty() && at != std::string::npos; at = out.find(path, at + t.id.size()))
    out.replace(at, path.size(), t.id);
  return api_error(400, out);
}

std::vector<std::string> split_moves(const std::string& history) {
  std::vector<std::string> moves;
  std::istringstream in(history);
  for (std::string m; in >> m;) moves.push_back(m);
  return moves;
}

// The Jul-gonu table a request names (none: the first table), or nullptr.
const ServedTable* find_table(const std::vector<ServedTable>& tables, const std::string& id) {
  if (id.empty()) return tables.empty() ? nullptr : &tables.front();
  for (const ServedTable& t : tables)
    if (t.id == id) return &t;
  return nullptr;
}

// The Jungi set a request names (none, with no Jul-gonu table: the first set), or nullptr.
const ServedJungiSet* find_set(const Served& s, const std::string& id) {
  if (id.empty() && s.tables.empty()) return s.jungi_sets.empty() ? nullptr : &s.jungi_sets.front();
  for (const ServedJungiSet& j : s.jungi_sets)
    if (j.id == id) return &j;
  return nullptr;
}

bool id_taken(const Served& s, const std::string& id) {
  return (!id.empty() && find_table(s.tables, id)) || std::any_of(s.jungi_sets.begin(), s.jungi_sets.end(),
                                                                   [&](const ServedJungiSet& j) { return j.id == id; });
}

// The certificate a request names, or nullptr.
const ServedCertificate* find_certificate(const std::vector<ServedCertificate>& certificates, const std::string& id) {
  if (id.empty()) return certificates.empty() ? nullptr : &certificates.front();
  for (const ServedCertificate& c : certificates)
    if (c.id == id) return &c;
  return nullptr;
}

// The size checks every game request shares: a 413 answer, or nothing if the request may go on.
std::optional<ApiAnswer> check_size(const ExplorerRequest& r) {
  if (r.position && r.position->size() > kMaxPositionChars)
    return api_error(413, "position is " + std::to_string(r.position->size()) + " characters long; at most " +
                              std::to_string(kMaxPositionChars));
  const std::size_t moves = split_moves(r.history).size();
  if (moves > kMaxHistoryMoves)
    return api_error(413, "history has " + std::to_string(moves) + " moves; at most " +
                              std::to_string(kMaxHistoryMoves));
  return std::nullopt;
}

// The checks every table request shares: a 4xx answer, or nothing if the request may go on.
std::optional<ApiAnswer> check_request(const Served& s, const ExplorerRequest& r) {
  if (!find_table(s.tables, r.table) && !find_set(s, r.table)) {
    std::string names;
    for (const ServedTable& t : s.tables) names += (names.empty() ? "" : ", ") + t.id;
    for (const ServedJungiSet& j : s.jungi_sets) names += (names.empty() ? "" : ", ") + j.id;
    return api_error(404, "unknown table '" + printable(r.table) + "' (loaded: " + names + ")");
  }
  return check_size(r);
}

// The game a request names; throws GonuError for a bad position or an illegal history.
Game request_game(const Table& t, const ExplorerRequest& r) {
  return game_for_query(t, r.position, r.history);
}

ojson ply_json(const Table& t, const Game& g, const QueryAnswer& a) {
  const Position& p = current(g);
  const std::string over = game_over_reason(g);
  return {{"ply", g.moves.size()},
          {"move", g.moves.empty() ? ojson(nullptr) : ojson(format_move(t.board(), t.rules(), g.moves.back()))},
          {"position", format_position(t.board(), p)},
          {"side_to_move", to_string(p.to_move)},
          {"value", to_string(a.value)},
          {"distance", a.dist},
          {"game_over", over.empty() ? ojson(nullptr) : ojson(over)}};
}

// ---- Jungi sets ----------------------------------------------------------------------------

// A Jungi error with the server's paths replaced: a table's file by its material, a directory by
// "DIR" (as the command that makes a missing table names it).
ApiAnswer jungi_error(const Served& s, int status, std::string message) {
  auto scrub = [&](const std::string& path, const std::string& by) {
    for (std::size_t at = message.find(path); !path.empty() && at != std::string::npos; at = message.find(path, at + by.size()))
      message.replace(at, path.size(), by);
  };
  for (const jungi::TableEntry& e : s.jungi->entries()) scrub(e.path, jungi::material_text(e.material));
  for (std::string path : s.jungi_paths) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    scrub(path, "DIR");
  }
  return api_error(status, message);
}

// The positions of a Jungi game: its position (required) then one after each move of the history;
// `moves` gets each move as format_move writes it, `sans` (if given) in SAN.
std::vector<jungi::Position> jungi_line_positions(const jungi::Rules& rules, const ExplorerRequest& r,
                                                  std::vector<std::string>& moves, std::vector<std::string>* sans = nullptr) {
  if (!r.position) throw GonuError("a Jungi query needs a position");
  std::vector<jungi::Position> line{jungi::parse_position(rules, *r.position)};
  const std::vector<std::string> typed = split_moves(r.history);
  for (std::size_t n = 0; n < typed.size(); ++n) {
    try {
      std::string over;
      if (jungi::outcome(rules, line.back(), &over) != jungi::Outcome::ongoing) throw GonuError("the game is over: " + over);
      const jungi::Move m = jungi::parse_move(rules, line.back(), typed[n]);
      moves.push_back(jungi::format_move(rules, line.back(), m));
      if (sans) sans->push_back(jungi::format_move_san(rules, line.back(), m));
      line.push_back(jungi::apply_move(line.back(), m));
    } catch (const GonuError& e) {
      throw GonuError("history move " + std::to_string(n + 1) + ": " + e.what());
    }
  }
  return line;
}

// The side to move as gonu-jungi-query/1 names it (lower case, as Jul-gonu's).
const char* side_text(jungi::Side s) { return s == jungi::Side::south ? "south" : "north"; }

// The answer where a royal was taken (the game is over: no table holds such a position), in
// gonu-jungi-query/1's shape.
ojson royal_taken_json(const ServedJungiSet& set, const jungi::Position& p) {
  ojson j = {{"schema", "gonu-jungi-query/1"}, {"game", "jungi"}, {"table", set.id}};
  j["rules"] = {{"id", jungi::rules_id(set.rules)}, {"text", jungi::describe(set.rules)}};
  j["material"] = nullptr;
  j["position"] = jungi::format_position(p);
  j["side_to_move"] = side_text(p.to_move);
  j["value"] = "LOSS";
  j["distance"] = 0;
  std::string over;
  jungi::outcome(set.rules, p, &over);
  j["game_over"] = over;
  j["moves"] = ojson::array();
  j["best"] = ojson::array();
  j["engine_move"] = nullptr;
  j["pv"] = ojson::array();
  j["pv_end"] = nullptr;
  return j;
}

// Throws GonuError naming the command that makes the table of p's material if none is served.
void check_served(const Served& s, const jungi::Rules& r, const jungi::Position& p) {
  const jungi::Material kept = jungi::canonical(jungi::material_of(p));
  if (!s.jungi->table(r, kept))
    throw GonuError("no table of " + jungi::material_text(kept) + " is served here; `" + jungi::solve_command(r, kept, "DIR") +
                    "` makes it");
}

ApiAnswer jungi_query(const Served& s, const ServedJungiSet& set, const ExplorerRequest& r) {
  try {
    std::vector<std::string> moves;
    const std::vector<jungi::Position> line = jungi_line_positions(set.rules, r, moves);
    const jungi::Position& p = line.back();
    if (p.royal[0] < 0 || p.royal[1] < 0) return ok(royal_taken_json(set, p));
    check_served(s, set.rules, p);
    const jungi::PositionAnswer a = s.jungi->query(set.rules, p, true);
    ojson j = jungi_query_json(*s.jungi->table(set.rules, jungi::canonical(jungi::material_of(p))), a);
    j["table"] = set.id;
    for (ojson& m : j["moves"])  // a move into a material not served: the command that makes it
      if (m.contains("missing_table"))
        m["missing_command"] = jungi::solve_command(set.rules, jungi::parse_material(m["missing_table"].get<std::string>()), "DIR");
    return ok(j);
  } catch (const GonuError& e) {
    return jungi_error(s, 400, e.what());
  }
}

// One ply of a Jungi line: the value for the side to move, or UNKNOWN where its table is absent.
ojson jungi_ply_json(const Served& s, const jungi::Rules& rules, const jungi::Position& p) {
  ojson ply{{"position", jungi::format_position(p)}, {"side_to_move", side_text(p.to_move)}};
  std::string over;
  const bool ended = jungi::outcome(rules, p, &over) != jungi::Outcome::ongoing;
  if (p.royal[0] < 0 || p.royal[1] < 0) {
    ply["value"] = "LOSS", ply["distance"] = 0;
  } else {
    std::optional<jungi::Value> v;
    try {
      v = s.jungi->probe(rules, p);
    } catch (const GonuError&) {  // a table refused: its queries say why; here the ply is unknown
    }
    ply["value"] = v ? to_string(jungi::game_value(v->result)) : "UNKNOWN";
    ply["distance"] = v ? v->dist : 0;
  }
  ply["game_over"] = ended ? ojson(over) : ojson(nullptr);
  return ply;
}

ApiAnswer jungi_line(const Served& s, const ServedJungiSet& set, const ExplorerRequest& r) {
  try {
    std::vector<std::string> moves, sans;
    const std::vector<jungi::Position> line = jungi_line_positions(set.rules, r, moves, &sans);
    ojson plies = ojson::array();
    for (std::size_t k = 0; k < line.size(); ++k) {
      ojson ply{{"ply", k}, {"move", k ? ojson(moves[k - 1]) : ojson(nullptr)}, {"san", k ? ojson(sans[k - 1]) : ojson(nullptr)}};
      ply.update(jungi_ply_json(s, set.rules, line[k]));
      plies.push_back(ply);
    }
    ojson j;
    j["schema"] = "gonu-line/1";
    j["table"] = set.id;
    j["start"] = jungi::format_position(line.front());
    j["plies"] = plies;
    return ok(j);
  } catch (const GonuError& e) {
    return jungi_error(s, 400, e.what());
  }
}

ojson jungi_set_json(const ServedJungiSet& set) {
  return {{"id", set.id},
          {"game", "jungi"},
          {"rules", {{"id", jungi::rules_id(set.rules)}, {"text", jungi::describe(set.rules)}}},
          {"board", "9x9"},
          {"materials", set.materials},
          {"root", set.example}};
}

// A material's line of the list: its header's counts and an example (its longest win, else its
// first valid index), or the error that refused its file.
ojson material_json(const Served& s, const ServedJungiSet& set, const jungi::Material& m) {
  ojson j{{"material", jungi::material_text(m)}};
  try {
    const jungi::TableFile* t = s.jungi->table(set.rules, m);
    const jungi::TableFileHeader& h = t->header();
    jungi::Position example;
    bool found = h.longest_win >= 0 && t->indexer().decode(h.longest_win_index, example);
    for (std::uint64_t i = 0; !found && i < h.indices; ++i) found = t->indexer().decode(i, example);
    j["positions"] = h.positions;
    j["wins"] = h.wins;
    j["draws"] = h.draws;
    j["losses"] = h.losses;
    j["longest_win"] = h.longest_win;
    j["example"] = found ? ojson(jungi::format_position(example)) : ojson(nullptr);
  } catch (const GonuError& e) {
    j["error"] = ojson::parse(jungi_error(s, 400, e.what()).body)["error"];
  }
  return j;
}

// Fewest pieces first, then by the material's text.
bool fewer_pieces_first(const jungi::Material& a, const jungi::Material& b) {
  if (a.pieces() != b.pieces()) return a.pieces() < b.pieces();
  return jungi::material_text(a) < jungi::material_text(b);
}

// The set's name: "jungi" for the default reading, else "jungi-" and its options.
std::string set_id(const jungi::Rules& r) {
  if (r == jungi::Rules{}) return "jungi";
  std::string id = jungi::rules_id(r);
  std::replace(id.begin(), id.end(), '/', '-');
  return id;
}

// The set's example: the longest win of its greatest material (most pieces, then most
// unpromoted) that has a win, else the first position of a table that opens. Opens one table, or
// a few where the greatest have no win or are refused, at most kExampleTries, so that a start
// among many damaged tables stays quick; past them, the two Kings (whose table may be absent:
// the page then names the command that makes it).
std::string set_example(const Served& s, const jungi::Rules& r) {
  std::vector<jungi::Material> materials;
  for (const jungi::TableEntry& e : s.jungi->entries())
    if (e.rules == r) materials.push_back(e.material);
  std::sort(materials.begin(), materials.end(), [](const jungi::Material& a, const jungi::Material& b) {
    return std::pair(a.pieces(), a.unpromoted()) > std::pair(b.pieces(), b.unpromoted());
  });
  constexpr std::size_t kExampleTries = 16;
  if (materials.size() > kExampleTries) materials.resize(kExampleTries);
  std::string first;
  for (const jungi::Material& m : materials) {
    const ojson j = material_json(s, ServedJungiSet{"", r, 0, ""}, m);
    if (!j.contains("example") || j["example"].is_null()) continue;
    if (j["longest_win"].get<int>() > 0) return j["example"];
    if (first.empty()) first = j["example"];
  }
  return first.empty() ? "4k4/9/9/9/9/9/9/9/4K4 s -" : first;
}

// The Jungi paths of `paths`: a Jungi table file, or a directory that holds one (by its magic).
bool holds_jungi_tables(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return jungi::is_jungi_table_file(path);
  for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
    if (e.path().extension() == ".gonu" && jungi::is_jungi_table_file(e.path().string())) return true;
  return false;
}

// The Jul-gonu tables of a directory: its .gonu files that are not Jungi tables, by name.
std::vector<std::string> julgonu_tables_in(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".gonu" && e.is_regular_file(ec) && !jungi::is_jungi_table_file(e.path().string()))
      out.push_back(e.path().string());
  if (ec) throw GonuError("cannot list " + dir + ": " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

struct Served::Lists {
  std::mutex lock;
  std::map<std::string, std::string> materials;  // gonu-materials/1 bodies by set id
};

Served::Served() : lists(std::make_unique<Lists>()) {}
Served::Served(Served&&) noexcept = default;
Served& Served::operator=(Served&&) noexcept = default;
Served::~Served() = default;

namespace {

std::string unique_id(const Served& s, const std::string& stem) {
  std::string id = stem;
  for (int n = 2; id_taken(s, id); ++n) id = stem + "-" + std::to_string(n);
  return id;
}

void add_certificate(Served& s, const std::string& path) {
  std::string id = file_stem(path, ".cert");
  for (int n = 2; find_certificate(s.certificates, id); ++n) id = file_stem(path, ".cert") + "-" + std::to_string(n);
  s.certificates.push_back({id, CertificatePlayer::load(path)});
}

// A Jul-gonu table, unless the same file is served already (given again, or by its directory).
void add_julgonu_table(Served& s, const std::string& path) {
  std::error_code ec;
  for (const ServedTable& t : s.tables)
    if (std::filesystem::equivalent(t.path(), path, ec)) return;
  s.tables.push_back({unique_id(s, file_stem(path)), Table::open(path)});
}

// Jul-gonu tables now; the Jungi paths kept for jungi::Tables, which opens them after.
void add_path(Served& s, const std::string& path) {
  std::error_code ec;
  const bool dir = std::filesystem::is_directory(path, ec);
  if (!dir && path.ends_with(".cert")) return add_certificate(s, path);
  if (holds_jungi_tables(path)) s.jungi_paths.push_back(path);
  if (!dir && !jungi::is_jungi_table_file(path)) add_julgonu_table(s, path);
  if (dir)
    for (const std::string& t : julgonu_tables_in(path)) add_julgonu_table(s, t);
}

}  // namespace

Served open_served(const std::vector<std::string>& paths, const std::vector<std::string>& certificates,
                   std::uint64_t max_memory) {
  Served s;
  for (const std::string& path : paths) add_path(s, path);
  for (const std::string& path : certificates) add_certificate(s, path);
  if (s.tables.empty() && s.certificates.empty() && s.jungi_paths.empty()) {
    std::string list;
    for (const std::string& path : paths) list += (list.empty() ? "" : ", ") + path;
    throw GonuError("nothing to serve: no table or superko proof in " + list);
  }
  if (s.jungi_paths.empty()) return s;
  s.jungi = std::make_unique<jungi::Tables>(s.jungi_paths, max_memory);
  for (const jungi::Rules& r : s.jungi->readings()) {
    ServedJungiSet set{unique_id(s, set_id(r)), r, 0, set_example(s, r)};
    for (const jungi::TableEntry& e : s.jungi->entries()) set.materials += e.rules == r;
    s.jungi_sets.push_back(set);
  }
  return s;
}

std::string served_summary(const Served& s) {
  std::string out;
  auto add = [&](const std::string& text) { out += (out.empty() ? "" : ", ") + text; };
  for (const ServedTable& t : s.tables)
    add(t.id + ": " + t.table.rules().name + " " + std::to_string(t.table.board().rows) + "x" + std::to_string(t.table.board().cols));
  for (const ServedJungiSet& set : s.jungi_sets)
    add(set.id + ": " + std::to_string(set.materials) + " Jungi table" + (set.materials == 1 ? "" : "s"));
  for (const ServedCertificate& c : s.certificates)
    add(c.id + ": superko proof, " + to_string(c.player.winner()) + " wins");
  return out;
}

ApiAnswer api_error(int status, const std::string& message) {
  ojson j;
  j["schema"] = "gonu-error/1";
  j["status"] = status;
  j["error"] = message;
  return {status, json_text(j)};
}

ApiAnswer api_tables(const Served& served) {
  ojson list = ojson::array();
  for (const ServedTable& s : served.tables) {
    const TableHeader& h = s.table.header();
    list.push_back({{"id", s.id},
                    {"game", "julgonu"},
                    {"rules", rules_json(s.table.rules())},
                    {"board", std::to_string(s.table.board().rows) + "x" + std::to_string(s.table.board().cols)},
                    {"states", h.states},
                    {"root", format_position(s.table.board(), h.root)},
                    {"root_tag", tag_text(s.table.board(), h.root_tag)},
                    {"max_distance", h.max_dist}});
  }
  for (const ServedJungiSet& set : served.jungi_sets) list.push_back(jungi_set_json(set));
  ojson j;
  j["schema"] = "gonu-tables/1";
  j["tables"] = list;
  return ok(j);
}

ApiAnswer api_query(const Served& s, const ExplorerRequest& r) {
  if (auto bad = check_request(s, r)) return *bad;
  if (const ServedJungiSet* set = find_table(s.tables, r.table) ? nullptr : find_set(s, r.table)) return jungi_query(s, *set, r);
  const ServedTable& served = *find_table(s.tables, r.table);
  const Table& t = served.table;
  try {
    const Game g = request_game(t, r);
    const QueryAnswer a = query_game(t, g);
    ojson j = query_json(t, g, a, r.position.has_value());
    j["table"] = served.id;
    return ok(j);
  } catch (const GonuError& e) {
    return table_error(served, e.what());
  }
}

ApiAnswer api_line(const Served& s, const ExplorerRequest& r) {
  if (auto bad = check_request(s, r)) return *bad;
  if (const ServedJungiSet* set = find_table(s.tables, r.table) ? nullptr : find_set(s, r.table)) return jungi_line(s, *set, r);
  const ServedTable& served = *find_table(s.tables, r.table);
  const Table& t = served.table;
  try {
    const Game whole = request_game(t, r);  // checks the whole history first, with its error text
    Game g = game_for_query(t, r.position, "");
    ojson plies = ojson::array();
    plies.push_back(ply_json(t, g, query_game(t, g, false)));
    for (const Move& m : whole.moves) {
      play(g, m);
      plies.push_back(ply_json(t, g, query_game(t, g, false)));
    }
    ojson j;
    j["schema"] = "gonu-line/1";
    j["table"] = served.id;
    j["start"] = format_position(t.board(), g.start);
    j["plies"] = plies;
    return ok(j);
  } catch (const GonuError& e) {
    return table_error(served, e.what());
  }
}

ApiAnswer api_certificates(const Served& s) {
  ojson list = ojson::array();
  for (const ServedCertificate& c : s.certificates) {
    const Game& root = c.player.root();
    list.push_back({{"id", c.id},
                    {"rules", rules_json(root.rules)},
                    {"board", std::to_string(root.board.rows) + "x" + std::to_string(root.board.cols)},
                    {"root", format_position(root.board, current(root))},
                    {"winner", to_string(c.player.winner())},
                    {"format", c.player.format()},
                    {"size", c.player.size()}});
  }
  ojson j;
  j["schema"] = "gonu-certificates/1";
  j["certificates"] = list;
  return ok(j);
}

ApiAnswer api_certificate(const Served& s, const ExplorerRequest& r) {
  const ServedCertificate* c = find_certificate(s.certificates, r.certificate);
  if (!c) {
    std::string names;
    for (const ServedCertificate& x : s.certificates) names += (names.empty() ? "" : ", ") + x.id;
    return api_error(404, "unknown certificate '" + printable(r.certificate) + "' (loaded: " + names + ")");
  }
  if (auto bad = check_size(r)) return *bad;
  try {
    return ok(certificate_query_json(c->player, c->id, certificate_game(c->player, r.position, r.history)));
  } catch (const GonuError& e) {
    return api_error(400, e.what());
  }
}

ApiAnswer api_materials(const Served& s, const ExplorerRequest& r) {
  const ServedJungiSet* set = find_set(s, r.table.empty() && !s.jungi_sets.empty() ? s.jungi_sets.front().id : r.table);
  if (!set) {
    std::string names;
    for (const ServedJungiSet& j : s.jungi_sets) names += (names.empty() ? "" : ", ") + j.id;
    return api_error(404, "unknown Jungi table set '" + printable(r.table) + "' (loaded: " + names + ")");
  }
  std::lock_guard<std::mutex> hold(s.lists->lock);
  std::string& body = s.lists->materials[set->id];
  if (body.empty()) {
    std::vector<jungi::Material> materials;
    for (const jungi::TableEntry& e : s.jungi->entries())
      if (e.rules == set->rules) materials.push_back(e.material);
    std::sort(materials.begin(), materials.end(), fewer_pieces_first);
    ojson list = ojson::array();
    for (const jungi::Material& m : materials) list.push_back(material_json(s, *set, m));
    ojson j = {{"schema", "gonu-materials/1"}, {"table", set->id}};
    j["rules"] = {{"id", jungi::rules_id(set->rules)}, {"text", jungi::describe(set->rules)}};
    j["materials"] = list;
    body = json_text(j);
  }
  return {200, body};
}

ApiAnswer api_rules(const std::string& game) {
  if (game != "jungi") return api_error(400, "rules of game '" + printable(game) + "': only game=jungi is served here");
  ojson pieces = ojson::array();
  for (const jungi::PieceReading& k : jungi::piece_readings())
    pieces.push_back({{"letter", std::string(1, k.letter)}, {"name", k.base}, {"moves", k.base_moves},
                      {"promoted", k.promoted}, {"promoted_moves", k.promoted_moves}});
  ojson options = ojson::array();
  for (const auto& o : jungi::option_list()) options.push_back({{"flag", o.flag}, {"values", o.values}, {"reading", o.reading}});
  ojson j = {{"schema", "gonu-rules/1"}, {"game", "jungi"}, {"reading", jungi::describe(jungi::Rules{})}};
  j["pieces"] = pieces;
  j["zones"] = {{"south", {7, 8, 9}}, {"north", {1, 2, 3}}};
  j["options"] = options;
  return ok(j);
}

ExplorerRequest request_from_json(const std::string& body) {
  const ojson j = ojson::parse(body, nullptr, false);
  if (j.is_discarded()) throw GonuError("the request body is not JSON");
  if (!j.is_object()) throw GonuError("the request body must be a JSON object");
  ExplorerRequest r;
  for (const auto& [key, v] : j.items()) {
    if (key == "table" && v.is_string()) {
      r.table = v.get<std::string>();
    } else if (key == "certificate" && v.is_string()) {
      r.certificate = v.get<std::string>();
    } else if (key == "position" && v.is_string()) {
      r.position = v.get<std::string>();
    } else if (key == "history" && v.is_string()) {
      r.history = v.get<std::string>();
    } else if (key == "history" && v.is_array()) {
      for (const auto& m : v) {
        if (!m.is_string()) throw GonuError("\"history\" must hold moves as strings");
        if (!r.history.empty()) r.history += ' ';
        r.history += m.get<std::string>();
      }
    } else if (key == "table" || key == "certificate" || key == "position" || key == "history") {
      throw GonuError("field " + key + " has the wrong type (a string; history may be an array of strings)");
    } else {
      throw GonuError("unknown field " + key + " (expected table, certificate, position, history)");
    }
  }
  return r;
}

}  // namespace gonu::cli
