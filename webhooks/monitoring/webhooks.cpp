#include "webhooks/monitoring/webhooks.h"

#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::webhooks::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;
using Causes = std::vector<validation::Cause>;

// The monitoring rules need no old object: every rule is about the object as it is.
webhook::Handler handler(Causes (*validate)(const json::Value&)) {
  return webhook::validating_handler([validate](const json::Value& obj, const json::Value*) { return validate(obj); });
}

}  // namespace

const std::vector<webhook::Hook>& hooks() {
  static const std::vector<webhook::Hook> all = {
      webhook::kind_hook(v1::kPrometheusType), webhook::kind_hook(v1::kServiceMonitorType),
      webhook::kind_hook(v1::kPodMonitorType), webhook::kind_hook(v1::kPrometheusRuleType),
      webhook::kind_hook(v1::kAlertmanagerType), webhook::kind_hook(v1::kAlertmanagerConfigType),
      webhook::kind_hook(v1::kProbeType),        webhook::kind_hook(v1::kScrapeConfigType),
      webhook::kind_hook(v1::kPrometheusAgentType)};
  return all;
}

webhook::Handler prometheus_validating_handler() { return handler(&v1::validate_prometheus); }
webhook::Handler service_monitor_validating_handler() { return handler(&v1::validate_service_monitor); }
webhook::Handler pod_monitor_validating_handler() { return handler(&v1::validate_pod_monitor); }
webhook::Handler prometheus_rule_validating_handler() { return handler(&v1::validate_prometheus_rule); }
webhook::Handler alertmanager_validating_handler() { return handler(&v1::validate_alertmanager); }
webhook::Handler alertmanager_config_validating_handler() { return handler(&v1::validate_alertmanager_config); }
webhook::Handler probe_validating_handler() { return handler(&v1::validate_probe); }
webhook::Handler scrape_config_validating_handler() { return handler(&v1::validate_scrape_config); }
// An agent's fields are a subset of a Prometheus's, checked the same way.
webhook::Handler prometheus_agent_validating_handler() { return handler(&v1::validate_prometheus); }

void register_webhooks(webhook::Server& server) {
  const auto& h = hooks();
  server.register_path(h[0].path, prometheus_validating_handler());
  server.register_path(h[1].path, service_monitor_validating_handler());
  server.register_path(h[2].path, pod_monitor_validating_handler());
  server.register_path(h[3].path, prometheus_rule_validating_handler());
  server.register_path(h[4].path, alertmanager_validating_handler());
  server.register_path(h[5].path, alertmanager_config_validating_handler());
  server.register_path(h[6].path, probe_validating_handler());
  server.register_path(h[7].path, scrape_config_validating_handler());
  server.register_path(h[8].path, prometheus_agent_validating_handler());
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-monitoring", "monitoring", hooks(), endpoint);
}

}  // namespace capstan::webhooks::monitoring
