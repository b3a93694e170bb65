// `kubectl apply -k config/default` as the README says, with RBAC enforced: the names agree
// with the chart's (no doubled prefix), the manager makes its webhook certificate Secret and
// puts its CA into the webhook configurations itself (--webhook-cert-secret), and it runs
// under a token of the kustomize ServiceAccount with the Deployment's flags until the
// certificates, monitoring and kafka samples are Ready, and a Kustomization without a
// ServiceAccount of its own applies as the default account config/rbac makes for it.
#include "testing/install_fixture.h"
#include "runtime/client/client.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/certificate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class KustomizeInstallE2E : public InstallFixture {
 protected:
  // The manager runs outside the cluster: its webhook configurations reach it by URL (what
  // the chart's webhook.url.host does), keeping the caBundle.
  void route_webhooks_to_manager() {
    int configurations = 0;
    for (const char* kind : {"validatingwebhookconfigurations", "mutatingwebhookconfigurations"}) {
      std::istringstream names(get({"get", kind, "-l", "app.kubernetes.io/name=capstan", "-o", "jsonpath={.items[*].metadata.name}"}));
      for (std::string name; names >> name; ++configurations) {
        std::istringstream paths(get({"get", kind, name, "-o", "jsonpath={range .webhooks[*]}{.clientConfig.service.path} {end}"}));
        json::Array patch;
        int i = 0;
        for (std::string path; paths >> path; ++i) {
          std::string at = "/webhooks/" + std::to_string(i) + "/clientConfig/";
          patch.push_back(json::Object{{"op", "remove"}, {"path", at + "service"}});
          patch.push_back(json::Object{{"op", "add"}, {"path", at + "url"}, {"value", "https://" + webhook_host() + path}});
        }
        ASSERT_GT(i, 0) << kind << " " << name;
        kubectl_->ok({"patch", kind, name, "--type=json", "-p", json::serialize(json::Value(patch))});
      }
    }
    // Every group's validating webhooks, and the certificates' mutating ones.
    EXPECT_EQ(configurations, 5);
  }
  // The manager outside the cluster is reached at 127.0.0.1: its certificate names that too.
  void start_manager_with_own_certificate(const std::string& tag, std::vector<std::string> extra = {}) {
    extra.push_back("--webhook-cert-hosts=127.0.0.1,capstan-webhook-service.capstan-system.svc");
    start_manager(tag, extra);
  }
  // Fingerprints of the webhook Secret's serving certificate and signing CA ("" when unreadable).
  std::pair<std::string, std::string> served_and_ca(client::Client& admin) {
    try {
      auto s = admin.get(meta::GroupVersionResource{"", "v1", "secrets"}, kCapstanNamespace, kWebhookSecret);
      auto pem = [&](std::string_view key) { return *meta::base64_decode(json::get_string(s, {"data", key})); };
      return {pki::Certificate::parse_pem(pem("tls.crt")).fingerprint_sha256(), pki::Certificate::parse_pem(pem("ca.crt")).fingerprint_sha256()};
    } catch (const std::exception&) {
      return {"", ""};
    }
  }
};

