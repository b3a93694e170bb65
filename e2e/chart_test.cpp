// charts/capstan without a cluster: `helm lint --strict` is clean with every example values
// file, values.schema.json refuses a misspelt key naming it, and `helm template` with a subset
// of controllers renders exactly their CRDs, rules, webhooks and --controllers flag.
#include "testing/cluster.h"
#include "testing/helm.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace capstan::e2e {
namespace {

class HelmChart : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(std::filesystem::exists(helm_bin())) << helm_bin() << " is missing: run scripts/tools.sh helm"; }
  std::vector<json::Value> render(const std::vector<std::string>& sets) {
    std::vector<std::string> args = {"template", "capstan", chart_dir(), "-n", "capstan-system"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    return json::from_yaml_documents(helm_.ok(args), "helm template");
  }
  static std::set<std::string> of_kind(const std::vector<json::Value>& docs, std::string_view kind) {
    std::set<std::string> out;
    for (const auto& d : docs)
      if (json::get_string(d, {"kind"}) == kind) out.emplace(json::get_string(d, {"metadata", "name"}));
    return out;
  }
  static const json::Value* find(const std::vector<json::Value>& docs, std::string_view kind, std::string_view name) {
    for (const auto& d : docs)
      if (json::get_string(d, {"kind"}) == kind && json::get_string(d, {"metadata", "name"}) == name) return &d;
    return nullptr;
  }
  TempDir dir_{"chart"};
  Helm helm_{dir_};
};

TEST_F(HelmChart, LintStrictIsCleanWithEveryExampleValuesFile) {
  for (const char* values : {"values.yaml", "values-dev.yaml", "values-prod.yaml"}) {
    auto r = helm_({"lint", "--strict", chart_dir(), "-f", chart_dir() + "/" + values});
    EXPECT_EQ(r.code, 0) << values << ":\n" << r.out << r.err;
  }
}

TEST_F(HelmChart, AMisspeltOrMistypedValueIsRefusedNamingIt) {
  auto typo = helm_({"lint", "--strict", chart_dir(), "--set", "controllers.certficates.enabled=true"});
  EXPECT_NE(typo.code, 0);
  EXPECT_NE((typo.out + typo.err).find("certficates"), std::string::npos) << typo.out << typo.err;
  auto type = helm_({"template", "capstan", chart_dir(), "--set", "replicaCount=two"});
  EXPECT_NE(type.code, 0);
  EXPECT_NE(type.err.find("replicaCount"), std::string::npos) << type.err;
}

