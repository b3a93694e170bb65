// The admission webhooks of every API group against both backends: `capstan manager
// --controllers=*` serving them, the configurations webhooks/<group> generate applied with the
// manager's URL and CA, and the real kubectl. An invalid object of every kind is refused at
// apply with the field named; a PrometheusRule with a bad expression never reaches the rule
// ConfigMap; an update changing an immutable Kafka field is refused (AdmissionReview's
// oldObject); a Kustomization dependsOn cycle is refused (the other Kustomizations read from the
// manager's informer cache); the manager's own namespace is left out by every webhook.
#include "testing/all_controllers_fixture.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"
#include "webhooks/certificates/webhooks.h"
#include "webhooks/gitops/webhooks.h"
#include "webhooks/kafka/webhooks.h"
#include "webhooks/monitoring/webhooks.h"

#include <gtest/gtest.h>

#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

constexpr const char* kManagerNamespace = "capstan-system";

class WebhooksE2E : public AllControllersFixture {
 protected:
  WebhooksE2E() : AllControllersFixture({"webhooks", /*simulate_workloads=*/true, "ks,knp,prometheusrules,configmaps"}) {}

  void SetUp() override {
    AllControllersFixture::SetUp();
    if (HasFatalFailure()) return;
    register_webhooks({&webhooks::certificates::configurations, &webhooks::monitoring::configurations, &webhooks::kafka::configurations,
                       &webhooks::gitops::configurations});
    if (HasFatalFailure()) return;
    kubectl_->ok({"apply", "-f", "-"}, "apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n---\n"
                                       "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + std::string(kManagerNamespace) + "}\n");
  }

  // kubectl apply of `manifest`: refused, and the message names the webhook and starts with `field`.
  void expect_refused(const std::string& manifest, const std::string& webhook, const std::string& field) {
    auto r = (*kubectl_)({"apply", "-f", "-"}, manifest);
    EXPECT_NE(r.code, 0) << manifest;
    std::string want = "admission webhook \"" + webhook + "\" denied the request: ";
    auto at = r.err.find(want);
    ASSERT_NE(at, std::string::npos) << "want " << want << "\ngot: " << r.err;
    std::string rest = r.err.substr(at + want.size());
    if (rest.starts_with("[")) rest.erase(0, 1);
    EXPECT_TRUE(rest.starts_with(field)) << "want the field " << field << "\ngot: " << r.err;
  }
};

struct Invalid {
  const char* webhook;
  const char* field;
  const char* manifest;  // namespace "team" (cluster-scoped kinds have none)
};

