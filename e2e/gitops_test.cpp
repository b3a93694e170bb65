// The gitops controller against real peers: `git daemon` serving a repository, `capstan
// apiserver`, `capstan manager --controllers=gitops` and kubectl. A Flux-style GitRepository and
// Kustomization apply the repository, set back a hand edit, follow a new commit (pruning what
// left Git), report build and fetch errors in their Ready condition, decrypt SOPS-encrypted
// Secrets with an age key, and prune everything when the Kustomization is deleted.
#include "runtime/json/json.h"
#include "runtime/pki/digest.h"
#include "runtime/pki/key.h"
#include "runtime/pki/sign.h"
#include "testing/controller_fixture.h"
#include "testing/git.h"
#include "testing/sops.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

std::string config_map(const std::string& name, const std::string& color) {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  color: " + color + "\n";
}

const char* kDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
)";

std::string sources(const std::string& url, const std::string& branch, const std::string& path) {
  return R"(apiVersion: gitops.capstan.dev/v1
kind: GitRepository
metadata: {name: app, namespace: ops}
spec:
  url: )" + url + R"(
  interval: 1s
  ref: {branch: )" + branch + R"(}
---
apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: app, namespace: ops}
spec:
  sourceRef: {kind: GitRepository, name: app}
  interval: 10m
  path: )" + path + R"(
  prune: true
  targetNamespace: shop
)";
}

// A Kustomization of GitRepository ops/app at `path`, with more spec lines in `extra`.
std::string kustomization(const std::string& name, const std::string& ns, const std::string& path, const std::string& extra = "",
                          const std::string& interval = "10m") {
  return "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: " + name + ", namespace: " + ns +
         "}\nspec:\n  sourceRef: {kind: GitRepository, name: app, namespace: ops}\n  interval: " + interval + "\n  path: " + path +
         "\n" + extra;
}

class GitopsE2E : public ControllerFixture {
 protected:
  GitopsE2E() : ControllerFixture({"gitops", /*simulate_workloads=*/false, "kustomizations,gitrepositories"}) {}
  GitopsE2E(Setup setup, std::string controllers) : ControllerFixture(std::move(setup)), controllers_(std::move(controllers)) {}
  std::vector<std::string> manager_flags() override {
    return {"--controllers=" + controllers_, "--gitops-storage-path=" + dir_->file("mirrors"), "--gitops-storage-addr=127.0.0.1:0",
            "--gitops-default-service-account=capstan-system/capstan-gitops"};
  }
  std::string controllers_ = "gitops";
  void before_cluster() override {
    std::filesystem::create_directories(dir_->file("git"));
    repo_ = std::make_unique<GitRepo>(dir_->file("git"), "app");
    daemon_ = std::make_unique<GitDaemon>(dir_->file("git"));
    daemon_->start();
  }
  void SetUp() override {
    ControllerFixture::SetUp();
    kubectl_->ok({"create", "namespace", "ops"});
  }

  std::string ready(const std::string& kind) { return condition(kind, "app", "ops", "Ready"); }
  std::string ready_message(const std::string& kind) { return condition(kind, "app", "ops", "Ready", "message"); }
  std::string color(const std::string& name) {
    return get({"get", "configmap", name, "-n", "shop", "-o", "jsonpath={.data.color}"});
  }
  bool missing(const std::vector<std::string>& args) {
    auto r = (*kubectl_)(args);
    return r.code != 0 && r.err.find("NotFound") != std::string::npos;
  }

  std::unique_ptr<GitRepo> repo_;
  std::unique_ptr<GitDaemon> daemon_;
};

