// GuardedServer: one thread per connection up to a bound, a bound per client, a deadline on reading
// every request and one on writing its answer, and a body length checked from the head alone (see
// guarded_server.hpp for why).
#include "tools/serve/guarded_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "tools/serve/api.hpp"

namespace gonu::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Set while the accepting thread runs a connection's task itself: the server is full (or no thread
// could be started for it), and that connection is answered 503 at once.
enum class Refusal { none, full, no_thread };
thread_local Refusal t_refusal = Refusal::none;

// Enough for a request's work (parsing, routing, one query); a connection that waits costs no more.
constexpr std::size_t kConnectionStack = 2u << 20;

// Threads for connections, at most `limit` at once: a task past it, or one whose thread cannot be
// started (a resource limit), runs on the accepting thread with t_server_full set.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  explicit ConnectionThreads(std::size_t limit) : limit_(limit) {}

  void enqueue(std::function<void()> fn) override {
    bool full = false;
    {
      std::lock_guard lock(mutex_);
      full = active_ >= limit_;
      if (!full) ++active_;
    }
    if (full) return run_refused(fn, Refusal::full);
    auto* task = new std::function<void()>(std::move(fn));
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kConnectionStack);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    const int failed = pthread_create(&thread, &attr, &ConnectionThreads::run, new Job{this, task});
    pthread_attr_destroy(&attr);
    if (failed) {
      std::unique_ptr<std::function<void()>> owned(task);
      finished();
      run_refused(*owned, Refusal::no_thread);
    }
  }

  void shutdown() override {  // the server has stopped accepting: wait for the open connections
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return active_ == 0; });
  }

 private:
  struct Job {
    ConnectionThreads* owner;
    std::function<void()>* task;
  };

  static void* run(void* arg) {
    std::unique_ptr<Job> job(static_cast<Job*>(arg));
    std::unique_ptr<std::function<void()>> task(job->task);
    try {
      (*task)();
    } catch (...) {  // a connection's fault must not end the process; its socket is closed by now
    }
    job->owner->finished();
    return nullptr;
  }

  static void run_refused(std::function<void()>& fn, Refusal why) {
    t_refusal = why;
    fn();
    t_refusal = Refusal::none;
  }

  void finished() {
    std::lock_guard lock(mutex_);
    if (--active_ == 0) idle_.notify_all();
  }

  std::size_t limit_;
  std::size_t active_ = 0;
  std::mutex mutex_;
  std::condition_variable idle_;
};

// A connection's stream, as httplib's own but with one deadline for all of a request's reads and
// writes, however the client spreads its bytes.
class DeadlineStream : public httplib::Stream {
 public:
  explicit DeadlineStream(int sock) : sock_(sock) {}

  // The deadline of what follows: reading a request from its first byte, or writing its answer.
  void start_deadline(std::chrono::milliseconds limit) {
    deadline_ = Clock::now() + limit;
    expired_ = false;
  }
  // Whether a read or write has waited past the deadline since it was started.
  bool expired() const { return expired_; }

  // Waits until the next request's first byte (true), `limit` passes or `stopping` says so.
  bool wait_for_request(std::chrono::milliseconds limit, const std::function<bool()>& stopping) {
    if (at_ < buffer_.size()) return true;
    const auto until = Clock::now() + limit;
    while (!stopping()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
      if (left.count() <= 0) return false;
      pollfd p{sock_, POLLIN, 0};
      const int ready = ::poll(&p, 1, int(std::min<long long>(left.count(), 100)));
      if (ready < 0 && errno != EINTR) return false;
      if (ready > 0) return true;
    }
    return false;
  }

  bool is_readable() const override { return at_ < buffer_.size() || wait(POLLIN); }
  bool is_writable() const override { return wait(POLLOUT); }

