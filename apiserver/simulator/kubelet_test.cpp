// The kubelet/scheduler and volume binder stand-ins.
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

#include <set>

namespace capstan::simulator::testing {
namespace {

const char* kPod = R"(
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  initContainers:
  - name: init
    image: busybox
  containers:
  - name: nginx
    image: nginx:1.25
    ports: [{name: http, containerPort: 8080}]
  - name: sidecar
    image: quay.io/prometheus/node-exporter:v1.8.0
)";

TEST(WorkloadKubelet, PodRunsThenBecomesReadyAfterTheDelay) {
  Env env(300ms);
  auto created_at = std::chrono::steady_clock::now();
  env.create_yaml("pods", kPod);
  ASSERT_TRUE(eventually([&] { return str(env.get("pods", "default", "web"), {"status", "phase"}) == "Running"; }));
  auto pod = env.get("pods", "default", "web");
  EXPECT_EQ(str(pod, {"spec", "nodeName"}), "capstan-node");
  EXPECT_EQ(str(pod, {"status", "podIP"}).rfind("10.244.", 0), 0u);
  EXPECT_EQ(str(pod, {"status", "hostIP"}), "172.18.0.2");
  EXPECT_FALSE(str(pod, {"status", "startTime"}).empty());
  EXPECT_EQ(json::get_array(pod, {"status", "podIPs"})->size(), 1u);
  if (std::chrono::steady_clock::now() - created_at < 250ms) {
    EXPECT_FALSE(meta::pod_ready(pod)) << "ready only after the delay";
    EXPECT_EQ(meta::find_condition(pod, "ContainersReady")->status, "False");
  }
  EXPECT_EQ(meta::find_condition(pod, "PodScheduled")->status, "True");
  EXPECT_EQ(meta::find_condition(pod, "Initialized")->status, "True");

  ASSERT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "web")); }));
  EXPECT_GE(std::chrono::steady_clock::now() - created_at, 300ms);
  pod = env.get("pods", "default", "web");
  const auto* cs = json::get_array(pod, {"status", "containerStatuses"});
  ASSERT_TRUE(cs);
  ASSERT_EQ(cs->size(), 2u);
  EXPECT_EQ(str((*cs)[0], {"name"}), "nginx") << "sorted by name";
  EXPECT_EQ(str((*cs)[0], {"image"}), "docker.io/library/nginx:1.25");
  EXPECT_EQ(str((*cs)[0], {"imageID"}).rfind("docker.io/library/nginx@sha256:", 0), 0u);
  EXPECT_EQ(str((*cs)[0], {"containerID"}).rfind("containerd://", 0), 0u);
  EXPECT_TRUE(json::get_bool((*cs)[0], {"ready"}));
  EXPECT_TRUE(json::get_bool((*cs)[0], {"started"}));
  EXPECT_EQ(num((*cs)[0], {"restartCount"}), 0);
  EXPECT_FALSE(str((*cs)[0], {"state", "running", "startedAt"}).empty());
  const auto* init = json::get_array(pod, {"status", "initContainerStatuses"});
  ASSERT_TRUE(init);
  EXPECT_EQ(str((*init)[0], {"state", "terminated", "reason"}), "Completed");
  for (auto t : {"PodScheduled", "Initialized", "ContainersReady", "Ready"}) EXPECT_EQ(meta::find_condition(pod, t)->status, "True") << t;
  // The status settles: no further writes once ready.
  auto rv = str(pod, {"metadata", "resourceVersion"});
  EXPECT_TRUE(stays([&] { return str(env.get("pods", "default", "web"), {"metadata", "resourceVersion"}) == rv; }, 200ms));
  // Recorded as the kubelet (status) and the scheduler (binding) would be.
  std::set<std::string> managers;
  for (const auto& mf : *json::get_array(pod, {"metadata", "managedFields"})) managers.insert(str(mf, {"manager"}));
  EXPECT_TRUE(managers.count("kubelet"));
  EXPECT_TRUE(managers.count("kube-scheduler"));
}

TEST(WorkloadKubelet, EveryPodGetsItsOwnAddress) {
  Env env(0ms);
  for (int i = 0; i < 8; ++i)
    env.create("pods", "default", json::Object{{"apiVersion", "v1"}, {"kind", "Pod"},
                                               {"metadata", json::Object{{"name", "p" + std::to_string(i)}}},
                                               {"spec", json::Object{{"containers", json::Array{json::Object{{"name", "c"}, {"image", "x"}}}}}}});
  ASSERT_TRUE(eventually([&] {
    auto pods = env.list("pods", "default");
    return pods.size() == 8 && std::all_of(pods.begin(), pods.end(), [](const json::Value& p) { return meta::pod_ready(p); });
  }));
  std::set<std::string> ips;
  for (const auto& p : env.list("pods", "default")) ips.insert(str(p, {"status", "podIP"}));
  EXPECT_EQ(ips.size(), 8u);
}