TEST_P(GitopsE2E, AppliesARepositoryKeepsItAsInGitFollowsCommitsAndPrunes) {
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/config.yaml", config_map("settings", "blue"));
  repo_->write("deploy/extra.yaml", config_map("extra", "grey"));
  repo_->write("deploy/apps/web.yaml", kDeployment);
  repo_->write("README.md", "not a manifest\n");
  std::string first = repo_->commit("first");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "main", "./deploy"));

  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(ready("gitrepository"), "True");
  EXPECT_EQ(get({"get", "gitrepository", "app", "-n", "ops", "-o", "jsonpath={.status.artifact.revision}"}), "main@sha1:" + first);
  EXPECT_EQ(get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.lastAppliedRevision}"}), "main@sha1:" + first);
  EXPECT_EQ(ready_message("kustomization"), "Applied revision: main@sha1:" + first);
  EXPECT_EQ(color("settings"), "blue");
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.spec.template.spec.containers[0].image}"}), "nginx:1.27");
  // Every applied object carries the ownership labels; the inventory lists them (Flux's ids).
  EXPECT_EQ(get({"get", "configmaps,deployments", "-n", "shop", "-l", "gitops.capstan.dev/name=app,gitops.capstan.dev/namespace=ops",
                 "-o", "name"}),
            "configmap/extra\nconfigmap/settings\ndeployment.apps/web\n");
  EXPECT_EQ(get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.inventory.entries[*].id}"}),
            "_shop__Namespace shop_extra__ConfigMap shop_settings__ConfigMap shop_web_apps_Deployment");
  // kubectl shows Flux's columns.
  std::string table = get({"get", "ks,gitrepo", "-n", "ops"});
  EXPECT_NE(table.find("Applied revision: main@sha1:" + first), std::string::npos) << table;
  EXPECT_NE(table.find(daemon_->url("app")), std::string::npos) << table;
  EXPECT_NE(table.find("stored artifact for revision 'main@sha1:" + first + "'"), std::string::npos) << table;

  // A hand edit is set back at the next reconcile (asked for now instead of in 10 minutes).
  kubectl_->ok({"patch", "configmap", "settings", "-n", "shop", "--type=merge", "-p", R"({"data":{"color":"red"}})"});
  EXPECT_EQ(color("settings"), "red");
  kubectl_->ok({"annotate", "--overwrite", "ks", "app", "-n", "ops", "reconcile.gitops.capstan.dev/requestedAt=1"});
  EXPECT_TRUE(eventually([&] { return color("settings") == "blue"; }, 20s)) << color("settings");
  EXPECT_TRUE(eventually([&] { return get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.lastHandledReconcileAt}"}) == "1"; }, 10s));

  // A new commit: a changed value is applied, a removed file's object is pruned.
  repo_->write("deploy/config.yaml", config_map("settings", "green"));
  repo_->remove("deploy/extra.yaml");
  std::string second = repo_->commit("second");
  ASSERT_TRUE(eventually([&] { return color("settings") == "green"; }, 30s)) << ready_message("kustomization");
  EXPECT_TRUE(eventually([&] { return missing({"get", "configmap", "extra", "-n", "shop"}); }, 10s));
  EXPECT_TRUE(eventually([&] { return ready_message("kustomization") == "Applied revision: main@sha1:" + second; }, 10s));
  EXPECT_NE(get({"get", "events", "-n", "ops"}).find("NewArtifact"), std::string::npos);

  // Deleting the Kustomization deletes what it applied (prune: true).
  kubectl_->ok({"delete", "ks", "app", "-n", "ops", "--timeout=30s"});
  EXPECT_TRUE(eventually([&] { return missing({"get", "configmap", "settings", "-n", "shop"}); }, 20s));
  EXPECT_TRUE(eventually([&] { return missing({"get", "deployment", "web", "-n", "shop"}); }, 20s));
}

// kustomize's JSON 6902 patches, images and generators, from the repository's kustomization.yaml
// and from the Kustomization's own spec (applied on top, before its namePrefix).
TEST_P(GitopsE2E, PatchesAndImagesFromTheRepositoryAndTheSpec) {
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/web.yaml", kDeployment);
  repo_->write("deploy/config.yaml", config_map("settings", "blue"));
  repo_->write("deploy/replicas.yaml", "- {op: replace, path: /spec/replicas, value: 3}\n"
                                      "- {op: add, path: /spec/template/spec/containers/0/envFrom, value: [{configMapRef: {name: web-env}}]}\n");
  const auto kustomization = [](const std::string& mode) {
    return R"(resources: [namespace.yaml, web.yaml, config.yaml]
namespace: shop
patches:
- path: replicas.yaml
  target: {group: apps, kind: Deployment, name: web}
images:
- {name: nginx, newTag: "1.28"}
configMapGenerator:
- name: web-env
  literals: [MODE=)" + mode + "]\n";
  };
  repo_->write("deploy/kustomization.yaml", kustomization("blue"));
  repo_->commit("patched");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "main", "./deploy") + R"(  patches:
  - patch: '[{"op": "replace", "path": "/data/color", "value": "teal"}]'
    target: {kind: ConfigMap, name: settings}
  images:
  - {name: nginx, newName: mirror.example/nginx}
)");
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}"}),
            "3 mirror.example/nginx:1.28");
  EXPECT_EQ(color("settings"), "teal");
  // The generated ConfigMap has kustomize's hash suffix, and the Deployment refers to it by it.
  const auto env_config_map = [&] { return get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.spec.template.spec.containers[0].envFrom[0].configMapRef.name}"}); };
  const std::string blue = env_config_map();
  EXPECT_TRUE(std::regex_match(blue, std::regex("web-env-[a-z0-9]{10}"))) << blue;
  EXPECT_EQ(get({"get", "configmap", blue, "-n", "shop", "-o", "jsonpath={.data.MODE}"}), "blue");
  // A changed literal is a new ConfigMap (which rolls the Deployment), and the old one is pruned.
  repo_->write("deploy/kustomization.yaml", kustomization("green"));
  repo_->commit("green");
  ASSERT_TRUE(eventually([&] { return env_config_map() != blue; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(get({"get", "configmap", env_config_map(), "-n", "shop", "-o", "jsonpath={.data.MODE}"}), "green");
  EXPECT_TRUE(eventually([&] { return (*kubectl_)({"get", "configmap", blue, "-n", "shop"}).code != 0; }, 30s));

  // A strategic-merge patch in the spec, and then one that is neither kind of patch: refused with
  // the entry named, and nothing half-applied.
  kubectl_->ok({"patch", "ks", "app", "-n", "ops", "--type=merge", "-p",
                R"({"spec":{"patches":[{"patch":"kind: ConfigMap\nmetadata: {name: settings}\ndata: {color: red}","target":{"kind":"ConfigMap","name":"settings"}}]}})"});
  EXPECT_TRUE(eventually([&] { return color("settings") == "red"; }, 30s)) << ready_message("kustomization");
  kubectl_->ok({"patch", "ks", "app", "-n", "ops", "--type=merge", "-p", R"({"spec":{"patches":[{"patch":"just words","target":{"kind":"ConfigMap"}}]}})"});
  EXPECT_TRUE(eventually([&] { return ready("kustomization") == "False"; }, 30s));
  EXPECT_NE(ready_message("kustomization").find("the Kustomization's spec: patches[0]: neither a JSON 6902 patch"), std::string::npos)
      << ready_message("kustomization");
  EXPECT_EQ(color("settings"), "red");
}

// Health checks (Flux's wait and healthChecks, kstatus): pods of workloads turn Ready (the workload
// simulator), and Capstan's Certificates are issued by the certificates controller beside.
class GitopsHealthE2E : public GitopsE2E {
 protected:
  GitopsHealthE2E() : GitopsE2E({"gitops-health", /*simulate_workloads=*/true, "kustomizations,deployments,certificates"}, "gitops,certificates") {}
};

TEST_P(GitopsHealthE2E, ReadyWaitsForTheHealthOfWhatWasAppliedAndNamesWhatFailed) {
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  // Post-build variables: from a ConfigMap of the Kustomization's namespace and the spec.
  std::string web = kDeployment;
  web.replace(web.find("replicas: 1"), 11, "replicas: ${REPLICAS}");
  web.replace(web.find("image: nginx:1.27"), 17, "image: nginx:${TAG:=1.27}\n        env:\n        - {name: PORT, value: \"${PORT}\"}");
  repo_->write("deploy/web.yaml", web);
  kubectl_->ok({"create", "configmap", "vars", "-n", "ops", "--from-literal=REPLICAS=2", "--from-literal=PORT=8080"});
  repo_->write("deploy/tls.yaml", R"(apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: selfsigned, namespace: shop}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web-tls, namespace: shop}
spec: {secretName: web-tls, dnsNames: [web.shop.example], issuerRef: {name: selfsigned}}
)");
  repo_->commit("a Deployment and its certificate");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "main", "./deploy") + R"(  wait: true
  timeout: 2m
  postBuild:
    substitute: {PORT: "9090"}
    substituteFrom:
    - {kind: ConfigMap, name: vars}
    - {kind: Secret, name: not-there, optional: true}
)");
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 90s)) << ready_message("kustomization");
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "shop", "-o",
                 "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].env[0].value}"}),
            "2 nginx:1.27 9090");
  EXPECT_EQ(condition("ks", "app", "ops", "Healthy"), "True");
  EXPECT_NE(condition("ks", "app", "ops", "Healthy", "message").find("Health check passed in "), std::string::npos);
  // Ready only once they were: the Deployment is available and the Certificate issued.
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.status.availableReplicas}"}), "2");
  EXPECT_EQ(condition("certificate", "web-tls", "shop", "Ready"), "True");
  EXPECT_EQ(get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.lastAppliedRevision}"}).rfind("main@sha1:", 0), 0u);

  // A Certificate whose issuer does not exist never becomes Ready: after timeout the
  // Kustomization fails, naming it, and is not Ready; lastAppliedRevision stays the healthy one.
  const std::string healthy = get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.lastAppliedRevision}"});
  repo_->write("deploy/broken.yaml", R"(apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: orphan, namespace: shop}
spec: {secretName: orphan, dnsNames: [orphan.shop.example], issuerRef: {name: missing}}
)");
  repo_->commit("a certificate nobody issues");
  kubectl_->ok({"patch", "ks", "app", "-n", "ops", "--type=merge", "-p", R"({"spec":{"timeout":"5s","retryInterval":"1m"}})"});
  ASSERT_TRUE(eventually([&] { return condition("ks", "app", "ops", "Ready", "reason") == "HealthCheckFailed"; }, 60s))
      << ready_message("kustomization");
  EXPECT_EQ(ready("kustomization"), "False");
  EXPECT_EQ(condition("ks", "app", "ops", "Healthy"), "False");
  EXPECT_NE(ready_message("kustomization").find("timeout waiting for: Certificate/shop/orphan status: 'InProgress'"), std::string::npos)
      << ready_message("kustomization");
  EXPECT_EQ(ready_message("kustomization").find("Deployment/shop/web"), std::string::npos) << ready_message("kustomization");
  EXPECT_EQ(get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.lastAppliedRevision}"}), healthy);
}

