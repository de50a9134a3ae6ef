// gonu serve as a client sees it: build/bin/gonu serve on small tables made here, on 127.0.0.1
// with --port 0, asked over HTTP (cpp-httplib's client). Every endpoint; the query answers equal
// to `gonu query --json`; every kind of bad input gets a 4xx JSON error and the server goes on;
// 8 clients at once get the same answers as one; bytes that are not UTF-8, slow and stalled
// clients, a table truncated while served; the options; SIGTERM stops it with status 0; whole
// games against a superko proof (--certificate), each state checked against core's Game. The
// server's deadlines on a GuardedServer made here, with a short deadline and a handler slower
// than it; a body length refused from the head alone.
#include <httplib.h>
#include <signal.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/julgonu/game.hpp"
#include "solver/jungi/generator/material.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tests/table_test_util.hpp"
#include "tests/test_support.hpp"
#include "tools/serve/guarded_server.hpp"

using namespace table_test;
using json = nlohmann::json;

namespace {

// A running `gonu serve ARGS --port 0`; stopped with SIGTERM at the end of the scope.
struct Server {
  pid_t pid = -1;
  int port = 0;
  std::string first_line;
  int exit_status = -1;

  // `shell_prefix` runs before the server in its shell (e.g. "ulimit -v 45056; ").
  explicit Server(const std::string& args, const std::string& shell_prefix = "") {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      dup2(fds[1], 2);
      close(fds[0]);
      close(fds[1]);
      const std::string cmd = shell_prefix + "exec '" + GONU_BIN_DIR + "/gonu' serve " + args + " --port 0";
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    FILE* err = fdopen(fds[0], "r");
    char buf[4096] = {};
    if (fgets(buf, sizeof buf, err)) first_line = buf;
    fclose(err);
    const auto at = first_line.find("http://127.0.0.1:");
    INFO(first_line);
    REQUIRE(at != std::string::npos);
    port = std::stoi(first_line.substr(at + 17));
  }
  int stop() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      int status = 0;
      waitpid(pid, &status, 0);
      exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      pid = -1;
    }
    return exit_status;
  }
  ~Server() { stop(); }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(10, 0);
    return c;
  }
};

// Small tables, made once per test case in a temporary directory.
struct Tables {
  TempDir dir;
  std::string f34 = dir.file("f34.gonu"), f33 = dir.file("f33.gonu"), e33 = dir.file("e33.gonu");
  Tables() {
    for (const auto& [args, path] : {std::pair<std::string, std::string>{"--rules free --board 3x4", f34},
                                     {"--rules free --board 3x3", f33},
                                     {"--rules encyclopedia --board 3x3", e33}}) {
      const Result r = run_gonu("solve " + args + " --quiet --out '" + path + "'");
      INFO(r.out << r.err);
      REQUIRE(r.code == 0);
    }
  }
  std::string all() const { return "'" + f34 + "' '" + f33 + "' '" + e33 + "'"; }
};

json get_json(httplib::Client& c, const std::string& path, int want_status) {
  const auto res = c.Get(path.c_str());
  REQUIRE(res);
  INFO(path << " -> " << res->status << " " << res->body);
  REQUIRE(res->status == want_status);
  REQUIRE(res->get_header_value("Content-Type") == "application/json");
  return json::parse(res->body);
}

std::string enc(const std::string& s) { return httplib::detail::encode_query_param(s); }

std::string query_path(const std::string& table, const std::string& history, const std::string& position = "") {
  std::string p = "/api/query?table=" + enc(table) + "&history=" + enc(history);
  if (!position.empty()) p += "&position=" + enc(position);
  return p;
}

// gonu query --json, as the server answers it: the table named by its id (the file name without
// ".gonu") instead of its path.
json cli_query(const std::string& table, const std::string& history, const std::string& position = "") {
  const Result r = run_gonu("query '" + table + "' " + (position.empty() ? "" : "'" + position + "' ") +
                            "--history '" + history + "' --json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  json j = json::parse(r.out);
  REQUIRE(j["table"] == table);
  const std::string name = table.substr(table.find_last_of('/') + 1);
  j["table"] = name.substr(0, name.size() - 5);
  return j;
}

// Histories of every length up to `plies` along a pseudo-random game from the table's root.
std::vector<std::string> sample_histories(const std::string& table_path, int plies, unsigned seed) {
  const gonu::Table t = gonu::Table::open(table_path);
  gonu::Game g = gonu::new_game(t.rules(), t.header().root);
  std::vector<std::string> out = {""};
  std::string h;
  for (int i = 0; i < plies; ++i) {
    const auto moves = gonu::legal_moves(g);
    if (moves.empty()) break;
    seed = seed * 1103515245u + 12345u;
    const gonu::Move m = moves[(seed >> 16) % moves.size()];
    if (!h.empty()) h += ' ';
    h += gonu::format_move(g.board, g.rules, m);
    gonu::play(g, m);
    out.push_back(h);
  }
  return out;
}

void require_error(const httplib::Result& res, int status, const std::string& part) {
  REQUIRE(res);
  INFO(res->status << " " << res->body);
  REQUIRE(res->status == status);
  const json j = json::parse(res->body);
  REQUIRE(j["schema"] == "gonu-error/1");
  REQUIRE(j["status"] == status);
  REQUIRE(contains(j["error"].get<std::string>(), part));
}

}  // namespace

