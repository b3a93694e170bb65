// One bad object never harms the rest: every controller runs in one manager, each has a healthy
// object, and hostile objects are sent to each of them — a KafkaNodePool asking for 2^31-1
// nodes, a Certificate with too many names, a Git repository holding a YAML alias bomb, valid
// manifests needing more than the reconcile's memory budget, a PrometheusRule whose rule file no
// ConfigMap can hold. Each is refused by the API server or
// fails alone, named in its own status or events; the healthy objects of all four controllers
// become (and stay) Ready, and the manager's memory stays bounded.
#include "testing/all_controllers_fixture.h"

#include <gtest/gtest.h>

#include <fstream>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kHealthy = R"(apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: self, namespace: team}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web, namespace: team}
spec:
  secretName: web-tls
  issuerRef: {name: self}
  dnsNames: [web.example.com]
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: team}
spec:
  replicas: 1
  ruleSelector: {}
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: small, namespace: team}
spec:
  groups:
  - name: web
    rules:
    - alert: WebDown
      expr: up{job="web"} == 0
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, namespace: team, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 1, roles: [controller, broker], storage: {type: ephemeral}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: team}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
)";

std::string kustomization(const std::string& name, const std::string& path) {
  return R"(apiVersion: gitops.capstan.dev/v1
kind: Kustomization
metadata: {name: )" + name + R"(, namespace: team}
spec:
  sourceRef: {kind: GitRepository, name: app}
  interval: 10m
  path: )" + path + R"(
  prune: true
  targetNamespace: team
)";
}

// Nine levels of nine aliases: 387 million values once expanded, from under 400 bytes.
std::string alias_bomb() {
  std::string doc = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\nx:\n  a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    std::string p = std::string("*") + static_cast<char>(c - 1);
    doc += std::string("  ") + c + ": &" + c + " [" + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p +
           ", " + p + "]\n";
  }
  return doc;
}

// Valid manifests that need more memory to build than the test's --reconcile-memory-limit (64 MiB):
// 40 ConfigMaps of 2,500 keys each, 2 MB of YAML.
std::string heavy_manifests() {
  std::string doc;
  for (int m = 0; m < 40; ++m) {
    doc += "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: heavy-" + std::to_string(m) + "}\ndata:\n";
    for (int k = 0; k < 2500; ++k) doc += "  key" + std::to_string(k) + ": value" + std::to_string(k) + "\n";
  }
  return doc;
}

// A PrometheusRule of about 1.4 MiB: one alert whose expression no rule ConfigMap (512 KiB) holds.
std::string huge_rule() {
  return "apiVersion: monitoring.capstan.dev/v1\nkind: PrometheusRule\nmetadata: {name: huge, namespace: team}\nspec:\n  groups:\n"
         "  - name: huge\n    rules:\n    - alert: Huge\n      expr: vector(" +
         std::string(1400 * 1024, '1') + ")\n";
}

std::int64_t rss_kib(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  return -1;
}

class HostileE2E : public AllControllersFixture {
 protected:
  HostileE2E()
      : AllControllersFixture({"hostile", /*simulate_workloads=*/true,
                               "certificates,prometheus,prometheusrules,kafka,kafkanodepools,kustomizations,gitrepositories,events"}) {}
  std::vector<std::string> manager_flags() override {
    auto flags = AllControllersFixture::manager_flags();
    flags.push_back("--cluster-resource-namespace=team");
    flags.push_back("--reconcile-memory-limit=64Mi");
    return flags;
  }
};

