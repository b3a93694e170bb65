#include "apis/gitops/v1/types.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::gitops::v1 {
namespace {

using namespace std::chrono_literals;

TEST(GitopsTypes, GitRepositoryDefaultsAsFlux) {
  auto s = parse_git_repository_spec(json::from_yaml("spec: {url: 'git://127.0.0.1/app', interval: 1m30s}"));
  EXPECT_EQ(s.url, "git://127.0.0.1/app");
  EXPECT_EQ(s.interval, 90s);
  EXPECT_EQ(s.timeout, 60s);
  EXPECT_EQ(s.ref.branch, "master");
  EXPECT_FALSE(s.suspend);
  EXPECT_EQ(ref_label(s.ref), "master");
}

TEST(GitopsTypes, GitRepositoryRefs) {
  auto s = parse_git_repository_spec(
      json::from_yaml("spec: {url: 'file:///r', interval: 1m, timeout: 5s, suspend: true, ref: {tag: v1.2.0}}"));
  EXPECT_EQ(s.ref.branch, "");
  EXPECT_EQ(s.ref.tag, "v1.2.0");
  EXPECT_EQ(ref_label(s.ref), "v1.2.0");
  EXPECT_EQ(s.timeout, 5s);
  EXPECT_TRUE(s.suspend);
  GitRef commit{"main", "", std::string(40, 'a'), ""};
  EXPECT_EQ(ref_label(commit), "");
  GitRef name{"", "", "", "refs/pull/1/head"};
  EXPECT_EQ(ref_label(name), "refs/pull/1/head");
}

TEST(GitopsTypes, KustomizationDefaultsFollowTheInterval) {
  auto s = parse_kustomization_spec(json::from_yaml(R"(
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
)"));
  EXPECT_EQ(s.source_kind, "GitRepository");
  EXPECT_EQ(s.source.name, "app");
  EXPECT_EQ(s.source.ns, "");
  EXPECT_EQ(s.interval, 10min);
  EXPECT_EQ(s.retry_interval, 10min);
  EXPECT_EQ(s.timeout, 10min);
  EXPECT_TRUE(s.prune);
  EXPECT_EQ(s.path, "./deploy");
  EXPECT_EQ(s.target_namespace, "shop");
  EXPECT_EQ(s.service_account_name, "shop-deployer");
  ASSERT_EQ(s.depends_on.size(), 2u);
  EXPECT_EQ(s.depends_on[1].ns, "flux-system");
  EXPECT_EQ(s.common_labels.at("team"), "a");
  EXPECT_EQ(s.common_annotations.at("owner"), "b");
  EXPECT_EQ(s.name_prefix, "p-");
}

TEST(GitopsTypes, AnOverflowingDurationNamesItsField) {
  try {
    parse_kustomization_spec(json::from_yaml("spec: {interval: 99999999999999h}"));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("spec.interval"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace capstan::apis::gitops::v1
