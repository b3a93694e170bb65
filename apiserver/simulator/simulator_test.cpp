// The simulator as a whole: it quiesces, it cooperates with the garbage collector, it stops.
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

namespace capstan::simulator::testing {
namespace {

const char* kApp = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx, ports: [{name: http, containerPort: 80}]}]
)";

const char* kSts = R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 2
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: pg, image: postgres}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
)";

bool all_ready(Env& env, const char* app, std::size_t n) {
  auto pods = env.pods_with("app", app);
  return pods.size() == n && std::all_of(pods.begin(), pods.end(), [](const json::Value& p) { return meta::pod_ready(p); });
}

TEST(WorkloadSimulator, QuiescesOnceEverythingIsReady) {
  Env env(20ms);
  env.create_yaml("deployments.apps", kApp);
  env.create_yaml("statefulsets.apps", kSts);
  env.create_yaml("services", "{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {selector: {app: web}, ports: [{port: 80, targetPort: http}]}}");
  ASSERT_TRUE(eventually([&] {
    return all_ready(env, "web", 3) && all_ready(env, "db", 2) &&
           num(env.get("deployments.apps", "default", "web"), {"status", "availableReplicas"}) == 3 &&
           num(env.get("statefulsets.apps", "default", "db"), {"status", "availableReplicas"}) == 2 &&
           json::get_array(env.get("endpoints", "default", "web"), {"subsets"});
  }));
  // Give the last status writes a moment, then nothing may change any more.
  std::this_thread::sleep_for(200ms);
  auto rv = env.store.current_rv();
  EXPECT_TRUE(stays([&] { return env.store.current_rv() == rv; }, 500ms)) << "no controller keeps rewriting objects";
}

TEST(WorkloadSimulator, GarbageCollectorCascadesThroughWhatItCreated) {
  Env env(20ms);  // the API server runs its garbage collector
  env.create_yaml("deployments.apps", kApp);
  env.create_yaml("statefulsets.apps", kSts);
  ASSERT_TRUE(eventually([&] { return all_ready(env, "web", 3) && all_ready(env, "db", 2); }));
  ASSERT_TRUE(env.exists("persistentvolumeclaims", "default", "data-db-0"));

  rest::DeleteOptions fg;
  fg.propagation = "Foreground";
  env.service.remove(env.target("deployments.apps", "default", "web"), fg);
  env.remove("statefulsets.apps", "default", "db");
  ASSERT_TRUE(eventually([&] {
    return !env.exists("deployments.apps", "default", "web") && env.list("replicasets.apps", "default").empty() &&
           env.pods_with("app", "web").empty();
  })) << "the deployment, its ReplicaSet and pods are gone (and not recreated)";
  ASSERT_TRUE(eventually([&] {
    return env.pods_with("app", "db").empty() && env.list("controllerrevisions.apps", "default").empty() &&
           env.list("persistentvolumeclaims", "default").empty();
  })) << "whenDeleted: Delete claims go with the set";
}

TEST(WorkloadSimulator, StopsPromptlyAndWritesNothingAfterwards) {
  Env env(20ms);
  env.create_yaml("deployments.apps", kApp);
  ASSERT_TRUE(eventually([&] { return env.pods_with("app", "web").size() == 3; }));
  auto t0 = std::chrono::steady_clock::now();
  env.sim->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  auto rv = env.store.current_rv();
  env.modify("deployments.apps", "default", "web", [](json::Value& d) { d.as_object()["spec"].as_object()["replicas"] = 5; });
  EXPECT_TRUE(stays([&] { return env.store.current_rv() == rv + 1; }, 200ms));
}

}  // namespace
}  // namespace capstan::simulator::testing
