// An httplib::Server that slow and stalled clients cannot starve. httplib's own loop gives each
// connection a pooled worker for as long as the client keeps sending a byte within the read timeout,
// so 32 clients each sending a header byte every 2 s held every worker. Here instead:
//   - each connection has its own thread (a small stack), up to `connections` at once; one past
//     that is answered 503 at once, from the accepting thread, and closed;
//   - one client (one address) holds at most `per_client` of them; past that, 503;
//   - a request's head and body must be read within `request` of its first byte, and its answer
//     written within `request` of its being ready; the handler's own work between the two has no
//     deadline, so a slow question is answered, never dropped. A kept-alive connection must send
//     its next request within `keep_alive`, else it is closed;
//   - a body whose Content-Length is over the payload limit (set_payload_max_length) or is not a
//     plain number is answered 413 from the head alone, without waiting for the body; one without
//     a Content-Length, or sent in chunks, 411; two different Content-Lengths, 400. After such an
//     answer, after a 414, and after a request that did not come whole in time, the connection is
//     closed at once.
// A connection that is waiting costs its own thread only, so other clients keep being answered.
// The server keeps httplib's pre- and post-routing handlers for itself.
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
  httplib::Server::HandlerResponse refuse_body_length(const httplib::Request& req, httplib::Response& res) const;
  void leave_client(const std::string& address);

  ServerLimits limits_;
  std::unique_ptr<LingeringCloser> closer_;  // for the connections refused on the accepting thread
  std::mutex clients_mutex_;
  std::map<std::string, std::size_t> clients_;  // open connections by client address
};

}  // namespace gonu::cli