CAPSTAN_E2E_BACKENDS(GitopsHealthE2E);

// A change the API server refuses as immutable fails the apply, naming the field; with force the
// object is deleted and created again (Flux's spec.force).
TEST_P(GitopsE2E, ForceRecreatesWhatCannotChange) {
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/web.yaml", kDeployment);
  repo_->commit("web");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "main", "./deploy"));
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  const std::string uid = get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.metadata.uid}"});

  std::string moved = kDeployment;
  for (auto at = moved.find("app: web"); at != std::string::npos; at = moved.find("app: web", at + 1)) moved.replace(at, 8, "app: www");
  repo_->write("deploy/web.yaml", moved);
  repo_->commit("a new selector");
  ASSERT_TRUE(eventually([&] { return condition("ks", "app", "ops", "Ready", "reason") == "ReconciliationFailed"; }, 30s))
      << ready_message("kustomization");
  EXPECT_NE(ready_message("kustomization").find("Deployment/shop/web"), std::string::npos) << ready_message("kustomization");
  EXPECT_NE(ready_message("kustomization").find("field is immutable"), std::string::npos) << ready_message("kustomization");
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.metadata.uid}"}), uid);

  kubectl_->ok({"patch", "ks", "app", "-n", "ops", "--type=merge", "-p", R"({"spec":{"force":true}})"});
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_NE(get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.metadata.uid}"}), uid);
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "shop", "-o", "jsonpath={.spec.selector.matchLabels.app}"}), "www");
}

TEST_P(GitopsE2E, FetchAndBuildErrorsAreReportedAndRecoverable) {
  repo_->write("deploy/bad.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n");
  repo_->commit("broken");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "release", "deploy"));

  // The branch does not exist: the GitRepository says so.
  ASSERT_TRUE(eventually([&] { return ready("gitrepository") == "False"; }, 20s));
  EXPECT_NE(ready_message("gitrepository").find("release"), std::string::npos) << ready_message("gitrepository");
  EXPECT_EQ(condition("gitrepository", "app", "ops", "Ready", "reason"), "GitOperationFailed");
  EXPECT_TRUE(eventually([&] { return ready("kustomization") == "False"; }, 20s));
  EXPECT_NE(ready_message("kustomization").find("has no artifact"), std::string::npos) << ready_message("kustomization");

  // Following main: the revision is fetched, the bad manifest fails the build, naming the file.
  kubectl_->ok({"patch", "gitrepository", "app", "-n", "ops", "--type=merge", "-p", R"({"spec":{"ref":{"branch":"main"}}})"});
  ASSERT_TRUE(eventually([&] { return ready("gitrepository") == "True"; }, 20s)) << ready_message("gitrepository");
  ASSERT_TRUE(eventually([&] { return ready_message("kustomization").find("deploy/bad.yaml") != std::string::npos; }, 20s))
      << ready_message("kustomization");
  EXPECT_EQ(condition("ks", "app", "ops", "Ready", "reason"), "BuildFailed");

  // Fixed in Git: applied.
  repo_->write("deploy/bad.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n" + config_map("fixed", "ok"));
  std::string fixed = repo_->commit("fixed");
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(color("fixed"), "ok");
  EXPECT_EQ(get({"get", "ks", "app", "-n", "ops", "-o", "jsonpath={.status.lastAppliedRevision}"}), "main@sha1:" + fixed);

  // A Kustomization depending on a missing one waits (DependencyNotReady), then applies once
  // its dependency is Ready.
  repo_->write("extra/after.yaml", config_map("after", "late"));
  repo_->commit("extra");
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: after, namespace: ops}
spec:
  sourceRef: {kind: GitRepository, name: app}
  interval: 10m
  path: extra
  prune: false
  targetNamespace: shop
  dependsOn: [{name: app}, {name: later}]
)");
  auto after_reason = [&] { return condition("ks", "after", "ops", "Ready", "reason"); };
  ASSERT_TRUE(eventually([&] { return after_reason() == "DependencyNotReady"; }, 20s)) << after_reason();
  kubectl_->ok({"patch", "ks", "after", "-n", "ops", "--type=json", "-p", R"([{"op":"remove","path":"/spec/dependsOn/1"}])"});
  EXPECT_TRUE(eventually([&] { return color("after") == "late"; }, 30s)) << after_reason();

  // A file:// source, which --gitops-url-schemes does not allow, is refused by the controller
  // itself (no webhook sees this cluster, as none sees the manager's own namespace).
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: gitops.capstan.dev/v1
kind: GitRepository
metadata: {name: local, namespace: ops}
spec: {url: "file:///etc", interval: 1m}
)");
  ASSERT_TRUE(eventually([&] { return condition("gitrepository", "local", "ops", "Ready", "reason") == "InvalidSpec"; }, 20s));
  EXPECT_NE(condition("gitrepository", "local", "ops", "Ready", "message").find("spec.url"), std::string::npos)
      << condition("gitrepository", "local", "ops", "Ready", "message");
  EXPECT_EQ(condition("gitrepository", "local", "ops", "Stalled"), "True");
}

