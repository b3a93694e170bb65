// What a Prometheus refuses to take: every reason, with the field named; a sound object is taken.
#include "controllers/monitoring/acceptance.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::monitoring {
namespace {

json::Value monitor(const std::string& kind, const std::string& spec) {
  return json::from_yaml("apiVersion: monitoring.capstan.dev/v1\nkind: " + kind + "\nmetadata: {name: m, namespace: team, uid: u}\nspec:\n" + spec);
}

TEST(Acceptance, ASoundMonitorIsTaken) {
  EXPECT_EQ(service_monitor_problems(monitor("ServiceMonitor", "  selector: {}\n  endpoints: [{port: web, interval: 15s}]\n")), "");
  EXPECT_EQ(pod_monitor_problems(monitor("PodMonitor", "  selector: {}\n  podMetricsEndpoints: [{port: web}]\n")), "");
}

TEST(Acceptance, EveryFieldPrometheusWouldRefuseIsNamed) {
  auto why = service_monitor_problems(monitor("ServiceMonitor", R"(  selector: {}
  endpoints:
  - port: web
    interval: 10s
    scrapeTimeout: 20s
    relabelings: [{sourceLabels: [a], regex: "(", targetLabel: b}]
)"));
  EXPECT_NE(why.find("spec.endpoints[0].relabelings[0].regex"), std::string::npos) << why;
  EXPECT_NE(why.find("spec.endpoints[0].scrapeTimeout"), std::string::npos) << why;
}

TEST(Acceptance, AnObjectWrittenAroundTheSchemaCannotBeRead) {
  auto why = pod_monitor_problems(monitor("PodMonitor", "  selector: {}\n  podMetricsEndpoints: [{port: [web]}]\n"));
  EXPECT_TRUE(why.starts_with("it cannot be read: spec.podMetricsEndpoints[0].port")) << why;
}

TEST(Acceptance, ARuleWithABadExpressionIsRefused) {
  auto ok = monitor("PrometheusRule", "  groups: [{name: g, rules: [{record: 'a:b', expr: 'sum(up)'}]}]\n");
  EXPECT_EQ(prometheus_rule_problems(ok), "");
  auto bad = monitor("PrometheusRule", "  groups: [{name: g, rules: [{record: 'a:b', expr: 'sum(up'}]}]\n");
  auto why = prometheus_rule_problems(bad);
  EXPECT_NE(why.find("spec.groups[0].rules[0].expr"), std::string::npos) << why;
}

}  // namespace
}  // namespace capstan::monitoring
