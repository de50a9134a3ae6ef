// The web explorer's JSON API, apart from HTTP: the loaded tables, and the answers to requests as
// (status, JSON body). cmd_serve.cpp maps URLs and methods onto these; the tests call them through
// a running server. Every answer is built from the tables alone, which are read-only after
// opening, so any number of threads may call these at once.
//
//   tables   {"schema": "gonu-tables/1", "tables": [{id, rules, board, states, root, ...}]}: the
//            Jul-gonu tables, then one entry a Jungi reading ({id, game: "jungi", materials, ...})
//   query    the gonu-query/1 object of `gonu query --json` (tools/julgonu/query_json.hpp), the table
//            named by its id; for a Jungi set, gonu-jungi-query/1 of the position's material
//   line     {"schema": "gonu-line/1", "table": id, "plies": [{ply, move, position, side_to_move,
//            value, distance, game_over}]}: the value and distance after every prefix of the history
//   certificates  {"schema": "gonu-certificates/1", "certificates": [{id, rules, board, root,
//            winner, format, size}]}: the superko proofs loaded (gonu serve --certificate)
//   certificate   the gonu-certificate-query/1 object of `gonu query --certificate --json`
//            (tools/julgonu/certificate_query.hpp) at the game the request names, the certificate named by
//            its id: the winner's move, or the loser's legal replies and the moves superko bans
// No answer, error or not, shows a table's or a certificate's file path: the id stands for it.
//   errors   {"schema": "gonu-error/1", "status": 400, "error": "one line naming the problem"}
#pragma once
#include <nlohmann/json.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/certificate_play.hpp"
#include "solver/jungi/table/tables.hpp"
#include "solver/julgonu/table/table.hpp"

namespace gonu::cli {

// A served Jul-gonu table.
struct ServedTable {
  std::string id;  // the file's name without ".gonu", made unique with "-2", "-3", ...
  Table table;
  const std::string& path() const { return table.path(); }
};

// The Jungi tables of one reading, served as one entry of the page: a query picks the table of
// its position's material (jungi::Tables). Its id is "jungi" for the default reading, else
// "jungi-" and the reading's options ("jungi-hobble-compulsory-stalemate-draw-lancer-standard").
struct ServedJungiSet {
  std::string id;
  jungi::Rules rules;
  std::size_t materials = 0;  // the tables found for it
  std::string example;        // a position to start from (a Jungi table has no root): a longest win
};

struct ServedCertificate {
  std::string id;  // the file's name without ".cert", made unique as a table's
  CertificatePlayer player;
};

// Everything `gonu serve` serves: Jul-gonu tables, superko proofs, and Jungi tables as sets, one
// a reading. Read-only once opened (the Jungi tables open each file on its first question, and
// the materials list is made once, on its first request, both thread-safe).
struct Served {
  std::vector<ServedTable> tables;
  std::vector<ServedCertificate> certificates;
  std::unique_ptr<jungi::Tables> jungi;  // null when no Jungi table is served
  std::vector<ServedJungiSet> jungi_sets;
  std::vector<std::string> jungi_paths;  // as given: scrubbed from every error (answers never show them)
  struct Lists;
  std::unique_ptr<Lists> lists;  // gonu-materials/1 answers, made once per set
  Served();
  Served(Served&&) noexcept;
  Served& operator=(Served&&) noexcept;
  ~Served();
};

// Opens what `paths` name: a directory serves every table in it (Jul-gonu tables by their magic,
// each opened now; Jungi tables by their names, each opened on first use, a damaged one refused
// alone), a file ending ".cert" is a superko proof (checked now), any other file a table of
// either game; `certificates` are proofs too. The Jungi tables share `max_memory` of decoded
// blocks. GonuError (one line) names the first path that cannot be served, or says that nothing
// was found to serve.
Served open_served(const std::vector<std::string>& paths, const std::vector<std::string>& certificates,
                   std::uint64_t max_memory = jungi::kDefaultTablesMemory);

// "4x4-free: free 4x4, jungi: 12 Jungi tables, s33: superko proof, black wins": what is served,
// for the line saying where the server listens.
std::string served_summary(const Served& s);

// What a query names: a table id (empty: the first table), or for /api/certificate a certificate
// id (empty: the first certificate), a position (none: the root), and the moves played from it,
// separated by spaces.
struct ExplorerRequest {
  std::string table;
  std::string certificate;
  std::optional<std::string> position;
  std::string history;
};

struct ApiAnswer {
  int status = 200;
  std::string body;  // JSON
};

// Bounds on one request, so that no request can hold a worker for long.
constexpr std::size_t kMaxPositionChars = 1024;
constexpr std::size_t kMaxHistoryMoves = 2048;
constexpr std::size_t kMaxBodyBytes = 64 * 1024;

ApiAnswer api_error(int status, const std::string& message);
ApiAnswer api_tables(const Served& s);
ApiAnswer api_query(const Served& s, const ExplorerRequest& r);
ApiAnswer api_line(const Served& s, const ExplorerRequest& r);
ApiAnswer api_certificates(const Served& s);
ApiAnswer api_certificate(const Served& s, const ExplorerRequest& r);
// {"schema": "gonu-materials/1", "table": set id, "rules", "materials": [{material, positions,
// wins, draws, losses (each [South to move, North to move]), longest_win, example}, or {material,
// error} for a table refused]}: every material of a Jungi set, fewest pieces first.
ApiAnswer api_materials(const Served& s, const ExplorerRequest& r);
// {"schema": "gonu-rules/1", "game": "jungi", "reading", "pieces": [{letter, name, moves,
// promoted, promoted_moves}], "zones", "options"}: what `gonu rules --game jungi` prints.
ApiAnswer api_rules(const std::string& game);

// A POST body {"table" or "certificate": "...", "position": "...", "history": "a1-a2 ..." or
// ["a1-a2", ...]}
// read into a request; throws GonuError naming what is malformed.
ExplorerRequest request_from_json(const std::string& body);

}  // namespace gonu::cli