TEST_F(HelmChart, ASubsetOfControllersGetsExactlyItsCrdsRulesWebhooksAndFlag) {
  auto docs = render({"controllers.certificates.enabled=false", "controllers.monitoring.enabled=false", "controllers.gitops.enabled=false"});
  EXPECT_EQ(of_kind(docs, "CustomResourceDefinition"), (std::set<std::string>{"kafkas.kafka.capstan.dev", "kafkanodepools.kafka.capstan.dev",
                                                                                "kafkatopics.kafka.capstan.dev", "kafkausers.kafka.capstan.dev"}));
  // Kafka's webhooks alone (no mutating ones: it has no defaulting webhook).
  EXPECT_EQ(of_kind(docs, "ValidatingWebhookConfiguration"), (std::set<std::string>{"capstan-kafka"}));
  EXPECT_TRUE(of_kind(docs, "MutatingWebhookConfiguration").empty());
  const auto* role = find(docs, "ClusterRole", "capstan-manager");
  ASSERT_NE(role, nullptr);
  std::set<std::string> groups;
  for (const auto& r : *json::get_array(*role, {"rules"}))
    for (const auto& g : *json::get_array(r, {"apiGroups"})) groups.emplace(g.as_string());
  // Kafka's own kinds, its PodDisruptionBudgets, its two CRDs by name (storage version
  // migration, CA injection), the Ingresses of its ingress listeners, the Certificates of its
  // TLS listeners and the PodMonitors of its metrics (made when the certificates and monitoring
  // controllers run too), and the ClusterRoleBindings of rack-aware clusters to the broker role.
  EXPECT_EQ(groups, (std::set<std::string>{"", "apiextensions.k8s.io", "certs.capstan.dev", "kafka.capstan.dev",
                                           "monitoring.capstan.dev", "networking.k8s.io", "policy", "rbac.authorization.k8s.io"}));
  const auto* broker_role = find(docs, "ClusterRole", "capstan-kafka-broker");
  ASSERT_NE(broker_role, nullptr) << "the role rack-aware brokers are bound to";
  EXPECT_EQ(json::serialize(*json::find(*broker_role, {"rules"})), R"([{"apiGroups":[""],"resources":["nodes"],"verbs":["get"]}])");
  const auto* deploy = find(docs, "Deployment", "capstan-manager");
  ASSERT_NE(deploy, nullptr);
  const auto& args = *json::get_array((*json::get_array(*deploy, {"spec", "template", "spec", "containers"}))[0], {"args"});
  EXPECT_EQ(args[0], "--controllers=-certificates,-gitops,kafka,-monitoring,-secretcopy");
  EXPECT_EQ(of_kind(docs, "Service"), (std::set<std::string>{"capstan-webhook-service", "capstan-metrics"}));
  EXPECT_EQ(of_kind(docs, "ServiceAccount"), (std::set<std::string>{"capstan-manager"})) << "gitops' applier came along";

  // Certificates alone: its webhooks, pointing at the Service with the generated CA.
  docs = render({"controllers.monitoring.enabled=false", "controllers.kafka.enabled=false", "controllers.gitops.enabled=false"});
  const auto* hooks = find(docs, "ValidatingWebhookConfiguration", "capstan-certificates");
  ASSERT_NE(hooks, nullptr);
  const auto* secret = find(docs, "Secret", "capstan-webhook-server-cert");
  ASSERT_NE(secret, nullptr);
  EXPECT_EQ(of_kind(docs, "ValidatingWebhookConfiguration"), (std::set<std::string>{"capstan-certificates"}));
  for (const auto& h : *json::get_array(*hooks, {"webhooks"})) {
    EXPECT_EQ(json::get_string(h, {"clientConfig", "service", "name"}), "capstan-webhook-service");
    // The release's namespace is left out, so the manager never admits its own upgrade.
    EXPECT_EQ(json::serialize(*json::find(h, {"namespaceSelector"})),
              R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["capstan-system"]}]})");
    EXPECT_EQ(json::get_string(h, {"clientConfig", "caBundle"}), json::get_string(*secret, {"data", "ca.crt"}));
  }
}

TEST_F(HelmChart, GitopsAppliesAsItsOwnAccountNeverWithTheManagersRights) {
  auto docs = render({});
  // The manager may impersonate ServiceAccounts and holds no wildcard rule.
  const auto* role = find(docs, "ClusterRole", "capstan-manager");
  ASSERT_NE(role, nullptr);
  bool impersonates = false;
  for (const auto& r : *json::get_array(*role, {"rules"})) {
    std::string text = json::serialize(r);
    EXPECT_EQ(text.find("\"*\""), std::string::npos) << text;
    impersonates |= text.find("\"impersonate\"") != std::string::npos && text.find("\"serviceaccounts\"") != std::string::npos;
  }
  EXPECT_TRUE(impersonates);
  // The default account Kustomizations without one apply as: made, bound to cluster-admin, named in the flag.
  EXPECT_NE(find(docs, "ServiceAccount", "capstan-gitops"), nullptr);
  const auto* binding = find(docs, "ClusterRoleBinding", "capstan-gitops");
  ASSERT_NE(binding, nullptr);
  EXPECT_EQ(json::get_string(*binding, {"roleRef", "name"}), "cluster-admin");
  EXPECT_EQ(json::get_string((*json::get_array(*binding, {"subjects"}))[0], {"namespace"}), "capstan-system");
  const auto* deploy = find(docs, "Deployment", "capstan-manager");
  ASSERT_NE(deploy, nullptr);
  std::string args = json::serialize(*json::find(*deploy, {"spec", "template", "spec", "containers"}));
  EXPECT_NE(args.find("\"--gitops-default-service-account=capstan-system/capstan-gitops\""), std::string::npos) << args;

  // Bound to a narrower role; or no account of the chart's and none named: the manager applies (and may apply nothing).
  docs = render({"controllers.gitops.defaultServiceAccount.clusterRole=edit"});
  binding = find(docs, "ClusterRoleBinding", "capstan-gitops");
  ASSERT_NE(binding, nullptr);
  EXPECT_EQ(json::get_string(*binding, {"roleRef", "name"}), "edit");
  docs = render({"controllers.gitops.defaultServiceAccount.create=false"});
  EXPECT_EQ(find(docs, "ServiceAccount", "capstan-gitops"), nullptr);
  deploy = find(docs, "Deployment", "capstan-manager");
  ASSERT_NE(deploy, nullptr);
  args = json::serialize(*json::find(*deploy, {"spec", "template", "spec", "containers"}));
  EXPECT_EQ(args.find("--gitops-default-service-account"), std::string::npos) << args;
}

