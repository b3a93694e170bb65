// What every certificates reconciler works with: the client, the shared informers, the
// options and clock, the Secret reader, the event recorder, the ACME solver and clients.
// Built once by wire(); reconcilers keep no state of their own across calls (everything they
// decide on is read from the cache or the API).
#pragma once

#include "controllers/certificates/options.h"
#include "controllers/certificates/secret_reader.h"
#include "runtime/json/json.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}
namespace capstan::events {
class Recorder;
}
namespace capstan::http {
struct ClientOptions;
}

namespace capstan::certificates {

namespace acme {
class Client;
class Http01Solver;
}  // namespace acme

// ACME clients, one per (directory URL, CA bundle, skipTLSVerify): directories, nonces and
// connections are reused across reconciles. Thread-safe.
class AcmeClients {
 public:
  AcmeClients(metrics::Registry* registry, std::chrono::milliseconds request_timeout);
  ~AcmeClients();
  std::shared_ptr<acme::Client> get(const std::string& server, const std::string& ca_bundle_pem, bool skip_tls_verify);

 private:
  metrics::Registry* registry_;
  std::chrono::milliseconds timeout_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<acme::Client>> clients_;
};

struct Env {
  Env(client::Client& client, cache::Informer& certificates, cache::Informer& requests, cache::Informer& issuers,
      cache::Informer& cluster_issuers, cache::Informer& secrets, CertificatesOptions options);
  ~Env();

  client::Client& client;
  cache::Informer& certificates;
  cache::Informer& requests;
  cache::Informer& issuers;
  cache::Informer& cluster_issuers;
  cache::Informer& secrets;  // only ours: controller.certs.capstan.dev/fao=true
  cache::Informer* ingresses = nullptr;  // the ingress-shim's (null when it is off)
  cache::Informer* gateways = nullptr;   // the gateway-shim's (null when it is off)
  // The policy approver's (approval/policy_approver.h; null when it is off).
  cache::Informer* policies = nullptr;
  cache::Informer* namespaces = nullptr;
  CertificatesOptions options;
  SecretReader secret_reader;
  AcmeClients acme_clients;
  std::unique_ptr<events::Recorder> recorder;  // null when events are off
  std::unique_ptr<acme::Http01Solver> solver;  // null when the solver is off

  meta::TimePoint now() const { return options.clock ? options.clock() : meta::Clock::now(); }
  // Records an Event about `target` (see objects.h event_target); no-op without a recorder.
  void event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const;
};

}  // namespace capstan::certificates
