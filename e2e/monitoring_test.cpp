// The monitoring controller against `capstan apiserver`, `capstan manager
// --controllers=monitoring`, kubectl and the real promtool: a Prometheus selecting a
// ServiceMonitor and a PrometheusRule gets prometheus-operator's objects (config Secret with
// prometheus.yaml.gz, rule ConfigMap, prometheus-operated Service, StatefulSet), becomes
// Available when its pods are Ready, and follows changes to what it selects.
#include "controllers/monitoring/gzip.h"
#include "testing/controller_fixture.h"
#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kManifests = R"(apiVersion: v1
kind: Namespace
metadata: {name: obs}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: obs}
spec:
  replicas: 2
  version: v2.53.0
  serviceMonitorSelector: {matchLabels: {team: shop}}
  serviceMonitorNamespaceSelector: {}
  ruleSelector: {}
  externalLabels: {cluster: e2e}
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: web, namespace: obs, labels: {team: shop}}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: metrics, interval: 15s}]
---
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: other, namespace: obs, labels: {team: billing}}
spec:
  selector: {matchLabels: {app: billing}}
  endpoints: [{port: metrics}]
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: web, namespace: obs}
spec:
  groups:
  - name: web
    rules:
    - alert: WebDown
      expr: up{job="web"} == 0
      for: 5m
      labels: {severity: page}
)";

class MonitoringE2E : public ControllerFixture {
 protected:
  MonitoringE2E() : ControllerFixture({"monitoring", /*simulate_workloads=*/true, "prometheus,statefulsets"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=monitoring"}; }

  std::string config() {
    auto b64 = get({"get", "secret", "prometheus-main", "-n", "obs", "-o", R"(jsonpath={.data.prometheus\.yaml\.gz})"});
    if (b64.empty()) return "";
    auto gz = meta::base64_decode(b64);
    return gz ? monitoring::gunzip(*gz) : "";
  }
};

TEST_P(MonitoringE2E, APrometheusGetsItsObjectsBecomesAvailableAndFollowsItsMonitors) {
  kubectl_->ok({"apply", "-f", "-"}, kManifests);

  // The objects prometheus-operator makes, under its names.
  ASSERT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/web/0") != std::string::npos; }, 30s)) << config();
  std::string cfg = config();
  EXPECT_EQ(cfg.find("serviceMonitor/obs/other/0"), std::string::npos) << "not selected (label team=billing)";
  EXPECT_NE(cfg.find("cluster: e2e"), std::string::npos) << cfg;
  EXPECT_NE(cfg.find("/etc/prometheus/rules/prometheus-main-rulefiles-0/*.yaml"), std::string::npos) << cfg;
  EXPECT_EQ(get({"get", "service", "prometheus-operated", "-n", "obs", "-o", "jsonpath={.spec.clusterIP}"}), "None");
  EXPECT_EQ(get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.spec.template.spec.containers[0].image}"}),
            "quay.io/prometheus/prometheus:v2.53.0");
  EXPECT_EQ(get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.metadata.ownerReferences[0].kind}"}),
            "Prometheus");

  // The rule file is what promtool accepts.
  std::string rules = get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "obs", "-o", "jsonpath={.data}"});
  EXPECT_NE(rules.find("obs-web-"), std::string::npos) << rules;
  std::string uid = get({"get", "prometheusrule", "web", "-n", "obs", "-o", "jsonpath={.metadata.uid}"});
  std::string file_key = "obs-web-" + uid + ".yaml";
  std::string escaped;
  for (char c : file_key) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
  std::string rule_file = get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "obs", "-o", "jsonpath={.data." + escaped + "}"});
  ASSERT_FALSE(rule_file.empty());
  write_file(dir_->file(file_key), rule_file);
  auto check = run({"promtool", "check", "rules", dir_->file(file_key)});
  EXPECT_EQ(check.code, 0) << check.out << check.err << rule_file;

  // The simulated pods turn Ready: the Prometheus is Available with 2 ready replicas.
  auto available = [&] { return condition("prometheus", "main", "obs", "Available"); };
  EXPECT_TRUE(eventually([&] { return available() == "True"; }, 30s)) << available();
  EXPECT_EQ(get({"get", "prometheus", "main", "-n", "obs", "-o", "jsonpath={.status.availableReplicas}"}), "2");
  std::string table = get({"get", "prometheus", "-n", "obs"});
  EXPECT_NE(table.find("VERSION"), std::string::npos) << table;
  EXPECT_NE(table.find("v2.53.0"), std::string::npos) << table;

  // Relabelled into the selection: the other monitor's job appears; deleted: the first goes.
  kubectl_->ok({"label", "--overwrite", "servicemonitor", "other", "-n", "obs", "team=shop"});
  EXPECT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/other/0") != std::string::npos; }, 20s)) << config();
  kubectl_->ok({"delete", "servicemonitor", "web", "-n", "obs"});
  EXPECT_TRUE(eventually([&] { return config().find("serviceMonitor/obs/web/0") == std::string::npos; }, 20s)) << config();

  // Scaled: the StatefulSet follows.
  kubectl_->ok({"patch", "prometheus", "main", "-n", "obs", "--type=merge", "-p", R"({"spec":{"replicas":1}})"});
  EXPECT_TRUE(eventually([&] {
    return get({"get", "statefulset", "prometheus-main", "-n", "obs", "-o", "jsonpath={.spec.replicas}"}) == "1";
  }, 20s));
}

CAPSTAN_E2E_BACKENDS(MonitoringE2E);

}  // namespace
}  // namespace capstan::e2e
