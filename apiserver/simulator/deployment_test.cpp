// The Deployment controller, end to end with the ReplicaSet controller and the kubelet.
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace capstan::simulator::testing {
namespace {

std::string deployment_yaml(int replicas, const std::string& strategy = "", const std::string& extra_spec = "") {
  return R"(
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {team: storefront}
spec:
  replicas: )" +
         std::to_string(replicas) + "\n" + strategy + extra_spec + R"(
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "nginx:1.25"}]
)";
}

json::Value deployment(Env& env) { return env.get("deployments.apps", "default", "web"); }

// What `kubectl rollout status deployment/web` waits for.
bool rollout_complete(const json::Value& d) {
  if (meta::generation_of(d) > num(d, {"status", "observedGeneration"})) return false;
  auto p = meta::find_condition(d, "Progressing");
  if (p && p->reason == "ProgressDeadlineExceeded") return false;
  auto replicas = num(d, {"spec", "replicas"});
  auto updated = num(d, {"status", "updatedReplicas"});
  return updated >= replicas && num(d, {"status", "replicas"}) <= updated && num(d, {"status", "availableReplicas"}) >= updated;
}

std::vector<json::Value> replicasets(Env& env) {
  return env.list("replicasets.apps", "default", [](const json::Value& rs) { return meta::label(rs, "app") == "web"; });
}

void set_image(Env& env, const std::string& image) {
  env.modify("deployments.apps", "default", "web", [&](json::Value& d) {
    d.at_pointer("/spec/template/spec/containers/0").as_object()["image"] = image;
  });
}

// Tracks, from pod events alone, how many pods exist and how many are ready, and the
// extremes seen during a rollout.
struct PodCensus : storage::Watcher {
  std::mutex mu;
  std::map<std::string, std::pair<bool, std::string>> pods;  // name -> (ready, hash)
  int max_total = 0, min_ready = 1 << 30;
  bool armed = false;
  bool mixed = false;  // pods of two templates at once
  void on_event(const storage::Event& e) override {
    std::lock_guard<std::mutex> l(mu);
    std::string name(meta::name_of(*e.object));
    if (e.type == storage::EventType::Deleted || meta::is_deleting(*e.object)) pods.erase(name);
    else pods[name] = {meta::pod_ready(*e.object), std::string(meta::label(*e.object, "pod-template-hash"))};
    int ready = 0;
    std::set<std::string> hashes;
    for (auto& [n, s] : pods) {
      ready += s.first;
      hashes.insert(s.second);
    }
    if (!armed) return;
    max_total = std::max<int>(max_total, static_cast<int>(pods.size()));
    min_ready = std::min(min_ready, ready);
    mixed |= hashes.size() > 1;
  }
  void arm() {
    std::lock_guard<std::mutex> l(mu);
    armed = true;
  }
};

