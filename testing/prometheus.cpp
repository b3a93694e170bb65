#include "testing/prometheus.h"

#include "testing/eventually.h"
#include "testing/ports.h"
#include "runtime/json/yaml.h"

#include <filesystem>
#include <stdexcept>

namespace capstan::e2e {
namespace {

std::string curl_get(std::uint16_t port, const std::string& path, std::string_view what) {
  auto r = run({"curl", "-sf", "http://127.0.0.1:" + std::to_string(port) + path});
  if (r.code != 0) throw std::runtime_error("GET " + path + " from " + std::string(what) + ": curl exited " + std::to_string(r.code) + "\n" + r.err);
  return r.out;
}

// Starts `args` (logging to `log`) and waits until GET `ready_path` on its loopback `port`
// answers; throws with its log when it does not.
std::unique_ptr<Process> start_ready(std::vector<std::string> args, const std::string& log, std::uint16_t port, std::string_view ready_path,
                                     std::string_view what) {
  Process::Options o;
  o.args = std::move(args);
  o.stderr_path = log;
  auto proc = std::make_unique<Process>(o);
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + std::string(ready_path);
  const bool ready = eventually([&] { return !proc->running() || run({"curl", "-sf", url}).code == 0; }, std::chrono::seconds(30),
                                std::chrono::milliseconds(100));
  if (!ready || !proc->running()) throw std::runtime_error(std::string(what) + " did not become ready:\n" + proc->err());
  return proc;
}

}  // namespace

json::Value with_static_targets(json::Value config, const std::string& alertmanager) {
  if (!config.is_object()) return config;
  auto swap = [](json::Value* list, const std::string& target, bool drop_relabelings) {
    if (!list || !list->is_array()) return;
    for (auto& item : list->as_array()) {
      if (!item.is_object() || !item.as_object().erase("kubernetes_sd_configs")) continue;
      item.as_object()["static_configs"] = json::Array{json::Object{{"targets", json::Array{target}}}};
      // Their keep rules read the discovery's labels, which a static target has not.
      if (drop_relabelings) item.as_object().erase("relabel_configs");
    }
  };
  swap(config.as_object().if_contains("scrape_configs"), "127.0.0.1:9090", false);
  if (auto* alerting = config.as_object().if_contains("alerting"); alerting && alerting->is_object())
    swap(alerting->as_object().if_contains("alertmanagers"), alertmanager, true);
  return config;
}

json::Value with_assets_in(json::Value config, const std::string& dir, const std::map<std::string, std::string>& files) {
  constexpr std::string_view kMount = "/etc/prometheus/certs/";
  std::filesystem::create_directories(dir);
  for (const auto& [name, value] : files) write_file((std::filesystem::path(dir) / name).string(), value);
  auto move = [&](auto& self, json::Value& v) -> void {
    if (v.is_string() && std::string_view(v.get_string()).starts_with(kMount))
      v = (std::filesystem::path(dir) / std::string(std::string_view(v.get_string()).substr(kMount.size()))).string();
    else if (v.is_array())
      for (auto& item : v.as_array()) self(self, item);
    else if (v.is_object())
      for (auto& kv : v.as_object()) self(self, kv.value());
  };
  move(move, config);
  return config;
}

PrometheusServer::PrometheusServer(const TempDir& dir, const std::string& config_yaml, const std::map<std::string, std::string>& rule_files,
                                   const PrometheusOptions& options) {
  json::Value config = with_assets_in(with_static_targets(json::from_yaml(config_yaml), options.alertmanager), dir.file("certs"), options.assets);
  if (!options.agent) {
    const std::filesystem::path rules = dir.path() / "prometheus-rules";
    std::filesystem::create_directories(rules);
    for (const auto& [name, content] : rule_files) write_file((rules / name).string(), content);
    config.as_object()["rule_files"] = json::Array{(rules / "*.yaml").string()};
  }
  const std::string config_path = dir.file("prometheus.yaml");
  write_file(config_path, json::to_yaml(config));

  port_ = free_port();
  std::vector<std::string> args{"prometheus", "--config.file=" + config_path, "--web.listen-address=" + address()};
  if (options.agent) {
    args.insert(args.end(), {"--enable-feature=agent", "--storage.agent.path=" + dir.file("prometheus-wal")});
  } else {
    args.insert(args.end(), {"--storage.tsdb.path=" + dir.file("prometheus-data"),
                             // Alerts fired before the Alertmanager is discovered are dropped; they
                             // are sent again after this delay (default 1m).
                             "--rules.alert.resend-delay=1s"});
  }
  if (options.remote_write_receiver) args.emplace_back("--web.enable-remote-write-receiver");
  proc_ = start_ready(std::move(args), dir.file("prometheus.log"), port_, "/-/ready", "prometheus");
}

PrometheusServer::~PrometheusServer() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

std::string PrometheusServer::get(const std::string& path) const { return curl_get(port_, path, "prometheus"); }

std::string PrometheusServer::logs() const { return proc_ ? proc_->err() : ""; }


AlertmanagerServer::AlertmanagerServer(const TempDir& dir, const std::string& config_yaml) {
  const std::string config_path = dir.write("alertmanager.yaml", config_yaml);
  port_ = free_port();
  proc_ = start_ready({"prometheus-alertmanager", "--config.file=" + config_path, "--web.listen-address=" + address(),
                       "--storage.path=" + dir.file("alertmanager-data"), "--cluster.listen-address="},
                      dir.file("alertmanager.log"), port_, "/-/ready", "alertmanager");
}

AlertmanagerServer::~AlertmanagerServer() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

std::string AlertmanagerServer::get(const std::string& path) const { return curl_get(port_, path, "alertmanager"); }
std::string AlertmanagerServer::logs() const { return proc_ ? proc_->err() : ""; }

BlackboxExporter::BlackboxExporter(const TempDir& dir) {
  // One module: an HTTP GET answered with a 2xx (the usual http_2xx).
  const std::string config_path = dir.write("blackbox.yml", "modules:\n  http_2xx:\n    prober: http\n    timeout: 5s\n");
  port_ = free_port();
  proc_ = start_ready({"prometheus-blackbox-exporter", "--config.file=" + config_path, "--web.listen-address=" + address()},
                      dir.file("blackbox.log"), port_, "/-/healthy", "blackbox exporter");
}

BlackboxExporter::~BlackboxExporter() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

std::string BlackboxExporter::logs() const { return proc_ ? proc_->err() : ""; }

}  // namespace capstan::e2e
