#include "apis/monitoring/v1/types.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::monitoring::v1 {
namespace {

TEST(MonitoringTypes, PrometheusDefaultsAsPrometheusOperator) {
  auto s = Prometheus::from_json(json::from_yaml("spec: {}")).spec;
  EXPECT_EQ(s.replicas, 1);
  EXPECT_EQ(s.effective_version(), "v3.13.2");
  EXPECT_EQ(s.effective_image(), "quay.io/prometheus/prometheus:v3.13.2");
  EXPECT_EQ(s.scrape_interval, "30s");
  EXPECT_EQ(s.evaluation_interval, "30s");
  EXPECT_EQ(s.effective_retention(), "24h");
  EXPECT_EQ(s.port_name, "web");
  EXPECT_EQ(s.replica_external_label_name, "prometheus_replica");
  EXPECT_EQ(s.prometheus_external_label_name, "prometheus");
  // Absent selectors select nothing (null), {} selects everything: the two must stay apart.
  EXPECT_FALSE(s.service_monitor_selector.has_value());
  EXPECT_FALSE(s.rule_namespace_selector.has_value());
}

TEST(MonitoringTypes, PrometheusFields) {
  auto s = Prometheus::from_json(json::from_yaml(R"(
spec:
  version: v2.53.0
  replicas: 2
  retentionSize: 10GB
  scrapeInterval: 15s
  externalLabels: {cluster: eu1}
  serviceMonitorSelector: {}
  ruleSelector: {matchLabels: {role: alerts}}
  remoteWrite: [{url: 'http://thanos:19291/api/v1/receive', name: thanos}]
  enableFeatures: [exemplar-storage]
)")).spec;
  EXPECT_EQ(s.effective_image(), "quay.io/prometheus/prometheus:v2.53.0");
  EXPECT_EQ(s.replicas, 2);
  EXPECT_EQ(s.effective_retention(), "") << "retentionSize alone: no time-based retention";
  EXPECT_EQ(s.scrape_interval, "15s");
  EXPECT_EQ(s.external_labels.at("cluster"), "eu1");
  ASSERT_TRUE(s.service_monitor_selector.has_value());
  EXPECT_TRUE(s.service_monitor_selector->is_object());
  EXPECT_EQ(json::get_string(*s.rule_selector, {"matchLabels", "role"}), "alerts");
  ASSERT_EQ(s.remote_write.size(), 1u);
  EXPECT_EQ(s.remote_write[0].name, "thanos");
  EXPECT_EQ(s.enable_features, std::vector<std::string>{"exemplar-storage"});
}

}  // namespace
}  // namespace capstan::apis::monitoring::v1
