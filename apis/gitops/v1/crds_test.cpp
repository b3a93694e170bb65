// The generated CRDs: accepted by our API server's CRD checks, Flux's names and columns, and
// schemas that keep every implemented field and refuse what Flux's refuse.
#include "apis/gitops/v1/crds.h"

#include "apis/common/crd_test_util.h"
#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/schema/schema.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::gitops::v1 {
namespace {

namespace schema = apiserver::schema;
using Strings = std::vector<std::string>;
using testing::column_names;
using testing::crd_version;
const auto& errors = testing::schema_errors;

TEST(GitopsCrds, AcceptedByTheApiServerWithFluxNames) {
  apiserver::builtin::CrdStrategy strategy;
  for (auto crd : crds()) {
    strategy.prepare_create(crd);
    EXPECT_TRUE(strategy.validate(crd, nullptr).empty()) << json::serialize(crd);
    EXPECT_EQ(json::get_string(crd, {"spec", "group"}), "gitops.capstan.dev");
    EXPECT_EQ(json::get_string(crd, {"spec", "scope"}), "Namespaced");
  }
  EXPECT_EQ(json::get_string(git_repository_crd(), {"metadata", "name"}), "gitrepositories.gitops.capstan.dev");
  EXPECT_EQ(json::serialize(*json::find(git_repository_crd(), {"spec", "names", "shortNames"})), R"(["gitrepo"])");
  EXPECT_EQ(json::serialize(*json::find(kustomization_crd(), {"spec", "names", "shortNames"})), R"(["ks"])");
  EXPECT_EQ(column_names(git_repository_crd()), (Strings{"URL", "Age", "Ready", "Status"}));
  EXPECT_EQ(column_names(kustomization_crd()), (Strings{"Age", "Ready", "Status"}));
}

TEST(GitopsCrds, SchemasKeepEveryImplementedField) {
  auto repo = json::from_yaml(R"(
apiVersion: gitops.capstan.dev/v1
kind: GitRepository
metadata: {name: app, namespace: ops}
spec: {url: 'git://127.0.0.1:9418/app', interval: 1m, timeout: 20s, suspend: false,
       ref: {branch: main, tag: v1, commit: 0123456789abcdef0123456789abcdef01234567, name: refs/heads/main}}
)");
  EXPECT_EQ(errors(git_repository_crd(), repo), Strings{});
  auto ks = json::from_yaml(R"(
apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: app, namespace: ops}
spec:
  sourceRef: {kind: GitRepository, name: app, namespace: ops}
  interval: 10m
  retryInterval: 30s
  timeout: 2m
  path: ./deploy
  prune: true
  targetNamespace: shop
  suspend: false
  dependsOn: [{name: infra}]
  commonMetadata: {labels: {a: b}, annotations: {c: d}}
  namePrefix: p-
  nameSuffix: -s
)");
  EXPECT_EQ(errors(kustomization_crd(), ks), Strings{});
}

TEST(GitopsCrds, RequiredMembersAndDurationsAsFlux) {
  auto repo = json::from_yaml("{apiVersion: gitops.capstan.dev/v1, kind: GitRepository, spec: {url: 'ftp://git@x/r', interval: 1d}}");
  auto errs = errors(git_repository_crd(), repo);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_NE(errs[0].find("spec.interval"), std::string::npos) << errs[0];
  EXPECT_NE(errs[1].find("spec.url"), std::string::npos) << errs[1];

  auto ks = json::from_yaml("{apiVersion: gitops.capstan.dev/v1, kind: Kustomization, spec: {sourceRef: {kind: Bucket, name: x}}}");
  errs = errors(kustomization_crd(), ks);
  EXPECT_EQ(errs.size(), 3u) << ::testing::PrintToString(errs);  // interval, prune required; kind not supported
}

}  // namespace
}  // namespace capstan::apis::gitops::v1
