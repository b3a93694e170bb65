// The embedded Kubernetes-compatible API server: `capstan apiserver`, the cluster of
// `capstan dev` and of every e2e test. Serves HTTPS with its own CA, writes an admin
// kubeconfig, stores in memory or durably (SQLite), runs the built-in control loops.
#pragma once

#include "apiserver/rest/faults.h"
#include "apiserver/rest/service.h"
#include "runtime/client/config.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace capstan::apiserver {

struct ApiServerOptions {
  std::string listen = "127.0.0.1:0";
  std::string data_dir;                 // empty: memory only, fresh CA
  std::string kubeconfig_out;           // written once serving
  bool simulate_workloads = false;
  std::chrono::milliseconds pod_ready_delay{1000};
  std::chrono::milliseconds bookmark_interval{60000};
  std::size_t watch_history = 10000;
  int handler_threads = 16;
  // --authorization-mode: "RBAC" (kube's "Node,RBAC" is read as RBAC; there is no Node
  // authorizer) or "AlwaysAllow". The server's own control loops are never subject to it: they
  // write in-process as system:masters.
  std::string authorization_mode = "RBAC";
  // Fault injection.
  double fault_429 = 0;
  double fault_500 = 0;
  std::chrono::milliseconds fault_latency{0};
  std::chrono::milliseconds fault_drop_watches{0};
};

class ApiServer {
 public:
  explicit ApiServer(ApiServerOptions options);
  ~ApiServer();
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Loads the store, starts the control loops, binds and serves; writes the kubeconfig.
  void start();
  void stop();

  std::string url() const;             // https://127.0.0.1:PORT
  std::uint16_t port() const;
  const std::string& ca_pem() const;
  // An admin kubeconfig (client certificate in system:masters), and the same as a client Config.
  std::string kubeconfig(std::string_view context = "capstan") const;
  client::Config client_config() const;
  rest::Service& service();
  rest::Faults& faults();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Adds a control loop owned by the server (started with it, stopped before the store goes).
// Used by apiserver/system loops registered from server.cpp.

}  // namespace capstan::apiserver
