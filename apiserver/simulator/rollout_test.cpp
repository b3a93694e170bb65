// The pure pieces: rollout arithmetic, template hashing, ordinals, images.
#include "apiserver/simulator/kubelet.h"
#include "apiserver/simulator/objects.h"
#include "apiserver/simulator/rollout.h"
#include "apiserver/simulator/statefulset_controller.h"

#include <gtest/gtest.h>

#include <set>

namespace capstan::simulator {
namespace {

json::Value V(const char* text) { return json::parse(text); }

TEST(DeploymentRolloutMath, FencepostsRoundSurgeUpAndUnavailableDown) {
  auto pct = V(R"("25%")");
  auto f = resolve_fenceposts(&pct, &pct, 10);
  EXPECT_EQ(f.surge, 3);        // 2.5 rounds up
  EXPECT_EQ(f.unavailable, 2);  // 2.5 rounds down
  f = resolve_fenceposts(&pct, &pct, 3);
  EXPECT_EQ(f.surge, 1);
  EXPECT_EQ(f.unavailable, 0);
  auto zero = V("0");
  f = resolve_fenceposts(&zero, &zero, 5);
  EXPECT_EQ(f.surge, 0);
  EXPECT_EQ(f.unavailable, 1) << "both zero would never make progress";
  auto two = V("2");
  f = resolve_fenceposts(&two, &zero, 5);
  EXPECT_EQ(f.surge, 2);
  EXPECT_EQ(f.unavailable, 0);
  auto bad = V(R"("two")");
  EXPECT_THROW(resolve_fenceposts(&bad, &zero, 5), std::invalid_argument);
  auto badpct = V(R"("x%")");
  EXPECT_THROW(scaled_value(&badpct, 5, true), std::invalid_argument);
  auto hundred = V(R"("100%")");
  EXPECT_EQ(scaled_value(&hundred, 7, false), 7);
}

TEST(DeploymentRolloutMath, MaxUnavailableIsCappedAndZeroForRecreate) {
  auto d = V(R"({"spec":{"replicas":2,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":5}}}})");
  EXPECT_EQ(max_unavailable(d), 2);
  EXPECT_EQ(max_surge(d), 0);
  auto r = V(R"({"spec":{"replicas":2,"strategy":{"type":"Recreate"}}})");
  EXPECT_EQ(max_unavailable(r), 0);
  EXPECT_EQ(max_surge(r), 0);
  EXPECT_FALSE(is_rolling_update(r));
}

TEST(DeploymentRolloutMath, NewReplicaSetGrowsWithinSurge) {
  EXPECT_EQ(rolling_new_replicas(10, 3, 10, 0), 3);
  EXPECT_EQ(rolling_new_replicas(10, 3, 13, 3), 3) << "already at desired + surge";
  EXPECT_EQ(rolling_new_replicas(10, 3, 11, 3), 5);
  EXPECT_EQ(rolling_new_replicas(10, 3, 10, 9), 10) << "never past desired";
  EXPECT_EQ(rolling_new_replicas(4, 1, 9, 6), 4) << "a new RS above desired shrinks to it";
}

TEST(DeploymentRolloutMath, OldReplicaSetsShrinkUnhealthyFirstThenDownToMinimumAvailability) {
  // 10 desired, maxUnavailable 2; new RS 3 (0 available), old RS 10 (all available).
  RsState new_rs{"new", 3, 3, 0};
  std::vector<RsState> olds{{"old", 10, 10, 10}};
  auto sizes = rolling_scale_down(olds, new_rs, 10, 2);
  EXPECT_EQ(sizes[0], 8) << "available 10 - minimum 8 = 2 may go";
  // Two old RSs, the older one with unavailable pods: those go first, without costing
  // availability.
  olds = {{"older", 3, 3, 1}, {"old", 7, 7, 7}};
  new_rs = {"new", 3, 3, 3};
  sizes = rolling_scale_down(olds, new_rs, 10, 1);
  EXPECT_EQ(sizes[0], 0);
  EXPECT_EQ(sizes[1], 6);
  // An old RS whose status lags a scale-down (spec 2, still 3 available) counts only 2.
  olds = {{"old", 2, 3, 3}};
  new_rs = {"new", 2, 2, 2};
  sizes = rolling_scale_down(olds, new_rs, 4, 1);
  EXPECT_EQ(sizes[0], 1) << "available min(3,2) + 2 - minimum 3 = 1 may go";
  // Nothing may go while the new RS's pods are unavailable and we are at the minimum.
  olds = {{"old", 8, 8, 8}};
  new_rs = {"new", 3, 3, 0};
  sizes = rolling_scale_down(olds, new_rs, 10, 2);
  EXPECT_EQ(sizes[0], 8);
}