TEST_F(HelmChart, CrdsFollowCrdsEnabledAndKeep) {
  auto docs = render({});
  EXPECT_EQ(of_kind(docs, "CustomResourceDefinition").size(), 21u);
  for (const auto& d : docs)
    if (json::get_string(d, {"kind"}) == "CustomResourceDefinition")
      EXPECT_EQ(json::get_string(d, {"metadata", "annotations", "helm.sh/resource-policy"}), "keep");
  docs = render({"crds.keep=false"});
  for (const auto& d : docs)
    if (json::get_string(d, {"kind"}) == "CustomResourceDefinition") EXPECT_EQ(json::find(d, {"metadata", "annotations"}), nullptr);
  EXPECT_TRUE(of_kind(render({"crds.enabled=false"}), "CustomResourceDefinition").empty());
}

TEST_F(HelmChart, WebhookUrlHostAndExistingSecret) {
  auto docs = render({"webhook.url.host=127.0.0.1:9443"});
  const auto* hooks = find(docs, "MutatingWebhookConfiguration", "capstan-certificates");
  ASSERT_NE(hooks, nullptr);
  const auto& first = (*json::get_array(*hooks, {"webhooks"}))[0];
  EXPECT_EQ(json::get_string(first, {"clientConfig", "url"}), "https://127.0.0.1:9443/mutate-certs-capstan-dev-v1-certificate");
  EXPECT_EQ(json::find(first, {"clientConfig", "service"}), nullptr);
  // The generated certificate names that address.
  const auto* secret = find(docs, "Secret", "capstan-webhook-server-cert");
  ASSERT_NE(secret, nullptr);
  auto pem = run({"base64", "-d"}, {}, std::string(json::get_string(*secret, {"data", "tls.crt"})));
  auto text = run({"openssl", "x509", "-noout", "-ext", "subjectAltName"}, {}, pem.out);
  EXPECT_NE(text.out.find("IP Address:127.0.0.1"), std::string::npos) << text.out << text.err;
  EXPECT_NE(text.out.find("DNS:capstan-webhook-service.capstan-system.svc"), std::string::npos) << text.out;

  docs = render({"webhook.existingSecret=mine"});
  EXPECT_TRUE(of_kind(docs, "Secret").empty()) << "an existing Secret is not generated";
  const auto* deploy = find(docs, "Deployment", "capstan-manager");
  ASSERT_NE(deploy, nullptr);
  EXPECT_EQ(json::get_string((*json::get_array(*deploy, {"spec", "template", "spec", "volumes"}))[0], {"secret", "secretName"}), "mine");
}

TEST_F(HelmChart, ProdValuesRenderTwoReplicasLeaderElectionPdbAndSpread) {
  auto r = helm_({"template", "capstan", chart_dir(), "-n", "capstan-system", "-f", chart_dir() + "/values-prod.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto docs = json::from_yaml_documents(r.out, "helm template");
  const auto* deploy = find(docs, "Deployment", "capstan-manager");
  ASSERT_NE(deploy, nullptr);
  EXPECT_EQ(json::get_int(*deploy, {"spec", "replicas"}), 2);
  std::string args = json::serialize(*json::find(*deploy, {"spec", "template", "spec", "containers"}));
  EXPECT_NE(args.find("--leader-elect\""), std::string::npos) << args;
  EXPECT_NE(args.find("--controllers=certificates,gitops,-kafka,monitoring,-secretcopy"), std::string::npos) << args;
  // GitOps locked down per namespace: no account of the chart's, each namespace's own "gitops".
  EXPECT_NE(args.find("\"--gitops-default-service-account=gitops\""), std::string::npos) << args;
  EXPECT_NE(args.find("\"--gitops-no-cross-namespace-refs\""), std::string::npos) << args;
  EXPECT_EQ(of_kind(docs, "ServiceAccount"), (std::set<std::string>{"capstan-manager"}));
  const auto* spread = json::get_array(*deploy, {"spec", "template", "spec", "topologySpreadConstraints"});
  ASSERT_NE(spread, nullptr);
  EXPECT_EQ(json::get_string((*spread)[0], {"labelSelector", "matchLabels", "app.kubernetes.io/component"}), "manager");
  EXPECT_NE(find(docs, "PodDisruptionBudget", "capstan-manager"), nullptr);
  EXPECT_NE(find(docs, "Role", "capstan-leader-election"), nullptr);
}

}  // namespace
}  // namespace capstan::e2e
