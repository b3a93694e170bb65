#include "apis/gitops/v1/types.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::gitops::v1 {
namespace {

using namespace std::chrono_literals;

TEST(GitopsTypes, GitRepositoryDefaultsAsFlux) {
  auto s = GitRepository::from_json(json::from_yaml("spec: {url: 'git://127.0.0.1/app', interval: 1m30s}")).spec;
  EXPECT_EQ(s.url, "git://127.0.0.1/app");
  EXPECT_EQ(s.interval, 90s);
  EXPECT_EQ(s.timeout, 60s);
  EXPECT_EQ(s.ref.branch, "");
  EXPECT_EQ(s.effective_ref().branch, "master");
  EXPECT_FALSE(s.suspend);
  EXPECT_EQ(ref_label(s.ref), "master");
}

TEST(GitopsTypes, GitRepositoryRefs) {
  auto s = GitRepository::from_json(
                json::from_yaml("spec: {url: 'file:///r', interval: 1m, timeout: 5s, suspend: true, ref: {tag: v1.2.0}}"))
               .spec;
  EXPECT_EQ(s.effective_ref().branch, "");
  EXPECT_EQ(s.ref.tag, "v1.2.0");
  EXPECT_EQ(ref_label(s.ref), "v1.2.0");
  EXPECT_EQ(s.timeout, 5s);
  EXPECT_TRUE(s.suspend);
  GitRepositoryRef commit{"main", "", std::string(40, 'a'), ""};
  EXPECT_EQ(ref_label(commit), "");
  GitRepositoryRef name{"", "", "", "refs/pull/1/head"};
  EXPECT_EQ(ref_label(name), "refs/pull/1/head");
}

TEST(GitopsTypes, KustomizationDefaultsFollowTheInterval) {
  auto s = Kustomization::from_json(json::from_yaml(R"(
spec:
  sourceRef: {kind: GitRepository, name: app}
  interval: 10m
  prune: true
  path: ./deploy
  targetNamespace: shop
  serviceAccountName: shop-deployer
  dependsOn: [{name: infra}, {name: crds, namespace: flux-system}]
  commonMetadata: {labels: {team: a}, annotations: {owner: b}}
  namePrefix: p-
)")).spec;
  EXPECT_EQ(s.source_ref.kind, "GitRepository");
  EXPECT_EQ(s.source_ref.name, "app");
  EXPECT_EQ(s.source_ref.ns, "");
  EXPECT_EQ(s.interval, 10min);
  EXPECT_EQ(s.effective_retry_interval(), 10min);
  EXPECT_EQ(s.effective_timeout(), 10min);
  EXPECT_TRUE(s.prune);
  EXPECT_EQ(s.path, "./deploy");
  EXPECT_EQ(s.target_namespace, "shop");
  EXPECT_EQ(s.service_account_name, "shop-deployer");
  ASSERT_EQ(s.depends_on.size(), 2u);
  EXPECT_EQ(s.depends_on[1].ns, "flux-system");
  EXPECT_EQ(s.common_metadata.labels.at("team"), "a");
  EXPECT_EQ(s.common_metadata.annotations.at("owner"), "b");
  EXPECT_EQ(s.name_prefix, "p-");
}

TEST(GitopsTypes, AnOverflowingDurationNamesItsField) {
  try {
    Kustomization::from_json(json::from_yaml("spec: {interval: 99999999999999h}"));
    FAIL() << "no error";
  } catch (const codec::DecodeError& e) {
    EXPECT_EQ(std::string(e.what()), R"(spec.interval: time: invalid duration "99999999999999h")");
  }
}

TEST(GitopsTypes, StatusRoundTrips) {
  const auto status = json::from_yaml(R"(
observedGeneration: 3
conditions: [{type: Ready, status: "True", reason: ReconciliationSucceeded, message: "Applied revision: main@sha1:abc",
              lastTransitionTime: "2026-01-02T03:04:05Z", observedGeneration: 3}]
lastAppliedRevision: main@sha1:abc
lastAttemptedRevision: main@sha1:abc
inventory: {entries: [{id: shop_web_apps_Deployment, v: v1}]}
lastHandledReconcileAt: "2026-01-02T03:00:00Z"
)");
  EXPECT_EQ(KustomizationStatus::from_json(status, "status").to_json(), status);
  const auto artifact = json::from_yaml(R"({artifact: {revision: "main@sha1:abc", path: gitrepository/a/b/abc, url: "git://h/r",
                                           message: init, lastUpdateTime: "2026-01-02T03:04:05Z"}})");
  EXPECT_EQ(GitRepositoryStatus::from_json(artifact, "status").to_json(), artifact);
}

}  // namespace
}  // namespace capstan::apis::gitops::v1
