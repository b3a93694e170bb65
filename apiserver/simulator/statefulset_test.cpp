// The StatefulSet controller, end to end with the kubelet and the volume binder.
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace capstan::simulator::testing {
namespace {

std::string sts_yaml(int replicas, const std::string& extra_spec = "", const std::string& claims = "") {
  return R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka}
spec:
  serviceName: kafka-brokers
  replicas: )" +
         std::to_string(replicas) + "\n" + extra_spec + R"(
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      containers: [{name: broker, image: "kafka:3.8"}]
)" + claims;
}

const char* kClaims = R"(
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 10Gi}}
)";

json::Value sts(Env& env) { return env.get("statefulsets.apps", "default", "kafka"); }
json::Value pod(Env& env, int i) { return env.get("pods", "default", "kafka-" + std::to_string(i)); }

// What `kubectl rollout status statefulset/kafka` waits for (RollingUpdate).
bool rollout_complete(const json::Value& s) {
  if (num(s, {"status", "observedGeneration"}) == 0 || meta::generation_of(s) > num(s, {"status", "observedGeneration"}))
    return false;
  auto replicas = num(s, {"spec", "replicas"});
  if (num(s, {"status", "readyReplicas"}) < replicas) return false;
  auto partition = num(s, {"spec", "updateStrategy", "rollingUpdate", "partition"});
  if (partition > 0) return num(s, {"status", "updatedReplicas"}) >= replicas - partition;
  return str(s, {"status", "updateRevision"}) == str(s, {"status", "currentRevision"});
}

bool settled(Env& env, int replicas) {
  auto s = sts(env);
  return rollout_complete(s) && num(s, {"status", "replicas"}) == replicas && num(s, {"status", "availableReplicas"}) == replicas &&
         static_cast<int>(env.pods_with("app", "kafka").size()) == replicas;
}

// "add kafka-0", "ready kafka-0", "delete kafka-2", ... in the order the store saw them.
std::vector<std::string> timeline(const Recorder& r) {
  std::vector<std::string> out;
  std::set<std::string> ready;
  for (const auto& e : r.events()) {
    std::string name(meta::name_of(*e.object));
    if (e.type == storage::EventType::Added) {
      out.push_back("add " + name);
      ready.erase(name);
    } else if (e.type == storage::EventType::Deleted) {
      out.push_back("delete " + name);
      ready.erase(name);
    } else if (meta::pod_ready(*e.object) && ready.insert(name).second) {
      out.push_back("ready " + name);
    }
  }
  return out;
}

std::ptrdiff_t at(const std::vector<std::string>& t, const std::string& what, std::size_t from = 0) {
  auto it = std::find(t.begin() + static_cast<std::ptrdiff_t>(std::min(from, t.size())), t.end(), what);
  return it == t.end() ? -1 : it - t.begin();
}

void set_image(Env& env, const std::string& image) {
  env.modify("statefulsets.apps", "default", "kafka",
             [&](json::Value& s) { s.at_pointer("/spec/template/spec/containers/0").as_object()["image"] = image; });
}

void patch_spec(Env& env, const std::function<void(json::Object&)>& fn) {
  env.modify("statefulsets.apps", "default", "kafka", [&](json::Value& s) { fn(s.as_object()["spec"].as_object()); });
}

