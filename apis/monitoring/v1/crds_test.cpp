// The generated CRDs: accepted by our API server's CRD checks, prometheus-operator's names and
// columns, and schemas that keep every implemented field.
#include "apis/monitoring/v1/crds.h"

#include "apis/common/crd_test_util.h"
#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/schema/schema.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::monitoring::v1 {
namespace {

namespace schema = apiserver::schema;
using Strings = std::vector<std::string>;
using testing::column_names;
using testing::crd_version;
const auto& errors = testing::schema_errors;

const json::Value& crd_named(const std::vector<json::Value>& all, std::string_view plural) {
  for (const auto& c : all)
    if (json::get_string(c, {"spec", "names", "plural"}) == plural) return c;
  throw std::runtime_error("no CRD " + std::string(plural));
}

TEST(MonitoringCrds, AcceptedByTheApiServerWithPrometheusOperatorNames) {
  auto all = crds();
  ASSERT_EQ(all.size(), 9u);
  apiserver::builtin::CrdStrategy strategy;
  for (auto crd : all) {
    strategy.prepare_create(crd);
    EXPECT_TRUE(strategy.validate(crd, nullptr).empty()) << json::serialize(crd);
    EXPECT_EQ(json::get_string(crd, {"spec", "group"}), "monitoring.capstan.dev");
  }
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "prometheuses"), {"spec", "names", "shortNames"})), R"(["prom"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "servicemonitors"), {"spec", "names", "shortNames"})), R"(["smon"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "podmonitors"), {"spec", "names", "shortNames"})), R"(["pmon"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "prometheusrules"), {"spec", "names", "shortNames"})), R"(["promrule"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "probes"), {"spec", "names", "shortNames"})), R"(["prb"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "scrapeconfigs"), {"spec", "names", "shortNames"})), R"(["scfg"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "prometheusagents"), {"spec", "names", "shortNames"})), R"(["promagent"])");
  EXPECT_EQ(column_names(crd_named(all, "prometheusagents")), (Strings{"Version", "Desired", "Ready", "Reconciled", "Available", "Age", "Paused"}));
  EXPECT_EQ(column_names(crd_named(all, "probes")), (Strings{"Prometheus", "Accepted", "Reason", "Age"}));
  EXPECT_EQ(column_names(crd_named(all, "prometheuses")), (Strings{"Version", "Desired", "Ready", "Reconciled", "Available", "Age", "Paused"}));
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "alertmanagers"), {"spec", "names", "shortNames"})), R"(["am"])");
  EXPECT_EQ(json::serialize(*json::find(crd_named(all, "alertmanagerconfigs"), {"spec", "names", "shortNames"})), R"(["amcfg"])");
  EXPECT_EQ(column_names(crd_named(all, "alertmanagers")), (Strings{"Version", "Replicas", "Ready", "Reconciled", "Available", "Age", "Paused"}));
}

TEST(MonitoringCrds, SchemasKeepEveryImplementedField) {
  auto all = crds();
  EXPECT_EQ(errors(crd_named(all, "servicemonitors"), json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: ServiceMonitor
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: In, values: [front]}]}
  namespaceSelector: {matchNames: [shop]}
  jobLabel: app
  targetLabels: [team]
  podTargetLabels: [version]
  sampleLimit: 1000
  endpoints:
  - port: metrics
    path: /m
    scheme: https
    params: {format: [prometheus]}
    interval: 15s
    scrapeTimeout: 10s
    honorLabels: true
    relabelings: [{sourceLabels: [__meta_kubernetes_pod_node_name], targetLabel: node, action: replace}]
    metricRelabelings: [{regex: 'go_.*', action: drop, sourceLabels: [__name__]}]
    tlsConfig: {insecureSkipVerify: true, serverName: web}
)")),
            Strings{});
  EXPECT_EQ(errors(crd_named(all, "prometheusrules"), json::from_yaml(R"(
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: r, namespace: shop}
spec:
  groups:
  - name: web
    interval: 1m
    rules:
    - record: job:http_requests:rate5m
      expr: sum by (job) (rate(http_requests_total[5m]))
    - alert: WebDown
      expr: up{job="web"} == 0
      for: 5m
      labels: {severity: page}
      annotations: {summary: web is down}
)")),
            Strings{});
  auto bad = errors(crd_named(all, "prometheuses"),
                    json::from_yaml("{apiVersion: monitoring.capstan.dev/v1, kind: Prometheus, spec: {scrapeInterval: 30 seconds}}"));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("spec.scrapeInterval"), std::string::npos) << bad[0];
}

}  // namespace
}  // namespace capstan::apis::monitoring::v1