TEST(Deployment, CreatesReplicaSetAndPodsAndBecomesAvailable) {
  Env env;
  auto d = env.create_yaml("deployments.apps", deployment_yaml(3));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "observedGeneration"}) > 0; }));
  auto rss = replicasets(env);
  ASSERT_EQ(rss.size(), 1u);
  const auto& rs = rss[0];
  std::string hash(meta::label(rs, "pod-template-hash"));
  ASSERT_FALSE(hash.empty());
  EXPECT_EQ(str(rs, {"metadata", "name"}), "web-" + hash);
  EXPECT_EQ(str(rs, {"spec", "selector", "matchLabels", "pod-template-hash"}), hash);
  EXPECT_EQ(str(rs, {"spec", "template", "metadata", "labels", "pod-template-hash"}), hash);
  EXPECT_EQ(meta::annotation(rs, "deployment.kubernetes.io/revision"), "1");
  EXPECT_EQ(meta::annotation(rs, "deployment.kubernetes.io/desired-replicas"), "3");
  EXPECT_EQ(meta::annotation(rs, "deployment.kubernetes.io/max-replicas"), "4");
  EXPECT_EQ(meta::annotation(rs, "team"), "storefront") << "the deployment's annotations are copied";
  auto owner = meta::controller_of(rs);
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->kind, "Deployment");
  EXPECT_EQ(owner->uid, meta::uid_of(d));
  EXPECT_TRUE(owner->controller);
  EXPECT_TRUE(owner->block_owner_deletion);
  auto pods = env.pods_with("app", "web");
  ASSERT_EQ(pods.size(), 3u);
  for (const auto& p : pods) {
    EXPECT_EQ(meta::label(p, "pod-template-hash"), hash);
    EXPECT_EQ(str(p, {"metadata", "name"}).rfind("web-" + hash + "-", 0), 0u);
  }

  auto cur = deployment(env);
  EXPECT_EQ(meta::annotation(cur, "deployment.kubernetes.io/revision"), "1");
  EXPECT_EQ(num(cur, {"status", "observedGeneration"}), meta::generation_of(cur));
  EXPECT_EQ(num(cur, {"status", "replicas"}), 3);
  EXPECT_EQ(num(cur, {"status", "updatedReplicas"}), 3);
  EXPECT_EQ(num(cur, {"status", "readyReplicas"}), 3);
  EXPECT_EQ(num(cur, {"status", "availableReplicas"}), 3);
  EXPECT_FALSE(json::find(cur, {"status", "unavailableReplicas"})) << "zero is omitted, as Go's omitempty does";
  auto avail = meta::find_condition(cur, "Available");
  ASSERT_TRUE(avail);
  EXPECT_EQ(avail->status, "True");
  EXPECT_EQ(avail->reason, "MinimumReplicasAvailable");
  EXPECT_EQ(avail->message, "Deployment has minimum availability.");
  auto prog = meta::find_condition(cur, "Progressing");
  ASSERT_TRUE(prog);
  EXPECT_EQ(prog->status, "True");
  EXPECT_EQ(prog->reason, "NewReplicaSetAvailable");
  EXPECT_EQ(prog->message, "ReplicaSet \"web-" + hash + "\" has successfully progressed.");
  for (const auto& c : *json::get_array(cur, {"status", "conditions"})) EXPECT_FALSE(str(c, {"lastUpdateTime"}).empty());
  // Settled: nothing keeps rewriting the deployment.
  auto rv = str(cur, {"metadata", "resourceVersion"});
  EXPECT_TRUE(stays([&] { return str(deployment(env), {"metadata", "resourceVersion"}) == rv; }, 300ms));
}

TEST(Deployment, ImageChangeRollsOutWithinSurgeAndUnavailability) {
  Env env(30ms);
  auto census = std::make_shared<PodCensus>();
  env.store.watch("pods", -1, census);
  env.create_yaml("deployments.apps",
                  deployment_yaml(4, "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}\n"));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "availableReplicas"}) == 4; }));
  std::string old_rs = str(replicasets(env)[0], {"metadata", "name"});
  census->arm();
  set_image(env, "nginx:1.26");
  ASSERT_TRUE(eventually([&] {
    auto d = deployment(env);
    return rollout_complete(d) && meta::find_condition(d, "Progressing")->reason == "NewReplicaSetAvailable" &&
           num(d, {"status", "replicas"}) == 4;
  }));
  {
    std::lock_guard<std::mutex> l(census->mu);
    EXPECT_LE(census->max_total, 5) << "never more than replicas + maxSurge pods";
    EXPECT_GE(census->min_ready, 3) << "never fewer than replicas - maxUnavailable ready pods";
  }
  auto rss = replicasets(env);
  ASSERT_EQ(rss.size(), 2u);
  for (const auto& rs : rss) {
    if (str(rs, {"metadata", "name"}) == old_rs) {
      EXPECT_EQ(num(rs, {"spec", "replicas"}), 0);
      EXPECT_EQ(num(rs, {"status", "replicas"}), 0);
      EXPECT_EQ(meta::annotation(rs, "deployment.kubernetes.io/revision"), "1");
    } else {
      EXPECT_EQ(num(rs, {"spec", "replicas"}), 4);
      EXPECT_EQ(meta::annotation(rs, "deployment.kubernetes.io/revision"), "2");
    }
  }
  EXPECT_EQ(meta::annotation(deployment(env), "deployment.kubernetes.io/revision"), "2");
  auto pods = env.pods_with("app", "web");
  EXPECT_EQ(pods.size(), 4u);
  for (const auto& p : pods) EXPECT_EQ(p.at_pointer("/spec/containers/0/image"), "nginx:1.26");
}