// SOPS with age, as Flux users encrypt Secrets: a Secret encrypted whole (only data and
// stringData, as Flux's guide has it) and a secretGenerator env file encrypted by the real
// `sops`, decrypted with the *.agekey entry of the decryption Secret. A commit encrypted for
// another key fails the build, naming the object and the recipients, and leaves what was applied.
TEST_P(GitopsE2E, SopsEncryptedSecretsAreAppliedDecryptedWithTheAgeKeyOfTheDecryptionSecret) {
  AgeKey key = age_keygen(*dir_);
  const std::vector<std::string> data_only = {"--encrypted-regex", "^(data|stringData)$"};
  auto db_secret = [](const std::string& password) {
    return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\nstringData:\n  password: " + password + "\n";
  };
  repo_->write("deploy/kustomization.yaml", R"(resources: [namespace.yaml, db.yaml]
secretGenerator:
- name: api
  envs: [api.env]
generatorOptions: {disableNameSuffixHash: true}
)");
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  std::string sealed = sops_encrypt(*dir_, {key.recipient}, "db.yaml", db_secret("hunter2"), data_only);
  ASSERT_EQ(sealed.find("hunter2"), std::string::npos) << sealed;
  repo_->write("deploy/db.yaml", sealed);
  repo_->write("deploy/api.env", sops_encrypt(*dir_, {key.recipient}, "api.env", "TOKEN=t0ken\nMODE=live\n"));
  repo_->commit("encrypted");
  kubectl_->ok({"create", "secret", "generic", "sops-age", "-n", "ops", "--from-literal=age.agekey=" + key.identity});
  kubectl_->ok({"apply", "-f", "-"},
               sources(daemon_->url("app"), "main", "deploy") + "  decryption: {provider: sops, secretRef: {name: sops-age}}\n");

  auto secret_value = [&](const std::string& name, const std::string& key_name) {
    std::string b64 = get({"get", "secret", name, "-n", "shop", "-o", "jsonpath={.data." + key_name + "}"});
    return run({"base64", "-d"}, {}, b64).out;
  };
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(secret_value("db", "password"), "hunter2");
  EXPECT_EQ(secret_value("api", "TOKEN"), "t0ken");
  EXPECT_EQ(secret_value("api", "MODE"), "live");
  // What reaches the cluster carries no SOPS metadata.
  EXPECT_EQ(get({"get", "secret", "db", "-n", "shop", "-o", "jsonpath={.metadata.annotations}"}).find("sops"), std::string::npos);

  // Encrypted for a key the decryption Secret does not hold: BuildFailed, naming the object and
  // the file's recipient; the applied Secret keeps its value and no secret reaches the message.
  AgeKey stranger = age_keygen(*dir_);
  repo_->write("deploy/db.yaml", sops_encrypt(*dir_, {stranger.recipient}, "db.yaml", db_secret("rotated"), data_only));
  repo_->commit("another key");
  ASSERT_TRUE(eventually([&] { return condition("ks", "app", "ops", "Ready", "reason") == "BuildFailed"; }, 30s))
      << ready_message("kustomization");
  std::string message = ready_message("kustomization");
  EXPECT_NE(message.find("Secret/db: "), std::string::npos) << message;
  EXPECT_NE(message.find(stranger.recipient), std::string::npos) << message;
  EXPECT_EQ(message.find("rotated"), std::string::npos) << message;
  EXPECT_EQ(secret_value("db", "password"), "hunter2");

  // The key added to the decryption Secret: the new value is applied.
  kubectl_->ok({"delete", "secret", "sops-age", "-n", "ops"});
  kubectl_->ok({"create", "secret", "generic", "sops-age", "-n", "ops", "--from-literal=age.agekey=" + key.identity,
                "--from-literal=stranger.agekey=" + stranger.identity});
  kubectl_->ok({"annotate", "--overwrite", "ks", "app", "-n", "ops", "reconcile.gitops.capstan.dev/requestedAt=2"});
  EXPECT_TRUE(eventually([&] { return secret_value("db", "password") == "rotated"; }, 30s)) << ready_message("kustomization");
  EXPECT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 10s)) << ready_message("kustomization");
}

// A Kustomization reads its path and what that refers to, nothing else: a 5 MB file elsewhere in
// the repository (over the 4 MB a file may have) is never read, while a path holding it fails
// naming the file, and the other Kustomization keeps syncing.
TEST_P(GitopsE2E, OnlyThePathAndWhatItRefersToAreReadAndCountedAgainstTheLimits) {
  repo_->write("deploy/kustomization.yaml", "resources: [namespace.yaml, ../base]\n");
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("base/kustomization.yaml", "resources: [config.yaml]\n");
  repo_->write("base/config.yaml", config_map("settings", "from-base"));
  repo_->write("data/huge.yaml", "# " + std::string(5 << 20, 'x') + "\n");
  repo_->commit("a huge file beside");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "main", "deploy") + "---\n" + kustomization("data", "ops", "data", "  prune: false\n"));
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(color("settings"), "from-base");  // the base outside the path was read
  ASSERT_TRUE(eventually([&] { return condition("ks", "data", "ops", "Ready", "reason") == "BuildFailed"; }, 30s))
      << condition("ks", "data", "ops", "Ready", "message");
  EXPECT_NE(condition("ks", "data", "ops", "Ready", "message").find("data/huge.yaml: 5242883 bytes, over the max_file_bytes limit"),
            std::string::npos)
      << condition("ks", "data", "ops", "Ready", "message");
  EXPECT_EQ(ready("kustomization"), "True");
}

