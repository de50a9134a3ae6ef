// gonu query FILE [POSITION] [--history MOVES] [--json]: a position's value from a table, every
// legal move ranked best first (for the mover: wins by increasing distance, draws, losses by
// decreasing distance; ties in move order) under "winning/drawing/losing moves:", the best ones
// marked, and the principal variation of a decided position. The JSON schema is documented in
// tools/README-query.md; with --json bad input is answered {"error": ...} on stdout (exit 1). A
// Jungi table or directory is answered by jungi_query, a Jul-gonu table or a superko proof by
// julgonu_query and julgonu_certificate_query.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tools/cli/options.hpp"
#include "tools/julgonu/julgonu_cli.hpp"
#include "tools/jungi/jungi_cli.hpp"

namespace gonu::cli {

int cmd_query(int argc, char** argv) {
  CommandLine cl("gonu query FILE [POSITION] [--history \"MOVES\"] [--json]\n"
                 "       gonu query --certificate FILE [POSITION] [--history \"MOVES\"] [--json]");
  cl.history("moves played from POSITION (or the table's root) first");
  cl.json("print one JSON object (schema in tools/README-query.md)");
  cl.add()("certificate", po::value<std::string>(),
           "answer from this superko proof instead of a table: the strategy's move, or the loser's legal replies");
  cl.positional("file");
  cl.positional("position");
  if (!cl.parse(argc, argv)) return 0;
  const bool json = cl.has("json");
  try {
    if (cl.has("certificate")) return julgonu_certificate_query(cl);
    const std::string file = cl.required("file", "FILE");
    if (std::filesystem::is_directory(file) || jungi::is_jungi_table_file(file)) return jungi_query(cl, file);
    return julgonu_query(cl, file);
  } catch (const GonuError& e) {
    if (!json) throw;
    // A program reading the JSON gets the error as JSON too, on stdout.
    std::cout << json_text(nlohmann::ordered_json{{"schema", "gonu-query/1"}, {"error", e.what()}}) << "\n";
    return kExitBadInput;
  }
}

}  // namespace gonu::cli