TEST(WorkloadKubelet, ReadyAnnotationFalseHoldsThePodUnready) {
  Env env(0ms);
  auto pod = json::from_yaml(kPod);
  json::ensure_object(pod, {"metadata", "annotations"})["workloads.capstan.dev/ready"] = "false";
  env.create("pods", "default", pod);
  ASSERT_TRUE(eventually([&] { return str(env.get("pods", "default", "web"), {"status", "phase"}) == "Running"; }));
  EXPECT_TRUE(stays([&] { return !meta::pod_ready(env.get("pods", "default", "web")); }, 200ms));
  auto c = meta::find_condition(env.get("pods", "default", "web"), "Ready");
  EXPECT_EQ(c->reason, "ContainersNotReady");
  env.modify("pods", "default", "web", [](json::Value& p) { json::erase(p, {"metadata", "annotations"}); });
  EXPECT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "web")); }));
}

TEST(WorkloadKubelet, ReadyAnnotationTrueMakesThePodReadyBeforeItsDelay) {
  Env env(std::chrono::hours(1));
  env.create("pods", "default", json::from_yaml(kPod));
  ASSERT_TRUE(eventually([&] { return str(env.get("pods", "default", "web"), {"status", "phase"}) == "Running"; }));
  EXPECT_TRUE(stays([&] { return !meta::pod_ready(env.get("pods", "default", "web")); }, 200ms));
  env.modify("pods", "default", "web", [](json::Value& p) { json::ensure_object(p, {"metadata", "annotations"})["workloads.capstan.dev/ready"] = "true"; });
  EXPECT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "web")); }));
}

TEST(WorkloadKubelet, ReadinessGatesMustBeTrueBeforeReady) {
  Env env(0ms);
  auto pod = json::from_yaml(kPod);
  pod.as_object()["spec"].as_object()["readinessGates"] = json::Array{json::Object{{"conditionType", "example.com/lb-ready"}}};
  env.create("pods", "default", pod);
  ASSERT_TRUE(eventually([&] {
    auto c = meta::find_condition(env.get("pods", "default", "web"), "ContainersReady");
    return c && c->status == "True";
  }));
  EXPECT_FALSE(meta::pod_ready(env.get("pods", "default", "web")));
  EXPECT_EQ(meta::find_condition(env.get("pods", "default", "web"), "Ready")->reason, "ReadinessGatesNotReady");
  env.modify(
      "pods", "default", "web",
      [](json::Value& p) {
        json::ensure_object(p, {"status"})["conditions"].as_array().push_back(
            json::Object{{"type", "example.com/lb-ready"}, {"status", "True"}});
      },
      "status");
  EXPECT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "web")); }));
  EXPECT_TRUE(meta::find_condition(env.get("pods", "default", "web"), "example.com/lb-ready")) << "others' conditions kept";
}

TEST(WorkloadKubelet, PodsOfAnotherNodeAreLeftToItsKubelet) {
  Env env(0ms);
  auto pod = json::from_yaml(kPod);
  json::ensure_object(pod, {"spec"})["nodeName"] = "elsewhere";
  env.create("pods", "default", pod);
  env.create_yaml("pods", "{apiVersion: v1, kind: Pod, metadata: {name: mine}, spec: {containers: [{name: c, image: busybox}]}}");
  ASSERT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "mine")); }));
  EXPECT_TRUE(stays([&] {
    auto p = env.get("pods", "default", "web");
    return str(p, {"status", "phase"}) != "Running" && str(p, {"status", "podIP"}).empty() && !meta::find_condition(p, "Ready");
  }, 200ms));
}

