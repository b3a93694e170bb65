// A test of one controller as users run it: its own cluster of the test's backend (optionally
// with the workload simulator), every CRD installed as `capstan crds | kubectl apply
// --server-side -f -` does, a kubectl, and a `capstan manager` with the test's flags. The
// manager runs as the chart's ServiceAccount capstan-system/capstan-manager with the chart's
// RBAC for the controllers its --controllers flag enables (`helm template`), so every scenario
// also proves the rules users install are enough. On failure the manager's and the cluster's
// logs and `kubectl get <dump> -A -o yaml` are printed.
//
//   class KafkaE2E : public ControllerFixture {
//    protected:
//     KafkaE2E() : ControllerFixture({"kafka", /*simulate_workloads=*/true, "kafka,knp,pods"}) {}
//     std::vector<std::string> manager_flags() override { return {"--controllers=kafka"}; }
//   };
//   TEST_P(KafkaE2E, ...) { ... }
//   CAPSTAN_E2E_BACKENDS(KafkaE2E);
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/configuration.h"
#include "testing/fault_proxy.h"
#include "testing/kubectl.h"
#include "testing/manager_process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

class ControllerFixture : public ::testing::TestWithParam<Backend> {
 protected:
  struct Setup {
    std::string name;                 // the temp directory's tag
    bool simulate_workloads = false;  // pods of workloads turn Ready (the workload simulator)
    std::string dump;                 // what to print on failure, e.g. "kafka,pods"
    bool through_fault_proxy = false; // the manager reaches the API server through proxy_
    bool durable = false;             // the API server keeps its data (and CA) across restarts
    // With simulate_workloads: how long a pod's containers take to be Ready (unless its
    // workloads.capstan.dev/ready annotation decides).
    std::chrono::milliseconds pod_ready_delay{100};
  };
  explicit ControllerFixture(Setup setup) : setup_(std::move(setup)) {}

  // Flags of `capstan manager` beyond the connection and ports (e.g. --controllers=kafka).
  virtual std::vector<std::string> manager_flags() = 0;
  // Runs after the directory exists and before the API server starts (peers of the test).
  virtual void before_cluster() {}
  // Runs once Capstan's CRDs are established, before the manager starts (CRDs of other projects
  // the controllers watch).
  virtual void before_manager() {}

  void SetUp() override;
  // The kubeconfig of the manager's identity: the chart's ServiceAccount with the RBAC the
  // chart renders for the enabled controllers (see above).
  std::string manager_kubeconfig();
  Backend backend() const { return GetParam(); }
  void TearDown() override;

  // Waits until the manager is ready, then registers the webhook configurations of `apis`
  // (webhooks::<group>::configurations) with the backend, pointed at the manager's webhook
  // server, as the chart registers them (the fixture itself registers none).
  using WebhookConfigurations = std::vector<json::Value> (*)(const webhook::Endpoint&);
  void register_webhooks(std::initializer_list<WebhookConfigurations> apis);

  // kubectl's stdout ("" when it fails).
  std::string get(const std::vector<std::string>& args) { return (*kubectl_)(args).out; }
  // The status of condition `type` of `resource` `name` in `ns`.
  std::string condition(const std::string& resource, const std::string& name, const std::string& ns, const std::string& type,
                        const std::string& field = "status");

  Setup setup_;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<Cluster> server_;
  std::unique_ptr<Kubectl> kubectl_;
  std::unique_ptr<FaultProxy> proxy_;  // with Setup::through_fault_proxy
  std::unique_ptr<ManagerProcess> manager_;
};

}  // namespace capstan::e2e
