// An HTTP/1.1 server (Asio + Beast underneath) for the API server, webhooks, metrics and
// health probes. Handlers run on a worker pool, so they may block (e.g. call a webhook);
// responses are either complete or streamed in chunks (watch) from any thread.
#pragma once

#include "runtime/http/message.h"
#include "runtime/http/tls.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::http {

// A chunked response body being written. Thread-safe; writes after close are dropped.
class Stream {
 public:
  virtual ~Stream() = default;
  // Queues a chunk; returns false once the stream is closed (client gone, server stopping,
  // or the client fell more than the buffer limit behind).
  virtual bool write(std::string chunk) = 0;
  // Queues the concatenation of `pieces` as one write, copied once (into the pending batch).
  virtual bool write(std::initializer_list<std::string_view> pieces) = 0;
  // Ends the response (terminating chunk); the connection then serves the next request.
  virtual void close() = 0;
  virtual bool closed() const = 0;
  // Runs `fn` once when the stream closes for any reason (immediately if already closed).
  virtual void on_close(std::function<void()> fn) = 0;
  // Flow control for a writer with much to send: waits until fewer than `bytes` are queued
  // (true) or the stream closed or `timeout` passed (false).
  virtual bool wait_queued_below(std::size_t bytes, std::chrono::milliseconds timeout) = 0;
};

// Handed to the handler; exactly one of send() or stream() must be called (a handler that
// returns without calling either gets a 500).
class Reply {
 public:
  virtual ~Reply() = default;
  virtual void send(Response response) = 0;
  virtual std::shared_ptr<Stream> stream(int status, Headers headers) = 0;
};

using Handler = std::function<void(Request& request, Reply& reply)>;

struct ServerOptions {
  std::string name = "http";       // for logs
  // "" = every interface, IPv6 and IPv4 (as Go's ":8080"; IPv4 only where IPv6 is missing);
  // an explicit address ("0.0.0.0", "::", "127.0.0.1") binds just that.
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;          // 0 = pick a free port (see Server::port())
  std::optional<ServerTls> tls;
  int io_threads = 1;
  int handler_threads = 4;
  // Run handlers on the I/O thread that read the request instead of handing them to the
  // handler pool: for short CPU-bound handlers (admission reviews) that never block, it saves
  // two thread hand-offs per request. A blocking handler would stall its I/O thread.
  bool inline_handlers = false;
  std::size_t body_limit = 64 * 1024 * 1024;
  // The answer to a request whose body exceeds body_limit (the connection is closed after it);
  // unset: 413 "request body too large" as text/plain.
  std::optional<Response> body_too_large;
  std::size_t stream_buffer_limit = 64 * 1024 * 1024;  // bytes queued per stream before it is closed
};

class Server {
 public:
  Server(ServerOptions options, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts serving; throws std::runtime_error naming the address on failure.
  void start();
  // Stops accepting, closes connections and streams, joins the threads. Idempotent.
  void stop();
  std::uint16_t port() const;
  std::string address() const;  // "127.0.0.1:43123"

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Splits "host:port" / ":port" / "[::1]:port"; an empty host means all interfaces.
std::pair<std::string, std::uint16_t> split_host_port(std::string_view address);

}  // namespace capstan::http
