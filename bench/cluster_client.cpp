#include "bench/cluster_client.h"

#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace capstan::bench {

ServerUnderTest start_server(const std::string& capstan_bin, const std::vector<std::string>& extra_args) {
  ServerUnderTest s;
  s.dir = std::make_unique<e2e::TempDir>("bench");
  s.kubeconfig = s.dir->file("kubeconfig");
  e2e::Process::Options po;
  po.args = {capstan_bin, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", s.kubeconfig};
  for (const auto& a : extra_args) po.args.push_back(a);
  po.stdout_path = s.dir->file("apiserver.out");
  po.stderr_path = s.dir->file("apiserver.log");
  s.proc = std::make_unique<e2e::Process>(po);
  std::smatch m;
  static const std::regex re("serving on (https://127\\.0\\.0\\.1:[0-9]+)");
  bool up = e2e::eventually(
      [&] {
        auto out = e2e::read_file(po.stdout_path);
        return std::regex_search(out, m, re) && std::filesystem::exists(s.kubeconfig);
      },
      std::chrono::seconds(20));
  if (!up) throw std::runtime_error("capstan apiserver did not start: " + e2e::read_file(po.stderr_path));
  auto out = e2e::read_file(po.stdout_path);
  std::regex_search(out, m, re);
  s.url = m[1];
  auto cfg = json::from_yaml(e2e::read_file(s.kubeconfig), s.kubeconfig);
  const auto& cluster = cfg.at("clusters").at(0).at("cluster");
  const auto& user = cfg.at("users").at(0).at("user");
  s.client_options.tls.ca_pem = meta::base64_decode(json::get_string(cluster, {"certificate-authority-data"})).value_or("");
  s.client_options.tls.cert_pem = meta::base64_decode(json::get_string(user, {"client-certificate-data"})).value_or("");
  s.client_options.tls.key_pem = meta::base64_decode(json::get_string(user, {"client-key-data"})).value_or("");
  return s;
}

std::string configmap_json(const std::string& ns, const std::string& name, std::size_t bytes) {
  json::Object data;
  std::size_t base = 180 + name.size() + ns.size();
  std::size_t fill = bytes > base ? bytes - base : 16;
  // A few keys of realistic text rather than one blob.
  for (int i = 0; i < 4; ++i) {
    std::string v;
    while (v.size() < fill / 4) v += "value-" + std::to_string(i) + "-lorem-ipsum-dolor-sit-amet;";
    v.resize(fill / 4);
    data["key" + std::to_string(i)] = v;
  }
  json::Object cm{{"apiVersion", "v1"},
                  {"kind", "ConfigMap"},
                  {"metadata", json::Object{{"name", name}, {"namespace", ns}, {"labels", json::Object{{"bench", "informer"}}}}},
                  {"data", std::move(data)}};
  return json::serialize(cm);
}

namespace {
std::size_t status_field(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      std::istringstream ss(line.substr(std::string(key).size()));
      std::size_t kb = 0;
      ss >> kb;
      return kb * 1024;
    }
  }
  return 0;
}
}  // namespace

std::size_t peak_rss_bytes() { return status_field("VmHWM:"); }
std::size_t rss_bytes() { return status_field("VmRSS:"); }

}  // namespace capstan::bench
