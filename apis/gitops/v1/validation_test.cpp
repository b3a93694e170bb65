// Flux's rules for GitRepository and Kustomization as field.Error causes.
#include "apis/gitops/v1/validation.h"

#include "apis/common/sample_test_util.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::gitops::v1 {
namespace {

using Strings = std::vector<std::string>;

using validation::errors;

json::Value repo(const std::string& spec) { return json::from_yaml("metadata: {name: app, namespace: apps}\nspec: " + spec); }
json::Value ks(const std::string& name, const std::string& spec) {
  return json::from_yaml("metadata: {name: " + name + ", namespace: apps}\nspec: " + spec);
}

TEST(GitOpsValidation, TheSamplesAreValid) {
  auto objects = apis::testing::sample_documents("gitops.yaml");
  ASSERT_FALSE(objects.empty());
  for (const auto& o : objects) {
    auto kind = json::get_string(o, {"kind"});
    if (kind != "GitRepository" && kind != "Kustomization") continue;
    auto causes = kind == "GitRepository" ? validate_git_repository(o) : validate_kustomization(o);
    EXPECT_EQ(errors(causes), Strings{}) << kind;
  }
}

TEST(GitRepositoryValidation, SchemesAreConfigured) {
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https://example.com/org/app.git', interval: 1m}"))), Strings{});
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'git://127.0.0.1:9418/app.git', interval: 1s, timeout: 30s}"))), Strings{});
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'file:///srv/git/app', interval: 1m}"))),
            Strings{"spec.url: Invalid value: \"file:///srv/git/app\": supported schemes: http://, https://, git://, ssh:// (file:// reads the "
                    "manager's file system; the manager allows it with --gitops-url-schemes)"});
  ValidationOptions with_file;
  with_file.url_schemes = known_url_schemes();
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'file:///srv/git/app', interval: 1m}"), with_file)), Strings{});
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'file://host/srv', interval: 1m}"), with_file)),
            Strings{"spec.url: Invalid value: \"file://host/srv\": a file:// URL must be file:///<absolute path>"});
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https:///nohost', interval: 1m}"))),
            Strings{"spec.url: Invalid value: \"https:///nohost\": must name a host"});
}

TEST(GitRepositoryValidation, BoundsAndRefsEveryErrorAtOnce) {
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'ftp://git@example.com/app', interval: 0s, timeout: 2h, "
                                                "ref: {branch: 'a..b', tag: 'v1.lock', name: heads/main}}"))),
            (Strings{"spec.url: Invalid value: \"ftp://git@example.com/app\": supported schemes: http://, https://, git://, ssh://",
                     "spec.interval: Invalid value: \"0s\": must be between 1s and 720h0m0s",
                     "spec.timeout: Invalid value: \"2h\": must be between 1s and 1h0m0s",
                     "spec.ref.branch: Invalid value: \"a..b\": not a valid Git reference name: must not contain \"..\"",
                     "spec.ref.tag: Invalid value: \"v1.lock\": not a valid Git reference name: no component may end with .lock",
                     "spec.ref.name: Invalid value: \"heads/main\": must be a full reference name under refs/, e.g. refs/heads/main"}));
  EXPECT_EQ(errors(validate_git_repository(repo("{}"))), (Strings{"spec.url: Required value", "spec.interval: Required value"}));
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https://x/y', interval: 99999999999999h}"))),
            Strings{"spec.interval: Invalid value: \"99999999999999h\": must be a duration such as 1m30s"});
  EXPECT_EQ(git_repository_warnings(repo("{url: 'https://u:secret@example.com/app'}")).size(), 1u);
  EXPECT_TRUE(git_repository_warnings(repo("{url: 'https://u@example.com/app'}")).empty());
}

TEST(GitRepositoryValidation, SemverRanges) {
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https://example.com/app', interval: 1m, ref: {semver: '>=1.0.0 <2.0.0'}}"))),
            Strings{});
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https://example.com/app', interval: 1m, ref: {semver: '>=one'}}"))),
            Strings{"spec.ref.semver: Invalid value: \">=one\": not a semver range: \"one\" in \">=one\" is not a version"});
}

TEST(GitRepositoryValidation, IncludesStayInTheRepositoryAndNeverIncludeThemselves) {
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https://example.com/app', interval: 1m, "
                                                "include: [{repository: {name: shared}, fromPath: manifests, toPath: vendor/shared}]}"))),
            Strings{});
  EXPECT_EQ(errors(validate_git_repository(repo("{url: 'https://example.com/app', interval: 1m, include: ["
                                                "{repository: {name: app}}, {repository: {name: x}, fromPath: ../up, toPath: ./}]}"))),
            (Strings{"spec.include[0].repository.name: Invalid value: \"app\": a GitRepository cannot include itself",
                     "spec.include[1].fromPath: Invalid value: \"../up\": must not climb out of the repository root",
                     "spec.include[1].toPath: Invalid value: \"./\": must name a directory, not the repository root"}));
}

