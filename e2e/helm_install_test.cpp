// `helm install` of charts/capstan with two controllers into capstan-system, as users install
// it, with RBAC enforced: the manager runs under a token of the chart's ServiceAccount with
// the flags of the chart's Deployment, and the two controllers' samples become Ready; `helm
// upgrade` enabling a third adds exactly its pieces and keeps the webhook certificate; `helm
// uninstall` keeps the CRDs and the objects made from them. Prints the install-to-Ready time.
// The gitops controller, installed alone, applies what Git holds as each Kustomization's
// ServiceAccount (impersonation), never with the manager's own rights.
#include "testing/install_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class HelmInstallE2E : public InstallFixture {
 protected:
  std::vector<std::string> install(const std::string& verb, const std::vector<std::string>& sets) {
    std::vector<std::string> args = {verb, "capstan", chart_dir(), "-n", kCapstanNamespace};
    if (verb == "install") args.push_back("--create-namespace");
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    args.insert(args.end(), {"--set", "webhook.url.host=" + webhook_host()});
    return args;
  }
  std::string crds() { return get({"get", "crds", "-o", "jsonpath={.items[*].metadata.name}"}); }
  std::string role_groups() {
    return get({"get", "clusterrole", kCapstanManager, "-o", "jsonpath={range .rules[*]}{.apiGroups[*]} {end}"});
  }
  // `kubectl auth can-i ...` as the manager's ServiceAccount: "yes" or "no".
  std::string can_i(const std::vector<std::string>& what) {
    std::vector<std::string> args = {"auth", "can-i"};
    args.insert(args.end(), what.begin(), what.end());
    auto r = (*as_manager_)(args);
    return r.out.substr(0, r.out.find('\n'));
  }
};

