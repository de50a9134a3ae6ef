// An httplib::Server that slow and stalled clients cannot starve. httplib's own loop gives each
// connection a pooled worker for as long as the client keeps sending a byte within the read timeout,
// so 32 clients each sending a header byte every 2 s held every worker. Here instead:
//   - each connection has its own thread (a small stack), up to `connections` at once; one past
//     that is answered 503 at once, from the accepting thread, and closed;
//   - one client (one address) holds at most `per_client` of them; past that, 503;
//   - each request (head, body and answer) must be done within `request` of its first byte, and a
//     kept-alive connection must send its next request within `keep_alive`, else it is closed.
// A connection that is waiting costs its own thread only, so other clients keep being answered.
#pragma once
#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace gonu::cli {

struct ServerLimits {
  std::chrono::milliseconds request{10'000};
  std::chrono::milliseconds keep_alive{5'000};
  std::size_t connections = 256;
  std::size_t per_client = 64;
};

class LingeringCloser;

class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(ServerLimits limits = {});
  ~GuardedServer() override;

  // After binding: a listen backlog of `connections` instead of httplib's 5, past which a new
  // client's SYN is dropped and retried only a second later.
  void deepen_backlog();

 private:
  // Replaces httplib's loop over one connection's requests (a private virtual of httplib::Server).
  bool process_and_close_socket(socket_t sock) override;
  bool enter_client(const std::string& address);
  void leave_client(const std::string& address);

  ServerLimits limits_;
  std::unique_ptr<LingeringCloser> closer_;  // for the connections refused on the accepting thread
  std::mutex clients_mutex_;
  std::map<std::string, std::size_t> clients_;  // open connections by client address
};

}  // namespace gonu::cli