const Invalid kInvalid[] = {
    {"vcertificate.certs.capstan.dev", "spec.duration: Invalid value: 30m0s: certificate duration must be greater than 1h0m0s",
     "apiVersion: certs.capstan.dev/v1\nkind: Certificate\nmetadata: {name: bad, namespace: team}\n"
     "spec: {secretName: bad, dnsNames: [a.example.com], duration: 30m, issuerRef: {name: ca}}\n"},
    {"vcertificaterequest.certs.capstan.dev", "spec.request: Invalid value",
     "apiVersion: certs.capstan.dev/v1\nkind: CertificateRequest\nmetadata: {name: bad, namespace: team}\n"
     "spec: {request: bm90IGEgY3Ny, issuerRef: {name: ca}}\n"},
    {"vissuer.certs.capstan.dev", "spec.selfSigned: Forbidden: may not specify more than one issuer type",
     "apiVersion: certs.capstan.dev/v1\nkind: Issuer\nmetadata: {name: bad, namespace: team}\n"
     "spec: {selfSigned: {}, ca: {secretName: x}}\n"},
    {"vclusterissuer.certs.capstan.dev", "spec: Required value: at least one issuer must be configured",
     "apiVersion: certs.capstan.dev/v1\nkind: ClusterIssuer\nmetadata: {name: bad}\nspec: {}\n"},
    {"vprometheus.monitoring.capstan.dev", "spec.retentionSize: Invalid value: \"lots\"",
     "apiVersion: monitoring.capstan.dev/v1\nkind: Prometheus\nmetadata: {name: bad, namespace: team}\nspec: {retentionSize: lots}\n"},
    {"vservicemonitor.monitoring.capstan.dev", "spec.endpoints[0].relabelings[0].regex: Invalid value: \"(\": error parsing regexp",
     "apiVersion: monitoring.capstan.dev/v1\nkind: ServiceMonitor\nmetadata: {name: bad, namespace: team}\n"
     "spec: {selector: {}, endpoints: [{port: web, relabelings: [{sourceLabels: [a], targetLabel: b, regex: '('}]}]}\n"},
    {"vpodmonitor.monitoring.capstan.dev", "spec.podMetricsEndpoints[0].scrapeTimeout: Invalid value: \"20s\"",
     "apiVersion: monitoring.capstan.dev/v1\nkind: PodMonitor\nmetadata: {name: bad, namespace: team}\n"
     "spec: {selector: {}, podMetricsEndpoints: [{port: web, interval: 10s, scrapeTimeout: 20s}]}\n"},
    {"vprometheusrule.monitoring.capstan.dev", "spec.groups[0].rules[0].expr: Invalid value: \"rate(up)\"",
     "apiVersion: monitoring.capstan.dev/v1\nkind: PrometheusRule\nmetadata: {name: bad, namespace: team}\n"
     "spec: {groups: [{name: g, rules: [{record: 'job:up:rate', expr: 'rate(up)'}]}]}\n"},
    {"vkafka.kafka.capstan.dev", "spec.kafka.config[node.id]: Forbidden",
     "apiVersion: kafka.capstan.dev/v1\nkind: Kafka\nmetadata: {name: bad, namespace: team}\n"
     "spec: {kafka: {listeners: [{name: plain, port: 9092, type: internal, tls: false}], config: {node.id: 1}}}\n"},
    {"vkafkanodepool.kafka.capstan.dev", "spec.storage.size: Required value",
     "apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\nmetadata: {name: bad, namespace: team, labels: {kafka.capstan.dev/cluster: x}}\n"
     "spec: {replicas: 1, roles: [broker], storage: {type: persistent-claim}}\n"},
    {"vkafkauser.kafka.capstan.dev", "spec.authorization.acls[0].resource.name: Required value",
     "apiVersion: kafka.capstan.dev/v1\nkind: KafkaUser\nmetadata: {name: bad, namespace: team, labels: {kafka.capstan.dev/cluster: x}}\n"
     "spec: {authorization: {type: simple, acls: [{resource: {type: topic}, operations: [Read]}]}}\n"},
    {"vgitrepository.gitops.capstan.dev", "spec.url: Invalid value: \"file:///etc\"",
     "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: bad, namespace: team}\n"
     "spec: {url: 'file:///etc', interval: 1m}\n"},
    {"vkustomization.gitops.capstan.dev", "spec.path: Invalid value: \"../../etc\": must not climb out of the repository root",
     "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: bad, namespace: team}\n"
     "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: true, path: ../../etc}\n"},
};

