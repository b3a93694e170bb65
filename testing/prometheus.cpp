#include "testing/prometheus.h"

#include "testing/eventually.h"
#include "testing/ports.h"
#include "runtime/json/yaml.h"

#include <filesystem>
#include <stdexcept>

namespace capstan::e2e {

json::Value with_static_targets(json::Value config) {
  auto* jobs = config.is_object() ? config.as_object().if_contains("scrape_configs") : nullptr;
  if (!jobs || !jobs->is_array()) return config;
  for (auto& job : jobs->as_array()) {
    if (!job.is_object() || !job.as_object().erase("kubernetes_sd_configs")) continue;
    job.as_object()["static_configs"] = json::Array{json::Object{{"targets", json::Array{"127.0.0.1:9090"}}}};
  }
  return config;
}

PrometheusServer::PrometheusServer(const TempDir& dir, const std::string& config_yaml, const std::map<std::string, std::string>& rule_files) {
  const std::filesystem::path rules = dir.path() / "prometheus-rules";
  std::filesystem::create_directories(rules);
  for (const auto& [name, content] : rule_files) write_file((rules / name).string(), content);
  json::Value config = with_static_targets(json::from_yaml(config_yaml));
  config.as_object()["rule_files"] = json::Array{(rules / "*.yaml").string()};
  const std::string config_path = dir.file("prometheus.yaml");
  write_file(config_path, json::to_yaml(config));

  port_ = free_port();
  Process::Options o;
  o.args = {"prometheus", "--config.file=" + config_path, "--web.listen-address=127.0.0.1:" + std::to_string(port_),
            "--storage.tsdb.path=" + dir.file("prometheus-data")};
  o.stderr_path = dir.file("prometheus.log");
  proc_ = std::make_unique<Process>(o);
  const bool ready = eventually([&] { return !proc_->running() || run({"curl", "-sf", "http://127.0.0.1:" + std::to_string(port_) + "/-/ready"}).code == 0; },
                                std::chrono::seconds(30), std::chrono::milliseconds(100));
  if (!ready || !proc_->running()) throw std::runtime_error("prometheus did not become ready:\n" + logs());
}

PrometheusServer::~PrometheusServer() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

std::string PrometheusServer::get(const std::string& path) const {
  auto r = run({"curl", "-sf", "http://127.0.0.1:" + std::to_string(port_) + path});
  if (r.code != 0) throw std::runtime_error("GET " + path + " from prometheus: curl exited " + std::to_string(r.code) + "\n" + r.err);
  return r.out;
}

std::string PrometheusServer::logs() const { return proc_ ? proc_->err() : ""; }

}  // namespace capstan::e2e