// pods/binding, as the simulated scheduler (and kube-scheduler) assigns pods.
TEST(WorkloadKubelet, ABindingAssignsAPodOnce) {
  Env env(0ms, /*start=*/false);
  env.create_yaml("pods", kPod);
  auto bind = [&](const std::string& node) {
    json::Value b = json::Object{{"apiVersion", "v1"},
                                 {"kind", "Binding"},
                                 {"metadata", json::Object{{"name", "web"}}},
                                 {"target", json::Object{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
    return env.cluster.client().raw("POST", "/api/v1/namespaces/default/pods/web/binding", json::serialize(b), "application/json");
  };
  EXPECT_EQ(bind("node-a").status, 201);
  EXPECT_EQ(str(env.get("pods", "default", "web"), {"spec", "nodeName"}), "node-a");
  try {
    bind("node-b");
    ADD_FAILURE() << "a second binding must be refused";
  } catch (const client::ApiError& e) {
    EXPECT_EQ(e.code(), 409);
    EXPECT_NE(e.message().find("is already assigned to node \"node-a\""), std::string::npos) << e.message();
  }
}

TEST(WorkloadKubelet, PodWaitsUnscheduledForItsClaimToBeBound) {
  Env env(0ms);
  auto pod = json::from_yaml(kPod);
  pod.as_object()["spec"].as_object()["volumes"] =
      json::Array{json::Object{{"name", "data"}, {"persistentVolumeClaim", json::Object{{"claimName", "data-web"}}}}};
  env.create("pods", "default", pod);
  ASSERT_TRUE(eventually([&] {
    auto c = meta::find_condition(env.get("pods", "default", "web"), "PodScheduled");
    return c && c->status == "False" && c->reason == "Unschedulable";
  }));
  EXPECT_EQ(str(env.get("pods", "default", "web"), {"spec", "nodeName"}), "");
  EXPECT_EQ(str(env.get("pods", "default", "web"), {"status", "phase"}), "Pending");
  env.create_yaml("persistentvolumeclaims", R"(
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-web}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
)");
  ASSERT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "web")); }));
  auto pvc = env.get("persistentvolumeclaims", "default", "data-web");
  EXPECT_EQ(str(pvc, {"status", "phase"}), "Bound");
  EXPECT_EQ(str(pvc, {"status", "capacity", "storage"}), "1Gi");
  EXPECT_EQ(str(pvc, {"spec", "volumeName"}), "pvc-" + str(pvc, {"metadata", "uid"}));
  EXPECT_EQ(meta::annotation(pvc, "pv.kubernetes.io/bind-completed"), "yes");
}

TEST(WorkloadKubelet, PodHeldByAFinalizerIsStoppedWhenDeleted) {
  Env env(0ms);
  auto pod = json::from_yaml(kPod);
  json::ensure_object(pod, {"metadata"})["finalizers"] = json::Array{"example.com/hold"};
  env.create("pods", "default", pod);
  ASSERT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "web")); }));
  env.remove("pods", "default", "web");
  ASSERT_TRUE(eventually([&] { return str(env.get("pods", "default", "web"), {"status", "phase"}) == "Succeeded"; }));
  auto p = env.get("pods", "default", "web");
  EXPECT_FALSE(meta::pod_ready(p));
  EXPECT_EQ(str((*json::get_array(p, {"status", "containerStatuses"}))[0], {"state", "terminated", "reason"}), "Completed");
}

TEST(WorkloadKubelet, MissingSecretsAndConfigMapsKeepContainersWaiting) {
  Env env(0ms);
  auto pod = json::from_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  volumes:
  - {name: certs, secret: {secretName: app-tls}}
  - {name: maybe, configMap: {name: nowhere, optional: true}}
  containers:
  - name: app
    image: app
    env:
    - name: PASSWORD
      valueFrom: {secretKeyRef: {name: app-creds, key: password}}
)");
  env.create("pods", "default", pod);
  auto waiting = [&](const std::string& reason) {
    auto p = env.get("pods", "default", "app");
    const auto* cs = json::get_array(p, {"status", "containerStatuses"});
    return str(p, {"status", "phase"}) == "Pending" && cs && str((*cs)[0], {"state", "waiting", "reason"}) == reason;
  };
  ASSERT_TRUE(eventually([&] { return waiting("ContainerCreating"); }));
  EXPECT_FALSE(meta::pod_ready(env.get("pods", "default", "app")));
  env.create_yaml("secrets", "{apiVersion: v1, kind: Secret, metadata: {name: app-tls}, data: {tls.crt: eA==, tls.key: eA==}}");
  ASSERT_TRUE(eventually([&] { return waiting("CreateContainerConfigError"); }));
  auto p = env.get("pods", "default", "app");
  EXPECT_EQ(str((*json::get_array(p, {"status", "containerStatuses"}))[0], {"state", "waiting", "message"}),
            "secret \"app-creds\" not found");
  env.create_yaml("secrets", "{apiVersion: v1, kind: Secret, metadata: {name: app-creds}, stringData: {user: x}}");
  ASSERT_TRUE(eventually([&] {
    auto p = env.get("pods", "default", "app");
    const auto* cs = json::get_array(p, {"status", "containerStatuses"});
    return cs && str((*cs)[0], {"state", "waiting", "message"}) == "couldn't find key password in Secret default/app-creds";
  }));
  env.modify("secrets", "default", "app-creds", [](json::Value& s) { s.as_object()["data"].as_object()["password"] = "cHc="; });
  ASSERT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "app")); }));
  // Once running, losing the Secret does not stop it.
  env.remove("secrets", "default", "app-creds");
  EXPECT_TRUE(stays([&] { return meta::pod_ready(env.get("pods", "default", "app")); }, 200ms));
}

}  // namespace
}  // namespace capstan::simulator::testing
