// The explorer's API answers: find the table, bound the request, replay the game, build the JSON.
// Bad input is a 4xx with one line naming it; the caller never sees an exception from here.
#include "tools/serve/api.hpp"

#include <sstream>

#include "core/error.hpp"
#include "solver/julgonu/table/query.hpp"
#include "tools/certificate_query.hpp"
#include "tools/jungi_query_json.hpp"
#include "tools/query_json.hpp"
#include "tools/table_cli.hpp"

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

// The table a request names, or nullptr.
const ServedTable* find_table(const std::vector<ServedTable>& tables, const std::string& id) {
  if (id.empty()) return tables.empty() ? nullptr : &tables.front();
  for (const ServedTable& t : tables)
    if (t.id == id) return &t;
  return nullptr;
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
std::optional<ApiAnswer> check_request(const std::vector<ServedTable>& tables, const ExplorerRequest& r) {
  if (!find_table(tables, r.table)) {
    std::string names;
    for (const ServedTable& t : tables) names += (names.empty() ? "" : ", ") + t.id;
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

// A Jungi table in the list: its material and reading, and an example position (its longest win,
// else its first valid index) to start from, since a Jungi table has no root.
ojson jungi_table_json(const ServedTable& s) {
  const jungi::TableFileHeader& h = s.jungi->file.header();
  jungi::Position example;
  if (h.longest_win < 0 || !s.jungi->file.indexer().decode(h.longest_win_index, example))
    for (std::uint64_t i = 0; i < h.indices && !s.jungi->file.indexer().decode(i, example); ++i) {
    }
  return {{"id", s.id},
          {"game", "jungi"},
          {"rules", {{"id", h.rules_id}, {"text", jungi::describe(h.rules)}}},
          {"material", h.material_text},
          {"board", "9x9"},
          {"states", h.positions},
          {"root", jungi::format_position(example)},
          {"max_distance", std::max(h.longest_win, h.longest_loss)}};
}

// The Jungi position a request names: its position (required) after its moves.
std::vector<jungi::Position> jungi_line_positions(const ServedTable& s, const ExplorerRequest& r, std::vector<std::string>& moves) {
  if (!r.position) throw GonuError("a Jungi table's query needs a position (of " + s.jungi->file.header().material_text + ")");
  const jungi::Rules& rules = s.jungi->file.rules();
  std::vector<jungi::Position> line{jungi::parse_position(rules, *r.position)};
  const std::vector<std::string> typed = split_moves(r.history);
  for (std::size_t n = 0; n < typed.size(); ++n) {
    try {
      std::string over;
      if (jungi::outcome(rules, line.back(), &over) != jungi::Outcome::ongoing) throw GonuError("the game is over: " + over);
      const jungi::Move m = jungi::parse_move(rules, line.back(), typed[n]);
      moves.push_back(jungi::format_move(rules, line.back(), m));
      line.push_back(jungi::apply_move(line.back(), m));
    } catch (const GonuError& e) {
      throw GonuError("history move " + std::to_string(n + 1) + ": " + e.what());
    }
  }
  return line;
}

ApiAnswer jungi_query(const ServedTable& served, const ExplorerRequest& r) {
  try {
    std::vector<std::string> moves;
    const std::vector<jungi::Position> line = jungi_line_positions(served, r, moves);
    ojson j = jungi_query_json(*served.jungi, jungi::query_position(*served.jungi, line.back(), true, !moves.empty()));
    j["table"] = served.id;
    return ok(j);
  } catch (const GonuError& e) {
    return table_error(served, e.what());
  }
}

ApiAnswer jungi_line(const ServedTable& served, const ExplorerRequest& r) {
  try {
    std::vector<std::string> moves;
    const std::vector<jungi::Position> line = jungi_line_positions(served, r, moves);
    ojson plies = ojson::array();
    for (std::size_t k = 0; k < line.size(); ++k) {
      const jungi::Position& p = line[k];
      ojson ply{{"ply", k}, {"move", k ? ojson(moves[k - 1]) : ojson(nullptr)}, {"position", jungi::format_position(p)},
                {"side_to_move", jungi_side_name(p.to_move)}};
      if (p.royal[0] < 0 || p.royal[1] < 0) {
        ply["value"] = "LOSS", ply["distance"] = 0, ply["game_over"] = "its royal was captured";
      } else {
        const jungi::PositionAnswer a = jungi::query_position(*served.jungi, p, false, k > 0);
        ply["value"] = to_string(a.value), ply["distance"] = a.dist;
        ply["game_over"] = a.end.empty() ? ojson(nullptr) : ojson(a.end);
      }
      plies.push_back(ply);
    }
    ojson j;
    j["schema"] = "gonu-line/1";
    j["table"] = served.id;
    j["start"] = jungi::format_position(line.front());
    j["plies"] = plies;
    return ok(j);
  } catch (const GonuError& e) {
    return table_error(served, e.what());
  }
}

}  // namespace

std::vector<ServedTable> open_served_tables(const std::vector<std::string>& paths) {
  std::vector<ServedTable> out;
  for (const std::string& path : paths) {
    std::string id = file_stem(path);
    for (int n = 2; find_table(out, id); ++n) id = file_stem(path) + "-" + std::to_string(n);
    if (jungi::is_jungi_table_file(path))
      out.push_back({id, std::nullopt, std::make_shared<const jungi::TableFamily>(jungi::open_family(path))});
    else
      out.push_back({id, Table::open(path), nullptr});
  }
  return out;
}

std::vector<ServedCertificate> open_served_certificates(const std::vector<std::string>& paths) {
  std::vector<ServedCertificate> out;
  for (const std::string& path : paths) {
    std::string id = file_stem(path, ".cert");
    for (int n = 2; find_certificate(out, id); ++n) id = file_stem(path, ".cert") + "-" + std::to_string(n);
    out.push_back({id, CertificatePlayer::load(path)});
  }
  return out;
}

ApiAnswer api_error(int status, const std::string& message) {
  ojson j;
  j["schema"] = "gonu-error/1";
  j["status"] = status;
  j["error"] = message;
  return {status, json_text(j)};
}

ApiAnswer api_tables(const std::vector<ServedTable>& tables) {
  ojson list = ojson::array();
  for (const ServedTable& s : tables) {
    if (s.jungi) {
      list.push_back(jungi_table_json(s));
      continue;
    }
    const TableHeader& h = s.table->header();
    list.push_back({{"id", s.id},
                    {"game", "julgonu"},
                    {"rules", rules_json(s.table->rules())},
                    {"board", std::to_string(s.table->board().rows) + "x" + std::to_string(s.table->board().cols)},
                    {"states", h.states},
                    {"root", format_position(s.table->board(), h.root)},
                    {"root_tag", tag_text(s.table->board(), h.root_tag)},
                    {"max_distance", h.max_dist}});
  }
  ojson j;
  j["schema"] = "gonu-tables/1";
  j["tables"] = list;
  return ok(j);
}

ApiAnswer api_query(const std::vector<ServedTable>& tables, const ExplorerRequest& r) {
  if (auto bad = check_request(tables, r)) return *bad;
  const ServedTable& served = *find_table(tables, r.table);
  if (served.jungi) return jungi_query(served, r);
  const Table& t = *served.table;
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

ApiAnswer api_line(const std::vector<ServedTable>& tables, const ExplorerRequest& r) {
  if (auto bad = check_request(tables, r)) return *bad;
  const ServedTable& served = *find_table(tables, r.table);
  if (served.jungi) return jungi_line(served, r);
  const Table& t = *served.table;
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

ApiAnswer api_certificates(const std::vector<ServedCertificate>& certificates) {
  ojson list = ojson::array();
  for (const ServedCertificate& c : certificates) {
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

ApiAnswer api_certificate(const std::vector<ServedCertificate>& certificates, const ExplorerRequest& r) {
  const ServedCertificate* c = find_certificate(certificates, r.certificate);
  if (!c) {
    std::string names;
    for (const ServedCertificate& x : certificates) names += (names.empty() ? "" : ", ") + x.id;
    return api_error(404, "unknown certificate '" + printable(r.certificate) + "' (loaded: " + names + ")");
  }
  if (auto bad = check_size(r)) return *bad;
  try {
    return ok(certificate_query_json(c->player, c->id, certificate_game(c->player, r.position, r.history)));
  } catch (const GonuError& e) {
    return api_error(400, e.what());
  }
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
