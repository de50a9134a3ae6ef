// libFuzzer target: the explorer's HTTP layer. Each input is the bytes a client sends (request
// line with its path and query string, headers, body), handed to httplib's request processing over
// an in-memory stream, with gonu serve's own routes (tools/serve/routes.hpp) over two small tables
// solved at start-up. Every answer must be HTTP, and every JSON body valid UTF-8 with a status
// below 500: a 5xx, an exception out of the handlers, a sanitizer report or a crash is a finding.
#include <httplib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "solver/julgonu/solve.hpp"
#include "solver/julgonu/table/table.hpp"
#include "tools/serve/routes.hpp"

namespace {

// One request's bytes in, the answer's bytes out.
class MemoryStream : public httplib::Stream {
 public:
  explicit MemoryStream(std::string in) : in_(std::move(in)) {}
  bool is_readable() const override { return at_ < in_.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, in_.size() - at_);
    std::copy_n(in_.data() + at_, n, ptr);
    at_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out.append(ptr, size);
    return ssize_t(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 40000;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 8080;
  }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string out;

 private:
  std::string in_;
  std::size_t at_ = 0;
};

// The server with gonu serve's routes, driven one request at a time without a socket.
class FuzzServer : public httplib::Server {
 public:
  std::string answer(const std::string& request) {
    MemoryStream s(request);
    bool closed = false;
    process_request(s, true, closed, nullptr);
    return s.out;
  }
};

struct World {
  gonu::cli::Served served;
  FuzzServer server;
};

World& world() {
  static World* w = [] {
    auto* made = new World;
    char dir[] = "/tmp/gonu-fuzz-serve-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    std::vector<std::string> paths;
    for (const char* name : {"free", "encyclopedia"}) {
      gonu::Rules rules = gonu::rules_by_name(name);
      rules.rows = rules.cols = 3;
      const gonu::Board board = gonu::make_board(rules.rows, rules.cols);
      const gonu::Solution s = gonu::solve(gonu::new_game(rules, gonu::start_position(board, rules.first)));
      paths.push_back(std::string(dir) + "/" + name + ".gonu");
      gonu::write_table(paths.back(), s);
    }
    made->served = gonu::cli::open_served(paths, {});
    gonu::cli::add_explorer_routes(made->server, made->served, {});
    made->server.set_payload_max_length(gonu::cli::kMaxBodyBytes);
    return made;
  }();
  return *w;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  world();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  const std::string request(reinterpret_cast<const char*>(data), size);
  const std::string answer = world().server.answer(request);
  if (answer.empty()) return 0;  // httplib gave up on the bytes (no request line): nothing to check
  if (answer.rfind("HTTP/1.1 ", 0) != 0) std::abort();
  const int status = std::atoi(answer.c_str() + 9);
  if (status >= 500) {
    std::fprintf(stderr, "fuzz_serve: HTTP %d for a request of %zu bytes:\n%s\n", status, size, answer.c_str());
    std::abort();
  }
  const std::size_t body = answer.find("\r\n\r\n");
  // A Range header asks for part of the body (httplib honours it on every answer) and a HEAD
  // request for none: only whole bodies are parsed.
  const bool whole = answer.find("\r\nContent-Range: ") == std::string::npos &&
                     request.rfind("HEAD", 0) != 0;
  const bool is_json = whole && answer.find("Content-Type: application/json") != std::string::npos;
  if (is_json && body != std::string::npos && !nlohmann::json::accept(answer.substr(body + 4))) {
    std::fprintf(stderr, "fuzz_serve: a JSON body that does not parse:\n%s\n", answer.c_str());
    std::abort();
  }
  return 0;
}
