// Test support for runtime/leader, runtime/events, runtime/webhook and the controllers'
// integration tests: an in-process API server (apiserver::ApiServer, memory store) with an
// admin client, temporary directories and bounded polling. End-to-end tests built on it pass
// a backend: e2e::Backend::Kube starts the real etcd + kube-apiserver instead (testing/cluster.h).
#pragma once

#include "apiserver/server.h"
#include "testing/backend.h"
#include "testing/eventually.h"
#include "testing/temp_dir.h"
#include "runtime/client/client.h"
#include "runtime/metrics/registry.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capstan::e2e {
class Cluster;
}  // namespace capstan::e2e

namespace capstan::integration {

// Test directories, as every test support library has them.
using e2e::TempDir;

// An ApiServer on 127.0.0.1:0 (or, for Backend::Kube, the real control plane as child
// processes) and an admin client for it.
class TestCluster {
 public:
  explicit TestCluster(e2e::Backend backend = e2e::Backend::Embedded);
  ~TestCluster();

  e2e::Backend backend() const { return backend_; }
  // The in-process server (Backend::Embedded only; throws std::logic_error otherwise).
  apiserver::ApiServer& server();
  // An admin kubeconfig file for this cluster.
  const std::string& kubeconfig_path() const { return kubeconfig_; }
  client::Client& client() { return *client_; }
  const client::Config& config() const { return config_; }
  // Another client for the same cluster (its own connection pool).
  std::unique_ptr<client::Client> new_client(client::ClientOptions options = {}) const;
  // POST /debug/capstan/faults: fail this fraction of API requests with 500.
  void set_fault_rate_500(double rate);

 private:
  e2e::Backend backend_;
  TempDir dir_;
  std::string kubeconfig_;
  std::unique_ptr<apiserver::ApiServer> server_;
  std::unique_ptr<e2e::TempDir> kube_dir_;
  std::unique_ptr<e2e::Cluster> kube_;
  client::Config config_;
  std::unique_ptr<client::Client> client_;
};

// The bounded wait of every test (testing/eventually.h).
using e2e::eventually;

// Creates namespace `ns` and waits (10 s at most, else throws) until its kube-root-ca.crt is
// published, as in every namespace of a real cluster: a test listing or watching ConfigMaps
// there then sees only its own.
void create_namespace(client::Client& client, const std::string& ns);

// The sample of metric `name` with these label values, if any.
std::optional<metrics::SampleSnapshot> find_sample(const metrics::Registry& registry, std::string_view name,
                                                   const std::vector<std::string>& label_values);

}  // namespace capstan::integration