TEST_P(WebhooksE2E, AnInvalidObjectOfEveryKindIsRefusedNamingTheField) {
  for (const auto& c : kInvalid) {
    SCOPED_TRACE(c.webhook);
    expect_refused(c.manifest, c.webhook, c.field);
  }
  EXPECT_EQ(get({"get", "certificates,certificaterequests,issuers,prometheuses,servicemonitors,podmonitors,prometheusrules,kafkas,"
                 "kafkanodepools,kafkausers,gitrepositories,kustomizations", "-n", "team", "-o", "name"}),
            "");
  EXPECT_EQ(get({"get", "clusterissuers", "-o", "name"}), "");
  // Every error of an object at once.
  auto many = (*kubectl_)({"apply", "-f", "-"}, "apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\n"
                                                "metadata: {name: many, namespace: team, labels: {kafka.capstan.dev/cluster: x}}\n"
                                                "spec: {replicas: 1, roles: [broker], storage: {type: ephemeral, size: 1Gi, class: fast}}\n");
  EXPECT_NE(many.err.find("[spec.storage.size: Forbidden: only for persistent-claim storage, spec.storage.class: Forbidden: only for "
                          "persistent-claim storage]"),
            std::string::npos)
      << many.err;
  // The manager's own namespace is left out (an upgrade of the manager never waits on it).
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: monitoring.capstan.dev/v1\nkind: Prometheus\nmetadata: {name: unchecked, namespace: " +
                                         std::string(kManagerNamespace) + "}\nspec: {retentionSize: lots, replicas: 0}\n");
}

TEST_P(WebhooksE2E, ABadPromQLExpressionNeverReachesTheRuleConfigMap) {
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: team}
spec: {replicas: 1, ruleSelector: {}}
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: web, namespace: team}
spec:
  groups:
  - name: web
    rules: [{alert: WebDown, expr: 'up{job="web"} == 0', for: 5m}]
)");
  auto rules = [&] { return get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "team", "-o", "jsonpath={.data}"}); };
  ASSERT_TRUE(eventually([&] { return rules().find("WebDown") != std::string::npos; }, 30s)) << rules();
  // A new rule and a change of the good one, each with a bad expression: refused at apply.
  expect_refused(R"(apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: broken, namespace: team}
spec:
  groups:
  - name: broken
    rules: [{record: 'job:errors:rate5m', expr: 'sum by (job) (rate(errors_total[5m])'}]
)",
                 "vprometheusrule.monitoring.capstan.dev", "spec.groups[0].rules[0].expr: Invalid value");
  expect_refused(R"(apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: web, namespace: team}
spec:
  groups:
  - name: web
    rules: [{alert: WebDown, expr: 'up{job="web"} == ', for: 5m}]
)",
                 "vprometheusrule.monitoring.capstan.dev", "spec.groups[0].rules[0].expr: Invalid value");
  // The ConfigMap keeps the good rule and never sees the bad ones.
  std::this_thread::sleep_for(2s);
  std::string now = rules();
  EXPECT_NE(now.find("up{job=\\\"web\\\"} == 0"), std::string::npos) << now;
  EXPECT_EQ(now.find("errors_total"), std::string::npos) << now;
  EXPECT_EQ(get({"get", "prometheusrule", "broken", "-n", "team", "--ignore-not-found", "-o", "name"}), "");
}

TEST_P(WebhooksE2E, UpdatesAreJudgedAgainstTheOldObjectAndCyclesAreRefused) {
  // Kafka: the storage type of a node pool cannot change.
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\n"
                                     "metadata: {name: brokers, namespace: team, labels: {kafka.capstan.dev/cluster: events}}\n"
                                     "spec: {replicas: 1, roles: [broker], storage: {type: persistent-claim, size: 10Gi}}\n");
  expect_refused("apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\n"
                 "metadata: {name: brokers, namespace: team, labels: {kafka.capstan.dev/cluster: events}}\n"
                 "spec: {replicas: 1, roles: [broker], storage: {type: ephemeral}}\n",
                 "vkafkanodepool.kafka.capstan.dev",
                 "spec.storage.type: Invalid value: \"ephemeral\": field is immutable: changing the storage type of a node pool is not supported "
                 "(was persistent-claim)");
  // A bigger claim and more replicas are fine.
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\n"
                                     "metadata: {name: brokers, namespace: team, labels: {kafka.capstan.dev/cluster: events}}\n"
                                     "spec: {replicas: 2, roles: [broker], storage: {type: persistent-claim, size: 20Gi}}\n");
  EXPECT_EQ(get({"get", "knp", "brokers", "-n", "team", "-o", "jsonpath={.spec.storage.type}"}), "persistent-claim");

  // GitOps: a depends on b (b not there yet: allowed, Flux waits); b depending on a closes a cycle.
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: a, namespace: team}\n"
                                     "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: false, dependsOn: [{name: b}]}\n");
  // Once the manager has seen a (its controller wrote a's status), its dependsOn is known.
  ASSERT_TRUE(eventually([&] { return !condition("ks", "a", "team", "Ready").empty(); }, 30s));
  expect_refused("apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: b, namespace: team}\n"
                 "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: false, dependsOn: [{name: a}]}\n",
                 "vkustomization.gitops.capstan.dev",
                 "spec.dependsOn[0]: Invalid value: \"team/a\": dependency cycle: team/b -> team/a -> team/b");
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: b, namespace: team}\n"
                                     "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 1m, prune: false}\n");
}