TEST_P(KustomizeInstallE2E, ApplyKConfigDefaultThenTheManagerUnderItsServiceAccount) {
  // Rendered: the names the chart gives the same objects.
  std::string rendered = kubectl_->ok({"kustomize", source_dir() + "/config/default"});
  std::set<std::string> names;
  for (const auto& doc : json::from_yaml_documents(rendered, "config/default"))
    names.insert(std::string(json::get_string(doc, {"kind"})) + "/" + std::string(json::get_string(doc, {"metadata", "name"})));
  for (const char* want : {"Namespace/capstan-system", "ServiceAccount/capstan-manager", "ClusterRole/capstan-manager",
                           "ClusterRoleBinding/capstan-manager", "Role/capstan-leader-election", "Deployment/capstan-manager",
                           "Service/capstan-webhook-service", "Service/capstan-metrics", "Service/capstan-acme-solver",
                           "ValidatingWebhookConfiguration/capstan-certificates", "MutatingWebhookConfiguration/capstan-certificates",
                           "ValidatingWebhookConfiguration/capstan-monitoring", "ValidatingWebhookConfiguration/capstan-kafka",
                           "ValidatingWebhookConfiguration/capstan-gitops",
                           "ServiceAccount/capstan-gitops", "ClusterRoleBinding/capstan-gitops", "Role/capstan-webhook-certs",
                           "ClusterRole/capstan-webhook-certs"})
    EXPECT_TRUE(names.contains(want)) << want << " not rendered:\n" << rendered;
  EXPECT_EQ(rendered.find("capstan-capstan"), std::string::npos) << "a prefix applied twice";
  EXPECT_NE(rendered.find("--webhook-cert-secret=capstan-webhook-server-cert"), std::string::npos);
  EXPECT_NE(rendered.find("capstan.dev/inject-ca-from-secret: capstan-system/capstan-webhook-server-cert"), std::string::npos);
  EXPECT_NE(rendered.find("name: capstan-webhook-service\n      namespace: capstan-system"), std::string::npos)
      << "the webhook configurations do not point at the Service kustomize renders";

  auto started = std::chrono::steady_clock::now();
  kubectl_->ok({"apply", "-k", source_dir() + "/config/default"});
  kubectl_->ok({"wait", "--for=condition=Established", "crd", "-l", "app.kubernetes.io/part-of=capstan", "--timeout=60s"});
  route_webhooks_to_manager();

  // The manager makes the Secret and injects its CA into the webhook configurations.
  start_manager_with_own_certificate("manager");
  ASSERT_TRUE(eventually([&] { return every_webhook_has_a_ca(); }, 30s))
      << "no caBundle set: " << webhook_identity();
  std::string identity = webhook_identity();
  EXPECT_EQ(get({"get", "secret", kWebhookSecret, "-n", kCapstanNamespace, "-o", "jsonpath={.type}"}), "kubernetes.io/tls");
  apply_sample("selfsigned-ca.yaml");
  apply_sample("monitoring.yaml");
  apply_sample("kafka.yaml");
  ASSERT_TRUE(sample_ready("certificates", 60s));
  ASSERT_TRUE(sample_ready("monitoring", 60s));
  ASSERT_TRUE(sample_ready("kafka", 90s));
  std::cout << "install-to-Ready (" << to_string(backend()) << ", kustomize): apply -k + manager start (certificate made) + "
            << "three samples Ready in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s"
            << std::endl;
  // GitOps, as the account --gitops-default-service-account names (the manager itself may not
  // create Namespaces).
  EXPECT_EQ((*as_manager_)({"auth", "can-i", "create", "namespaces"}).out, "no\n");
  std::string url = serve_repository({{"namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: from-git}\n"}});
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: app, namespace: default}\n"
                                     "spec: {url: \"" + url + "\", interval: 1m, ref: {branch: main}}\n---\n"
                                     "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: app, namespace: default}\n"
                                     "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 10m, prune: true}\n");
  EXPECT_TRUE(eventually([&] { return condition("ks", "app", "default", "Ready") == "True"; }, 60s))
      << get({"get", "ks", "app", "-n", "default", "-o", "yaml"});
  EXPECT_EQ(get({"get", "namespace", "from-git", "-o", "name"}), "namespace/from-git\n");

  // The webhooks answer through that CA.
  expect_webhook_refuses_a_short_certificate();
  // Restarted (a new pod), the manager keeps the Secret, the CA and every caBundle. (Applying
  // config/default again here would fight route_webhooks_to_manager's url over the Service.)
  start_manager_with_own_certificate("manager-2");
  EXPECT_TRUE(eventually([&] { return webhook_identity() == identity; }, 30s)) << webhook_identity() << "\n---- was ----\n" << identity;
  EXPECT_TRUE(sample_ready("certificates", 30s));
}

// Certificates that live 30 s and a CA that lives 60 s, checked every 2 s: within 50 s the
// serving certificate is renewed and the CA replaced, while admission requests run without
// pause through the manager's webhooks. Not one of them may fail.
TEST_P(KustomizeInstallE2E, TheWebhookCertificateAndCaRotateUnderLoadWithoutAFailedAdmission) {
  kubectl_->ok({"apply", "-k", source_dir() + "/config/default"});
  kubectl_->ok({"wait", "--for=condition=Established", "crd", "-l", "app.kubernetes.io/part-of=capstan", "--timeout=60s"});
  route_webhooks_to_manager();
  start_manager_with_own_certificate("manager", {"--webhook-cert-validity=30s", "--webhook-ca-validity=60s",
                                                 "--webhook-cert-check-interval=2s"});
  ASSERT_TRUE(eventually([&] { return every_webhook_has_a_ca(); }, 30s))
      << webhook_identity();

  client::Client admin(client::load_kubeconfig(server_->kubeconfig()));
  std::atomic<bool> done{false};
  std::atomic<int> admitted{0}, failed{0};
  std::string first_failure;
  std::thread load([&] {
    client::Client c(client::load_kubeconfig(server_->kubeconfig()));
    json::Value crt = json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate",
      "metadata":{"name":"rotation","namespace":"default"},
      "spec":{"secretName":"rotation","dnsNames":["rotation.example.com"],"issuerRef":{"name":"example-ca"}}})");
    while (!done) {
      try {
        c.create(meta::GroupVersionResource{"certs.capstan.dev", "v1", "certificates"}, "default", crt, {.dry_run = true});
        ++admitted;
      } catch (const std::exception& e) {
        if (failed++ == 0) first_failure = e.what();
      }
    }
  });
  std::set<std::string> served, cas;
  auto until = std::chrono::steady_clock::now() + 50s;
  while (std::chrono::steady_clock::now() < until) {
    auto [s, ca] = served_and_ca(admin);
    if (!s.empty()) served.insert(s), cas.insert(ca);
    std::this_thread::sleep_for(500ms);
  }
  done = true;
  load.join();
  std::cout << "webhook certificate rotation (" << to_string(backend()) << "): " << served.size() << " serving certificates, "
            << cas.size() << " CAs in 50 s; " << admitted << " admissions, " << failed << " failed" << std::endl;
  EXPECT_GE(served.size(), 3u) << "the serving certificate was not renewed";
  EXPECT_GE(cas.size(), 2u) << "the CA was not replaced";
  EXPECT_GT(admitted, 100);
  EXPECT_EQ(failed, 0) << first_failure;
}

CAPSTAN_E2E_BACKENDS(KustomizeInstallE2E);

}  // namespace
}  // namespace capstan::e2e
