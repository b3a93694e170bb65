// A `capstan manager` child process with its metrics, health and webhook servers on free
// loopback ports and its webhook serving certificate in its own directory.
#pragma once

#include "testing/process.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capstan::e2e {

// The sum of the series of metric `name` in Prometheus text `text` whose labels hold `label`
// (e.g. `controller="kustomizations"`; "": every series).
double metric_sum(const std::string& text, const std::string& name, const std::string& label = "");
// Those sums by the value of label `by` of each series.
std::map<std::string, double> metric_sums_by(const std::string& text, const std::string& name, const std::string& by,
                                             const std::string& label = "");

class ManagerProcess {
 public:
  ManagerProcess(const TempDir& dir, std::string kubeconfig, std::vector<std::string> extra_args = {}, std::string tag = "manager");
  ~ManagerProcess();
  // Before start(): serve the webhooks on this port (default: a free one per start).
  void set_webhook_port(std::uint16_t port) { webhook_port_ = port; }
  // Before start(): environment variables of the process (e.g. POD_NAMESPACE).
  void set_env(std::map<std::string, std::string> env) { env_ = std::move(env); }
  void start();                 // waits until /healthz answers (bounded)
  int stop();                   // SIGTERM; returns the exit code
  void kill();                  // SIGKILL
  bool running();
  std::optional<int> wait(std::chrono::milliseconds t);
  int pid() const { return proc_ ? proc_->pid() : 0; }
  std::uint16_t metrics_port() const { return metrics_port_; }
  std::uint16_t health_port() const { return health_port_; }
  std::uint16_t webhook_port() const { return webhook_port_; }
  const std::string& cert_dir() const { return cert_dir_; }
  const std::string& ca_pem() const { return ca_pem_; }
  std::string metrics() const;  // the /metrics text ("" when unreachable)
  // The sum of the series of metric `name` whose labels hold `label` ("": every series; 0 when
  // unreachable or absent).
  double metric(const std::string& name, const std::string& label = "") const;
  bool leading() const { return metric("leader_election_master_status") == 1.0; }
  std::string logs() const;

 private:
  std::string dir_, kubeconfig_, tag_;
  std::vector<std::string> extra_;
  std::map<std::string, std::string> env_;
  std::uint16_t metrics_port_ = 0, health_port_ = 0, webhook_port_ = 0;
  std::string cert_dir_, ca_pem_;
  std::unique_ptr<Process> proc_;
};

}  // namespace capstan::e2e
