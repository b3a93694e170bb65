#include "testing/test_cluster.h"

#include "testing/cluster.h"
#include "runtime/json/json.h"

#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>

namespace capstan::integration {

TestCluster::TestCluster(e2e::Backend backend) : backend_(backend), dir_("cluster") {
  if (backend == e2e::Backend::Kube) {
    kube_dir_ = std::make_unique<e2e::TempDir>("cluster");
    kube_ = e2e::make_cluster(backend, *kube_dir_);
    kube_->start();
    kubeconfig_ = kube_->kubeconfig();
  } else {
    apiserver::ApiServerOptions o;
    o.listen = "127.0.0.1:0";
    o.handler_threads = 8;
    server_ = std::make_unique<apiserver::ApiServer>(o);
    server_->start();
    kubeconfig_ = dir_.write("kubeconfig", server_->kubeconfig());
  }
  config_ = client::load_kubeconfig(kubeconfig_);
  config_.qps = 0;  // unlimited: tests pace themselves
  client_ = std::make_unique<client::Client>(config_);
}

TestCluster::~TestCluster() {
  client_.reset();
  if (server_) server_->stop();
  if (kube_) kube_->stop();
}

apiserver::ApiServer& TestCluster::server() {
  if (!server_) throw std::logic_error("TestCluster::server(): the " + e2e::to_string(backend_) + " backend has no in-process server");
  return *server_;
}

std::unique_ptr<client::Client> TestCluster::new_client(client::ClientOptions options) const {
  return std::make_unique<client::Client>(config_, options);
}

void TestCluster::set_fault_rate_500(double rate) {
  client_->raw("POST", "/debug/capstan/faults", json::serialize(json::Object{{"rate500", rate}}), "application/json");
}

void create_namespace(client::Client& client, const std::string& ns) {
  client.create(meta::GroupVersionResource{"", "v1", "namespaces"}, "",
                json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", ns}}}});
  client::ListOptions o;
  o.field_selector = "metadata.name=kube-root-ca.crt";
  if (!e2e::eventually([&] { return !client.list(meta::GroupVersionResource{"", "v1", "configmaps"}, ns, o).items.empty(); },
                       std::chrono::seconds(10), std::chrono::milliseconds(5)))
    throw std::runtime_error("namespace " + ns + ": its kube-root-ca.crt was not published within 10 s");
}

std::optional<metrics::SampleSnapshot> find_sample(const metrics::Registry& registry, std::string_view name,
                                                   const std::vector<std::string>& label_values) {
  for (const auto& f : registry.collect()) {
    if (f.name != name) continue;
    for (const auto& s : f.samples)
      if (s.label_values == label_values) return s;
  }
  return std::nullopt;
}

}  // namespace capstan::integration
