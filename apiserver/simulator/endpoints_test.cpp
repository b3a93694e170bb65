// The Endpoints and EndpointSlice controllers.
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

#include <set>

namespace capstan::simulator::testing {
namespace {

const char* kDeployment = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx
        ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
)";

const char* kService = R"(
apiVersion: v1
kind: Service
metadata: {name: web, labels: {team: storefront}}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
  - {name: metrics, port: 9090, targetPort: 9090, appProtocol: http}
)";

json::Value endpoints(Env& env, const std::string& name = "web") { return env.get("endpoints", "default", name); }

std::set<std::string> ips(const json::Value& ep, const char* key) {
  std::set<std::string> out;
  if (const auto* subsets = json::get_array(ep, {"subsets"}))
    for (const auto& s : *subsets)
      if (const auto* a = json::get_array(s, {key}))
        for (const auto& x : *a) out.insert(str(x, {"ip"}));
  return out;
}

std::vector<json::Value> slices(Env& env, const std::string& svc = "web") {
  return env.list("endpointslices.discovery.k8s.io", "default",
                  [&](const json::Value& s) { return meta::label(s, "kubernetes.io/service-name") == svc; });
}

std::set<std::string> pod_ips(Env& env, bool ready_only = true) {
  std::set<std::string> out;
  for (const auto& p : env.pods_with("app", "web"))
    if (!ready_only || meta::pod_ready(p)) out.insert(str(p, {"status", "podIP"}));
  return out;
}

TEST(Endpoints, FollowPodReadinessWithNamedTargetPorts) {
  Env env;
  env.create_yaml("services", kService);
  env.create_yaml("deployments.apps", kDeployment);
  ASSERT_TRUE(eventually([&] { return pod_ips(env).size() == 2 && ips(endpoints(env), "addresses") == pod_ips(env); }));
  auto ep = endpoints(env);
  EXPECT_EQ(meta::label(ep, "team"), "storefront");
  const auto& subset = (*json::get_array(ep, {"subsets"}))[0];
  const auto* ports = json::get_array(subset, {"ports"});
  ASSERT_TRUE(ports);
  ASSERT_EQ(ports->size(), 2u);
  EXPECT_EQ(str((*ports)[0], {"name"}), "http");
  EXPECT_EQ(num((*ports)[0], {"port"}), 8080) << "the named container port";
  EXPECT_EQ(str((*ports)[0], {"protocol"}), "TCP");
  EXPECT_EQ(num((*ports)[1], {"port"}), 9090);
  EXPECT_EQ(str((*ports)[1], {"appProtocol"}), "http");
  const auto& addr = (*json::get_array(subset, {"addresses"}))[0];
  EXPECT_EQ(str(addr, {"nodeName"}), "capstan-node");
  EXPECT_EQ(str(addr, {"targetRef", "kind"}), "Pod");
  EXPECT_FALSE(str(addr, {"targetRef", "uid"}).empty());
  EXPECT_FALSE(json::find(subset, {"notReadyAddresses"}));

  // One pod turns unready: it moves to notReadyAddresses (and ready=false in the slice).
  auto victim = env.pods_with("app", "web")[0];
  std::string name = str(victim, {"metadata", "name"}), ip = str(victim, {"status", "podIP"});
  env.modify("pods", "default", name,
             [](json::Value& p) { json::ensure_object(p, {"metadata", "annotations"})["workloads.capstan.dev/ready"] = "false"; });
  ASSERT_TRUE(eventually([&] {
    auto e = endpoints(env);
    return ips(e, "notReadyAddresses") == std::set<std::string>{ip} && !ips(e, "addresses").count(ip) && ips(e, "addresses").size() == 1;
  }));
  ASSERT_TRUE(eventually([&] {
    for (const auto& s : slices(env))
      if (const auto* eps = json::get_array(s, {"endpoints"}))
        for (const auto& e : *eps)
          if (e.at_pointer("/addresses/0").as_string() == ip)
            return !json::get_bool(e, {"conditions", "ready"}) && !json::get_bool(e, {"conditions", "serving"});
    return false;
  }));
}

TEST(Endpoints, SliceCarriesServiceLabelsOwnerAndConditions) {
  Env env;
  auto svc = env.create_yaml("services", kService);
  env.create_yaml("deployments.apps", kDeployment);
  ASSERT_TRUE(eventually([&] {
    auto ss = slices(env);
    return pod_ips(env).size() == 2 && ss.size() == 1 && json::get_array(ss[0], {"endpoints"}) &&
           json::get_array(ss[0], {"endpoints"})->size() == 2 &&
           std::all_of(json::get_array(ss[0], {"endpoints"})->begin(), json::get_array(ss[0], {"endpoints"})->end(),
                       [](const json::Value& e) { return json::get_bool(e, {"conditions", "ready"}); });
  }));
  auto s = slices(env)[0];
  EXPECT_EQ(str(s, {"metadata", "name"}).rfind("web-", 0), 0u);
  EXPECT_EQ(str(s, {"addressType"}), "IPv4");
  EXPECT_EQ(meta::label(s, "endpointslice.kubernetes.io/managed-by"), "endpointslice-controller.k8s.io");
  EXPECT_EQ(meta::label(s, "team"), "storefront");
  auto owner = meta::controller_of(s);
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->kind, "Service");
  EXPECT_EQ(owner->uid, meta::uid_of(svc));
  const auto& e = (*json::get_array(s, {"endpoints"}))[0];
  EXPECT_TRUE(json::get_bool(e, {"conditions", "serving"}));
  EXPECT_FALSE(json::get_bool(e, {"conditions", "terminating"}));
  EXPECT_EQ(str(e, {"targetRef", "kind"}), "Pod");
  EXPECT_EQ(str(e, {"nodeName"}), "capstan-node");
  const auto* ports = json::get_array(s, {"ports"});
  ASSERT_TRUE(ports);
  EXPECT_EQ(num((*ports)[0], {"port"}), 8080);
  // Scaling shows up in the slice and the Endpoints.
  env.modify("deployments.apps", "default", "web", [](json::Value& d) { d.as_object()["spec"].as_object()["replicas"] = 3; });
  ASSERT_TRUE(eventually([&] {
    auto ss = slices(env);
    return pod_ips(env).size() == 3 && ss.size() == 1 && json::get_array(ss[0], {"endpoints"})->size() == 3 &&
           ips(endpoints(env), "addresses") == pod_ips(env);
  }));
}