// spec.include, as Flux's: another repository's artifact copied into this one's (fromPath to
// toPath), its commits followed; the artifact's digest changes with what the Kustomizations read
// (a new ignore pattern), and so does what they apply.
TEST_P(GitopsE2E, IncludedRepositoriesAreCopiedInFollowedAndDigested) {
  GitRepo shared(dir_->file("git"), "shared");
  shared.write("manifests/common.yaml", config_map("common", "v1"));
  shared.write("README.md", "not copied: outside fromPath\n");
  shared.commit("shared v1");
  repo_->write("deploy/kustomization.yaml", "resources: [namespace.yaml, ../vendor/common/common.yaml]\n");
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("vendor/common/common.yaml", config_map("common", "replaced by the include"));
  repo_->commit("app");
  std::string manifests = sources(daemon_->url("app"), "main", "deploy");
  manifests.replace(manifests.find("  interval: 1s"), 0,
                    "  include:\n  - repository: {name: shared}\n    fromPath: manifests\n    toPath: vendor/common\n");
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: shared, namespace: ops}\n"
                                     "spec:\n  url: " + daemon_->url("shared") + "\n  interval: 1s\n  ref: {branch: main}\n---\n" + manifests);
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization") << ready_message("gitrepository");
  EXPECT_EQ(color("common"), "v1");  // the include's file, not the one the repository had at toPath
  auto status = [&](const std::string& path) { return get({"get", "gitrepository", "app", "-n", "ops", "-o", "jsonpath=" + path}); };
  EXPECT_EQ(status("{.status.includedArtifacts[0].revision}").rfind("main@sha1:", 0), 0u);
  const std::string digest = status("{.status.artifact.digest}");
  EXPECT_EQ(digest.rfind("sha256:", 0), 0u) << digest;
  EXPECT_EQ(digest.size(), 7u + 64u);
  // The tarball the status names: served by the manager, its SHA-256 the digest, holding the
  // repository's files with the include's at toPath.
  const std::string url = status("{.status.artifact.url}");
  ASSERT_EQ(url.rfind("http://127.0.0.1:", 0), 0u) << url;
  EXPECT_NE(url.find("/gitrepository/ops/app/"), std::string::npos) << url;
  const std::string tarball = dir_->file("artifact.tar.gz");
  auto curl = run({"curl", "-sSf", "-o", tarball, url});
  ASSERT_EQ(curl.code, 0) << curl.err;
  EXPECT_EQ("sha256:" + pki::sha256_hex(read_file(tarball)), digest);
  EXPECT_EQ(std::to_string(read_file(tarball).size()), status("{.status.artifact.size}"));
  auto listed = run({"tar", "-tzf", tarball});
  ASSERT_EQ(listed.code, 0) << listed.err;
  EXPECT_EQ(listed.out, "deploy/kustomization.yaml\ndeploy/namespace.yaml\nvendor/common/common.yaml\n");
  auto extracted = run({"tar", "-xzOf", tarball, "vendor/common/common.yaml"});
  EXPECT_EQ(extracted.out, config_map("common", "v1"));

  // A commit to the included repository reaches the cluster through the including one.
  shared.write("manifests/common.yaml", config_map("common", "v2"));
  shared.commit("shared v2");
  ASSERT_TRUE(eventually([&] { return color("common") == "v2"; }, 30s)) << ready_message("kustomization") << ready_message("gitrepository");
  EXPECT_NE(status("{.status.artifact.digest}"), digest);
  // Only the current artifact is served.
  auto stale = run({"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url});
  EXPECT_EQ(stale.out, "404");

  // An include whose repository is missing: IncludeUnavailable, naming it.
  kubectl_->ok({"delete", "gitrepository", "shared", "-n", "ops"});
  kubectl_->ok({"annotate", "--overwrite", "gitrepository", "app", "-n", "ops", "reconcile.gitops.capstan.dev/requestedAt=1"});
  ASSERT_TRUE(eventually([&] { return condition("gitrepository", "app", "ops", "Ready", "reason") == "IncludeUnavailable"; }, 30s))
      << ready_message("gitrepository");
  EXPECT_NE(ready_message("gitrepository").find("ops/shared"), std::string::npos) << ready_message("gitrepository");
}

CAPSTAN_E2E_BACKENDS(GitopsE2E);

// A private repository over SSH (Flux's secretRef with identity and known_hosts): a real sshd on
// loopback serves the test's bare repository to the key in the Secret; a host key that is not in
// known_hosts is refused, and so is SSH without known_hosts.
class GitopsSshE2E : public GitopsE2E {
 protected:
  using GitopsE2E::GitopsE2E;
  void before_cluster() override {
    GitopsE2E::before_cluster();
    if (!SshServer::available()) throw std::runtime_error("/usr/sbin/sshd is missing (scripts/deps.sh installs openssh-server)");
    sshd_ = std::make_unique<SshServer>(dir_->file("sshd"));
    sshd_->start();
  }
  void TearDown() override {
    GitopsE2E::TearDown();
    sshd_.reset();
  }
  std::string secret(const std::string& name, const std::string& known_hosts) {
    return "apiVersion: v1\nkind: Secret\nmetadata: {name: " + name + ", namespace: ops}\nstringData:\n  identity: " +
           json::serialize(json::Value(sshd_->client_key())) + "\n  known_hosts: " + json::serialize(json::Value(known_hosts)) + "\n";
  }
  std::unique_ptr<SshServer> sshd_;
};

TEST_P(GitopsSshE2E, APrivateRepositoryOverSshWithItsHostKeyChecked) {
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/config.yaml", config_map("settings", "over-ssh"));
  repo_->commit("over ssh");
  kubectl_->ok({"apply", "-f", "-"}, secret("git-ssh", sshd_->known_hosts()));
  std::string manifests = sources(sshd_->url(dir_->file("git") + "/app.git"), "main", "./deploy");
  manifests.replace(manifests.find("  interval: 1s"), 0, "  secretRef: {name: git-ssh}\n");
  kubectl_->ok({"apply", "-f", "-"}, manifests);
  ASSERT_TRUE(eventually([&] { return ready("gitrepository") == "True"; }, 30s)) << ready_message("gitrepository");
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(color("settings"), "over-ssh");

  // known_hosts with another key for this host: the server is refused, naming why.
  auto other = run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir_->file("other_key")});
  ASSERT_EQ(other.code, 0) << other.err;
  std::string other_pub = read_file(dir_->file("other_key.pub"));
  other_pub = other_pub.substr(0, other_pub.rfind(' '));
  kubectl_->ok({"apply", "-f", "-"}, secret("git-ssh", "[127.0.0.1]:" + std::to_string(sshd_->port()) + " " + other_pub + "\n"));
  ASSERT_TRUE(eventually([&] { return ready("gitrepository") == "False"; }, 30s)) << ready_message("gitrepository");
  EXPECT_NE(ready_message("gitrepository").find("unknown host key"), std::string::npos) << ready_message("gitrepository");
  EXPECT_EQ(ready_message("gitrepository").find("PRIVATE KEY"), std::string::npos);

  // No secretRef at all: SSH without known_hosts is refused too.
  kubectl_->ok({"patch", "gitrepository", "app", "-n", "ops", "--type=json", "-p", R"([{"op":"remove","path":"/spec/secretRef"}])"});
  ASSERT_TRUE(eventually([&] { return ready_message("gitrepository").find("no known_hosts") != std::string::npos; }, 30s))
      << ready_message("gitrepository");

  // A secretRef that does not exist: AuthenticationFailed, naming it.
  kubectl_->ok({"patch", "gitrepository", "app", "-n", "ops", "--type=merge", "-p", R"({"spec":{"secretRef":{"name":"missing"}}})"});
  ASSERT_TRUE(eventually([&] { return condition("gitrepository", "app", "ops", "Ready", "reason") == "AuthenticationFailed"; }, 30s))
      << ready_message("gitrepository");
  EXPECT_NE(ready_message("gitrepository").find("secretRef ops/missing: not found"), std::string::npos) << ready_message("gitrepository");
}