TEST_CASE("gonu serve: says where it listens, and /api/tables lists the loaded tables", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  REQUIRE(contains(s.first_line, "gonu serve: listening on http://127.0.0.1:"));
  REQUIRE(contains(s.first_line, "f34: free 3x4"));
  auto c = s.client();
  const json j = get_json(c, "/api/tables", 200);
  REQUIRE(j["schema"] == "gonu-tables/1");
  REQUIRE(j["tables"].size() == 3);
  const std::vector<std::pair<std::string, std::string>> want = {{"f34", t.f34}, {"f33", t.f33}, {"e33", t.e33}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    const json& e = j["tables"][i];
    const gonu::Table table = gonu::Table::open(want[i].second);
    REQUIRE(e["id"] == want[i].first);
    REQUIRE(!e.contains("path"));
    REQUIRE(e["states"] == table.size());
    REQUIRE(e["rules"]["id"] == table.header().rules_id);
    REQUIRE(e["board"] == (i == 0 ? "3x4" : "3x3"));
    REQUIRE(e["root"] == gonu::format_position(table.board(), table.header().root));
    REQUIRE(e["max_distance"] == table.header().max_dist);
  }
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve: /api/query answers exactly as gonu query --json, GET and POST", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  auto c = s.client();
  for (const std::string& h : sample_histories(t.f34, 12, 7)) {
    INFO("history: " << h);
    REQUIRE(get_json(c, query_path("f34", h), 200) == cli_query(t.f34, h));
  }
  // A position given, a tagged table (its note), a finished game.
  REQUIRE(get_json(c, query_path("f34", "a1-a2", "x2x/1x2/w1ww w"), 200) == cli_query(t.f34, "a1-a2", "x2x/1x2/w1ww w"));
  for (const std::string& h : sample_histories(t.e33, 10, 3)) REQUIRE(get_json(c, query_path("e33", h), 200) == cli_query(t.e33, h));
  REQUIRE(get_json(c, query_path("e33", "", "xxx/3/www x"), 200) == cli_query(t.e33, "", "xxx/3/www x"));
  // A tagged table's position typed without history: answered, with the values histories give.
  const json typed = get_json(c, query_path("e33", "", "x.x/.w./w.w x"), 200);
  REQUIRE(typed == cli_query(t.e33, "", "x.x/.w./w.w x"));
  REQUIRE(typed["histories"]["count"].get<int>() > 0);
  std::string to_end;  // the 3x3 start's best line, which ends the game
  const json start = cli_query(t.f33, "");
  for (const auto& m : start["pv"]) {
    if (!to_end.empty()) to_end += ' ';
    to_end += m.get<std::string>();
  }
  const json over = get_json(c, query_path("f33", to_end), 200);
  REQUIRE(over == cli_query(t.f33, to_end));
  REQUIRE(over["game_over"].is_string());
  REQUIRE(over["moves"].empty());
  REQUIRE(over["history"].size() == start["pv"].size());
  // No table named: the first one.
  REQUIRE(get_json(c, "/api/query", 200) == cli_query(t.f34, ""));
  // POST, history as a string or as an array.
  const std::string h = sample_histories(t.f34, 6, 11).back();
  for (const json& body : {json{{"table", "f34"}, {"history", h}}, json{{"table", "f34"}, {"history", gonu::test::tokens(h)}}}) {
    const auto res = c.Post("/api/query", body.dump(), "application/json");
    REQUIRE(res);
    REQUIRE(res->status == 200);
    REQUIRE(json::parse(res->body) == cli_query(t.f34, h));
  }
}

TEST_CASE("gonu serve: answers and errors name a table by its id, never by the server's path", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  auto c = s.client();
  for (const std::string& path : {std::string("/api/tables"), query_path("f34", "b3-b2"), std::string("/api/line?table=f33&history=a3-a2"),
                                  query_path("f34", "", "xxx/3/www x"), query_path("f34", "", "x3/4/www1 w")}) {
    const auto res = c.Get(path.c_str());
    REQUIRE(res);
    INFO(path << " -> " << res->body);
    REQUIRE(!contains(res->body, t.dir.path));
    REQUIRE(!contains(res->body, ".gonu"));
  }
  REQUIRE(get_json(c, query_path("f34", "b3-b2"), 200)["table"] == "f34");
  REQUIRE(get_json(c, "/api/line?table=f33&history=a3-a2", 200)["table"] == "f33");
  require_error(c.Get(query_path("f34", "", "xxx/3/www x")), 400, "but the table f34 is for a 3x4 board");
}

TEST_CASE("gonu serve: /api/line gives the value and distance after every prefix", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  auto c = s.client();
  const auto prefixes = sample_histories(t.f34, 14, 5);
  const json line = get_json(c, "/api/line?table=f34&history=" + enc(prefixes.back()), 200);
  REQUIRE(line["schema"] == "gonu-line/1");
  REQUIRE(line["plies"].size() == prefixes.size());
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    const json q = cli_query(t.f34, prefixes[i]);
    const json& p = line["plies"][i];
    INFO("ply " << i);
    REQUIRE(p["ply"] == i);
    REQUIRE(p["position"] == q["position"]);
    REQUIRE(p["side_to_move"] == q["side_to_move"]);
    REQUIRE(p["value"] == q["value"]);
    REQUIRE(p["distance"] == q["distance"]);
    REQUIRE(p["game_over"] == q["game_over"]);
    REQUIRE(p["move"] == (i == 0 ? json(nullptr) : q["history"].back()));
  }
}