TEST_P(WebhooksE2E, ApprovingARequestNeedsTheApproveVerbOnItsSigner) {
  // A request for another group's issuer: the internal approver leaves it to someone with the verb.
  pki::CertificateTemplate t;
  t.dns_names = {"vault.team.example"};
  const std::string csr = pki::CertificateRequest::create(t, pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: certs.capstan.dev/v1\nkind: CertificateRequest\nmetadata: {name: ext-1, namespace: team}\n"
                                     "spec: {issuerRef: {name: vault, kind: VaultIssuer, group: example.com}, request: " +
                                         meta::base64_encode(csr) + "}\n");
  // alice may write requests' status, nothing more.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: request-status, namespace: team}
rules:
- {apiGroups: [certs.capstan.dev], resources: [certificaterequests, certificaterequests/status], verbs: [get, list, patch, update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-request-status, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: request-status}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
)");
  const std::string approve = R"([{"op":"add","path":"/status","value":{"conditions":[{"type":"Approved","status":"True",)"
                              R"("reason":"ByHand","message":"looks fine","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}])";
  std::this_thread::sleep_for(2s);
  EXPECT_EQ(get({"get", "certificaterequest", "ext-1", "-n", "team", "-o", R"(jsonpath={.status.conditions[?(@.type=="Approved")].status})"}), "")
      << "the internal approver approved another group's request";
  auto refused = (*kubectl_)({"patch", "certificaterequest", "ext-1", "-n", "team", "--as=alice", "--subresource=status", "--type=json", "-p", approve});
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("user \"alice\" may not approve or deny requests of signer \"vaultissuers.example.com/team.vault\""),
            std::string::npos)
      << refused.err;
  // Granted the verb on that signer's name, alice approves it; flipping it to Denied is refused.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: vault-approver}
rules:
- {apiGroups: [certs.capstan.dev], resources: [signers], verbs: [approve], resourceNames: [vaultissuers.example.com/team.vault]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: alice-vault-approver}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: vault-approver}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
)");
  EXPECT_TRUE(eventually([&] {
    return (*kubectl_)({"patch", "certificaterequest", "ext-1", "-n", "team", "--as=alice", "--subresource=status", "--type=json", "-p", approve})
               .code == 0;
  }, 20s));
  EXPECT_EQ(get({"get", "certificaterequest", "ext-1", "-n", "team", "-o", R"(jsonpath={.status.conditions[?(@.type=="Approved")].reason})"}),
            "ByHand");
  auto flip = (*kubectl_)({"patch", "certificaterequest", "ext-1", "-n", "team", "--subresource=status", "--type=json", "-p",
                           R"([{"op":"replace","path":"/status/conditions/0/type","value":"Denied"}])"});
  EXPECT_NE(flip.code, 0);
  EXPECT_NE(flip.err.find("vcertificaterequest.certs.capstan.dev"), std::string::npos) << flip.err;
}

CAPSTAN_E2E_BACKENDS(WebhooksE2E);

}  // namespace
}  // namespace capstan::e2e
