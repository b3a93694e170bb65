// The gitops webhooks through AdmissionReviews (the cycle check with a live informer runs in
// e2e/webhooks_test.cpp).
#include "webhooks/gitops/webhooks.h"

#include "webhooks/test_util.h"

namespace capstan::webhooks::gitops {
namespace {

using namespace webhooks::testing;

json::Value repo(const std::string& url) {
  return json::from_yaml("apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: app, namespace: apps}\nspec: {url: '" + url +
                         "', interval: 1m}");
}

TEST(GitOpsWebhooks, UrlSchemesFollowTheOptions) {
  auto h = git_repository_validating_handler(Options{});
  EXPECT_TRUE(allowed(call(h, review("gitops.capstan.dev", "GitRepository", "gitrepositories", "CREATE", repo("https://example.com/a.git")))));
  auto file = call(h, review("gitops.capstan.dev", "GitRepository", "gitrepositories", "CREATE", repo("file:///srv/git/a")));
  EXPECT_FALSE(allowed(file));
  EXPECT_TRUE(message(file).starts_with("spec.url: Invalid value: \"file:///srv/git/a\": supported schemes: http://, https://, git://"))
      << message(file);
  Options with_file;
  with_file.url_schemes = {"https", "file"};
  auto h2 = git_repository_validating_handler(with_file);
  EXPECT_TRUE(allowed(call(h2, review("gitops.capstan.dev", "GitRepository", "gitrepositories", "CREATE", repo("file:///srv/git/a")))));
  EXPECT_FALSE(allowed(call(h2, review("gitops.capstan.dev", "GitRepository", "gitrepositories", "CREATE", repo("git://example.com/a")))));
  auto warned = call(h, review("gitops.capstan.dev", "GitRepository", "gitrepositories", "CREATE", repo("https://u:p@example.com/a.git")));
  EXPECT_TRUE(allowed(warned));
  EXPECT_EQ(json::get_array(warned, {"response", "warnings"})->size(), 1u);
}

TEST(GitOpsWebhooks, KustomizationWithoutCacheStillRefusesSelfAndEscapes) {
  auto h = kustomization_validating_handler(Options{});
  auto k = json::from_yaml(
      "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: a, namespace: apps}\n"
      "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: true, path: ../x, dependsOn: [{name: a}]}");
  auto r = call(h, review("gitops.capstan.dev", "Kustomization", "kustomizations", "CREATE", k));
  EXPECT_FALSE(allowed(r));
  EXPECT_EQ(message(r), "[spec.path: Invalid value: \"../x\": must not climb out of the repository root, spec.dependsOn[0]: Invalid value: "
                        "\"apps/a\": a Kustomization cannot depend on itself]");
  EXPECT_EQ(configurations(webhook::Endpoint{})[0].as_object().at("webhooks").as_array().size(), 2u);
}

}  // namespace
}  // namespace capstan::webhooks::gitops