TEST_CASE("gonu serve: every bad request gets a 4xx JSON error naming it, and the server goes on", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  auto c = s.client();
  require_error(c.Get(query_path("nope", "")), 404, "unknown table 'nope' (loaded: f34, f33, e33)");
  require_error(c.Get(query_path("f34", "", "xxqx/4/wwww x")), 400, "unknown character 'q'");
  require_error(c.Get(query_path("f34", "", "xxxx/4/wwww")), 400, "missing the side to move");
  require_error(c.Get(query_path("f34", "", "xxx/3/www x")), 400, "is 3x3, but the table");
  require_error(c.Get(query_path("f34", "", "x3/4/www1 w")), 400, "not reachable");
  require_error(c.Get(query_path("f34", "b3-b2 b2-b1")), 400, "illegal history: history move 2");
  require_error(c.Get(query_path("f34", "b3-z9")), 400, "illegal history");
  require_error(c.Get("/api/line?table=f34&history=a1-a2"), 400, "illegal history");
  require_error(c.Get("/api/query?table=f34&colour=red"), 400, "unknown parameter 'colour'");
  require_error(c.Get("/api/nothing"), 404, "no such page or API: GET /api/nothing");
  require_error(c.Get(("/api/query?history=" + std::string(9000, 'a')).c_str()), 414, "request line is too long");
  require_error(c.Post("/api/query", std::string(70000, ' '), "application/json"), 413, "body is too large");
  require_error(c.Post("/api/query", "{\"table\": ", "application/json"), 400, "not JSON");
  require_error(c.Post("/api/query", "[1, 2]", "application/json"), 400, "must be a JSON object");
  require_error(c.Post("/api/query", "{\"table\": 3}", "application/json"), 400, "field table has the wrong type");
  require_error(c.Post("/api/query", "{\"history\": [1]}", "application/json"), 400, "moves as strings");
  require_error(c.Post("/api/query", "{\"moves\": \"a1-a2\"}", "application/json"), 400, "unknown field moves");
  std::string many;
  for (int i = 0; i < 2049; ++i) many += "a1-a2 ";
  require_error(c.Post("/api/query", json{{"history", many}}.dump(), "application/json"), 413, "history has 2049 moves");
  require_error(c.Post("/api/line", json{{"position", std::string(2000, 'x')}}.dump(), "application/json"), 413,
                "position is 2000 characters");
  {
    // A request that is not HTTP at all, on a raw socket.
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(s.port));
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    const std::string junk = "THIS IS NOT HTTP\r\n\r\n";
    REQUIRE(write(fd, junk.data(), junk.size()) == ssize_t(junk.size()));
    char buf[2048] = {};
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    REQUIRE(n > 0);
    REQUIRE(std::string(buf).rfind("HTTP/1.1 400", 0) == 0);
  }
  // Still serving, and still right.
  REQUIRE(get_json(c, query_path("f34", "b3-b2"), 200) == cli_query(t.f34, "b3-b2"));
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve: the page and its assets are built in and load nothing from elsewhere", "[serve][cli]") {
  Tables t;
  Server s("'" + t.f33 + "'");
  auto c = s.client();
  const auto page = c.Get("/");
  REQUIRE(page);
  REQUIRE(page->status == 200);
  REQUIRE(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
  REQUIRE(contains(page->get_header_value("Content-Security-Policy"), "default-src 'self'"));
  REQUIRE(contains(page->body, "<svg id=\"board\""));
  REQUIRE(contains(page->body, "<script src=\"app.js\">"));
  const std::string source = slurp(std::string(GONU_SOURCE_DIR) + "/tools/web/index.html");
  REQUIRE(page->body == source);  // embedded byte for byte
  for (const auto& [path, type] : {std::pair<std::string, std::string>{"/app.js", "text/javascript; charset=utf-8"},
                                   {"/julgonu.js", "text/javascript; charset=utf-8"},
                                   {"/jungi.js", "text/javascript; charset=utf-8"},
                                   {"/style.css", "text/css; charset=utf-8"}, {"/index.html", "text/html; charset=utf-8"}}) {
    const auto res = c.Get(path.c_str());
    REQUIRE(res);
    REQUIRE(res->status == 200);
    REQUIRE(res->get_header_value("Content-Type") == type);
    REQUIRE(res->body == slurp(std::string(GONU_SOURCE_DIR) + "/tools/web" + path));
    // The only absolute URL is the SVG namespace, a name that is never fetched.
    std::string body = res->body;
    for (std::size_t at; (at = body.find("http://www.w3.org/2000/svg")) != std::string::npos;) body.erase(at, 26);
    REQUIRE_FALSE(contains(body, "http://"));
    REQUIRE_FALSE(contains(body, "https://"));
    REQUIRE_FALSE(contains(body, "//cdn"));
  }
}

TEST_CASE("gonu serve: 8 clients at once get the answers one client gets", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  std::vector<std::string> paths;
  for (const std::string& h : sample_histories(t.f34, 20, 17)) paths.push_back(query_path("f34", h));
  for (const std::string& h : sample_histories(t.e33, 12, 19)) paths.push_back(query_path("e33", h));
  paths.push_back("/api/line?table=f34&history=" + enc(sample_histories(t.f34, 20, 17).back()));
  paths.push_back(query_path("f34", "b3-b3"));  // an error answer is the same every time too
  std::vector<std::string> expected;
  {
    auto c = s.client();
    for (const std::string& p : paths) {
      const auto res = c.Get(p.c_str());
      REQUIRE(res);
      expected.push_back(std::to_string(res->status) + " " + res->body);
    }
  }
  std::atomic<int> wrong = 0, done = 0;
  std::vector<std::thread> clients;
  for (int k = 0; k < 8; ++k) {
    clients.emplace_back([&, k] {
      auto c = s.client();
      for (int round = 0; round < 5; ++round)
        for (std::size_t i = 0; i < paths.size(); ++i) {
          const std::size_t j = (i * 7 + std::size_t(k) * 3 + std::size_t(round)) % paths.size();
          const auto res = c.Get(paths[j].c_str());
          if (!res || std::to_string(res->status) + " " + res->body != expected[j]) ++wrong;
          ++done;
        }
    });
  }
  for (auto& th : clients) th.join();
  REQUIRE(done == int(8 * 5 * paths.size()));
  REQUIRE(wrong == 0);
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve: options and bad tables", "[serve][cli]") {
  Tables t;
  require_one_line_error(run_gonu("serve '" + t.dir.file("missing.gonu") + "' --port 0"), "missing.gonu");
  {
    const Result r = run_gonu("serve");
    REQUIRE(r.code == 2);
    REQUIRE(contains(r.err, "missing TABLE"));
  }
  {
    const Result r = run_gonu("serve '" + t.f33 + "' --port 70000");
    REQUIRE(r.code == 2);
    REQUIRE(contains(r.err, "--port must be 0..65535"));
  }
  {
    const Result r = run_gonu("serve --help");
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "--host"));
    REQUIRE(contains(r.out, "--port"));
  }
  // A port already taken: a one-line error, exit 1.
  Server s("'" + t.f33 + "'");
  // (run under timeout: a server that bound anyway would otherwise never return)
  const std::string cmd = "timeout 20 '" + std::string(GONU_BIN_DIR) + "/gonu' serve '" + t.f33 + "' --port " +
                          std::to_string(s.port) + " 2>'" + t.dir.file("taken.err") + "'";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 1);
  const std::string err = slurp(t.dir.file("taken.err"));
  REQUIRE(err.rfind("gonu: error: cannot listen on 127.0.0.1:" + std::to_string(s.port), 0) == 0);
  REQUIRE(lines(err).size() == 1);
  // Two tables of the same file name get distinct ids; the same file given again (or by its
  // directory) is served once.
  const std::string other = t.dir.file("other");
  REQUIRE(mkdir(other.c_str(), 0755) == 0);
  REQUIRE(run_gonu("solve --rules free --board 3x3 --quiet --out '" + other + "/f33.gonu'").code == 0);
  Server twice("'" + t.f33 + "' '" + other + "/f33.gonu' '" + t.f33 + "' '" + other + "'");
  auto c = twice.client();
  const json j = get_json(c, "/api/tables", 200);
  REQUIRE(j["tables"].size() == 2);
  REQUIRE(j["tables"][0]["id"] == "f33");
  REQUIRE(j["tables"][1]["id"] == "f33-2");
  REQUIRE(twice.stop() == 0);
  REQUIRE(s.stop() == 0);
}

