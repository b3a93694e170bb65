#include "bench/cluster_client.h"

#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"

#include <unistd.h>

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

void install_crds(const std::string& capstan_bin, const ServerUnderTest& s) {
  auto crds = e2e::run({capstan_bin, "crds"});
  if (crds.code != 0) throw std::runtime_error("capstan crds failed: " + crds.err);
  http::Client admin(s.client_options);
  std::vector<std::string> plurals;
  std::size_t start = 0;
  while (start < crds.out.size()) {
    auto next = crds.out.find("\n---\n", start);
    auto crd = json::from_yaml(crds.out.substr(start, next == std::string::npos ? std::string::npos : next - start), "capstan crds");
    auto r = admin.request("POST", s.url + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {{"Content-Type", "application/json"}},
                           json::serialize(crd));
    if (r.status != 201 && r.status != 409) throw std::runtime_error("creating a CRD: HTTP " + std::to_string(r.status) + ": " + r.body);
    plurals.push_back("/apis/" + std::string(json::get_string(crd, {"spec", "group"})) + "/" +
                      std::string(json::get_string(crd.at("spec").at("versions").at(0), {"name"})) + "/" +
                      std::string(json::get_string(crd, {"spec", "names", "plural"})));
    if (next == std::string::npos) break;
    start = next + 5;
  }
  for (const auto& path : plurals) {
    bool served = e2e::eventually([&] { return admin.request("GET", s.url + path + "?limit=1").status == 200; }, std::chrono::seconds(20));
    if (!served) throw std::runtime_error("CRD not served in time: " + path);
  }
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
std::size_t status_field(const char* key, const std::string& pid = "self") {
  std::ifstream in("/proc/" + pid + "/status");
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
std::size_t rss_bytes_of(int pid) { return status_field("VmRSS:", std::to_string(pid)); }

double cpu_seconds_of(int pid) {
  std::string stat = e2e::read_file("/proc/" + std::to_string(pid) + "/stat");
  auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(stat.substr(close + 2));  // fields from 3 (state) on
  std::string field;
  double ticks = 0;
  for (int i = 3; in >> field && i <= 15; ++i)
    if (i == 14 || i == 15) ticks += std::stod(field);  // utime, stime
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace capstan::bench