TEST(StatefulSet, OrderedReadyCreatesEachOrdinalOnlyAfterThePreviousIsReady) {
  Env env(60ms);
  auto rec = env.record("pods");
  auto created = env.create_yaml("statefulsets.apps", sts_yaml(3));
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  auto t = timeline(*rec);
  for (int i = 1; i < 3; ++i) {
    auto prev_ready = at(t, "ready kafka-" + std::to_string(i - 1));
    auto add = at(t, "add kafka-" + std::to_string(i));
    ASSERT_GE(prev_ready, 0);
    ASSERT_GE(add, 0);
    EXPECT_LT(prev_ready, add) << "kafka-" << i << " created before kafka-" << i - 1 << " was ready";
  }
  EXPECT_LT(at(t, "add kafka-0"), at(t, "add kafka-1"));

  auto s = sts(env);
  std::string rev = str(s, {"status", "updateRevision"});
  EXPECT_EQ(str(s, {"status", "currentRevision"}), rev);
  EXPECT_EQ(rev.rfind("kafka-", 0), 0u);
  EXPECT_EQ(num(s, {"status", "replicas"}), 3);
  EXPECT_EQ(num(s, {"status", "readyReplicas"}), 3);
  EXPECT_EQ(num(s, {"status", "availableReplicas"}), 3);
  EXPECT_EQ(num(s, {"status", "currentReplicas"}), 3);
  EXPECT_EQ(num(s, {"status", "updatedReplicas"}), 3);
  EXPECT_EQ(num(s, {"status", "observedGeneration"}), meta::generation_of(s));
  ASSERT_TRUE(json::find(s, {"status", "collisionCount"}));
  EXPECT_EQ(num(s, {"status", "collisionCount"}), 0);

  auto cr = env.get("controllerrevisions.apps", "default", rev);
  ASSERT_TRUE(cr.is_object()) << "ControllerRevision " << rev;
  EXPECT_EQ(num(cr, {"revision"}), 1);
  EXPECT_EQ(rev, "kafka-" + std::string(meta::label(cr, "controller-revision-hash")));
  EXPECT_EQ(meta::controller_of(cr)->uid, meta::uid_of(created));
  EXPECT_EQ(cr.at_pointer("/data/spec/template/spec/containers/0/image"), "kafka:3.8");

  for (int i = 0; i < 3; ++i) {
    auto p = pod(env, i);
    std::string name = "kafka-" + std::to_string(i);
    EXPECT_EQ(meta::label(p, "statefulset.kubernetes.io/pod-name"), name);
    EXPECT_EQ(meta::label(p, "apps.kubernetes.io/pod-index"), std::to_string(i));
    EXPECT_EQ(meta::label(p, "controller-revision-hash"), rev);
    EXPECT_EQ(str(p, {"spec", "hostname"}), name);
    EXPECT_EQ(str(p, {"spec", "subdomain"}), "kafka-brokers");
    EXPECT_EQ(meta::controller_of(p)->kind, "StatefulSet");
  }
  auto rv = str(s, {"metadata", "resourceVersion"});
  EXPECT_TRUE(stays([&] { return str(sts(env), {"metadata", "resourceVersion"}) == rv; }, 300ms)) << "status settles";
}

TEST(StatefulSet, ParallelCreatesEveryOrdinalAtOnce) {
  Env env(300ms);
  auto rec = env.record("pods");
  env.create_yaml("statefulsets.apps", sts_yaml(3, "  podManagementPolicy: Parallel\n"));
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  auto t = timeline(*rec);
  auto first_ready = std::min({at(t, "ready kafka-0"), at(t, "ready kafka-1"), at(t, "ready kafka-2")});
  for (int i = 0; i < 3; ++i) EXPECT_LT(at(t, "add kafka-" + std::to_string(i)), first_ready);
}

TEST(StatefulSet, ScalesDownFromTheHighestOrdinalOneAtATime) {
  Env env(30ms);
  env.create_yaml("statefulsets.apps", sts_yaml(4));
  ASSERT_TRUE(eventually([&] { return settled(env, 4); }));
  auto rec = env.record("pods");
  patch_spec(env, [](json::Object& s) { s["replicas"] = 1; });
  ASSERT_TRUE(eventually([&] { return settled(env, 1); }));
  auto t = timeline(*rec);
  std::vector<std::string> deletes;
  for (const auto& e : t)
    if (e.rfind("delete ", 0) == 0) deletes.push_back(e);
  EXPECT_EQ(deletes, (std::vector<std::string>{"delete kafka-3", "delete kafka-2", "delete kafka-1"}));
  EXPECT_TRUE(env.exists("pods", "default", "kafka-0"));
  // And back up: the same identities return.
  patch_spec(env, [](json::Object& s) { s["replicas"] = 3; });
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(env.exists("pods", "default", "kafka-" + std::to_string(i)));
}