namespace {

// A connection to the server on a raw socket, for requests httplib's client would not send.
struct RawConnection {
  int fd = -1;
  explicit RawConnection(int port) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(port));
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~RawConnection() { close(fd); }
  bool send(const std::string& bytes) const {
    return ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == ssize_t(bytes.size());
  }
  // Everything the server sends until it closes (or `limit` passes).
  std::string answer(std::chrono::milliseconds limit = std::chrono::seconds(15)) const {
    std::string all;
    const auto until = std::chrono::steady_clock::now() + limit;
    char buf[4096];
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      const ssize_t n = recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      all.append(buf, std::size_t(n));
    }
    return all;
  }
};

// The status and the JSON body of a whole HTTP answer; the body must parse (json::parse refuses
// invalid UTF-8).
std::pair<int, json> status_and_json(const std::string& answer) {
  INFO(answer);
  REQUIRE(answer.rfind("HTTP/1.1 ", 0) == 0);
  const auto body = answer.find("\r\n\r\n");
  REQUIRE(body != std::string::npos);
  REQUIRE(json::accept(answer.substr(body + 4)));
  return {std::stoi(answer.substr(9, 3)), json::parse(answer.substr(body + 4))};
}

}  // namespace

TEST_CASE("gonu serve: bytes that are not UTF-8 anywhere in a request get a 4xx with valid JSON", "[serve][cli]") {
  Tables t;
  Server s("'" + t.f34 + "'");
  const std::vector<std::pair<std::string, std::string>> requests = {
      {"GET /%FF HTTP/1.1\r\nConnection: close\r\n\r\n", "no such page or API: GET /\\xFF"},
      {"GET /\xFF\xFE HTTP/1.1\r\nConnection: close\r\n\r\n", "no such page or API: GET /\\xFF\\xFE"},
      {"GET /api/query?table=%FF HTTP/1.1\r\nConnection: close\r\n\r\n", "unknown table '\\xFF'"},
      {"GET /api/query?%C3=1 HTTP/1.1\r\nConnection: close\r\n\r\n", "unknown parameter '\\xC3'"},
      {"GET /api/query?position=%E2%80%8Bxxx/4/wwww%20x HTTP/1.1\r\nConnection: close\r\n\r\n",
       "unknown character '\xE2\x80\x8B' at column 1"},
      {"GET /api/query?position=x%C3%A9x/4/wwww%20x HTTP/1.1\r\nConnection: close\r\n\r\n",
       "unknown character '\xC3\xA9' at column 2"},
      {"GET /api/query?history=%ED%B3%BF HTTP/1.1\r\nConnection: close\r\n\r\n", "move '\\xED\\xB3\\xBF'"},
      {"GET /api/line?history=a3-a2%00 HTTP/1.1\r\nConnection: close\r\n\r\n", "\\x00"},
      {"GET /api/nothing HTTP/1.1\r\nX-Odd: \xFF\xFF\r\nConnection: close\r\n\r\n", "no such page or API"},
  };
  for (const auto& [request, part] : requests) {
    RawConnection c(s.port);
    REQUIRE(c.send(request));
    const auto [status, j] = status_and_json(c.answer());
    INFO(request << " -> " << j.dump());
    REQUIRE(status >= 400);
    REQUIRE(status < 500);
    REQUIRE(j["schema"] == "gonu-error/1");
    REQUIRE(contains(j["error"].get<std::string>(), part));
  }
  // A POST body whose strings are not UTF-8, raw or as an escaped lone surrogate.
  for (const std::string& body : {std::string("{\"position\": \"\xFF\"}"), std::string("{\"history\": \"\\udcff\"}"),
                                 std::string("{\"\xFF\": 1}")}) {
    RawConnection c(s.port);
    REQUIRE(c.send("POST /api/query HTTP/1.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                   "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body));
    const auto [status, j] = status_and_json(c.answer());
    REQUIRE(status == 400);
  }
  auto c = s.client();
  REQUIRE(get_json(c, query_path("f34", "b3-b2"), 200) == cli_query(t.f34, "b3-b2"));
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve: slow and stalled clients hold no one else up, and past the bounds get 503", "[serve][cli]") {
  Tables t;
  Server s("'" + t.f34 + "'");
  using namespace std::chrono;
  // A client that trickles its request head, one byte a second, is cut off at the request's
  // deadline (10 s), with or without an answer.
  RawConnection trickle(s.port);
  std::atomic<bool> trickle_cut = false;
  const auto trickle_start = steady_clock::now();
  std::jthread trickler([&] {  // joined however the test ends
    const std::string head = "GET /api/tables HTTP/1.1\r\nX-Slow: " + std::string(40, 'a');
    for (char ch : head) {
      if (!trickle.send(std::string(1, ch))) break;
      pollfd p{trickle.fd, POLLIN, 0};
      if (poll(&p, 1, 1000) > 0) break;  // an answer, or the close
    }
    trickle_cut = true;
  });
  // 32 connections send a header byte every 200 ms: the reproducer of workers held for good.
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 32; ++i) {
    slow.push_back(std::make_unique<RawConnection>(s.port));
    REQUIRE(slow.back()->send("G"));
  }
  auto c = s.client();
  for (int i = 0; i < 25; ++i) {
    const auto t0 = steady_clock::now();
    const auto res = c.Get(query_path("f34", "b3-b2").c_str());
    const auto ms = duration_cast<milliseconds>(steady_clock::now() - t0).count();
    REQUIRE(res);
    REQUIRE(res->status == 200);
    INFO("request " << i << " took " << ms << " ms");
    REQUIRE(ms < 100);
    for (const auto& sc : slow) sc->send("E");
    std::this_thread::sleep_for(milliseconds(40));
  }
  // Past 64 connections of one client: 503 with a JSON error, at once.
  std::vector<std::unique_ptr<RawConnection>> more;
  while (slow.size() + more.size() < 64) more.push_back(std::make_unique<RawConnection>(s.port));
  std::this_thread::sleep_for(milliseconds(200));  // every one of them accepted
  {
    RawConnection over(s.port);
    REQUIRE(over.send("GET /api/tables HTTP/1.1\r\nConnection: close\r\n\r\n"));
    const auto [status, j] = status_and_json(over.answer(seconds(3)));
    REQUIRE(status == 503);
    REQUIRE(contains(j["error"].get<std::string>(), "too many connections from 127.0.0.1 (at most 64)"));
  }
  more.clear();
  slow.clear();
  trickler.join();
  REQUIRE(trickle_cut);
  const auto cut_after = duration_cast<milliseconds>(steady_clock::now() - trickle_start).count();
  REQUIRE(cut_after > 9000);
  REQUIRE(cut_after < 13000);
  REQUIRE(get_json(c, query_path("f34", "b3-b2"), 200) == cli_query(t.f34, "b3-b2"));
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve: a table truncated while served is an error for it alone", "[serve][cli]") {
  Tables t;
  Server s(t.all());
  auto c = s.client();
  REQUIRE(get_json(c, query_path("f34", "b3-b2"), 200) == cli_query(t.f34, "b3-b2"));
  REQUIRE(truncate(t.f34.c_str(), 1000) == 0);
  for (int i = 0; i < 3; ++i) require_error(c.Get(query_path("f34", "b3-b2")), 400, "the table file changed while open");
  REQUIRE(get_json(c, query_path("f33", "b3-b2"), 200) == cli_query(t.f33, "b3-b2"));
  REQUIRE(get_json(c, "/api/tables", 200)["tables"].size() == 3);
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve under a tight address-space limit starts, and answers 200 or 503 with JSON", "[serve][cli]") {
  Tables t;
  // 44 MiB: some 3 MiB more than gonu's libraries and first mappings take (about 41 MiB), so that
  // its main thread's stack can still grow (past the limit that growth is a SIGSEGV, which no
  // program reports; at 40 MiB the margin was a few kB, and a slightly larger binary lost it),
  // but a thread pool of 8 MiB stacks could not start; each connection's thread may not either.
  // With the 3x4 table mapped too, even the thread that waits for the stop signals may not start:
  // a handler stops the server then, and it still exits 0.
  for (const std::string& table : {t.f33, t.f34}) {
    INFO(table);
    Server s("'" + table + "'", "ulimit -v 45056; ");
    for (int i = 0; i < 5; ++i) {
      RawConnection c(s.port);
      REQUIRE(c.send("GET /api/tables HTTP/1.1\r\nConnection: close\r\n\r\n"));
      const auto [status, j] = status_and_json(c.answer());
      REQUIRE((status == 200 || status == 503));
      if (status == 503) REQUIRE(contains(j["error"].get<std::string>(), "cannot start a thread"));
    }
    REQUIRE(s.stop() == 0);
  }
}

