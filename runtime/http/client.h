// A synchronous HTTP/1.1 client with a keep-alive pool (Asio + Beast underneath). Each call
// blocks the calling thread; a connection is driven by the thread using it, so there is no
// I/O thread to share. Streaming responses (watch) deliver body bytes as they arrive.
#pragma once

#include "runtime/http/message.h"
#include "runtime/http/tls.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>

namespace capstan::http {

// A transport failure (connect, TLS, timeout, reset); HTTP error statuses are not errors.
class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The call was cancelled through its Cancellation (a transport failure of a kind: nothing is
// known about whether the server acted on the request).
class Cancelled : public TransportError {
 public:
  using TransportError::TransportError;
};

// Cancels a call (request or stream) from another thread. Once cancelled it stays cancelled:
// later calls given it fail at once.
class Cancellation {
 public:
  void cancel();
  bool cancelled() const { return cancelled_.load(); }

  // Used by the client: registers what to call to abort the in-flight operation. cancel() runs
  // it under the lock, so once clear_canceller() returns it is not running and never will be.
  void set_canceller(std::function<void()> fn);
  void clear_canceller();

 private:
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  std::function<void()> canceller_;
};

struct ClientOptions {
  ClientTls tls;
  std::chrono::milliseconds connect_timeout{10000};
  std::size_t max_idle_per_host = 16;
  std::size_t body_limit = 512 * 1024 * 1024;
};

class Client {
 public:
  explicit Client(ClientOptions options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Sends a request to an absolute URL and reads the whole response.
  // Throws TransportError (naming method and URL) on transport failure or timeout, and
  // Cancelled when `cancel` fires first (connecting, sending or waiting for the answer).
  Response request(std::string_view method, std::string_view url, const Headers& headers = {},
                   std::string_view body = {}, std::chrono::milliseconds timeout = std::chrono::seconds(30),
                   Cancellation* cancel = nullptr);

  // Sends a request and streams the response body. `on_head` sees status and headers first;
  // return false from it to stop (the body of a non-2xx response is then read into
  // `error_body`). `on_data` gets body bytes (chunk framing removed); return false to stop.
  // Returns when the body ends, a callback stops, `cancel` fires, or no byte arrived for
  // `idle_timeout` (TransportError). The connection is reused only when the body ended.
  struct StreamResult {
    int status = 0;
    Headers headers;
    std::string error_body;
    bool completed = false;  // the server ended the body
  };
  StreamResult stream(std::string_view method, std::string_view url, const Headers& headers, std::string_view body,
                      const std::function<bool(int status, const Headers&)>& on_head,
                      const std::function<bool(std::string_view data)>& on_data, Cancellation* cancel,
                      std::chrono::milliseconds idle_timeout);

  // Drops idle pooled connections (e.g. after the server restarted).
  void close_idle();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace capstan::http