TEST(StatefulSet, RollingUpdateReplacesHighestOrdinalFirstAndRespectsThePartition) {
  Env env(40ms);
  env.create_yaml("statefulsets.apps", sts_yaml(3, "  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}\n"));
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  std::string old_rev = str(sts(env), {"status", "currentRevision"});
  auto rec = env.record("pods");
  set_image(env, "kafka:3.9");
  ASSERT_TRUE(eventually([&] {
    auto s = sts(env);
    return rollout_complete(s) && num(s, {"status", "updatedReplicas"}) == 2 && num(s, {"status", "readyReplicas"}) == 3;
  }));
  std::string new_rev = str(sts(env), {"status", "updateRevision"});
  EXPECT_NE(new_rev, old_rev);
  EXPECT_EQ(str(sts(env), {"status", "currentRevision"}), old_rev) << "not every pod is updated yet";
  EXPECT_EQ(num(sts(env), {"status", "currentReplicas"}), 1);
  EXPECT_EQ(meta::label(pod(env, 2), "controller-revision-hash"), new_rev);
  EXPECT_EQ(meta::label(pod(env, 1), "controller-revision-hash"), new_rev);
  EXPECT_EQ(meta::label(pod(env, 0), "controller-revision-hash"), old_rev) << "below the partition";
  EXPECT_EQ(pod(env, 0).at_pointer("/spec/containers/0/image"), "kafka:3.8");
  EXPECT_EQ(pod(env, 2).at_pointer("/spec/containers/0/image"), "kafka:3.9");
  auto t = timeline(*rec);
  // kafka-2 first; kafka-1 only once the new kafka-2 is ready.
  auto del2 = at(t, "delete kafka-2");
  auto ready2 = at(t, "ready kafka-2", static_cast<std::size_t>(std::max<std::ptrdiff_t>(del2, 0)));
  auto del1 = at(t, "delete kafka-1");
  ASSERT_GE(del2, 0);
  ASSERT_GE(ready2, 0);
  ASSERT_GE(del1, 0);
  EXPECT_LT(del2, ready2);
  EXPECT_LT(ready2, del1);
  EXPECT_LT(at(t, "delete kafka-0"), 0) << "kafka-0 is below the partition";
  EXPECT_TRUE(stays([&] { return meta::label(pod(env, 0), "controller-revision-hash") == old_rev; }, 200ms));

  // Partition 0 finishes the rollout; the current revision moves on.
  patch_spec(env, [](json::Object& s) { s["updateStrategy"].as_object()["rollingUpdate"].as_object()["partition"] = 0; });
  ASSERT_TRUE(eventually([&] {
    auto s = sts(env);
    return rollout_complete(s) && str(s, {"status", "currentRevision"}) == new_rev && num(s, {"status", "updatedReplicas"}) == 3 &&
           num(s, {"status", "currentReplicas"}) == 3;
  }));
  EXPECT_EQ(meta::label(pod(env, 0), "controller-revision-hash"), new_rev);
  EXPECT_EQ(num(env.get("controllerrevisions.apps", "default", new_rev), {"revision"}), 2);
}

TEST(StatefulSet, OnDeleteReplacesOnlyPodsTheUserDeletes) {
  Env env(30ms);
  env.create_yaml("statefulsets.apps", sts_yaml(3, "  updateStrategy: {type: OnDelete}\n"));
  ASSERT_TRUE(eventually([&] {
    auto s = sts(env);
    return num(s, {"status", "readyReplicas"}) == 3 && num(s, {"status", "availableReplicas"}) == 3;
  }));
  std::string old_rev = str(sts(env), {"status", "currentRevision"});
  std::vector<std::string> uids;
  for (int i = 0; i < 3; ++i) uids.emplace_back(meta::uid_of(pod(env, i)));
  set_image(env, "kafka:3.9");
  ASSERT_TRUE(eventually([&] { return str(sts(env), {"status", "updateRevision"}) != old_rev; }));
  EXPECT_TRUE(stays([&] {
    for (int i = 0; i < 3; ++i)
      if (meta::uid_of(pod(env, i)) != uids[i]) return false;
    return true;
  }, 300ms)) << "OnDelete never deletes pods itself";
  EXPECT_EQ(num(sts(env), {"status", "updatedReplicas"}), 0);
  env.remove("pods", "default", "kafka-1");
  ASSERT_TRUE(eventually([&] {
    auto p = pod(env, 1);
    return p.is_object() && meta::uid_of(p) != uids[1] && meta::pod_ready(p);
  }));
  EXPECT_EQ(meta::label(pod(env, 1), "controller-revision-hash"), str(sts(env), {"status", "updateRevision"}));
  EXPECT_EQ(pod(env, 1).at_pointer("/spec/containers/0/image"), "kafka:3.9");
  EXPECT_EQ(meta::uid_of(pod(env, 0)), uids[0]);
  EXPECT_EQ(meta::uid_of(pod(env, 2)), uids[2]);
  ASSERT_TRUE(eventually([&] { return num(sts(env), {"status", "updatedReplicas"}) == 1; }));
}

