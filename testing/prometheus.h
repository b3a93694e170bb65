// Debian's Prometheus (2.42) for the monitoring tests: a real server that loads a generated
// configuration and rule files, answered through its HTTP API. Debian builds Prometheus
// without Kubernetes service discovery ("field kubernetes_sd_configs not found"), so each
// job's discovery is swapped for a static target; everything else in the job (relabelings,
// intervals, scheme, TLS, limits) still goes through the real parser.
#pragma once

#include "testing/process.h"
#include "testing/temp_dir.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace capstan::e2e {

// `config` with every scrape job's kubernetes_sd_configs replaced by a static target, and each
// Alertmanager's by `alertmanager` ("host:port").
json::Value with_static_targets(json::Value config, const std::string& alertmanager = "127.0.0.1:9093");

// `config` with the files the jobs name under /etc/prometheus/certs (the assets Secret's mount
// in a Prometheus pod) moved to `dir`, where `files` (the assets Secret's data: file name ->
// value) are written.
json::Value with_assets_in(json::Value config, const std::string& dir, const std::map<std::string, std::string>& files);

struct PrometheusOptions {
  std::string alertmanager = "127.0.0.1:9093";  // where alerts go ("host:port")
  std::map<std::string, std::string> assets;    // the assets Secret's files (with_assets_in)
  bool agent = false;                           // agent mode (the feature flag of Prometheus 2)
  bool remote_write_receiver = false;           // accept remote writes at /api/v1/write
};

class PrometheusServer {
 public:
  // Starts `prometheus` on a free loopback port with `config` (YAML, as the operator generated
  // it: discovery is swapped by with_static_targets, rule_files point at `rule_files`, written
  // to a directory of its own; none in agent mode) and waits until it is ready. Throws with its
  // log when it is not.
  PrometheusServer(const TempDir& dir, const std::string& config_yaml, const std::map<std::string, std::string>& rule_files,
                   const PrometheusOptions& options = {});
  ~PrometheusServer();

  // GET of an API path ("/api/v1/rules"): the body.
  std::string get(const std::string& path) const;
  std::string logs() const;
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> proc_;
};

// Debian's Alertmanager (prometheus-alertmanager) on a free loopback port with `config_yaml` (as the
// operator assembled it), clustering off, its data in a directory of its own; waits until ready.
class AlertmanagerServer {
 public:
  AlertmanagerServer(const TempDir& dir, const std::string& config_yaml);
  ~AlertmanagerServer();
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string get(const std::string& path) const;
  std::string logs() const;

 private:
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> proc_;
};

// Debian's blackbox exporter (prometheus-blackbox-exporter) on a free loopback port, with one
// module, http_2xx; waits until healthy.
class BlackboxExporter {
 public:
  explicit BlackboxExporter(const TempDir& dir);
  ~BlackboxExporter();
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string logs() const;

 private:
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> proc_;
};

}  // namespace capstan::e2e