CAPSTAN_E2E_BACKENDS(GitopsSshE2E);

// Everything together, as a team runs it: a private repository over SSH holding a kustomization
// with patches, images and a generator, applied as the team's ServiceAccount that may write only
// its own namespace, after a platform Kustomization it depends on; Ready once the Deployment is
// available and the Capstan Certificate issued; an object outside the namespace fails the
// Kustomization naming it, with nothing of that revision applied; a commit removing an object
// prunes it; and idle intervals send nothing.
class GitopsScenarioE2E : public GitopsSshE2E {
 protected:
  GitopsScenarioE2E()
      : GitopsSshE2E({"gitops-scenario", /*simulate_workloads=*/true, "kustomizations,gitrepositories,deployments,certificates,configmaps"},
                     "gitops,certificates") {}
};

const char* kTeamKustomization = R"(resources: [web.yaml, tls.yaml, extra.yaml]
images:
- {name: nginx, newTag: "1.27.1"}
patches:
- target: {kind: Deployment, name: web}
  patch: |
    - {op: replace, path: /spec/replicas, value: 2}
configMapGenerator:
- name: web-config
  literals: [color=blue]
)";

TEST_P(GitopsScenarioE2E, ATeamsPrivateRepositoryAppliedAsItsAccountAfterThePlatformWithHealthPruneAndNothingHalfApplied) {
  std::string web = kDeployment;
  web.replace(web.find("        image: nginx:1.27\n"), std::string("        image: nginx:1.27\n").size(),
              "        image: nginx:1.27\n        envFrom:\n        - configMapRef: {name: web-config}\n");
  repo_->write("platform/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: platform, namespace: team}\ndata: {tier: gold}\n");
  repo_->write("team/kustomization.yaml", kTeamKustomization);
  repo_->write("team/web.yaml", web);
  repo_->write("team/tls.yaml", R"(apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: selfsigned}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web-tls}
spec: {secretName: web-tls, dnsNames: [web.team.example], issuerRef: {name: selfsigned}}
)");
  repo_->write("team/extra.yaml", config_map("extra", "grey"));
  repo_->write(".sourceignore", "drafts/\n");
  repo_->write("team/drafts/escape.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: draft, namespace: default}\n");
  repo_->commit("team app");

  // The team's namespace and account: everything in "team", nothing elsewhere.
  kubectl_->ok({"create", "namespace", "team"});
  kubectl_->ok({"create", "serviceaccount", "deployer", "-n", "team"});
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: everything, namespace: team}
rules: [{apiGroups: ["*"], resources: ["*"], verbs: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: deployer, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: everything}
subjects: [{kind: ServiceAccount, name: deployer, namespace: team}]
)");
  kubectl_->ok({"apply", "-f", "-"}, secret("git-ssh", sshd_->known_hosts()));
  const std::string url = sshd_->url(dir_->file("git") + "/app.git");
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: gitops.capstan.dev/v1
kind: GitRepository
metadata: {name: app, namespace: ops}
spec:
  url: )" + url + R"(
  secretRef: {name: git-ssh}
  interval: 1s
  ref: {branch: main}
---
)" + kustomization("platform", "ops", "platform", "  prune: true\n  suspend: true\n") + "---\n" +
                                         kustomization("team", "team", "team", R"(  serviceAccountName: deployer
  dependsOn: [{name: platform, namespace: ops}]
  prune: true
  wait: true
  timeout: 2m
)", "2s"));
  auto team = [&](const std::string& field) { return condition("ks", "team", "team", "Ready", field); };
  // The team waits for the platform, suspended so far.
  ASSERT_TRUE(eventually([&] { return team("reason") == "DependencyNotReady"; }, 30s)) << team("message");
  EXPECT_TRUE(missing({"get", "deployment", "web", "-n", "team"}));
  kubectl_->ok({"patch", "ks", "platform", "-n", "ops", "--type=merge", "-p", R"({"spec":{"suspend":false}})"});
  ASSERT_TRUE(eventually([&] { return condition("ks", "platform", "ops", "Ready") == "True"; }, 30s))
      << condition("ks", "platform", "ops", "Ready", "message");

  // Applied as deployer, Ready once the Deployment is available and the Certificate issued.
  ASSERT_TRUE(eventually([&] { return team("status") == "True"; }, 90s)) << team("message");
  EXPECT_EQ(condition("ks", "team", "team", "Healthy"), "True");
  EXPECT_EQ(condition("certificate", "web-tls", "team", "Ready"), "True");
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "team", "-o",
                 "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.status.availableReplicas}"}),
            "2 nginx:1.27.1 2");
  const std::string first_config = get({"get", "deployment", "web", "-n", "team", "-o",
                                        "jsonpath={.spec.template.spec.containers[0].envFrom[0].configMapRef.name}"});
  ASSERT_EQ(first_config.rfind("web-config-", 0), 0u) << first_config;  // the generator's hash suffix reached it
  EXPECT_EQ(get({"get", "configmap", first_config, "-n", "team", "-o", "jsonpath={.data.color}"}), "blue");
  EXPECT_EQ(get({"get", "configmap", "extra", "-n", "team", "-o", "jsonpath={.data.color}"}), "grey");
  EXPECT_TRUE(missing({"get", "configmap", "draft", "-n", "default"}));  // .sourceignore left drafts/ out

  // Idle intervals: reconciles go on, and not one object is sent again.
  const double applies = manager_->metric("capstan_gitops_apply_requests_total");
  const double reconciles = manager_->metric("controller_runtime_reconcile_total", "controller=\"kustomizations\"");
  ASSERT_TRUE(eventually([&] { return manager_->metric("controller_runtime_reconcile_total", "controller=\"kustomizations\"") >= reconciles + 3; }, 30s));
  EXPECT_EQ(manager_->metric("capstan_gitops_apply_requests_total"), applies);
  EXPECT_GT(manager_->metric("capstan_gitops_apply_unchanged_total"), 0);
  // A hand edit is still noticed (its resourceVersion moved) and set back.
  kubectl_->ok({"patch", "configmap", "extra", "-n", "team", "--type=merge", "-p", R"({"data":{"color":"red"}})"});
  EXPECT_TRUE(eventually([&] { return get({"get", "configmap", "extra", "-n", "team", "-o", "jsonpath={.data.color}"}) == "grey"; }, 30s));

  // A commit with an object outside the namespace, and a changed literal: refused as deployer,
  // naming the object; nothing of it applied (the Deployment still uses the first ConfigMap).
  repo_->write("team/escape.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: escape, namespace: default}\n");
  std::string with_escape = kTeamKustomization;
  with_escape.replace(with_escape.find("extra.yaml]"), 11, "extra.yaml, escape.yaml]");
  with_escape.replace(with_escape.find("color=blue"), 10, "color=green");
  repo_->write("team/kustomization.yaml", with_escape);
  repo_->commit("escape");
  ASSERT_TRUE(eventually([&] { return team("reason") == "ReconciliationFailed"; }, 30s)) << team("message");
  EXPECT_NE(team("message").find("ConfigMap/default/escape"), std::string::npos) << team("message");
  EXPECT_NE(team("message").find("system:serviceaccount:team:deployer"), std::string::npos) << team("message");
  EXPECT_EQ(get({"get", "deployment", "web", "-n", "team", "-o", "jsonpath={.spec.template.spec.containers[0].envFrom[0].configMapRef.name}"}),
            first_config);
  EXPECT_EQ(get({"get", "configmaps", "-n", "team", "-l", "gitops.capstan.dev/name=team", "-o", "jsonpath={.items[*].metadata.name}"}),
            "extra " + first_config);
  EXPECT_TRUE(missing({"get", "configmap", "escape", "-n", "default"}));

  // Fixed, and extra.yaml removed: the new ConfigMap is applied, extra and the old one pruned.
  repo_->remove("team/escape.yaml");
  repo_->remove("team/extra.yaml");
  std::string fixed = kTeamKustomization;
  fixed.replace(fixed.find(", extra.yaml]"), 13, "]");
  fixed.replace(fixed.find("color=blue"), 10, "color=green");
  repo_->write("team/kustomization.yaml", fixed);
  const std::string last = repo_->commit("fixed");
  ASSERT_TRUE(eventually([&] { return team("message") == "Applied revision: main@sha1:" + last; }, 60s)) << team("message");
  const std::string second_config = get({"get", "deployment", "web", "-n", "team", "-o",
                                         "jsonpath={.spec.template.spec.containers[0].envFrom[0].configMapRef.name}"});
  EXPECT_NE(second_config, first_config);
  EXPECT_EQ(get({"get", "configmap", second_config, "-n", "team", "-o", "jsonpath={.data.color}"}), "green");
  EXPECT_TRUE(eventually([&] { return missing({"get", "configmap", "extra", "-n", "team"}); }, 20s));
  EXPECT_TRUE(eventually([&] { return missing({"get", "configmap", first_config, "-n", "team"}); }, 20s));
}