TEST_P(HelmInstallE2E, TwoControllersThenAThirdByUpgradeUnderTheChartsServiceAccount) {
  const std::vector<std::string> two = {"controllers.certificates.enabled=true", "controllers.monitoring.enabled=true",
                                        "controllers.kafka.enabled=false", "controllers.gitops.enabled=false"};
  // A misspelt key is refused, naming it, and installs nothing.
  auto typo = (*helm_)(install("install", {"controllers.certficates.enabled=true"}));
  EXPECT_NE(typo.code, 0);
  EXPECT_NE(typo.err.find("certficates"), std::string::npos) << typo.err;
  EXPECT_EQ(crds().find("capstan.dev"), std::string::npos) << crds();

  auto started = std::chrono::steady_clock::now();
  helm_->ok(install("install", two));
  // Exactly the two controllers' CRDs, rules, webhooks and flags.
  std::string installed = crds();
  for (const char* crd : {"certificates.certs.capstan.dev", "clusterissuers.certs.capstan.dev", "prometheuses.monitoring.capstan.dev",
                          "servicemonitors.monitoring.capstan.dev"})
    EXPECT_NE(installed.find(crd), std::string::npos) << installed;
  EXPECT_EQ(installed.find("kafka.capstan.dev"), std::string::npos) << installed;
  EXPECT_EQ(installed.find("gitops.capstan.dev"), std::string::npos) << installed;
  std::string groups = role_groups();
  EXPECT_NE(groups.find("certs.capstan.dev"), std::string::npos) << groups;
  EXPECT_NE(groups.find("monitoring.capstan.dev"), std::string::npos) << groups;
  EXPECT_EQ(groups.find("kafka.capstan.dev"), std::string::npos) << groups;
  EXPECT_EQ(groups.find("*"), std::string::npos) << "gitops' rules came along: " << groups;
  // Webhooks of the enabled controllers only.
  EXPECT_EQ(get({"get", "validatingwebhookconfigurations", "-l", "app.kubernetes.io/name=capstan", "-o", "name"}),
            "validatingwebhookconfiguration.admissionregistration.k8s.io/capstan-certificates\n"
            "validatingwebhookconfiguration.admissionregistration.k8s.io/capstan-monitoring\n");
  auto flags = deployment_flags();
  EXPECT_EQ(flags.empty() ? "" : flags[0], "--controllers=certificates,-gitops,-kafka,monitoring,-secretcopy");

  start_manager("manager-1");
  // The manager's identity holds the two controllers' rules and no more.
  EXPECT_EQ(can_i({"create", "statefulsets.apps", "-n", "default"}), "yes");
  EXPECT_EQ(can_i({"list", "kafkas.kafka.capstan.dev", "-A"}), "no");
  EXPECT_EQ(can_i({"create", "deployments.apps", "-n", "default"}), "no");
  EXPECT_EQ(can_i({"update", "leases.coordination.k8s.io", "-n", "default"}), "no") << "the Lease only in capstan-system";
  EXPECT_EQ(can_i({"update", "leases.coordination.k8s.io", "-n", kCapstanNamespace}), "yes");
  apply_sample("selfsigned-ca.yaml");
  apply_sample("monitoring.yaml");
  ASSERT_TRUE(sample_ready("certificates", 60s));
  ASSERT_TRUE(sample_ready("monitoring", 60s));
  auto ready_after = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "install-to-Ready (" << to_string(backend()) << "): helm install + manager start + samples Ready in " << ready_after
            << " s" << std::endl;
  // The webhooks answer through the caBundle of the generated Secret: an invalid Certificate
  // is refused by the manager's validating webhook.
  expect_webhook_refuses_a_short_certificate();

  // Upgrade: kafka too. Its CRDs and rules arrive, the webhook certificate stays.
  std::string identity = webhook_identity();
  auto three = two;
  three[2] = "controllers.kafka.enabled=true";
  helm_->ok(install("upgrade", three));
  EXPECT_EQ(can_i({"list", "kafkas.kafka.capstan.dev", "-A"}), "yes");
  EXPECT_NE(crds().find("kafkas.kafka.capstan.dev"), std::string::npos) << crds();
  EXPECT_NE(role_groups().find("kafka.capstan.dev"), std::string::npos) << role_groups();
  // Kafka's webhooks arrive with it (same CA); the others' caBundles are unchanged.
  std::string after = webhook_identity();
  auto kafka_at = after.find("capstan-kafka:"), monitoring_at = after.find("capstan-monitoring:");
  ASSERT_TRUE(kafka_at != std::string::npos && monitoring_at != std::string::npos && kafka_at < monitoring_at) << after;
  EXPECT_EQ(after.substr(0, kafka_at) + after.substr(monitoring_at), identity) << "the upgrade changed the webhook certificate or a caBundle";
  start_manager("manager-2");
  auto upgraded = std::chrono::steady_clock::now();
  apply_sample("kafka.yaml");
  ASSERT_TRUE(sample_ready("kafka", 90s));
  std::cout << "upgrade-to-Ready (" << to_string(backend()) << "): kafka sample Ready "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - upgraded).count() << " s after the restart" << std::endl;
  EXPECT_TRUE(sample_ready("certificates", 30s));
  // The Kafka CRD's conversion webhook trusts the same chart-made CA: the sample reads at v1beta2.
  EXPECT_EQ(get({"get", "kafkas.v1beta2.kafka.capstan.dev", "events", "-n", "default", "-o", "jsonpath={.apiVersion}"}),
            "kafka.capstan.dev/v1beta2");
  std::cout << "the manager's permissions (certificates, monitoring, kafka), `kubectl auth can-i --list`:\n"
            << (*as_manager_)({"auth", "can-i", "--list"}).out << std::endl;

  // Uninstall: the release's objects go, the CRDs (crds.keep) and the users' objects stay.
  stop_manager();
  helm_->ok({"uninstall", "capstan", "-n", kCapstanNamespace});
  EXPECT_EQ(get({"get", "clusterrole", kCapstanManager, "--ignore-not-found", "-o", "name"}), "");
  EXPECT_EQ(get({"get", "validatingwebhookconfigurations", "-l", "app.kubernetes.io/name=capstan", "-o", "name"}), "");
  std::string kept = crds();
  for (const char* crd : {"certificates.certs.capstan.dev", "prometheuses.monitoring.capstan.dev", "kafkas.kafka.capstan.dev"})
    EXPECT_NE(kept.find(crd), std::string::npos) << kept;
  EXPECT_EQ(get({"get", "certificate", "web", "-n", "default", "-o", "jsonpath={.metadata.name}"}), "web");
  EXPECT_EQ(get({"get", "kafka", "events", "-n", "default", "-o", "jsonpath={.metadata.name}"}), "events");
}

