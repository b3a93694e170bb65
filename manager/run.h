// Running the enabled controllers: shared by `capstan manager` (a real cluster) and
// `capstan dev` (the embedded API server in the same process).
#pragma once

#include "runtime/controller/manager.h"
#include "runtime/plugin/plugin.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::manager {

struct RunOptions {
  std::vector<const plugin::Plugin*> controllers;
  controller::ManagerOptions manager;
  plugin::Environment env;
  std::string webhook_host;       // "" = all interfaces
  int webhook_port = 9443;
  std::string webhook_cert_dir;   // tls.crt / tls.key
  // Set: the manager keeps its serving certificate in this Secret of env.pod_namespace,
  // writes it into webhook_cert_dir and injects its CA (webhook::CertRotator), for these hosts.
  std::string webhook_cert_secret;
  std::vector<std::string> webhook_cert_hosts;
  std::chrono::seconds webhook_cert_validity{std::chrono::hours(24 * 365)};
  std::chrono::seconds webhook_ca_validity{std::chrono::hours(24 * 3650)};
  std::chrono::milliseconds webhook_cert_check_interval{std::chrono::minutes(1)};
  // --reconcile-memory-limit; unset = the default (kReconcileMemoryLimit), 0 = none.
  std::optional<std::size_t> reconcile_memory_limit;
  // Called once everything is wired, before run() blocks (dev prints its banner here).
  std::function<void(controller::Manager&)> on_ready;
};

// Wires the controllers into a manager and runs it until SIGTERM/SIGINT or a lost lease.
// Returns the process exit code (0 clean stop, 1 lost leadership). Unless
// options.manager.shutdown_deadline says otherwise, the process ends within 9.5 s of the
// signal (the manager's watchdog exits with 1 when the orderly shutdown takes longer).
int run_controllers(client::Client& client, const RunOptions& options);

}  // namespace capstan::manager