  ssize_t read(char* ptr, size_t size) override {
    if (at_ == buffer_.size()) {
      if (!wait(POLLIN)) return -1;
      buffer_.resize(4096);
      const ssize_t n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      buffer_.resize(n > 0 ? std::size_t(n) : 0);
      at_ = 0;
      if (n <= 0) return n;
    }
    const std::size_t n = std::min(size, buffer_.size() - at_);
    std::memcpy(ptr, buffer_.data() + at_, n);
    at_ += n;
    return ssize_t(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!wait(POLLOUT)) return -1;
    return ::send(sock_, ptr, size, MSG_NOSIGNAL);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { address(::getpeername, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address(::getsockname, ip, port); }
  socket_t socket() const override { return sock_; }

 private:
  // Waits for `events` until the request's deadline; false once it has passed.
  bool wait(short events) const {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
      pollfd p{sock_, events, 0};
      const int ready = left.count() <= 0 ? 0 : ::poll(&p, 1, int(left.count()));
      if (ready > 0) return true;
      if (ready == 0) expired_ = true;
      if (ready == 0 || errno != EINTR) return false;
    }
  }

  void address(int (*get)(int, sockaddr*, socklen_t*), std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    ip.clear();
    port = -1;
    if (get(sock_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
      const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
      inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
      port = ntohs(v4->sin_port);
    } else if (a.ss_family == AF_INET6) {
      const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
      inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
      port = ntohs(v6->sin6_port);
    }
    ip = text;
  }

  int sock_;
  Clock::time_point deadline_ = Clock::now();
  mutable bool expired_ = false;
  std::string buffer_;
  std::size_t at_ = 0;
};

// The connection this thread serves (one thread a connection): its stream, whose deadline the
// answer restarts, and whether it is closed after the answer now being written.
struct Connection {
  DeadlineStream* stream = nullptr;
  bool close = false;
};
thread_local Connection t_connection;

// The refusal of a request whose body cannot be read as sent, from its head alone; none where the
// body may be read. httplib would read a body without a Content-Length, or sent in chunks, until
// the client closes, however large; and one whose Content-Length is over the limit (or is not a
// number, which it reads as 2^64 - 1) byte by byte until the deadline, answering nothing.
std::optional<ApiAnswer> body_length_refusal(const httplib::Request& req, std::size_t max) {
  if (req.has_header("Transfer-Encoding"))
    return api_error(411, "a request body must be sent with a Content-Length, not in chunks");
  const std::size_t lengths = req.get_header_value_count("Content-Length");
  const bool has_body = req.method == "POST" || req.method == "PUT" || req.method == "PATCH" ||
                        req.method == "DELETE" || req.method == "PRI";  // httplib reads a body for these
  if (lengths == 0)
    return has_body ? std::optional(api_error(411, "a " + req.method + " request needs a Content-Length"))
                    : std::nullopt;
  const std::string first = req.get_header_value("Content-Length", 0);
  for (std::size_t i = 1; i < lengths; ++i)
    if (req.get_header_value("Content-Length", i) != first) return api_error(400, "two different Content-Lengths");
  const bool number = !first.empty() && first.size() <= 19 && first.find_first_not_of("0123456789") == std::string::npos;
  if (number && std::stoull(first) <= max) return std::nullopt;
  return api_error(413, "the request body is too large: Content-Length '" + first + "' is not a number of bytes from 0 to " +
                            std::to_string(max));
}

// How long a refused connection is read from before it is closed: closing a socket with unread
// bytes resets the connection, and the client would lose the 503 before reading it.
constexpr auto kLinger = std::chrono::milliseconds(200);

// Answers 503 with a gonu-error/1 body and shuts the sending side; the caller closes.
void answer_busy(int sock, const std::string& why) {
  const ApiAnswer a = api_error(503, why);
  const std::string head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                           "Cache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: " +
                           std::to_string(a.body.size()) + "\r\n\r\n";
  const std::string all = head + a.body;
  (void)::send(sock, all.data(), all.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_WR);
}

// Reads what is there without waiting; false once the client has closed (or the socket failed).
bool drain(int sock) {
  char sink[4096];
  for (;;) {
    const ssize_t n = ::recv(sock, sink, sizeof sink, MSG_DONTWAIT);
    if (n > 0) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
  }
}

void linger_and_close(int sock) {
  const auto until = Clock::now() + kLinger;
  pollfd p{sock, POLLIN, 0};
  while (Clock::now() < until && drain(sock)) ::poll(&p, 1, 20);
  ::close(sock);
}

std::string peer_address(int sock) {
  DeadlineStream s(sock);
  std::string ip;
  int port = 0;
  s.get_remote_ip_and_port(ip, port);
  return ip;
}

}  // namespace

// The connections refused on the accepting thread, which must not wait on them: each is read from
// for kLinger on a thread of its own, then closed (at once where that thread could not start).
class LingeringCloser {
 public:
  LingeringCloser() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    started_ = pthread_create(&thread_, &attr, [](void* self) -> void* {
      static_cast<LingeringCloser*>(self)->loop();
      return nullptr;
    }, this) == 0;
    pthread_attr_destroy(&attr);
  }
  ~LingeringCloser() {
    if (started_) {
      {
        std::lock_guard lock(mutex_);
        stopping_ = true;
      }
      wake_.notify_all();
      pthread_join(thread_, nullptr);
    }
    for (const Pending& p : pending_) ::close(p.sock);
  }
  void add(int sock) {
    {
      std::lock_guard lock(mutex_);
      if (started_ && pending_.size() < 1024) {
        pending_.push_back({sock, Clock::now() + kLinger});
        sock = -1;
      }
    }
    if (sock >= 0) ::close(sock);
    wake_.notify_all();
  }