TEST(Deployment, PercentagesRoundSurgeUpAndUnavailabilityDown) {
  // 3 replicas at 25%/25%: surge 1, unavailable 0 -> a new pod must be ready before an old goes.
  Env env(30ms);
  auto census = std::make_shared<PodCensus>();
  env.store.watch("pods", -1, census);
  env.create_yaml("deployments.apps", deployment_yaml(3));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "availableReplicas"}) == 3; }));
  census->arm();
  set_image(env, "nginx:1.26");
  ASSERT_TRUE(eventually([&] {
    auto d = deployment(env);
    return rollout_complete(d) && num(d, {"status", "replicas"}) == 3 && num(d, {"status", "updatedReplicas"}) == 3;
  }));
  std::lock_guard<std::mutex> l(census->mu);
  EXPECT_LE(census->max_total, 4);
  EXPECT_GE(census->min_ready, 3);
}

TEST(Deployment, RecreateStopsEveryOldPodBeforeStartingNewOnes) {
  Env env(30ms);
  auto census = std::make_shared<PodCensus>();
  env.store.watch("pods", -1, census);
  env.create_yaml("deployments.apps", deployment_yaml(3, "  strategy: {type: Recreate}\n"));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "availableReplicas"}) == 3; }));
  EXPECT_FALSE(json::find(deployment(env), {"spec", "strategy", "rollingUpdate"}));
  census->arm();
  set_image(env, "nginx:1.26");
  ASSERT_TRUE(eventually([&] {
    auto d = deployment(env);
    return rollout_complete(d) && num(d, {"status", "updatedReplicas"}) == 3 && num(d, {"status", "replicas"}) == 3;
  }));
  std::lock_guard<std::mutex> l(census->mu);
  EXPECT_FALSE(census->mixed) << "old and new pods never run together";
}

TEST(Deployment, ScalesUpAndDown) {
  Env env;
  env.create_yaml("deployments.apps", deployment_yaml(2));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "replicas"}) == 2; }));
  for (int n : {5, 1, 0, 2}) {
    env.modify("deployments.apps", "default", "web", [n](json::Value& d) { d.as_object()["spec"].as_object()["replicas"] = n; });
    ASSERT_TRUE(eventually([&] {
      auto d = deployment(env);
      return rollout_complete(d) && num(d, {"status", "replicas"}) == n && num(d, {"status", "availableReplicas"}) == n &&
             static_cast<int>(env.pods_with("app", "web").size()) == n;
    })) << "scaling to " << n;
    EXPECT_EQ(replicasets(env).size(), 1u) << "scaling makes no new ReplicaSet";
    EXPECT_EQ(meta::annotation(replicasets(env)[0], "deployment.kubernetes.io/desired-replicas"), std::to_string(n));
  }
}

TEST(Deployment, RollbackReusesTheOldReplicaSetAndHistoryIsPruned) {
  Env env(10ms);
  env.create_yaml("deployments.apps", deployment_yaml(1, "", "  revisionHistoryLimit: 1\n"));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "availableReplicas"}) == 1; }));
  std::string first = str(replicasets(env)[0], {"metadata", "name"});
  for (auto image : {"nginx:1.26", "nginx:1.27"}) {
    set_image(env, image);
    ASSERT_TRUE(eventually([&] {
      auto d = deployment(env);
      return rollout_complete(d) && num(d, {"status", "updatedReplicas"}) == 1 && num(d, {"status", "replicas"}) == 1 &&
             meta::find_condition(d, "Progressing")->reason == "NewReplicaSetAvailable";
    }));
  }
  // Three revisions, history limit 1: the first ReplicaSet was pruned.
  ASSERT_TRUE(eventually([&] { return replicasets(env).size() == 2; }));
  EXPECT_FALSE(env.exists("replicasets.apps", "default", first));
  EXPECT_EQ(meta::annotation(deployment(env), "deployment.kubernetes.io/revision"), "3");
  // Back to 1.26 (what `kubectl rollout undo` does): the revision-2 ReplicaSet becomes revision 4.
  std::string second;
  for (const auto& rs : replicasets(env))
    if (meta::annotation(rs, "deployment.kubernetes.io/revision") == "2") second = str(rs, {"metadata", "name"});
  ASSERT_FALSE(second.empty());
  set_image(env, "nginx:1.26");
  ASSERT_TRUE(eventually([&] {
    auto rs = env.get("replicasets.apps", "default", second);
    return meta::annotation(rs, "deployment.kubernetes.io/revision") == "4" && rollout_complete(deployment(env)) &&
           num(deployment(env), {"status", "updatedReplicas"}) == 1 && num(deployment(env), {"status", "replicas"}) == 1;
  }));
  EXPECT_EQ(meta::annotation(env.get("replicasets.apps", "default", second), "deployment.kubernetes.io/revision-history"), "2");
  EXPECT_EQ(meta::annotation(deployment(env), "deployment.kubernetes.io/revision"), "4");
  EXPECT_EQ(replicasets(env).size(), 2u);
}

