// The HTTP-01 challenge solver (RFC 8555 §8.3): a registry of token -> key authorization and
// a plain-HTTP server answering GET /.well-known/acme-challenge/<token> with the key
// authorization (text/plain), 404 for anything else. Tokens come and go at runtime; every
// method is thread-safe.
//
//   acme::Http01Solver solver({.address = "", .port = 8089});
//   solver.start();
//   solver.add(challenge.token, acme::key_authorization(challenge.token, account.key.jwk()), "www.example.com");
//   ... accept the challenge, poll ...
//   solver.remove(challenge.token);
//
// In a cluster the certificates controller routes http://<domain>/.well-known/acme-challenge/
// to this server (a Service and Ingress/HTTPRoute pointing at port()).
#pragma once

#include "runtime/http/message.h"
#include "runtime/metrics/family.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::http {
class Server;
}
namespace capstan::metrics {
class Registry;
}

namespace capstan::certificates::acme {

struct Http01SolverOptions {
  std::string address;  // bind address: "" = every interface (IPv6 and IPv4); "127.0.0.1" in tests
  std::uint16_t port = 8089;        // cert-manager's solver port; 0 = a free port (see port())
  int handler_threads = 2;
};

class Http01Solver {
 public:
  static constexpr std::string_view kPathPrefix = "/.well-known/acme-challenge/";
  // "/.well-known/acme-challenge/<token>": the path the CA fetches (and an Ingress routes).
  static std::string path_for(std::string_view token);

  // `registry` nullptr = metrics::Registry::global(). Serves nothing until start().
  explicit Http01Solver(Http01SolverOptions options = {}, metrics::Registry* registry = nullptr);
  ~Http01Solver();  // stops the server
  Http01Solver(const Http01Solver&) = delete;
  Http01Solver& operator=(const Http01Solver&) = delete;

  // Binds and serves; throws std::runtime_error naming the address when it cannot bind.
  void start();
  // Stops serving (tokens are kept). Idempotent.
  void stop();
  bool running() const;
  std::uint16_t port() const;  // the bound port once started (else the configured one)
  std::string address() const;  // "127.0.0.1:43123" once started

  // Serves `key_authorization` for `token`, replacing an earlier entry. With `domain` set (the
  // authorization's identifier), only requests whose Host is that name (any port) get it.
  // Throws std::invalid_argument for an empty token or one outside the base64url alphabet.
  void add(std::string token, std::string key_authorization, std::string domain = {});
  // Stops serving `token`; returns whether it was there.
  bool remove(std::string_view token);
  std::optional<std::string> key_authorization(std::string_view token) const;
  std::size_t size() const;  // tokens add()ed here

  // Tokens the leader published through the API (a CertificateRequest's annotation), fed to
  // every replica by its informer, so that a challenge request reaching any replica is
  // answered. Replaces what `owner` published before; an empty list drops it. Entries with a
  // token outside the base64url alphabet are skipped.
  struct Published {
    std::string token, key_authorization, domain;
  };
  void set_published(const std::string& owner, const std::vector<Published>& tokens);
  std::size_t published_size() const;

  // Answers one request as the server does (for tests, or to mount on another server).
  http::Response handle(const http::Request& request) const;

 private:
  struct Entry {
    std::string key_authorization;
    std::string domain;
  };
  Http01SolverOptions options_;
  metrics::CounterFamily* requests_;
  mutable std::shared_mutex mu_;
  std::map<std::string, Entry, std::less<>> tokens_;
  std::map<std::string, Entry, std::less<>> published_;  // token -> entry
  std::map<std::string, std::vector<std::string>, std::less<>> owners_;  // owner -> its published tokens
  mutable std::mutex server_mu_;
  std::unique_ptr<http::Server> server_;
};

}  // namespace capstan::certificates::acme
