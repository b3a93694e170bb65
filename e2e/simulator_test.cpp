// `capstan simulate-workloads` as its own process against either backend: it says when it is
// working, runs Deployments and StatefulSets to Ready with bound claims and filled endpoints,
// and exits 0 on SIGTERM.
#include "testing/kubectl.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace capstan::e2e {
namespace {

const char* kApps = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, labels: {tier: front}}
spec:
  replicas: 2
  strategy: {type: Recreate}
  selector: {matchLabels: {tier: front}}
  template:
    metadata: {labels: {tier: front}}
    spec:
      containers: [{name: app, image: ghcr.io/example/shop:2.1, ports: [{name: web, containerPort: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: shop}
spec:
  selector: {tier: front}
  ports: [{name: http, port: 8080, targetPort: web}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: cache}
spec:
  serviceName: cache
  replicas: 2
  podManagementPolicy: Parallel
  selector: {matchLabels: {tier: cache}}
  template:
    metadata: {labels: {tier: cache}}
    spec:
      containers: [{name: redis, image: redis:7}]
  volumeClaimTemplates:
  - metadata: {name: state}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 256Mi}}}
)";

class SimulatorE2E : public KubectlFixture {
 protected:
  SimulatorE2E() : KubectlFixture("simulator-e2e") {}
};

TEST_P(SimulatorE2E, RunsWorkloadsAgainstTheServerAndStopsOnSigterm) {
  Process sim({.args = {capstan_bin(), "simulate-workloads", "--kubeconfig=" + server_->kubeconfig(), "--pod-ready-delay=100ms"}});
  ASSERT_TRUE(eventually([&] { return sim.err().find("workload simulation started") != std::string::npos; },
                         std::chrono::seconds(30)))
      << sim.err();
  k().ok({"apply", "-f", "-"}, kApps);
  k().ok({"rollout", "status", "deployment/shop", "--timeout=60s"});
  k().ok({"rollout", "status", "statefulset/cache", "--timeout=60s"});
  EXPECT_EQ(k().ok({"get", "pvc", "-o", "jsonpath={.items[*].status.phase}"}), "Bound Bound");
  EXPECT_EQ(k().ok({"get", "nodes", "-o", "jsonpath={.items[*].metadata.name}"}), "capstan-node");
  ASSERT_TRUE(eventually([&] {
    auto ips = k()({"get", "endpoints", "shop", "-o", "jsonpath={.subsets[*].addresses[*].ip}"}).out;
    return std::count(ips.begin(), ips.end(), ' ') == 1;  // two addresses
  })) << sim.err();
  EXPECT_EQ(sim.stop(), 0) << sim.err();
}

CAPSTAN_E2E_BACKENDS(SimulatorE2E);

}  // namespace
}  // namespace capstan::e2e
