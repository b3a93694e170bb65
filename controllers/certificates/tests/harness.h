// An in-process cluster for the certificates integration tests: the embedded API server with
// the certs.capstan.dev CRDs, a Manager running the certificates controllers (its own client
// and metrics registry, so its requests can be counted), optionally the admission webhooks,
// and helpers to create objects and wait (bounded) for them.
#pragma once

#include "controllers/certificates/plugin.h"
#include "controllers/certificates/env.h"
#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "testing/test_cluster.h"
#include "runtime/meta/base64.h"
#include "runtime/metrics/registry.h"
#include "runtime/webhook/server.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace capstan::certificates::testing {

using namespace std::chrono_literals;

// "now + offset": tests move time forward without sleeping.
class TestClock {
 public:
  meta::TimePoint now() const;
  void advance(std::chrono::seconds d);
  ClockFn fn();

 private:
  mutable std::mutex mu_;
  std::chrono::seconds offset_{0};
};

// The controller's options for tests: the ACME solver on a free loopback port, since test
// processes run side by side.
inline CertificatesOptions test_certificates_options() {
  CertificatesOptions o;
  o.acme_solver_address = "127.0.0.1";
  o.acme_solver_port = 0;
  return o;
}

struct HarnessOptions {
  CertificatesOptions certs = test_certificates_options();
  bool webhooks = false;
  double manager_qps = 0;  // the manager client's QPS limit (0 = unlimited)
  int manager_burst = 30;
  bool start = true;       // start the manager at once
  e2e::Backend backend = e2e::Backend::Embedded;  // end-to-end tests run on both
};

class Harness {
 public:
  explicit Harness(HarnessOptions options = {});
  ~Harness();

  void start_manager();
  void stop_manager();

  client::Client& client() { return cluster_.client(); }      // the test's admin client
  client::Client& manager_client() { return *manager_client_; }
  Env& env() { return *env_; }
  integration::TestCluster& cluster() { return cluster_; }
  metrics::Registry& registry() { return registry_; }
  const std::string& kubeconfig_path() const { return kubeconfig_; }

  // Creates (or server-side applies) a namespaced object given as JSON text; ns "" = the object's.
  json::Value apply(std::string_view json_text);
  json::Value apply_object(const json::Value& obj);
  void ensure_namespace(const std::string& ns);
  std::optional<json::Value> get(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name);
  std::vector<json::Value> list(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view selector = {});

  // Waits until the Certificate is Ready=True (for the generation it has) with at least
  // `min_revision`; fails the test (and returns its last state) on timeout.
  json::Value wait_ready(std::string_view ns, std::string_view name, std::int64_t min_revision = 1,
                         std::chrono::milliseconds timeout = 30s);
  // Waits until `pred(obj)` holds for the object; returns it.
  std::optional<json::Value> wait_for(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                                      const std::function<bool(const json::Value&)>& pred, std::chrono::milliseconds timeout = 30s);
  // Secret data, decoded.
  std::map<std::string, std::string> secret_data(std::string_view ns, std::string_view name);
  // Waits until no temporary private-key Secret is left in `ns`. They are deleted after the
  // status write that makes a Certificate Ready, so shortly after Ready, not with it.
  bool wait_no_temporary_keys(std::string_view ns, std::chrono::milliseconds timeout = 10s);

  // rest_client_requests_total of the manager's client, summed over labels matching `method`
  // ("" = all) and `code` ("" = all).
  double manager_requests(std::string_view method = {}, std::string_view code = {});
  double reconcile_errors(std::string_view controller);

 private:
  void install_crds();
  // The manager's client acts as a ServiceAccount bound to exactly the controller's ClusterRole
  // rules (plugin().rbac_rules(), what the chart installs), with a TokenRequest token.
  void grant_manager_identity(client::Config& cfg);

  HarnessOptions opts_;
  std::string run_error_;              // what Manager::run threw (written before run_failed_ is set)
  std::atomic<bool> run_failed_{false};
  integration::TestCluster cluster_;
  integration::TempDir dir_{"capstan-certs"};
  std::string kubeconfig_;
  metrics::Registry registry_;
  std::unique_ptr<client::Client> manager_client_;
  std::unique_ptr<webhook::Server> webhooks_;
  integration::TempDir webhook_certs_{"capstan-certs-webhook"};
  std::unique_ptr<controller::Manager> mgr_;
  std::shared_ptr<Env> env_;
  std::thread run_;
};

// Certificate status condition helpers.
std::string condition_status(const json::Value& obj, std::string_view type);
std::string condition_reason(const json::Value& obj, std::string_view type);
std::int64_t revision_of(const json::Value& obj);

}  // namespace capstan::certificates::testing