TEST(Deployment, PausedDeploymentDoesNotRollUntilResumed) {
  Env env;
  env.create_yaml("deployments.apps", deployment_yaml(2));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "availableReplicas"}) == 2; }));
  env.modify("deployments.apps", "default", "web", [](json::Value& d) { d.as_object()["spec"].as_object()["paused"] = true; });
  set_image(env, "nginx:1.26");
  ASSERT_TRUE(eventually([&] {
    auto p = meta::find_condition(deployment(env), "Progressing");
    return p && p->status == "Unknown" && p->reason == "DeploymentPaused";
  }));
  EXPECT_TRUE(stays([&] { return replicasets(env).size() == 1; }, 200ms));
  env.modify("deployments.apps", "default", "web", [](json::Value& d) { d.as_object()["spec"].as_object()["paused"] = false; });
  ASSERT_TRUE(eventually([&] {
    auto d = deployment(env);
    return replicasets(env).size() == 2 && rollout_complete(d) && num(d, {"status", "updatedReplicas"}) == 2 &&
           num(d, {"status", "replicas"}) == 2;
  }));
}

TEST(Deployment, MinReadySecondsDelaysAvailability) {
  Env env(0ms);
  env.create_yaml("deployments.apps", deployment_yaml(1, "", "  minReadySeconds: 2\n"));
  ASSERT_TRUE(eventually([&] { return num(deployment(env), {"status", "readyReplicas"}) == 1; }));
  auto d = deployment(env);
  EXPECT_EQ(num(d, {"status", "availableReplicas"}), 0);
  EXPECT_EQ(num(d, {"status", "unavailableReplicas"}), 1);
  EXPECT_EQ(meta::find_condition(d, "Available")->status, "False");
  EXPECT_EQ(meta::find_condition(d, "Available")->reason, "MinimumReplicasUnavailable");
  ASSERT_TRUE(eventually([&] { return num(deployment(env), {"status", "availableReplicas"}) == 1; }, 5s));
  EXPECT_TRUE(rollout_complete(deployment(env)));
  EXPECT_EQ(num(replicasets(env)[0], {"spec", "minReadySeconds"}), 2);
}

TEST(Deployment, DeletedPodIsRecreated) {
  Env env;
  env.create_yaml("deployments.apps", deployment_yaml(2));
  ASSERT_TRUE(eventually([&] { return rollout_complete(deployment(env)) && num(deployment(env), {"status", "availableReplicas"}) == 2; }));
  std::string victim = str(env.pods_with("app", "web")[0], {"metadata", "name"});
  env.remove("pods", "default", victim);
  ASSERT_TRUE(eventually([&] {
    auto pods = env.pods_with("app", "web");
    return !env.exists("pods", "default", victim) && pods.size() == 2 &&
           std::all_of(pods.begin(), pods.end(), [](const json::Value& p) { return meta::pod_ready(p); }) &&
           num(deployment(env), {"status", "availableReplicas"}) == 2;
  }));
}

}  // namespace
}  // namespace capstan::simulator::testing