TEST(DeploymentRolloutMath, ProportionalScalingSplitsNewReplicasByShare) {
  // Mid-rollout at 10 replicas (surge 3): new 5, old 8; scaled to 20 (surge 5).
  std::vector<RsState> all{{"new", 5, 5, 0, 10, 13, "2024-01-01T00:00:02Z"}, {"old", 8, 8, 8, 10, 13, "2024-01-01T00:00:01Z"}};
  ASSERT_TRUE(is_scaling_event(all, 20));
  auto sizes = proportional_sizes(all, 0, 20, 5, true, 13);
  EXPECT_EQ(sizes[0] + sizes[1], 25);
  EXPECT_EQ(sizes[0], 10);  // 5 * 25 / 13 = 9.6 -> 10
  EXPECT_EQ(sizes[1], 15);  // 8 * 25 / 13 = 15.4 -> 15
  // A single active RS just takes the size.
  std::vector<RsState> one{{"only", 3, 3, 3, 3, 4, "t"}};
  EXPECT_EQ(proportional_sizes(one, 0, 7, 2, true, 3)[0], 7);
  EXPECT_FALSE(is_scaling_event(one, 3));
}

TEST(DeploymentRolloutMath, PodTemplateHashIgnoresMemberOrderAndUsesTheSafeAlphabet) {
  auto a = V(R"({"metadata":{"labels":{"app":"web","tier":"fe"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}})");
  auto b = V(R"({"spec":{"containers":[{"image":"nginx","name":"c"}]},"metadata":{"labels":{"tier":"fe","app":"web"}}})");
  auto h = pod_template_hash(a, std::nullopt);
  EXPECT_EQ(h, pod_template_hash(b, std::nullopt));
  EXPECT_FALSE(h.empty());
  EXPECT_LE(h.size(), 10u);
  for (char c : h) EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(c), std::string::npos) << h;
  EXPECT_NE(h, pod_template_hash(a, 1)) << "the collision count changes the name";
  auto c = V(R"({"metadata":{"labels":{"app":"web","tier":"fe"}},"spec":{"containers":[{"name":"c","image":"nginx:2"}]}})");
  EXPECT_NE(h, pod_template_hash(c, std::nullopt));
  EXPECT_EQ(safe_encode("0123456789"), "456789bcdf");
}

TEST(StatefulSetNaming, OrdinalsAndRevisionHashes) {
  auto p = parent_and_ordinal("kafka-brokers-12");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, "kafka-brokers");
  EXPECT_EQ(p->second, 12);
  EXPECT_FALSE(parent_and_ordinal("web-abc12"));
  EXPECT_FALSE(parent_and_ordinal("web"));
  auto sts = V(R"({"spec":{"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[]}}}})");
  auto data = revision_data(sts);
  EXPECT_EQ(json::get_string(data, {"spec", "template", "$patch"}), "replace");
  EXPECT_NE(revision_hash(data, 0), revision_hash(data, 1));
}

TEST(WorkloadKubeletImages, NormalizedLikeTheRuntimeReportsThem) {
  EXPECT_EQ(normalize_image("nginx"), "docker.io/library/nginx:latest");
  EXPECT_EQ(normalize_image("nginx:1.25"), "docker.io/library/nginx:1.25");
  EXPECT_EQ(normalize_image("bitnami/kafka:3.7"), "docker.io/bitnami/kafka:3.7");
  EXPECT_EQ(normalize_image("quay.io/strimzi/kafka:0.45.0-kafka-3.9.0"), "quay.io/strimzi/kafka:0.45.0-kafka-3.9.0");
  EXPECT_EQ(normalize_image("localhost:5000/app"), "localhost:5000/app:latest");
  EXPECT_EQ(normalize_image("registry.k8s.io/pause@sha256:abc"), "registry.k8s.io/pause@sha256:abc");
}

TEST(WorkloadKubeletIps, NeverHandsOutAnAddressTwice) {
  IpPool pool;
  std::set<std::string> seen;
  pool.reserve("10.244.0.2");
  for (int i = 0; i < 600; ++i) {
    auto ip = pool.allocate();
    ASSERT_TRUE(ip);
    EXPECT_TRUE(seen.insert(*ip).second) << *ip;
    EXPECT_NE(*ip, "10.244.0.2");
    EXPECT_EQ(ip->rfind("10.244.", 0), 0u);
    EXPECT_NE(ip->substr(ip->rfind('.')), ".0");
    EXPECT_NE(ip->substr(ip->rfind('.')), ".255");
  }
  pool.release("10.244.0.3");
  EXPECT_TRUE(pool.allocate());
}

}  // namespace
}  // namespace capstan::simulator
