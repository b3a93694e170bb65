// The ReplicaSet controller.
#include "apiserver/simulator/replicaset_controller.h"
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

#include <set>

namespace capstan::simulator::testing {
namespace {

const char* kRs = R"(
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: front}
spec:
  replicas: 3
  selector: {matchLabels: {app: front}}
  template:
    metadata:
      labels: {app: front, tier: web}
      annotations: {note: copied}
    spec:
      containers: [{name: c, image: nginx}]
)";

std::vector<json::Value> front_pods(Env& env) { return env.pods_with("app", "front"); }

bool all_ready(const std::vector<json::Value>& pods) {
  return std::all_of(pods.begin(), pods.end(), [](const json::Value& p) { return meta::pod_ready(p); });
}

void scale(Env& env, const std::string& name, int n) {
  env.modify("replicasets.apps", "default", name, [n](json::Value& rs) { rs.as_object()["spec"].as_object()["replicas"] = n; });
}

TEST(ReplicaSet, CreatesPodsFromTheTemplateAndReportsStatus) {
  Env env;
  auto rs = env.create_yaml("replicasets.apps", kRs);
  ASSERT_TRUE(eventually([&] {
    auto s = env.get("replicasets.apps", "default", "front");
    return num(s, {"status", "availableReplicas"}) == 3 && num(s, {"status", "readyReplicas"}) == 3;
  }));
  auto pods = front_pods(env);
  ASSERT_EQ(pods.size(), 3u);
  for (const auto& p : pods) {
    std::string name = str(p, {"metadata", "name"});
    EXPECT_EQ(name.rfind("front-", 0), 0u);
    EXPECT_EQ(name.size(), std::string("front-").size() + 5);
    EXPECT_EQ(meta::label(p, "tier"), "web");
    EXPECT_EQ(meta::annotation(p, "note"), "copied");
    auto owner = meta::controller_of(p);
    ASSERT_TRUE(owner);
    EXPECT_EQ(owner->kind, "ReplicaSet");
    EXPECT_EQ(owner->api_version, "apps/v1");
    EXPECT_EQ(owner->uid, meta::uid_of(rs));
    EXPECT_TRUE(owner->block_owner_deletion);
  }
  auto s = env.get("replicasets.apps", "default", "front");
  EXPECT_EQ(num(s, {"status", "replicas"}), 3);
  EXPECT_EQ(num(s, {"status", "fullyLabeledReplicas"}), 3);
  EXPECT_EQ(num(s, {"status", "observedGeneration"}), meta::generation_of(s));
}

TEST(ReplicaSet, ScalesUpAndDownGivingUpNotReadyPodsFirst) {
  Env env;
  env.create_yaml("replicasets.apps", kRs);
  ASSERT_TRUE(eventually([&] { return front_pods(env).size() == 3 && all_ready(front_pods(env)); }));
  scale(env, "front", 5);
  ASSERT_TRUE(eventually([&] {
    return front_pods(env).size() == 5 && num(env.get("replicasets.apps", "default", "front"), {"status", "readyReplicas"}) == 5;
  }));
  // Hold one pod unready: it is the one to go on scale down.
  std::string victim = str(front_pods(env)[2], {"metadata", "name"});
  env.modify("pods", "default", victim,
             [](json::Value& p) { json::ensure_object(p, {"metadata", "annotations"})["workloads.capstan.dev/ready"] = "false"; });
  ASSERT_TRUE(eventually([&] { return !meta::pod_ready(env.get("pods", "default", victim)); }));
  scale(env, "front", 4);
  ASSERT_TRUE(eventually([&] { return front_pods(env).size() == 4; }));
  EXPECT_FALSE(env.exists("pods", "default", victim));
  scale(env, "front", 1);
  ASSERT_TRUE(eventually([&] {
    auto s = env.get("replicasets.apps", "default", "front");
    return front_pods(env).size() == 1 && num(s, {"status", "replicas"}) == 1 && num(s, {"status", "availableReplicas"}) == 1;
  }));
}

TEST(ReplicaSet, DeletedPodIsReplaced) {
  Env env;
  env.create_yaml("replicasets.apps", kRs);
  ASSERT_TRUE(eventually([&] { return front_pods(env).size() == 3 && all_ready(front_pods(env)); }));
  std::set<std::string> before;
  for (const auto& p : front_pods(env)) before.insert(str(p, {"metadata", "name"}));
  env.remove("pods", "default", *before.begin());
  ASSERT_TRUE(eventually([&] { return front_pods(env).size() == 3 && all_ready(front_pods(env)) && !env.exists("pods", "default", *before.begin()); }));
  int fresh = 0;
  for (const auto& p : front_pods(env)) fresh += before.count(str(p, {"metadata", "name"})) ? 0 : 1;
  EXPECT_EQ(fresh, 1);
}

TEST(ReplicaSet, AdoptsMatchingOrphansAndReleasesPodsThatStopMatching) {
  Env env;
  env.create_yaml("pods", R"(
apiVersion: v1
kind: Pod
metadata: {name: stray, labels: {app: front}}
spec: {containers: [{name: c, image: nginx}]}
)");
  auto rs = env.create_yaml("replicasets.apps", kRs);
  ASSERT_TRUE(eventually([&] { return front_pods(env).size() == 3; }));
  ASSERT_TRUE(eventually([&] {
    auto o = meta::controller_of(env.get("pods", "default", "stray"));
    return o && o->uid == meta::uid_of(rs);
  }));
  EXPECT_TRUE(stays([&] { return front_pods(env).size() == 3; }, 200ms)) << "the orphan counts towards replicas";
  // Relabel it: it is released and replaced.
  env.modify("pods", "default", "stray", [](json::Value& p) { p.as_object()["metadata"].as_object()["labels"] = json::Object{{"app", "gone"}}; });
  ASSERT_TRUE(eventually([&] { return !meta::controller_of(env.get("pods", "default", "stray")) && front_pods(env).size() == 3; }));
}

TEST(ReplicaSetDeletionOrder, UnscheduledPendingNotReadyNewestFirst) {
  auto pod = [](const char* name, const char* node, const char* phase, bool ready, const char* created) {
    json::Object p{{"metadata", json::Object{{"name", name}, {"creationTimestamp", created}}},
                   {"spec", json::Object{{"nodeName", node}}},
                   {"status", json::Object{{"phase", phase}}}};
    if (ready)
      p["status"].as_object()["conditions"] =
          json::Array{json::Object{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", created}}};
    return make_object(json::Value(std::move(p)));
  };
  std::vector<Object> pods{pod("old-ready", "n", "Running", true, "2024-01-01T00:00:00Z"),
                                    pod("new-ready", "n", "Running", true, "2024-01-01T00:00:05Z"),
                                    pod("not-ready", "n", "Running", false, "2024-01-01T00:00:00Z"),
                                    pod("pending", "n", "Pending", false, "2024-01-01T00:00:00Z"),
                                    pod("unscheduled", "", "Pending", false, "2024-01-01T00:00:00Z")};
  sort_pods_for_deletion(pods);
  std::vector<std::string> order;
  for (const auto& p : pods) order.emplace_back(meta::name_of(*p));
  EXPECT_EQ(order, (std::vector<std::string>{"unscheduled", "pending", "not-ready", "new-ready", "old-ready"}));
}

}  // namespace
}  // namespace capstan::simulator::testing