TEST(StatefulSet, ClaimsFromTemplatesAreBoundAndRetainedOnScaleDown) {
  Env env(20ms);
  env.create_yaml("statefulsets.apps", sts_yaml(3, "", kClaims));
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  for (int i = 0; i < 3; ++i) {
    std::string name = "data-kafka-" + std::to_string(i);
    auto pvc = env.get("persistentvolumeclaims", "default", name);
    ASSERT_TRUE(pvc.is_object()) << name;
    EXPECT_EQ(str(pvc, {"status", "phase"}), "Bound");
    EXPECT_EQ(meta::label(pvc, "app"), "kafka");
    EXPECT_FALSE(json::find(pvc, {"metadata", "ownerReferences"})) << "Retain: not owned by the set";
    auto p = pod(env, i);
    bool mounted = false;
    for (const auto& v : *json::get_array(p, {"spec", "volumes"}))
      mounted |= str(v, {"name"}) == "data" && str(v, {"persistentVolumeClaim", "claimName"}) == name;
    EXPECT_TRUE(mounted) << "pod kafka-" << i << " mounts " << name;
  }
  patch_spec(env, [](json::Object& s) { s["replicas"] = 1; });
  ASSERT_TRUE(eventually([&] { return settled(env, 1); }));
  EXPECT_TRUE(stays([&] {
    return env.exists("persistentvolumeclaims", "default", "data-kafka-1") &&
           env.exists("persistentvolumeclaims", "default", "data-kafka-2");
  }, 200ms));
  // Scaling back up reuses the retained claims.
  auto uid = std::string(meta::uid_of(env.get("persistentvolumeclaims", "default", "data-kafka-2")));
  patch_spec(env, [](json::Object& s) { s["replicas"] = 3; });
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  EXPECT_EQ(meta::uid_of(env.get("persistentvolumeclaims", "default", "data-kafka-2")), uid);
}

TEST(StatefulSet, ClaimsGoOnScaleDownWithTheDeletePolicy) {
  Env env(20ms);
  env.create_yaml("statefulsets.apps",
                  sts_yaml(3, "  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Delete}\n", kClaims));
  ASSERT_TRUE(eventually([&] { return settled(env, 3); }));
  auto pvc = env.get("persistentvolumeclaims", "default", "data-kafka-0");
  auto owner = meta::controller_of(pvc);
  ASSERT_TRUE(owner) << "whenDeleted: Delete makes the set own its claims";
  EXPECT_EQ(owner->kind, "StatefulSet");
  patch_spec(env, [](json::Object& s) { s["replicas"] = 1; });
  ASSERT_TRUE(eventually([&] {
    return settled(env, 1) && !env.exists("persistentvolumeclaims", "default", "data-kafka-1") &&
           !env.exists("persistentvolumeclaims", "default", "data-kafka-2");
  }));
  EXPECT_TRUE(env.exists("persistentvolumeclaims", "default", "data-kafka-0"));
}

TEST(StatefulSet, DeletedPodIsRecreatedWithTheSameIdentity) {
  Env env(20ms);
  env.create_yaml("statefulsets.apps", sts_yaml(2, "", kClaims));
  ASSERT_TRUE(eventually([&] { return settled(env, 2); }));
  std::string uid(meta::uid_of(pod(env, 1)));
  std::string ip = str(pod(env, 1), {"status", "podIP"});
  env.remove("pods", "default", "kafka-1");
  ASSERT_TRUE(eventually([&] {
    auto p = pod(env, 1);
    return p.is_object() && meta::uid_of(p) != uid && meta::pod_ready(p) && settled(env, 2);
  }));
  EXPECT_EQ(str(pod(env, 1), {"spec", "hostname"}), "kafka-1");
  EXPECT_TRUE(env.exists("persistentvolumeclaims", "default", "data-kafka-1"));
}

}  // namespace
}  // namespace capstan::simulator::testing