TEST(Endpoints, HeadlessServiceListsStatefulSetHostnames) {
  Env env;
  env.create_yaml("services", R"(
apiVersion: v1
kind: Service
metadata: {name: kafka-brokers}
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector: {app: kafka}
  ports: [{name: tcp-replication, port: 9091}]
)");
  auto sts = json::from_yaml(R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka}
spec:
  serviceName: kafka-brokers
  replicas: 2
  selector: {matchLabels: {app: kafka}}
  template:
    metadata:
      labels: {app: kafka}
      annotations: {workloads.capstan.dev/ready: "false"}
    spec:
      containers: [{name: broker, image: kafka}]
  podManagementPolicy: Parallel
)");
  env.create("statefulsets.apps", "default", sts);
  // Never ready, yet published (publishNotReadyAddresses), with their hostnames.
  ASSERT_TRUE(eventually([&] { return ips(endpoints(env, "kafka-brokers"), "addresses").size() == 2; }));
  auto ep = endpoints(env, "kafka-brokers");
  EXPECT_EQ(meta::label(ep, "service.kubernetes.io/headless"), "");
  EXPECT_TRUE(json::find(ep, {"metadata", "labels", "service.kubernetes.io/headless"}));
  std::set<std::string> hosts;
  for (const auto& a : *json::get_array((*json::get_array(ep, {"subsets"}))[0], {"addresses"})) hosts.insert(str(a, {"hostname"}));
  EXPECT_EQ(hosts, (std::set<std::string>{"kafka-0", "kafka-1"}));
  EXPECT_EQ(num((*json::get_array((*json::get_array(ep, {"subsets"}))[0], {"ports"}))[0], {"port"}), 9091);
  ASSERT_TRUE(eventually([&] {
    auto ss = slices(env, "kafka-brokers");
    return ss.size() == 1 && json::get_array(ss[0], {"endpoints"}) && json::get_array(ss[0], {"endpoints"})->size() == 2;
  }));
  auto slice = slices(env, "kafka-brokers")[0];
  for (const auto& e : *json::get_array(slice, {"endpoints"})) {
    EXPECT_TRUE(json::get_bool(e, {"conditions", "ready"})) << "publishNotReadyAddresses";
    EXPECT_FALSE(str(e, {"hostname"}).empty());
  }
}

TEST(Endpoints, GoneWithTheServiceAndUserManagedOnesAreLeftAlone) {
  Env env;
  env.create_yaml("services", kService);
  env.create_yaml("deployments.apps", kDeployment);
  ASSERT_TRUE(eventually([&] { return ips(endpoints(env), "addresses").size() == 2 && slices(env).size() == 1; }));
  env.remove("services", "default", "web");
  ASSERT_TRUE(eventually([&] { return !env.exists("endpoints", "default", "web") && slices(env).empty(); }));

  // A selector-less Service: its Endpoints belong to the user.
  env.create_yaml("services", R"(
apiVersion: v1
kind: Service
metadata: {name: external}
spec:
  ports: [{port: 5432}]
)");
  env.create_yaml("endpoints", R"(
apiVersion: v1
kind: Endpoints
metadata: {name: external}
subsets: [{addresses: [{ip: 192.0.2.10}], ports: [{port: 5432}]}]
)");
  EXPECT_TRUE(stays([&] { return ips(endpoints(env, "external"), "addresses") == std::set<std::string>{"192.0.2.10"}; }, 200ms));
  EXPECT_TRUE(slices(env, "external").empty());
}

TEST(Endpoints, EmptyServiceGetsAPlaceholderSliceAndNoSubsets) {
  Env env;
  env.create_yaml("services", R"(
apiVersion: v1
kind: Service
metadata: {name: lonely}
spec:
  selector: {app: nothing}
  ports: [{port: 80}]
)");
  ASSERT_TRUE(eventually([&] { return env.exists("endpoints", "default", "lonely") && slices(env, "lonely").size() == 1; }));
  EXPECT_FALSE(json::find(endpoints(env, "lonely"), {"subsets"}));
  auto s = slices(env, "lonely")[0];
  EXPECT_TRUE(json::find(s, {"endpoints"})->is_null());
}

}  // namespace
}  // namespace capstan::simulator::testing
