#include "testing/kube_cluster.h"

#include "testing/workload_simulator.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/client/errors.h"
#include "runtime/json/json.h"
#include "runtime/pki/pki.h"

#include <filesystem>
#include <iostream>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

std::string tool(const std::string& name) {
  std::string path = tools_bin_dir() + "/" + name;
  if (!std::filesystem::exists(path))
    throw std::runtime_error(path + " is missing: the kube backend needs the pinned test tools; build them with scripts/tools.sh" +
                             " (or run only the embedded backend: CAPSTAN_E2E_BACKEND=embedded)");
  return path;
}

std::string tail(const std::string& s, std::size_t n = 6000) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

// Whether `p`'s log shows it lost a race for its port (free_port() released it, another took it).
bool port_taken(const Process& p) {
  auto err = p.err();
  return err.find("address already in use") != std::string::npos || err.find("bind: address already in use") != std::string::npos;
}

// The admin client for readiness checks and the harness's own requests.
client::Config admin_config(const std::string& kubeconfig) {
  auto c = client::load_kubeconfig(kubeconfig);
  c.qps = 0;
  c.timeout = 5s;
  return c;
}

}  // namespace

KubeCluster::KubeCluster(const TempDir& dir, ClusterOptions options) : dir_(dir.path()), opts_(std::move(options)) {
  kubeconfig_ = dir_ + "/kubeconfig";
}

KubeCluster::~KubeCluster() { stop(); }