 private:
  struct Pending {
    int sock;
    Clock::time_point until;
  };
  void loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      if (pending_.empty()) {
        wake_.wait(lock);
        continue;
      }
      const auto now = Clock::now();
      std::erase_if(pending_, [&](const Pending& p) {
        if (now < p.until && drain(p.sock)) return false;
        ::close(p.sock);
        return true;
      });
      wake_.wait_for(lock, std::chrono::milliseconds(20));
    }
  }
  pthread_t thread_{};
  bool started_ = false;
  bool stopping_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Pending> pending_;
};

GuardedServer::GuardedServer(ServerLimits limits) : limits_(limits), closer_(std::make_unique<LingeringCloser>()) {
  new_task_queue = [n = limits.connections] { return new ConnectionThreads(n); };
  set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    return refuse_body_length(req, res);
  });
  // Called once the answer is ready, just before httplib writes it: the handler's work is done, so
  // the writing gets a deadline of its own.
  set_post_routing_handler([this](const httplib::Request&, httplib::Response& res) {
    Connection& c = t_connection;
    if (res.status == 414) c.close = true;  // the rest of the request line was not read
    if (c.stream && c.stream->expired()) c.close = true;  // the request did not come whole in time
    if (c.stream) c.stream->start_deadline(limits_.request);
    if (c.close) {
      res.headers.erase("Keep-Alive");
      res.headers.erase("Connection");
      res.set_header("Connection", "close");
    }
  });
}

httplib::Server::HandlerResponse GuardedServer::refuse_body_length(const httplib::Request& req,
                                                                   httplib::Response& res) const {
  const std::optional<ApiAnswer> refusal = body_length_refusal(req, payload_max_length_);
  if (!refusal) return HandlerResponse::Unhandled;
  t_connection.close = true;  // the body, if it comes, is not read
  res.status = refusal->status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(refusal->body, "application/json");
  return HandlerResponse::Handled;
}

GuardedServer::~GuardedServer() = default;

void GuardedServer::deepen_backlog() {
  if (svr_sock_ != INVALID_SOCKET) ::listen(svr_sock_, int(limits_.connections));
}

bool GuardedServer::enter_client(const std::string& address) {
  std::lock_guard lock(clients_mutex_);
  std::size_t& n = clients_[address];
  if (n >= limits_.per_client) return false;
  ++n;
  return true;
}

void GuardedServer::leave_client(const std::string& address) {
  std::lock_guard lock(clients_mutex_);
  if (--clients_[address] == 0) clients_.erase(address);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  if (t_refusal != Refusal::none) {  // on the accepting thread
    answer_busy(sock, t_refusal == Refusal::full
                          ? "the server is busy: " + std::to_string(limits_.connections) + " connections are open; try again"
                          : std::string("the server cannot start a thread for this connection (a resource limit?); "
                                        "try again"));
    closer_->add(sock);
    return false;
  }
  const std::string client = peer_address(sock);
  if (!enter_client(client)) {
    answer_busy(sock, "too many connections from " + client + " (at most " + std::to_string(limits_.per_client) +
                          "); try again");
    linger_and_close(sock);
    return false;
  }
  DeadlineStream strm(sock);
  t_connection = {&strm, false};
  // Closed and counted out however the requests end (an exception included). After a refusal the
  // client may still be sending what was not read: it is read for a moment, so that the close does
  // not reset the connection before the client has read the answer.
  const std::unique_ptr<void, std::function<void(void*)>> closer(this, [&](void*) {
    leave_client(client);
    const bool refused = t_connection.close;
    t_connection = {};
    ::shutdown(sock, refused ? SHUT_WR : SHUT_RDWR);
    if (refused) linger_and_close(sock);
    else ::close(sock);
  });
  const auto stopping = [this] { return svr_sock_ == INVALID_SOCKET; };
  bool ret = false;
  for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
    if (!strm.wait_for_request(limits_.keep_alive, stopping)) break;
    strm.start_deadline(limits_.request);
    bool connection_closed = false;
    ret = process_request(strm, left == 1, connection_closed, nullptr);
    if (!ret || connection_closed || t_connection.close) break;
  }
  return ret;
}

}  // namespace gonu::cli