namespace {

// The superko proof of 3x3 soldiers (Black wins by a memoryless strategy), made here.
std::string soldiers_proof(const TempDir& dir) {
  const std::string path = dir.file("s33.cert");
  const Result r = run_gonu("solve --rules soldiers --board 3x3 --quiet --certificate '" + path + "'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return path;
}

// The moves superko bans at g, worked out here from core's Game: generated but not legal.
std::vector<std::string> banned_here(const gonu::Game& g) {
  std::vector<std::string> out;
  if (!gonu::game_over_reason(g).empty()) return out;
  const std::vector<gonu::Move> legal = gonu::legal_moves(g);
  for (const gonu::Move& m : gonu::generate_moves(g.board, g.rules, gonu::current(g)))
    if (std::find(legal.begin(), legal.end(), m) == legal.end()) out.push_back(gonu::format_move(g.board, g.rules, m));
  return out;
}

}  // namespace

TEST_CASE("gonu serve --certificate: whole games against a superko proof, the strategy answering every defence",
          "[serve][cli][certificate]") {
  TempDir dir;
  const std::string proof = soldiers_proof(dir);
  Tables t;
  Server s("'" + t.f33 + "' --certificate '" + proof + "'");
  REQUIRE(contains(s.first_line, "s33: superko proof, black wins"));
  auto c = s.client();
  const json list = get_json(c, "/api/certificates", 200);
  REQUIRE(list["schema"] == "gonu-certificates/1");
  REQUIRE(list["certificates"].size() == 1);
  REQUIRE(list["certificates"][0]["id"] == "s33");
  REQUIRE(list["certificates"][0]["winner"] == "black");
  REQUIRE(list["certificates"][0]["root"] == "xxx/3/www x");
  REQUIRE(get_json(c, "/api/tables", 200)["tables"].size() == 1);  // the tables as before
  // White (the loser) tries every defence: each game of the proof is played to its end through
  // the API, Black's moves the strategy's as each answer gives them, every state checked against
  // core's Game (the position, the legal replies, the moves superko bans). Every game ends in
  // White's loss; one state bans a move (Black's b2-b3 after c3-c2 a1-a2 b3-b2 a2-a1).
  int bans = 0, games = 0;
  std::string last_game;  // the history of a game played to its end
  std::function<void(const gonu::Game&, const std::string&)> walk = [&](const gonu::Game& g, const std::string& history) {
    const json a = get_json(c, "/api/certificate?certificate=s33&history=" + enc(history), 200);
    INFO("history '" << history << "'");
    REQUIRE(a["schema"] == "gonu-certificate-query/1");
    REQUIRE(a["certificate"] == "s33");
    REQUIRE(a["position"] == gonu::format_position(g.board, gonu::current(g)));
    REQUIRE(a["history"].size() == g.moves.size());
    const std::vector<std::string> banned = banned_here(g);
    REQUIRE(a["banned"].size() == banned.size());
    for (std::size_t i = 0; i < banned.size(); ++i) REQUIRE(a["banned"][i]["move"] == banned[i]);
    bans += int(banned.size());
    std::vector<std::string> next;
    if (!gonu::game_over_reason(g).empty()) {
      REQUIRE(a["game_over"] == gonu::game_over_reason(g));
      REQUIRE(a["side_to_move"] == "white");  // the loser, lost
      REQUIRE(a["value"] == "LOSS");
      ++games;
      last_game = history;
      return;
    }
    if (gonu::current(g).to_move == gonu::Side::black) {
      REQUIRE(a["value"] == "WIN");
      REQUIRE(a["replies"].empty());
      next.push_back(a["winner_move"]);
    } else {
      REQUIRE(a["value"] == "LOSS");
      REQUIRE(a["winner_move"].is_null());
      REQUIRE(a["replies"].size() == gonu::legal_moves(g).size());
      for (const json& r : a["replies"]) next.push_back(r["move"]);
    }
    for (const std::string& move : next) {
      gonu::Game after = g;
      gonu::play(after, move);  // throws if the strategy's move, or a listed reply, is not legal
      walk(after, history + (history.empty() ? "" : " ") + move);
    }
  };
  gonu::Rules rules = gonu::rules_by_name("soldiers");
  rules.rows = rules.cols = 3;
  walk(gonu::new_game(rules, gonu::parse_position(gonu::make_board(3, 3), "xxx/3/www x")), "");
  REQUIRE(games > 1);
  REQUIRE(bans == 1);
  // The same answer at a game's end as gonu query --certificate --json, but the certificate's id.
  const Result q = run_gonu("query --certificate '" + proof + "' --history '" + last_game + "' --json");
  REQUIRE(q.code == 0);
  json want = json::parse(q.out);
  want["certificate"] = "s33";
  REQUIRE(get_json(c, "/api/certificate?history=" + enc(last_game), 200) == want);
  // POST as GET; a history that leaves the proof, an illegal one and an unknown certificate are
  // 4xx errors that never show the server's path.
  const auto post = c.Post("/api/certificate", R"({"certificate": "s33", "history": ["c3-c2"]})", "application/json");
  REQUIRE(post);
  REQUIRE(json::parse(post->body) == get_json(c, "/api/certificate?history=c3-c2", 200));
  const json off = get_json(c, "/api/certificate?history=a3-a2", 400);
  REQUIRE(contains(off["error"], "the history leaves the proof"));
  REQUIRE(contains(get_json(c, "/api/certificate?history=a3-a1", 400)["error"], "illegal history"));
  REQUIRE(contains(get_json(c, "/api/certificate?certificate=nope", 404)["error"], "unknown certificate 'nope'"));
  for (const char* p : {"/api/certificate?history=a3-a2", "/api/certificate?certificate=nope"})
    REQUIRE(!contains(c.Get(p)->body, dir.path));
  REQUIRE(s.stop() == 0);
  // Only certificates: no table needed; a file that is not a valid proof is refused at the start.
  Server only("--certificate '" + proof + "'");
  auto oc = only.client();
  REQUIRE(get_json(oc, "/api/tables", 200)["tables"].empty());
  REQUIRE(get_json(oc, "/api/certificate", 200)["winner_move"] == "c3-c2");
  require_one_line_error(run_gonu("serve --certificate '" + t.f33 + "' --port 0"), "certificate");
}

namespace {

const std::string kReading = ".nohobble-compulsory-stalemate-loss-lancer-standard.gonu";

// gonu query DIR POSITION --json as the server answers it: the table named by the set's id.
json cli_jungi_query(const std::string& dir, const std::string& position, const std::string& history = "") {
  const Result r = run_gonu("query '" + dir + "' '" + position + "' --history '" + history + "' --json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  json j = json::parse(r.out);
  j["table"] = "jungi";
  return j;
}

}  // namespace

TEST_CASE("gonu serve DIR: the Jungi tables of a directory as one set, each query answered by its material's table",
          "[serve][cli]") {
  TempDir d;
  const std::string dir = d.file("jungi");
  REQUIRE(run_gonu("solve --game jungi --material KRvK --quiet --dir '" + dir + "'").code == 0);
  Server s("'" + dir + "'");
  REQUIRE(contains(s.first_line, "jungi: 11 Jungi tables"));
  auto c = s.client();
  const json list = get_json(c, "/api/tables", 200);
  REQUIRE(list["tables"].size() == 1);
  REQUIRE(list["tables"][0]["id"] == "jungi");
  REQUIRE(list["tables"][0]["game"] == "jungi");
  REQUIRE(list["tables"][0]["materials"] == 11);
  const std::string root = list["tables"][0]["root"];  // KRvK's longest win, the greatest material's
  json got = get_json(c, query_path("jungi", "", root), 200);
  REQUIRE(got == cli_jungi_query(dir, root));
  REQUIRE(got["material"] == "KRvK");
  REQUIRE(got["value"] == "WIN");
  // A game played on into another material (a promotion) is answered by that material's table.
  std::string history;
  json now = got;
  for (int ply = 0; ply < 40 && now["engine_move"].is_string(); ++ply) {
    if (!history.empty()) history += ' ';
    history += now["engine_move"].get<std::string>();
    now = get_json(c, query_path("jungi", history, root), 200);
    if (now["game_over"].is_null()) REQUIRE(now == cli_jungi_query(dir, root, history));
  }
  REQUIRE(now["game_over"].is_string());  // the winner took the other's King: no table holds that
  REQUIRE(now["value"] == "LOSS");
  REQUIRE(now["moves"].empty());
  const json line = get_json(c, "/api/line?table=jungi&position=" + enc(root) + "&history=" + enc(history), 200);
  REQUIRE(line["plies"].size() == std::size_t(std::count(history.begin(), history.end(), ' ')) + 2);
  REQUIRE(line["plies"][1]["san"] == got["engine_move_san"]);
  const json winner = got["side_to_move"];
  for (const json& ply : line["plies"]) {  // the same side wins throughout, each ply one nearer
    REQUIRE(ply["value"] == (ply["side_to_move"] == winner ? "WIN" : "LOSS"));
    REQUIRE(ply["distance"] == got["distance"].get<int>() - ply["ply"].get<int>());
  }
  // A position of a material not served: the command that makes it, no path of the server's.
  const json missing = get_json(c, query_path("jungi", "", "4k4/9/9/9/9/9/9/9/Q3K4 s -"), 400);
  REQUIRE(contains(missing["error"], "gonu solve --game jungi --material KQvK --dir DIR"));
  REQUIRE(!contains(missing["error"], d.path));
  REQUIRE(contains(get_json(c, query_path("jungi", ""), 400)["error"], "needs a position"));
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve DIR: a directory with no table is refused with one line", "[serve][cli]") {
  TempDir d;
  require_one_line_error(run_gonu("serve '" + d.path + "' --port 0"), "nothing to serve");
}

TEST_CASE("gonu serve DIR: /api/materials lists each material's header counts, and /api/rules the pieces", "[serve][cli]") {
  TempDir d;
  const std::string dir = d.file("jungi");
  REQUIRE(run_gonu("solve --game jungi --material KRvK --quiet --dir '" + dir + "'").code == 0);
  Server s("'" + dir + "'");
  auto c = s.client();
  const json m = get_json(c, "/api/materials?table=jungi", 200);
  REQUIRE(m["schema"] == "gonu-materials/1");
  REQUIRE(m["materials"].size() == 11);
  int pieces = 0;
  for (const json& e : m["materials"]) {
    const std::string text = e["material"];
    const int n = int(std::count_if(text.begin(), text.end(), [](char ch) { return std::isalpha(ch) && ch != 'v'; }));
    REQUIRE(n >= pieces);  // fewest pieces first
    pieces = n;
    // The counts as gonu info prints the header's: wins, draws and losses add up to the positions.
    std::uint64_t total = 0;
    for (int side = 0; side < 2; ++side) total += e["wins"][side].get<std::uint64_t>() + e["draws"][side].get<std::uint64_t>() + e["losses"][side].get<std::uint64_t>();
    REQUIRE(total == e["positions"].get<std::uint64_t>());
    const json example = get_json(c, query_path("jungi", "", e["example"]), 200);
    if (e["longest_win"].get<int>() > 0) {
      REQUIRE(example["value"] == "WIN");
      REQUIRE(example["distance"] == e["longest_win"]);
    }
  }
  const json rules = get_json(c, "/api/rules?game=jungi", 200);
  REQUIRE(rules["pieces"].size() == 11);
  REQUIRE(rules["pieces"][0]["letter"] == "K");
  REQUIRE(rules["pieces"][0]["promoted"] == "Emperor");
  const Result cli = run_gonu("rules --game jungi");
  for (const json& p : rules["pieces"]) REQUIRE(contains(cli.out, p["moves"].get<std::string>()));
  require_error(c.Get("/api/rules?game=chess"), 400, "only game=jungi");
  require_error(c.Get("/api/materials?table=nope"), 404, "unknown Jungi table set");
  REQUIRE(s.stop() == 0);
}

TEST_CASE("gonu serve DIR: a damaged table among good ones is refused alone, naming its material", "[serve][cli]") {
  TempDir d;
  const std::string dir = d.file("jungi");
  REQUIRE(run_gonu("solve --game jungi --material KRvK --quiet --dir '" + dir + "'").code == 0);
  const std::string krvk = dir + "/KRvK" + kReading;
  {
    std::FILE* f = std::fopen(krvk.c_str(), "r+b");  // a header byte changed: its checksum fails
    REQUIRE(f);
    std::fseek(f, 100, SEEK_SET);
    std::fputc(0x5a, f);
    std::fclose(f);
  }
  Server s("'" + dir + "'");
  auto c = s.client();
  const json m = get_json(c, "/api/materials?table=jungi", 200);
  int refused = 0;
  for (const json& e : m["materials"]) {
    if (!e.contains("error")) continue;
    ++refused;
    REQUIRE(e["material"] == "KRvK");
    REQUIRE(!contains(e["error"], d.path));
  }
  REQUIRE(refused == 1);
  const json bad = get_json(c, query_path("jungi", "", "4k4/9/9/9/9/9/9/9/R3K4 s -"), 400);
  REQUIRE(contains(bad["error"], "KRvK"));
  REQUIRE(!contains(bad["error"], d.path));
  const json good = get_json(c, query_path("jungi", "", "4k4/9/9/9/9/9/9/9/4K4 s -"), 200);
  REQUIRE(good["material"] == "KvK");
  REQUIRE(s.stop() == 0);
}

namespace {

// A GuardedServer on a free port of 127.0.0.1, listening on a thread of its own until the scope ends.
struct InProcessServer {
  gonu::cli::GuardedServer svr;
  int port = 0;
  std::jthread listener;
  explicit InProcessServer(gonu::cli::ServerLimits limits) : svr(limits) {}
  void start() {
    port = svr.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    listener = std::jthread([this] { svr.listen_after_bind(); });
    while (!svr.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // else stop() misses it
  }
  ~InProcessServer() { svr.stop(); }
};

}  // namespace

TEST_CASE("GuardedServer: the deadline is on reading the request and writing the answer, not on the handler's work",
          "[serve]") {
  using namespace std::chrono;
  gonu::cli::ServerLimits limits;
  limits.request = milliseconds(300);
  limits.keep_alive = milliseconds(2000);
  InProcessServer s(limits);
  s.svr.Get("/slow", [](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(milliseconds(1200));  // four times the deadline
    res.set_content("slow answer", "text/plain");
  });
  s.svr.Get("/fast", [](const httplib::Request&, httplib::Response& res) { res.set_content("fast", "text/plain"); });
  s.start();
  // The slow question is answered, whole; while it works, another connection is answered at once.
  RawConnection slow_connection(s.port);
  REQUIRE(slow_connection.send("GET /slow HTTP/1.1\r\nConnection: close\r\n\r\n"));
  std::string slow_answer;
  std::jthread slow([&] { slow_answer = slow_connection.answer(seconds(5)); });  // no assertion off the main thread
  std::this_thread::sleep_for(milliseconds(200));
  {
    const auto t0 = steady_clock::now();
    RawConnection c(s.port);
    REQUIRE(c.send("GET /fast HTTP/1.1\r\nConnection: close\r\n\r\n"));
    const std::string a = c.answer(seconds(5));
    REQUIRE(a.rfind("HTTP/1.1 200", 0) == 0);
    REQUIRE(a.ends_with("fast"));
    REQUIRE(steady_clock::now() - t0 < milliseconds(500));
  }
  slow.join();
  INFO(slow_answer);
  REQUIRE(slow_answer.rfind("HTTP/1.1 200", 0) == 0);
  REQUIRE(slow_answer.ends_with("slow answer"));
  // On a kept-alive connection the slow answer is followed by the next request's.
  {
    RawConnection c(s.port);
    REQUIRE(c.send("GET /slow HTTP/1.1\r\n\r\nGET /fast HTTP/1.1\r\nConnection: close\r\n\r\n"));
    const std::string a = c.answer(seconds(5));
    INFO(a);
    REQUIRE(a.find("slow answer") != std::string::npos);
    REQUIRE(a.ends_with("fast"));
  }
  // Reading the request still has its deadline: a head that stops coming is cut at 300 ms.
  {
    const auto t0 = steady_clock::now();
    RawConnection c(s.port);
    REQUIRE(c.send("GET /fast HTTP/1.1\r\nX-Slow: a"));
    const std::string a = c.answer(seconds(5));
    const auto cut = steady_clock::now() - t0;
    INFO(a);
    REQUIRE(a.find("fast") == std::string::npos);
    REQUIRE(cut >= milliseconds(250));
    REQUIRE(cut < milliseconds(1500));
  }
}

TEST_CASE("gonu serve: a body length over the limit, or none, is refused from the head alone, and the connection closed",
          "[serve][cli]") {
  Tables t;
  Server s("'" + t.f34 + "'");
  using namespace std::chrono;
  // The head alone; the body never comes. Each is answered and closed at once, not at the
  // request's 10 s deadline.
  const std::vector<std::pair<std::string, int>> heads = {
      {"Content-Length: 65537\r\n", 413},
      {"Content-Length: -1\r\n", 413},
      {"Content-Length: 18446744073709551617\r\n", 413},
      {"Content-Length: 12abc\r\n", 413},
      {"Content-Length: 2\r\nContent-Length: 3\r\n", 400},
      {"Transfer-Encoding: chunked\r\n", 411},
      {"", 411},
  };
  for (const auto& [head, status] : heads) {
    INFO(head);
    const auto t0 = steady_clock::now();
    RawConnection c(s.port);
    REQUIRE(c.send("POST /api/query HTTP/1.1\r\n" + head + "\r\n"));
    const std::string a = c.answer(seconds(15));  // until the server closes
    REQUIRE(steady_clock::now() - t0 < seconds(2));
    const auto [got, j] = status_and_json(a);
    REQUIRE(got == status);
    REQUIRE(j["schema"] == "gonu-error/1");
    REQUIRE(contains(a, "Connection: close"));
  }
  // A request line too long: 414, and closed at once (not kept alive for 5 s).
  {
    const auto t0 = steady_clock::now();
    RawConnection c(s.port);
    REQUIRE(c.send("GET /api/query?history=" + std::string(9000, 'a') + " HTTP/1.1\r\n\r\n"));
    const std::string a = c.answer(seconds(15));
    REQUIRE(steady_clock::now() - t0 < seconds(2));
    REQUIRE(status_and_json(a).first == 414);
  }
  // A body at the limit is read and answered, and the connection kept alive.
  {
    RawConnection c(s.port);
    const std::string body = "{}" + std::string(65534, ' ');
    REQUIRE(c.send("POST /api/query HTTP/1.1\r\nContent-Length: 65536\r\n\r\n" + body +
                   "GET /api/tables HTTP/1.1\r\nConnection: close\r\n\r\n"));
    const std::string a = c.answer(seconds(15));
    REQUIRE(a.rfind("HTTP/1.1 200", 0) == 0);
    REQUIRE(contains(a, "gonu-tables/1"));
  }
  auto c = s.client();
  REQUIRE(get_json(c, query_path("f34", "b3-b2"), 200) == cli_query(t.f34, "b3-b2"));
  REQUIRE(s.stop() == 0);
}

// (How long the start takes is measured by scripts/serve-bench.sh, not here.)
TEST_CASE("gonu serve DIR of 1,743 Jungi tables starts without opening them, and refuses each bad file alone",
          "[serve][cli]") {
  TempDir d;
  const std::string dir = d.file("jungi");
  REQUIRE(run_gonu("solve --game jungi --material KvK --quiet --dir '" + dir + "'").code == 0);
  const std::string kvk = dir + "/KvK" + kReading;
  std::set<std::string> closure;  // KvK's: KvK, Kv+K, +Kv+K, by the material text of their names
  for (const auto& e : std::filesystem::directory_iterator(dir)) closure.insert(e.path().filename().string().substr(0, e.path().filename().string().find('.')));
  const std::size_t solved = closure.size();
  // 1,743 names of kept materials of 3 to 5 pieces, each a link to KvK's table: every one is refused
  // when opened (its header says KvK), so a start that opened them all would fail or be slow.
  std::vector<gonu::jungi::Material> names;
  for (int pieces : {3, 4, 5})
    for (const gonu::jungi::Material& m : gonu::jungi::materials_of_size(pieces))
      if (gonu::jungi::is_canonical(m)) names.push_back(m);  // a kept material: a table of its own
  REQUIRE(names.size() >= 1743);
  names.resize(1743);
  for (const gonu::jungi::Material& m : names)
    REQUIRE(link(kvk.c_str(), (dir + "/" + gonu::jungi::table_file_name(m, gonu::jungi::Rules{})).c_str()) == 0);
  Server s("'" + dir + "'");
  INFO(s.first_line);
  REQUIRE(contains(s.first_line, "jungi: " + std::to_string(1743 + solved) + " Jungi tables"));
  auto c = s.client();
  REQUIRE(get_json(c, "/api/tables", 200)["tables"][0]["materials"] == 1743 + solved);
  const json m = get_json(c, "/api/materials?table=jungi", 200);
  REQUIRE(m["materials"].size() == 1743 + solved);
  for (const json& e : m["materials"]) {
    if (closure.count(e["material"])) {  // the tables solved: served
      REQUIRE(e["positions"].get<std::uint64_t>() > 0);
      continue;
    }
    REQUIRE(contains(e["error"], "a table of KvK, not " + e["material"].get<std::string>()));
    REQUIRE(!contains(e["error"], d.path));
  }
  REQUIRE(get_json(c, query_path("jungi", "", "4k4/9/9/9/9/9/9/9/4K4 s -"), 200)["material"] == "KvK");
  REQUIRE(s.stop() == 0);
}