CAPSTAN_E2E_BACKENDS(GitopsScenarioE2E);

// A private repository over HTTP (git-http-backend behind Basic and Bearer authentication): the
// secretRef's username and password, or its bearerToken; wrong ones fail the GitRepository.
TEST_P(GitopsE2E, APrivateRepositoryOverHttpWithAPasswordOrAToken) {
  GitHttpServer server(dir_->file("git"), "alice", "s3cret", "t0ken");
  server.start();
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/config.yaml", config_map("settings", "over-http"));
  repo_->commit("over http");
  auto secret = [&](const std::string& data) {
    kubectl_->ok({"apply", "-f", "-"}, "apiVersion: v1\nkind: Secret\nmetadata: {name: git-http, namespace: ops}\ntype: Opaque\nstringData: " + data + "\n");
  };
  secret("{username: alice, password: s3cret}");
  std::string manifests = sources(server.url("app"), "main", "./deploy");
  manifests.replace(manifests.find("  interval: 1s"), 0, "  secretRef: {name: git-http}\n");
  kubectl_->ok({"apply", "-f", "-"}, manifests);
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("gitrepository") << ready_message("kustomization");
  EXPECT_EQ(color("settings"), "over-http");
  EXPECT_GT(server.refused(), 0);  // libgit2 asked without credentials first, as git does

  // A wrong password: refused, and the password appears nowhere.
  kubectl_->ok({"delete", "secret", "git-http", "-n", "ops"});
  secret("{username: alice, password: wrong-pass}");
  repo_->write("deploy/config.yaml", config_map("settings", "second"));
  repo_->commit("second");
  ASSERT_TRUE(eventually([&] { return ready("gitrepository") == "False"; }, 30s)) << ready_message("gitrepository");
  EXPECT_EQ(ready_message("gitrepository").find("wrong-pass"), std::string::npos) << ready_message("gitrepository");

  // A bearer token instead.
  kubectl_->ok({"delete", "secret", "git-http", "-n", "ops"});
  secret("{bearerToken: t0ken}");
  ASSERT_TRUE(eventually([&] { return color("settings") == "second"; }, 30s)) << ready_message("gitrepository");
}