// webhook.managerCertificate: the chart renders no certificate (the same output every time, as
// Argo CD's `helm template` needs); the manager makes the Secret, injects its CA and keeps both
// across an upgrade.
TEST_P(HelmInstallE2E, WithManagerCertificateTheManagerMakesAndInjectsItsOwn) {
  const std::vector<std::string> sets = {"controllers.certificates.enabled=true", "controllers.monitoring.enabled=false",
                                         "controllers.kafka.enabled=true", "controllers.gitops.enabled=false",
                                         "webhook.managerCertificate=true"};
  std::vector<std::string> render = {"template", "capstan", chart_dir(), "-n", kCapstanNamespace};
  for (const auto& s : sets) render.insert(render.end(), {"--set", s});
  EXPECT_EQ(helm_->ok(render), helm_->ok(render)) << "the chart renders differently each time";
  helm_->ok(install("install", sets));
  EXPECT_EQ(get({"get", "secret", kWebhookSecret, "-n", kCapstanNamespace, "--ignore-not-found", "-o", "name"}), "");
  start_manager("manager-1");
  ASSERT_TRUE(eventually([&] { return every_webhook_has_a_ca(); }, 30s))
      << webhook_identity();
  expect_webhook_refuses_a_short_certificate();
  apply_sample("selfsigned-ca.yaml");
  ASSERT_TRUE(sample_ready("certificates", 60s));
  // The Kafka CRD's conversion webhook gets the manager's CA too (the chart labels the CRD), so a
  // Kafka written at v1beta2 is converted and reads at v1.
  ASSERT_TRUE(eventually([&] {
    return get({"get", "crd", "kafkas.kafka.capstan.dev", "-o", "jsonpath={.spec.conversion.webhook.clientConfig.caBundle}"}).starts_with("LS0t");
  }, 30s)) << "no caBundle injected into the Kafka CRD's conversion webhook";
  const std::string beta = "apiVersion: kafka.capstan.dev/v1beta2\nkind: Kafka\nmetadata: {name: legacy, namespace: default}\n"
                           "spec:\n  kafka:\n    replicas: 3\n    listeners: [{name: plain, port: 9092, type: internal, tls: false}]\n";
  EXPECT_TRUE(eventually([&] { return (*kubectl_)({"apply", "-f", "-"}, beta).code == 0; }, 30s));
  EXPECT_NE(get({"get", "kafkas.v1.kafka.capstan.dev", "legacy", "-n", "default", "-o",
                 "jsonpath={.metadata.annotations.kafka\\.capstan\\.dev/v1beta2-fields}"}),
            "");
  EXPECT_EQ(get({"get", "kafkas.v1beta2.kafka.capstan.dev", "legacy", "-n", "default", "-o", "jsonpath={.spec.kafka.replicas}"}), "3");
  // An upgrade and a new manager keep the Secret and every caBundle.
  std::string identity = webhook_identity();
  helm_->ok(install("upgrade", sets));
  start_manager("manager-2");
  EXPECT_TRUE(eventually([&] { return webhook_identity() == identity; }, 30s)) << webhook_identity() << "\n---- was ----\n" << identity;
}

std::string kustomization(const std::string& name, const std::string& path, const std::string& service_account) {
  std::string out = "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: " + name +
                    ", namespace: team-a}\nspec:\n  sourceRef: {kind: GitRepository, name: app}\n  interval: 10m\n  path: " +
                    path + "\n  prune: true\n";
  if (!service_account.empty()) out += "  serviceAccountName: " + service_account + "\n";
  return out;
}