TEST_P(HostileE2E, HostileObjectsFailAloneWhileEveryControllerKeepsReconciling) {
  repo_->write("good/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: good}\ndata: {color: blue}\n");
  repo_->write("bomb/bomb.yaml", alias_bomb());
  repo_->write("heavy/maps.yaml", heavy_manifests());
  repo_->commit("good, bomb and heavy");
  kubectl_->ok({"apply", "-f", "-"}, kHealthy);
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: app, namespace: team}\n"
                                     "spec: {url: " + daemon_->url("app") + ", interval: 1m, ref: {branch: main}}\n---\n" +
                                         kustomization("good", "good"));

  // Refused by the API server, whichever it is: the CRDs' bounds name the field.
  auto pool = (*kubectl_)({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: huge, namespace: team, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 2147483647, roles: [broker], storage: {type: ephemeral}}
)");
  EXPECT_EQ(pool.code, 1);
  EXPECT_NE(pool.err.find("spec.replicas: Invalid value: 2147483647: spec.replicas in body should be less than or equal to 1000"),
            std::string::npos)
      << pool.err;
  std::string names;
  for (int i = 0; i < 300; ++i) names += (i ? ", " : "") + std::string("h") + std::to_string(i) + ".example.com";
  auto cert = (*kubectl_)({"apply", "-f", "-"}, "apiVersion: certs.capstan.dev/v1\nkind: Certificate\nmetadata: {name: many, namespace: team}\n"
                                                 "spec: {secretName: many, issuerRef: {name: self}, dnsNames: [" + names + "]}\n");
  EXPECT_EQ(cert.code, 1);
  EXPECT_NE(cert.err.find("spec.dnsNames: Too many: 300: must have at most 256 items"), std::string::npos) << cert.err;

  // Rules spanning fields are CEL rules of the CRDs: both API servers evaluate them.
  auto both = (*kubectl_)({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: both, namespace: team}
spec:
  groups:
  - name: g
    rules: [{record: r, alert: A, expr: up}]
)");
  EXPECT_EQ(both.code, 1);
  EXPECT_NE(both.err.find("The PrometheusRule \"both\" is invalid: spec.groups[0].rules[0]: Invalid value: a rule has either record (a recording rule) or alert (an alerting rule)"),
            std::string::npos)
      << both.err;

  // Accepted, and failing alone.
  kubectl_->ok({"apply", "-f", "-"}, kustomization("bomb", "bomb"));
  kubectl_->ok({"apply", "-f", "-"}, kustomization("heavy", "heavy"));
  kubectl_->ok({"apply", "--server-side", "-f", "-"}, huge_rule());

  std::int64_t peak = 0;
  auto watch_rss = [&] {
    peak = std::max(peak, rss_kib(manager_->pid()));
    return true;
  };
  // (Ready is False first while the GitRepository has no artifact yet.)
  std::string why;
  EXPECT_TRUE(eventually([&] {
    watch_rss();
    why = condition("kustomization", "bomb", "team", "Ready", "message");
    return ready("kustomization", "bomb") == "False" && why.find("bomb/bomb.yaml: it expands to more than") != std::string::npos;
  }, 60s)) << why;
  ASSERT_TRUE(eventually([&] {
    watch_rss();
    return get({"get", "events", "-n", "team", "--field-selector", "involvedObject.name=huge,reason=RuleRejected", "-o", "name"}) != "";
  }, 60s));

  // Past its memory budget: the reconcile fails alone, the object and an event say why.
  std::string heavy;  // "<reason>|<message>" in one read
  ASSERT_TRUE(eventually([&] {
    watch_rss();
    heavy = get({"get", "ks", "heavy", "-n", "team", "-o",
                 "jsonpath={.status.conditions[?(@.type==\"Ready\")].reason}|{.status.conditions[?(@.type==\"Ready\")].message}"});
    return heavy.rfind("ReconcileMemoryBudgetExceeded|", 0) == 0;
  }, 60s)) << heavy;
  EXPECT_NE(heavy.find("--reconcile-memory-limit"), std::string::npos) << heavy;
  EXPECT_TRUE(eventually([&] {
    return get({"get", "events", "-n", "team", "--field-selector", "involvedObject.name=heavy,reason=ReconcileMemoryBudgetExceeded",
                "-o", "name"}) != "";
  }, 30s));

  // Every controller's healthy object is Ready.
  EXPECT_TRUE(eventually([&] { return watch_rss() && ready("certificate", "web") == "True"; }, 60s)) << ready("certificate", "web");
  EXPECT_TRUE(eventually([&] { return watch_rss() && ready("kustomization", "good") == "True"; }, 60s)) << ready("kustomization", "good");
  EXPECT_EQ(get({"get", "configmap", "good", "-n", "team", "-o", "jsonpath={.data.color}"}), "blue");
  EXPECT_TRUE(eventually([&] { return watch_rss() && ready("kafka", "events") == "True"; }, 90s)) << ready("kafka", "events");
  EXPECT_TRUE(eventually([&] { return watch_rss() && condition("prometheus", "main", "team", "Reconciled") == "True"; }, 60s));
  std::string rule_files = get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "team", "-o", "jsonpath={.data}"});
  EXPECT_NE(rule_files.find("team-small-"), std::string::npos) << "the small rule is loaded";
  EXPECT_EQ(rule_files.find("team-huge-"), std::string::npos) << "the huge rule is not";

  // Bounded: the alias bomb alone would be gigabytes.
  EXPECT_GT(peak, 0);
  EXPECT_LT(peak, 256 * 1024) << "manager peak RSS " << peak << " KiB";
  std::cout << "[hostile] manager peak RSS " << peak / 1024 << " MiB\n";
}

CAPSTAN_E2E_BACKENDS(HostileE2E);

}  // namespace
}  // namespace capstan::e2e
