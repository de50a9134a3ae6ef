// gonu serve [DIR | TABLE | PROOF.cert]... [--certificate FILE]... [--max-memory SIZE] [--host H]
// [--port P]: the web explorer. A local HTTP server (cpp-httplib) that serves one page, built into
// the program (tools/web/), and a JSON API over the tables (every table of a directory; Jungi
// tables as one set a reading, each file opened on its first use) and superko proofs
// (tools/serve/api.hpp):
//   GET  /                   the page;  GET /<file> its assets
//   GET  /api/tables         the loaded tables
//   GET  /api/query?table=ID&position=TEXT&history=MOVES   (or POST a JSON body) gonu-query/1
//   GET  /api/line?...       (or POST) value and distance after every prefix of the history
//   GET  /api/certificates   the loaded superko proofs
//   GET  /api/certificate?certificate=ID&position=TEXT&history=MOVES   (or POST)
//                            gonu-certificate-query/1: the strategy's move or the loser's replies
//   GET  /api/materials?table=SET   a Jungi set's materials with their shares and longest wins
//   GET  /api/rules?game=jungi      Jungi's pieces, as gonu rules --game jungi lists them
// Binds to 127.0.0.1 unless told; --port 0 takes a free port. Every error is JSON with a 4xx (5xx
// only for a fault of the server). Slow and stalled clients cannot hold the others up, and too many
// connections are answered 503 (tools/serve/guarded_server.hpp). SIGINT and SIGTERM stop it
// cleanly (exit 0).
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <iostream>
#include <thread>

#include "core/error.hpp"
#include "tools/cli/options.hpp"
#include "tools/serve/api.hpp"
#include "tools/serve/guarded_server.hpp"
#include "tools/serve/routes.hpp"
#include "tools/web/assets.hpp"

namespace gonu::cli {

namespace {

// Binds (port 0: any free port) and returns the port; GonuError if it cannot.
int bind_server(httplib::Server& svr, const std::string& host, int port) {
  if (port == 0) {
    const int p = svr.bind_to_any_port(host);
    if (p <= 0) throw GonuError("cannot listen on " + host + " (any port): " + std::strerror(errno));
    return p;
  }
  if (!svr.bind_to_port(host, port))
    throw GonuError("cannot listen on " + host + ":" + std::to_string(port) + ": " + std::strerror(errno));
  return port;
}

// Serves until SIGINT or SIGTERM: the signals are blocked in every thread (the workers inherit the
// mask) and one thread waits for them with sigwait, then stops the server outside any handler. That
// thread has a small stack, so that it starts under a tight address-space limit (ulimit -v) too.
// Where no thread can start for the stop signals (a tight address-space limit), a handler ends the
// process on them instead: it writes the closing line and exits 0, which is clean because the
// server holds nothing to flush (its tables are mapped read-only).
void serve_until_signal_handled(httplib::Server& svr, const sigset_t& stop_signals) {
  struct sigaction sa {};
  sa.sa_handler = [](int) {
    static const char line[] = "gonu serve: stopped\n";
    [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, line, sizeof line - 1);
    _exit(0);
  };
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
  svr.listen_after_bind();
}

void serve_until_signal(httplib::Server& svr) {
  struct Waiter {
    httplib::Server* svr;
    sigset_t stop_signals;
    std::atomic<bool> signalled = false;
  } w{&svr, {}, false};
  sigemptyset(&w.stop_signals);
  sigaddset(&w.stop_signals, SIGINT);
  sigaddset(&w.stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &w.stop_signals, nullptr);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_t waiter;
  const int failed = pthread_create(&waiter, &attr, [](void* arg) -> void* {
    auto* k = static_cast<Waiter*>(arg);
    int sig = 0;
    sigwait(&k->stop_signals, &sig);
    k->signalled = true;
    k->svr->stop();
    return nullptr;
  }, &w);
  pthread_attr_destroy(&attr);
  if (failed) return serve_until_signal_handled(svr, w.stop_signals);
  svr.listen_after_bind();
  if (!w.signalled) pthread_kill(waiter, SIGTERM);  // the server ended by itself
  pthread_join(waiter, nullptr);
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

int cmd_serve(int argc, char** argv) {
  CommandLine cl("gonu serve [DIR | TABLE | PROOF.cert]... [--certificate FILE]... [--max-memory 1G] [--host 127.0.0.1] [--port 8080]");
  cl.add()("host", po::value<std::string>()->default_value("127.0.0.1"), "address to listen on (loopback unless told)");
  cl.count("port", 8080, "port to listen on; 0 picks a free one (printed)");
  cl.add()("certificate", po::value<std::vector<std::string>>(),
           "a superko proof (gonu solve --certificate) to play against, checked first; may be given again");
  cl.byte_size("max-memory", "bound on the decoded Jungi table blocks held at once (default 1G)");
  cl.positional_list("table");
  if (!cl.parse(argc, argv)) return 0;
  const std::vector<std::string> proofs =
      cl.has("certificate") ? cl.value<std::vector<std::string>>("certificate") : std::vector<std::string>{};
  const std::vector<std::string> files =
      proofs.empty() || cl.has("table") ? cl.required_list("table", "TABLE or DIR (or --certificate FILE)")
                                        : std::vector<std::string>{};
  const std::int64_t port = cl.count_value("port");
  if (port > 65535) cl.usage_error("--port must be 0..65535, not " + std::to_string(port));
  const std::string host = cl.text("host");

  // Blocked before any thread starts (the server's, and TBB's workers that reading a Jungi table
  // starts), so that every thread inherits the mask and the stop signals reach only
  // serve_until_signal's sigwait; one sent while the tables are read waits for it.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  const std::uint64_t max_memory = cl.byte_size_value("max-memory");
  const Served served = open_served(files, proofs, max_memory ? max_memory : jungi::kDefaultTablesMemory);
  GuardedServer svr;
  svr.set_payload_max_length(kMaxBodyBytes);
  svr.set_keep_alive_max_count(100000);
  svr.set_tcp_nodelay(true);  // else a small answer waits for the client's delayed ACK (~40 ms)
  // SO_REUSEADDR (a restart may bind at once) but not httplib's default SO_REUSEPORT, with which
  // a second server on a taken port would bind and share the requests instead of failing.
  svr.set_socket_options([](int sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  add_explorer_routes(svr, served, {kWebAssets, kWebAssetCount});
  const int bound = bind_server(svr, host, int(port));
  svr.deepen_backlog();

  std::cerr << "gonu serve: listening on http://" << url_host(host) << ":" << bound << "/ (";
  std::cerr << served_summary(served);
  std::cerr << "); Ctrl-C stops" << std::endl;
  serve_until_signal(svr);
  std::cerr << "gonu serve: stopped" << std::endl;
  return 0;
}

}  // namespace gonu::cli
