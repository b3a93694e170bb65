// The webhook server (controller-runtime pkg/webhook.Server): HTTPS with the serving
// certificate read from <cert_dir>/<cert_name> and <key_name> and re-read when the files
// change, and one handler per registered path (instrumented with the webhook metrics).
//
//   webhook::Server server({.port = 9443, .cert_dir = "/tmp/k8s-webhook-server/serving-certs"});
//   server.register_path("/validate-certs-capstan-dev-v1-certificate", webhook::make_validating_handler(v));
//   server.start();
#pragma once

#include "runtime/webhook/handler.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace capstan::http {
class Server;
}
namespace capstan::metrics {
class Registry;
}

namespace capstan::webhook {

struct ServerOptions {
  std::string host;               // "" = all interfaces
  int port = 9443;                // 0 = pick a free port (tests; see Server::port())
  std::string cert_dir;           // "" = <temp dir>/k8s-webhook-server/serving-certs
  std::string cert_name = "tls.crt";
  std::string key_name = "tls.key";
  // How often the certificate files are checked for changes (controller-runtime's certwatcher polls every 10 s).
  std::chrono::seconds cert_reload_interval{10};
  // Threads that read, handle and answer reviews: handlers run inline on them (they are short
  // and never block). One answers some 30,000 reviews a second on one core; a second thread
  // only adds hand-offs between threads and, under load, doubles the p99 (bench/webhook_bench).
  int io_threads = 1;
  // Request bodies past this get 413 (and the connection is closed) without being read.
  std::size_t max_request_bytes = kMaxRequestBytes;
  metrics::Registry* registry = nullptr;  // webhook metrics; nullptr = the global registry
};

// controller-runtime's default certificate directory.
std::string default_cert_dir();

class Server {
 public:
  explicit Server(ServerOptions options = {});
  ~Server();  // stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Serves `handler` at exactly `path` (the query string is ignored). Throws
  // std::invalid_argument for a malformed path (see is_valid_path) or one already registered.
  // May be called before or after start().
  void register_path(const std::string& path, Handler handler);
  bool has_paths() const;

  // Binds and serves. Throws std::runtime_error naming the address, or the certificate file
  // that cannot be read.
  void start();
  void stop();
  // Whether the server is serving (readiness: controller-runtime's StartedChecker).
  bool started() const { return started_.load(); }
  std::uint16_t port() const;
  const ServerOptions& options() const { return opts_; }
  std::string cert_file() const;
  std::string key_file() const;

 private:
  void serve(const http::Request& req, http::Response& resp);

  ServerOptions opts_;
  mutable std::mutex mu_;
  std::map<std::string, Handler, std::less<>> handlers_;
  std::unique_ptr<http::Server> server_;
  std::atomic<bool> started_{false};
};

}  // namespace capstan::webhook