TEST(KustomizationValidation, PathsDurationsAndDependsOn) {
  EXPECT_EQ(errors(validate_kustomization(ks("a", "{sourceRef: {kind: GitRepository, name: app}, interval: 10m, prune: true, path: ./deploy/../base}"))),
            Strings{});
  EXPECT_EQ(errors(validate_kustomization(ks("a", "{sourceRef: {kind: GitRepository, name: app}, interval: 800h, retryInterval: 100ms, "
                                                  "timeout: 0s, prune: true, path: deploy/../../etc, "
                                                  "dependsOn: [{name: a}, {name: b}, {name: b, namespace: apps}]}"))),
            (Strings{"spec.interval: Invalid value: \"800h\": must be between 1s and 720h0m0s",
                     "spec.retryInterval: Invalid value: \"100ms\": must be between 1s and 720h0m0s",
                     "spec.timeout: Invalid value: \"0s\": must be between 1s and 1h0m0s",
                     "spec.path: Invalid value: \"deploy/../../etc\": must not climb out of the repository root",
                     "spec.dependsOn[0]: Invalid value: \"apps/a\": a Kustomization cannot depend on itself",
                     "spec.dependsOn[2]: Duplicate value: \"apps/b\""}));
  EXPECT_EQ(errors(validate_kustomization(ks("a", "{sourceRef: {kind: GitRepository, name: app}, interval: 10m, prune: true, "
                                                  "postBuild: {substitute: {GOOD_1: x, 1bad: y, with-dash: z}}}"))),
            (Strings{"spec.postBuild.substitute[1bad]: Invalid value: \"1bad\": a variable name must match [_a-zA-Z][_a-zA-Z0-9]*",
                     "spec.postBuild.substitute[with-dash]: Invalid value: \"with-dash\": a variable name must match [_a-zA-Z][_a-zA-Z0-9]*"}));
}

TEST(KustomizationValidation, DependsOnCyclesThroughTheStoredObjects) {
  // Stored: b -> c, c -> a (in apps), d and x (other namespace) -> nothing.
  std::map<std::string, std::vector<DependencyReference>> stored = {{"apps/b", {{"c", ""}}}, {"apps/c", {{"a", "apps"}}}, {"apps/d", {}}, {"other/x", {}}};
  int calls = 0;
  DependsOnLookup lookup = [&](const std::string& ns, const std::string& name) -> std::optional<std::vector<DependencyReference>> {
    ++calls;
    auto it = stored.find(ns + "/" + name);
    if (it == stored.end()) return std::nullopt;
    return it->second;
  };
  auto a = ks("a", "{sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: true, dependsOn: [{name: d}, {name: b}]}");
  EXPECT_EQ(errors(validate_kustomization(a, &lookup)),
            Strings{"spec.dependsOn[1]: Invalid value: \"apps/b\": dependency cycle: apps/a -> apps/b -> apps/c -> apps/a"});
  // Without the edge to b there is no cycle; a dependency on a missing object is no error (Flux waits).
  auto ok = ks("a", "{sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: true, dependsOn: [{name: d}, {name: missing}, "
                    "{name: x, namespace: other}]}");
  EXPECT_EQ(errors(validate_kustomization(ok, &lookup)), Strings{});
  // Cross-namespace: d -> other/x, and x -> apps/a.
  stored["apps/d"] = {{"x", "other"}};
  stored["other/x"] = {{"a", "apps"}};
  EXPECT_EQ(errors(validate_kustomization(ok, &lookup)),
            (Strings{"spec.dependsOn[0]: Invalid value: \"apps/d\": dependency cycle: apps/a -> apps/d -> other/x -> apps/a",
                     "spec.dependsOn[2]: Invalid value: \"other/x\": dependency cycle: apps/a -> other/x -> apps/a"}));
}

TEST(KustomizationValidation, TheWalkIsBounded) {
  // An endless chain (every lookup invents a next one) is cut off, not followed.
  int calls = 0;
  DependsOnLookup endless = [&](const std::string&, const std::string&) -> std::optional<std::vector<DependencyReference>> {
    ++calls;
    return std::vector<DependencyReference>{{"k" + std::to_string(calls), ""}};
  };
  auto a = ks("a", "{sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: true, dependsOn: [{name: b}]}");
  auto errs = errors(validate_kustomization(a, &endless));
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_NE(errs[0].find("too large to check for cycles"), std::string::npos) << errs[0];
  EXPECT_LE(calls, static_cast<int>(kMaxDependencyWalk));
}

}  // namespace
}  // namespace capstan::apis::gitops::v1