TEST_P(HelmInstallE2E, GitopsAppliesAsTheKustomizationsServiceAccountNeverAsTheManager) {
  std::string url = serve_repository(
      {{"team/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: team-a}\ndata: {color: blue}\n"},
       {"cluster/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: made-by-git}\n"}});

  helm_->ok(install("install", {"controllers.certificates.enabled=false", "controllers.monitoring.enabled=false",
                                "controllers.kafka.enabled=false", "controllers.gitops.enabled=true"}));
  auto flags = deployment_flags();
  EXPECT_NE(std::find(flags.begin(), flags.end(), "--gitops-default-service-account=capstan-system/capstan-gitops"), flags.end());
  start_manager("gitops");
  // The manager itself may change nothing Git holds; it may act as ServiceAccounts.
  EXPECT_EQ(can_i({"create", "configmaps", "-n", "team-a"}), "no");
  EXPECT_EQ(can_i({"create", "namespaces"}), "no");
  EXPECT_EQ(can_i({"impersonate", "serviceaccounts", "-n", "team-a"}), "yes");

  // Team A's account may write ConfigMaps in its namespace, nothing else.
  kubectl_->ok({"create", "namespace", "team-a"});
  kubectl_->ok({"create", "serviceaccount", "deployer", "-n", "team-a"});
  kubectl_->ok({"create", "role", "configmaps", "-n", "team-a", "--verb=get,list,watch,create,update,patch,delete",
                "--resource=configmaps"});
  kubectl_->ok({"create", "rolebinding", "deployer", "-n", "team-a", "--role=configmaps", "--serviceaccount=team-a:deployer"});
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: app, namespace: team-a}\n"
                                     "spec:\n  url: " + url + "\n  interval: 1m\n  ref: {branch: main}\n");
  kubectl_->ok({"apply", "-f", "-"}, kustomization("team", "team", "deployer") + "---\n" +
                                         kustomization("escalate", "cluster", "deployer") + "---\n" +
                                         kustomization("platform", "cluster", ""));
  auto ready = [&](const std::string& name) { return condition("ks", name, "team-a", "Ready"); };
  auto message = [&](const std::string& name) {
    return get({"get", "ks", name, "-n", "team-a", "-o", "jsonpath={.status.conditions[?(@.type==\"Ready\")].message}"});
  };
  // As team-a:deployer: its ConfigMap applies, a Namespace is refused naming that account.
  ASSERT_TRUE(eventually([&] { return ready("team") == "True"; }, 60s)) << message("team");
  EXPECT_EQ(get({"get", "configmap", "settings", "-n", "team-a", "-o", "jsonpath={.data.color}"}), "blue");
  ASSERT_TRUE(eventually([&] { return ready("escalate") == "False" && !message("escalate").empty(); }, 60s)) << message("escalate");
  EXPECT_NE(message("escalate").find("system:serviceaccount:team-a:deployer"), std::string::npos) << message("escalate");
  EXPECT_NE(message("escalate").find("forbidden"), std::string::npos) << message("escalate");
  // Without spec.serviceAccountName: as the chart's default account, bound to cluster-admin.
  ASSERT_TRUE(eventually([&] { return ready("platform") == "True"; }, 60s)) << message("platform");
  EXPECT_EQ(get({"get", "namespace", "made-by-git", "-o", "name"}), "namespace/made-by-git\n");

  // Pruning is done as the account too: deleting the team's Kustomization deletes its ConfigMap.
  kubectl_->ok({"delete", "ks", "team", "-n", "team-a", "--timeout=30s"});
  EXPECT_TRUE(eventually([&] { return get({"get", "configmap", "settings", "-n", "team-a", "--ignore-not-found", "-o", "name"}).empty(); },
                         30s));
  std::cout << "the manager's permissions (gitops), `kubectl auth can-i --list`:\n"
            << (*as_manager_)({"auth", "can-i", "--list"}).out << std::endl;
  stop_manager();
}

CAPSTAN_E2E_BACKENDS(HelmInstallE2E);

}  // namespace
}  // namespace capstan::e2e