void KubeCluster::write_pki() {
  const auto pki = pki_dir();
  if (std::filesystem::exists(pki + "/admin.crt")) return;  // a restart keeps its PKI
  std::filesystem::create_directories(pki);
  const auto year = std::chrono::hours(24 * 365);
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  auto ca = pki::self_signed_ca("capstan-e2e-kubernetes-ca", year, ca_key);
  write_file(pki + "/ca.crt", ca.to_pem());
  write_file(pki + "/ca.key", ca_key.to_pem(pki::KeyEncoding::PKCS8));
  // The names a pod uses for the API server, and the loopback address tests use.
  auto serving = pki::serving_certificate({"127.0.0.1", "localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                                           "kubernetes.default.svc.cluster.local", "10.0.0.1"},
                                          ca, ca_key, year);
  write_file(pki + "/apiserver.crt", serving.certificate.to_pem());
  write_file(pki + "/apiserver.key", serving.key.to_pem(pki::KeyEncoding::PKCS8));
  auto sa = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  write_file(pki + "/sa.key", sa.to_pem(pki::KeyEncoding::PKCS8));
  write_file(pki + "/sa.pub", sa.public_key().to_pem());
  // The controller manager authenticates as itself (its bootstrap ClusterRoleBinding) and is
  // in system:masters so garbage collection may delete anything.
  auto kcm = pki::client_certificate("system:kube-controller-manager", {"system:masters"}, ca, ca_key, year);
  write_file(pki + "/controller-manager.crt", kcm.certificate.to_pem());
  write_file(pki + "/controller-manager.key", kcm.key.to_pem(pki::KeyEncoding::PKCS8));
  // The aggregation layer's front proxy: its own CA (--requestheader-client-ca-file, what
  // aggregated API servers trust) and the client certificate kube-apiserver proxies with.
  auto fp_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  auto fp_ca = pki::self_signed_ca("capstan-e2e-front-proxy-ca", year, fp_key);
  write_file(pki + "/front-proxy-ca.crt", fp_ca.to_pem());
  auto fp_client = pki::client_certificate("front-proxy-client", {}, fp_ca, fp_key, year);
  write_file(pki + "/front-proxy-client.crt", fp_client.certificate.to_pem());
  write_file(pki + "/front-proxy-client.key", fp_client.key.to_pem(pki::KeyEncoding::PKCS8));
  auto admin = pki::client_certificate("admin", {"system:masters"}, ca, ca_key, year);
  write_file(pki + "/admin.crt", admin.certificate.to_pem());
  write_file(pki + "/admin.key", admin.key.to_pem(pki::KeyEncoding::PKCS8));
}

void KubeCluster::start_etcd() {
  auto t0 = Clock::now();
  for (int attempt = 0;; ++attempt) {
    etcd_port_ = free_port();
    etcd_peer_port_ = free_port();
    const std::string client_url = "http://127.0.0.1:" + std::to_string(etcd_port_);
    const std::string peer_url = "http://127.0.0.1:" + std::to_string(etcd_peer_port_);
    Process::Options po;
    po.args = {tool("etcd"),
               "--name=capstan-e2e",
               "--data-dir=" + dir_ + "/etcd",
               "--listen-client-urls=" + client_url,
               "--advertise-client-urls=" + client_url,
               "--listen-peer-urls=" + peer_url,
               "--initial-advertise-peer-urls=" + peer_url,
               "--initial-cluster=capstan-e2e=" + peer_url,
               "--unsafe-no-fsync=true",  // as envtest: a test cluster trades durability on power loss for speed
               "--log-level=warn"};
    po.stdout_path = dir_ + "/etcd.out";
    po.stderr_path = dir_ + "/etcd.log";
    etcd_ = std::make_unique<Process>(po);
    bool up = eventually([&] { return !etcd_->running() || http_get(etcd_port_, "/health").first == 200; }, 20s);
    if (up && etcd_->running()) break;
    if (attempt < 5 && port_taken(*etcd_)) continue;
    throw std::runtime_error("etcd did not start (" + std::string(up ? "exited" : "no /health in 20 s") + "): " + tail(etcd_->err()));
  }
  times_.etcd = since(t0);
}

void KubeCluster::start_apiserver(bool keep_port) {
  auto t0 = Clock::now();
  const auto pki = pki_dir();
  for (int attempt = 0;; ++attempt) {
    // A restart keeps its port (waiting while the old socket lingers); a first start takes a
    // free one, and another after losing the race for it.
    if (!keep_port) port_ = free_port();
    Process::Options po;
    po.args = {tool("kube-apiserver"),
               "--etcd-servers=http://127.0.0.1:" + std::to_string(etcd_port_),
               "--bind-address=127.0.0.1",
               // The `kubernetes` Service's endpoint; loopback is refused there and nothing in a
               // test reaches it, so an address of the documentation range (RFC 5737).
               "--advertise-address=192.0.2.1",
               "--secure-port=" + std::to_string(port_),
               "--cert-dir=" + pki,
               "--tls-cert-file=" + pki + "/apiserver.crt",
               "--tls-private-key-file=" + pki + "/apiserver.key",
               "--client-ca-file=" + pki + "/ca.crt",
               "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
               "--service-account-key-file=" + pki + "/sa.pub",
               "--service-account-signing-key-file=" + pki + "/sa.key",
               "--service-cluster-ip-range=10.0.0.0/24",
               "--authorization-mode=Node,RBAC",
               // Aggregation: the requestheader convention towards aggregated API servers. They listen
               // on 127.0.0.1, which Endpoints and EndpointSlices refuse ("may not be in the loopback
               // range") and there is no kube-proxy for a ClusterIP: tests register them with an
               // ExternalName Service, which only cluster routing (not endpoint routing) dials.
               "--requestheader-client-ca-file=" + pki + "/front-proxy-ca.crt",
               "--requestheader-allowed-names=front-proxy-client",
               "--requestheader-username-headers=X-Remote-User",
               "--requestheader-group-headers=X-Remote-Group",
               "--requestheader-extra-headers-prefix=X-Remote-Extra-",
               "--proxy-client-cert-file=" + pki + "/front-proxy-client.crt",
               "--proxy-client-key-file=" + pki + "/front-proxy-client.key",
               "--enable-aggregator-routing=false",
               "--enable-admission-plugins=NodeRestriction",
               "--allow-privileged=true",
               "--profiling=false",
               "--v=1"};
    if (opts_.compactable_history) po.args.push_back("--watch-cache=false");
    if (!opts_.uncached_resources.empty()) {
      std::string sizes;
      for (const auto& r : opts_.uncached_resources) sizes += (sizes.empty() ? "" : ",") + r + "#0";
      po.args.push_back("--watch-cache-sizes=" + sizes);
    }
    po.stdout_path = dir_ + "/apiserver.out";
    po.stderr_path = dir_ + "/apiserver.log";
    apiserver_ = std::make_unique<Process>(po);
    client::Config cfg;
    cfg.server = url();
    cfg.ca_pem = read_file(pki + "/ca.crt");
    cfg.client_cert_pem = read_file(pki + "/admin.crt");
    cfg.client_key_pem = read_file(pki + "/admin.key");
    write_file(kubeconfig_, client::to_kubeconfig(cfg));
    client::Client c(admin_config(kubeconfig_));
    bool up = eventually(
        [&] {
          if (!apiserver_->running()) return true;
          try {
            return c.raw("GET", "/readyz").status == 200;
          } catch (const std::exception&) {
            return false;
          }
        },
        60s, 100ms);
    if (up && apiserver_->running()) break;
    if (attempt < 20 && port_taken(*apiserver_)) {
      if (keep_port) std::this_thread::sleep_for(250ms);
      continue;
    }
    throw std::runtime_error("kube-apiserver did not start (" + std::string(up ? "exited" : "not ready in 60 s") +
                             "): " + tail(apiserver_->err()));
  }
  times_.apiserver = since(t0);
}

void KubeCluster::start_controller_manager() {
  auto t0 = Clock::now();
  const auto pki = pki_dir();
  client::Config cfg;
  cfg.server = url();
  cfg.ca_pem = read_file(pki + "/ca.crt");
  cfg.client_cert_pem = read_file(pki + "/controller-manager.crt");
  cfg.client_key_pem = read_file(pki + "/controller-manager.key");
  write_file(dir_ + "/controller-manager.kubeconfig", client::to_kubeconfig(cfg, "kube-controller-manager"));
  Process::Options po;
  po.args = {tool("kube-controller-manager"),
             "--kubeconfig=" + dir_ + "/controller-manager.kubeconfig",
             "--controllers=garbage-collector-controller,namespace-controller,serviceaccount-controller,"
             "root-ca-certificate-publisher-controller,clusterrole-aggregation-controller,"
             "persistentvolumeclaim-protection-controller,persistentvolume-protection-controller",
             "--root-ca-file=" + pki + "/ca.crt",
             "--leader-elect=false",
             "--secure-port=0",
             "--v=1"};
  po.stdout_path = dir_ + "/controller-manager.out";
  po.stderr_path = dir_ + "/controller-manager.log";
  controller_manager_ = std::make_unique<Process>(po);
  // Ready for tests once the default ServiceAccount exists (pods need it: the ServiceAccount
  // admission plugin refuses them before).
  client::Client c(admin_config(kubeconfig_));
  bool up = eventually(
      [&] {
        if (!controller_manager_->running()) return true;
        try {
          c.get(meta::GroupVersionResource{"", "v1", "serviceaccounts"}, "default", "default");
          return true;
        } catch (const std::exception&) {
          return false;
        }
      },
      60s, 100ms);
  if (!up || !controller_manager_->running())
    throw std::runtime_error("kube-controller-manager did not start (" + std::string(up ? "exited" : "no default ServiceAccount in 60 s") +
                             "): " + tail(controller_manager_->err()));
  times_.controller_manager = since(t0);
}

void KubeCluster::start() {
  write_pki();
  start_etcd();
  start_apiserver(false);
  start_controller_manager();
  if (opts_.simulate_workloads) simulator_ = start_workload_simulator(dir_, kubeconfig_, opts_.pod_ready_delay);
  std::cout << "[kube backend] etcd " << times_.etcd.count() << " ms, kube-apiserver ready " << times_.apiserver.count()
            << " ms, kube-controller-manager " << times_.controller_manager.count() << " ms" << std::endl;
}

void KubeCluster::stop() {
  // Clients of the API server first, etcd last.
  for (auto* p : {&simulator_, &controller_manager_, &apiserver_, &etcd_})
    if (*p) (*p)->stop(10s);
}

void KubeCluster::restart() {
  if (apiserver_) apiserver_->stop(30s);
  start_apiserver(true);
}

void KubeCluster::kill_and_restart() {
  kill();
  start_apiserver(true);
}

void KubeCluster::kill() {
  if (apiserver_) apiserver_->kill_now();
}

void KubeCluster::compact() {
  // etcd's JSON gateway: the current revision, then a physical compaction up to it.
  auto status = http_request(etcd_port_, "POST", "/v3/maintenance/status", "{}");
  if (status.first != 200) throw std::runtime_error("etcd status: " + std::to_string(status.first) + " " + status.second);
  auto v = json::parse(status.second);
  std::string rev(json::get_string(v, {"header", "revision"}));
  auto r = http_request(etcd_port_, "POST", "/v3/kv/compaction", "{\"revision\":\"" + rev + "\",\"physical\":true}");
  if (r.first != 200) throw std::runtime_error("etcd compaction at " + rev + ": " + std::to_string(r.first) + " " + r.second);
}

int KubeCluster::pid() const { return apiserver_ ? apiserver_->pid() : 0; }

bool KubeCluster::running() { return apiserver_ && apiserver_->running(); }

std::string KubeCluster::logs() const {
  std::string out = "---- kube-apiserver ----\n" + tail(read_file(dir_ + "/apiserver.log"), 20000);
  out += "\n---- etcd ----\n" + tail(read_file(dir_ + "/etcd.log"), 3000);
  out += "\n---- kube-controller-manager ----\n" + tail(read_file(dir_ + "/controller-manager.log"), 5000);
  if (opts_.simulate_workloads) out += "\n---- workload simulator ----\n" + tail(read_file(dir_ + "/simulator.log"), 5000);
  return out;
}

}  // namespace capstan::e2e
