#include "controllers/gitops/health.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::gitops {
namespace {

HealthStatus status_of(const std::string& yaml) { return assess_health(json::from_yaml(yaml)).status; }

TEST(GitopsHealth, DeploymentsAreCurrentWhenUpdatedAvailableAndWithoutOldReplicas) {
  const std::string spec = "kind: Deployment\nmetadata: {generation: 2}\nspec: {replicas: 3}\n";
  EXPECT_EQ(status_of(spec), HealthStatus::kInProgress);  // no status yet
  EXPECT_EQ(status_of(spec + "status: {observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3}"),
            HealthStatus::kInProgress);  // the new generation not seen yet
  EXPECT_EQ(status_of(spec + "status: {observedGeneration: 2, replicas: 4, updatedReplicas: 3, availableReplicas: 3}"),
            HealthStatus::kInProgress);  // an old replica still terminating
  EXPECT_EQ(status_of(spec + "status: {observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 2}"),
            HealthStatus::kInProgress);
  EXPECT_EQ(status_of(spec + "status: {observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 3}"),
            HealthStatus::kCurrent);
  auto stuck = assess_health(json::from_yaml(
      spec + "status: {observedGeneration: 2, conditions: [{type: Progressing, status: 'False', reason: ProgressDeadlineExceeded, "
             "message: 'ReplicaSet web-1 has timed out progressing.'}]}"));
  EXPECT_EQ(stuck.status, HealthStatus::kFailed);
  EXPECT_EQ(stuck.message, "progress deadline exceeded: ReplicaSet web-1 has timed out progressing.");
  EXPECT_EQ(status_of("kind: Deployment\nspec: {replicas: 0}\n"), HealthStatus::kCurrent);
}

TEST(GitopsHealth, StatefulSetsJobsPodsAndClaims) {
  EXPECT_EQ(status_of("kind: StatefulSet\nspec: {replicas: 2}\nstatus: {readyReplicas: 2, currentReplicas: 2, currentRevision: a, updateRevision: b}"),
            HealthStatus::kInProgress);
  EXPECT_EQ(status_of("kind: StatefulSet\nspec: {replicas: 2}\nstatus: {readyReplicas: 2, currentReplicas: 2, currentRevision: b, updateRevision: b}"),
            HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: StatefulSet\nspec: {replicas: 2, updateStrategy: {type: OnDelete}}\n"), HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: Job\nstatus: {active: 1}"), HealthStatus::kInProgress);
  EXPECT_EQ(status_of("kind: Job\nstatus: {conditions: [{type: Complete, status: 'True'}]}"), HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: Job\nstatus: {conditions: [{type: Failed, status: 'True', reason: BackoffLimitExceeded}]}"), HealthStatus::kFailed);
  EXPECT_EQ(status_of("kind: Pod\nstatus: {phase: Running, conditions: [{type: Ready, status: 'False'}]}"), HealthStatus::kInProgress);
  EXPECT_EQ(status_of("kind: Pod\nstatus: {phase: Running, conditions: [{type: Ready, status: 'True'}]}"), HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: PersistentVolumeClaim\nstatus: {phase: Pending}"), HealthStatus::kInProgress);
  EXPECT_EQ(status_of("kind: PersistentVolumeClaim\nstatus: {phase: Bound}"), HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: Service\nspec: {type: LoadBalancer}"), HealthStatus::kInProgress);
  EXPECT_EQ(status_of("kind: Service\nspec: {type: ClusterIP}"), HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: CustomResourceDefinition\nstatus: {conditions: [{type: Established, status: 'True'}]}"), HealthStatus::kCurrent);
}

TEST(GitopsHealth, OtherKindsByTheirConditions) {
  EXPECT_EQ(status_of("kind: ConfigMap\ndata: {a: b}"), HealthStatus::kCurrent);  // nothing to wait for
  auto issuing = assess_health(json::from_yaml(
      "kind: Certificate\nmetadata: {generation: 1}\nstatus: {observedGeneration: 1, conditions: [{type: Ready, status: 'False', reason: "
      "Issuing, message: 'Issuing certificate as Secret does not exist'}]}"));
  EXPECT_EQ(issuing.status, HealthStatus::kInProgress);
  EXPECT_EQ(issuing.message, "Ready=False: Issuing: Issuing certificate as Secret does not exist");
  EXPECT_EQ(status_of("kind: Certificate\nstatus: {conditions: [{type: Ready, status: 'True'}]}"), HealthStatus::kCurrent);
  // Capstan's kinds report Ready: none yet means their controller has not seen them.
  EXPECT_EQ(status_of("apiVersion: certs.capstan.dev/v1\nkind: Certificate\nmetadata: {generation: 1}"), HealthStatus::kInProgress);
  EXPECT_EQ(status_of("apiVersion: example.com/v1\nkind: Widget\nmetadata: {generation: 1}"), HealthStatus::kCurrent);
  EXPECT_EQ(status_of("kind: Kafka\nstatus: {conditions: [{type: Ready, status: 'True'}, {type: Reconciling, status: 'True'}]}"),
            HealthStatus::kInProgress);
  EXPECT_EQ(status_of("kind: Kustomization\nstatus: {conditions: [{type: Stalled, status: 'True', reason: InvalidSpec}]}"), HealthStatus::kFailed);
}

}  // namespace
}  // namespace capstan::gitops
