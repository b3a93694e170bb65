// Test support: a DNS-01 webhook solver of cert-manager's kind (an aggregated API server
// answering ChallengePayloads), HTTPS on 127.0.0.1 on a port chosen at run time, that publishes
// and withdraws TXT records in pebble-challtestsrv through its management API (/set-txt,
// /clear-txt). manifests() registers it: an ExternalName Service naming 127.0.0.1 and the
// APIService for <group>/v1alpha1 on this server's port with this server's CA.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace capstan::http {
class Server;
class Client;
}  // namespace capstan::http

namespace capstan::e2e {

struct Dns01WebhookSolverOptions {
  std::string group_name = "acme.capstan-test.dev";
  std::string solver_name = "challtestsrv";
  std::string ns = "capstan-system";  // of the Service
  std::string service = "dns01-webhook";
  std::string challtestsrv_management_url;  // PebbleEnv::challtestsrv_management_url()
};

// One ChallengePayload the solver answered.
struct SolverCall {
  std::string action;  // Present | CleanUp
  std::string uid;
  std::string dns_name;
  std::string resolved_fqdn;
  std::string resolved_zone;
  std::string key;
  std::string resource_namespace;
  json::Value config;
  std::string user;  // X-Remote-User the API server passed on
  bool success = false;
};

class Dns01WebhookSolver {
 public:
  explicit Dns01WebhookSolver(Dns01WebhookSolverOptions options);  // serving on return
  ~Dns01WebhookSolver();                                             // stops serving
  Dns01WebhookSolver(const Dns01WebhookSolver&) = delete;
  Dns01WebhookSolver& operator=(const Dns01WebhookSolver&) = delete;

  std::uint16_t port() const;
  std::vector<json::Value> manifests() const;
  std::vector<SolverCall> calls() const;

 private:
  void handle(const std::string& method, const std::string& path, const std::string& user, const std::string& body,
              int& status, std::string& answer);

  Dns01WebhookSolverOptions opts_;
  std::string ca_pem_;
  std::unique_ptr<http::Client> challtestsrv_;
  std::unique_ptr<http::Server> server_;
  mutable std::mutex mu_;
  std::vector<SolverCall> calls_;
};

}  // namespace capstan::e2e
