// The web explorer's JSON API, apart from HTTP: the loaded tables, and the answers to requests as
// (status, JSON body). cmd_serve.cpp maps URLs and methods onto these; the tests call them through
// a running server. Every answer is built from the tables alone, which are read-only after
// opening, so any number of threads may call these at once.
//
//   tables   {"schema": "gonu-tables/1", "tables": [{id, rules, board, states, root, ...}]}
//   query    the gonu-query/1 object of `gonu query --json` (tools/query_json.hpp), the table
//            named by its id
//   line     {"schema": "gonu-line/1", "table": id, "plies": [{ply, move, position, side_to_move,
//            value, distance, game_over}]}: the value and distance after every prefix of the history
//   certificates  {"schema": "gonu-certificates/1", "certificates": [{id, rules, board, root,
//            winner, format, size}]}: the superko proofs loaded (gonu serve --certificate)
//   certificate   the gonu-certificate-query/1 object of `gonu query --certificate --json`
//            (tools/certificate_query.hpp) at the game the request names, the certificate named by
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
#include "solver/jungi/table/query.hpp"
#include "solver/julgonu/table/table.hpp"

namespace gonu::cli {

// A served table of either game (told apart by the file's magic): a Jul-gonu table, or a Jungi
// table with the tables beside it (its queries answer gonu-jungi-query/1, tools/jungi_query_json.hpp;
// it has no root, so a query names a position: /api/tables gives an example, its longest win).
struct ServedTable {
  std::string id;  // the file's name without ".gonu", made unique with "-2", "-3", ...
  std::optional<Table> table;
  std::shared_ptr<const jungi::TableFamily> jungi;
  const std::string& path() const { return table ? table->path() : jungi->file.path(); }
};

// Opens every table (GonuError names the first bad one) and names them.
std::vector<ServedTable> open_served_tables(const std::vector<std::string>& paths);

struct ServedCertificate {
  std::string id;  // the file's name without ".cert", made unique as a table's
  CertificatePlayer player;
};

// Checks and reads every certificate (GonuError names the first that is not a valid proof).
std::vector<ServedCertificate> open_served_certificates(const std::vector<std::string>& paths);

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
ApiAnswer api_tables(const std::vector<ServedTable>& tables);
ApiAnswer api_query(const std::vector<ServedTable>& tables, const ExplorerRequest& r);
ApiAnswer api_line(const std::vector<ServedTable>& tables, const ExplorerRequest& r);
ApiAnswer api_certificates(const std::vector<ServedCertificate>& certificates);
ApiAnswer api_certificate(const std::vector<ServedCertificate>& certificates, const ExplorerRequest& r);

// A POST body {"table" or "certificate": "...", "position": "...", "history": "a1-a2 ..." or
// ["a1-a2", ...]}
// read into a request; throws GonuError naming what is malformed.
ExplorerRequest request_from_json(const std::string& body);

}  // namespace gonu::cli