// https with a certificate from a CA the system does not know (an in-house Git server): refused
// until the secretRef's ca.crt holds that CA (Flux's key); a CA that did not sign it is refused,
// naming why.
TEST_P(GitopsE2E, AnHttpsRepositoryIsTrustedThroughTheSecretRefsCaCrt) {
  GitHttpServer server(dir_->file("git"), "alice", "s3cret", "");
  server.use_tls();
  server.start();
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/config.yaml", config_map("settings", "over-https"));
  repo_->commit("over https");
  ASSERT_EQ(server.url("app").rfind("https://", 0), 0u);
  auto secret = [&](const std::string& ca) {
    (*kubectl_)({"delete", "secret", "git-https", "-n", "ops", "--ignore-not-found"});
    std::vector<std::string> args = {"create", "secret", "generic", "git-https", "-n", "ops", "--from-literal=username=alice",
                                     "--from-literal=password=s3cret"};
    if (!ca.empty()) args.push_back("--from-literal=ca.crt=" + ca);
    kubectl_->ok(args);
  };
  secret("");
  std::string manifests = sources(server.url("app"), "main", "./deploy");
  manifests.replace(manifests.find("  interval: 1s"), 0, "  secretRef: {name: git-https}\n");
  kubectl_->ok({"apply", "-f", "-"}, manifests);
  ASSERT_TRUE(eventually([&] { return ready("gitrepository") == "False"; }, 30s)) << ready_message("gitrepository");
  EXPECT_NE(ready_message("gitrepository").find("certificate"), std::string::npos) << ready_message("gitrepository");

  // Another CA: refused, naming the check that failed.
  auto other_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  secret(pki::self_signed_ca("not the server's", std::chrono::hours(1), other_key).to_pem());
  kubectl_->ok({"annotate", "--overwrite", "gitrepository", "app", "-n", "ops", "reconcile.gitops.capstan.dev/requestedAt=1"});
  ASSERT_TRUE(eventually([&] { return ready_message("gitrepository").find("not valid for the secretRef's ca.crt") != std::string::npos; },
                         30s))
      << ready_message("gitrepository");

  // The server's CA: fetched and applied.
  secret(server.ca_pem());
  kubectl_->ok({"annotate", "--overwrite", "gitrepository", "app", "-n", "ops", "reconcile.gitops.capstan.dev/requestedAt=2"});
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("gitrepository") << ready_message("kustomization");
  EXPECT_EQ(color("settings"), "over-https");
}

// --gitops-no-cross-namespace-refs, as Flux's multi-tenancy lockdown: references within a
// namespace work; a sourceRef or dependsOn into another namespace stalls the Kustomization.
class GitopsTenancyE2E : public GitopsE2E {
 protected:
  std::vector<std::string> manager_flags() override {
    auto flags = GitopsE2E::manager_flags();
    flags.push_back("--gitops-no-cross-namespace-refs");
    return flags;
  }
};

TEST_P(GitopsTenancyE2E, CrossNamespaceReferencesAreRefusedWhileSameNamespaceOnesApply) {
  repo_->write("deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n");
  repo_->write("deploy/config.yaml", config_map("settings", "blue"));
  repo_->commit("first");
  kubectl_->ok({"apply", "-f", "-"}, sources(daemon_->url("app"), "main", "./deploy"));
  ASSERT_TRUE(eventually([&] { return ready("kustomization") == "True"; }, 30s)) << ready_message("kustomization");
  EXPECT_EQ(color("settings"), "blue");

  kubectl_->ok({"create", "namespace", "team"});
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: borrowed, namespace: team}
spec:
  sourceRef: {kind: GitRepository, name: app, namespace: ops}
  interval: 10m
  path: ./deploy
  prune: false
---
apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: waits, namespace: ops}
spec:
  sourceRef: {kind: GitRepository, name: app}
  interval: 10m
  path: ./deploy
  prune: false
  dependsOn: [{name: borrowed, namespace: team}]
)");
  auto reason = [&](const std::string& name, const std::string& ns) { return condition("ks", name, ns, "Ready", "reason"); };
  ASSERT_TRUE(eventually([&] { return reason("borrowed", "team") == "AccessDenied"; }, 20s)) << reason("borrowed", "team");
  EXPECT_EQ(condition("ks", "borrowed", "team", "Ready", "message"),
            "cannot access GitRepository 'ops/app': cross-namespace references are not allowed (--gitops-no-cross-namespace-refs)");
  EXPECT_EQ(condition("ks", "borrowed", "team", "Stalled"), "True");
  ASSERT_TRUE(eventually([&] { return reason("waits", "ops") == "AccessDenied"; }, 20s)) << reason("waits", "ops");
  EXPECT_NE(condition("ks", "waits", "ops", "Ready", "message").find("Kustomization 'team/borrowed'"), std::string::npos);
  // The refused ones never held back the one that keeps to its namespace.
  EXPECT_EQ(ready("kustomization"), "True");
}

CAPSTAN_E2E_BACKENDS(GitopsTenancyE2E);

}  // namespace
}  // namespace capstan::e2e
