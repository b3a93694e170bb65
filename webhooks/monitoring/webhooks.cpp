#include "webhooks/monitoring/webhooks.h"

#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::webhooks::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;
using Causes = std::vector<validation::Cause>;

webhook::Hook hook(std::string_view kind, std::string_view resource) {
  return webhook::kind_hook(v1::kGroup, v1::kVersion, kind, resource);
}

// The monitoring rules need no old object: every rule is about the object as it is.
webhook::Handler handler(Causes (*validate)(const json::Value&)) {
  return webhook::validating_handler([validate](const json::Value& obj, const json::Value*) { return validate(obj); });
}

}  // namespace

const std::vector<webhook::Hook>& hooks() {
  static const std::vector<webhook::Hook> all = {
      hook(v1::kPrometheusKind, "prometheuses"), hook(v1::kServiceMonitorKind, "servicemonitors"),
      hook(v1::kPodMonitorKind, "podmonitors"), hook(v1::kPrometheusRuleKind, "prometheusrules")};
  return all;
}

webhook::Handler prometheus_validating_handler() { return handler(&v1::validate_prometheus); }
webhook::Handler service_monitor_validating_handler() { return handler(&v1::validate_service_monitor); }
webhook::Handler pod_monitor_validating_handler() { return handler(&v1::validate_pod_monitor); }
webhook::Handler prometheus_rule_validating_handler() { return handler(&v1::validate_prometheus_rule); }

void register_webhooks(webhook::Server& server) {
  const auto& h = hooks();
  server.register_path(h[0].path, prometheus_validating_handler());
  server.register_path(h[1].path, service_monitor_validating_handler());
  server.register_path(h[2].path, pod_monitor_validating_handler());
  server.register_path(h[3].path, prometheus_rule_validating_handler());
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-monitoring", "monitoring", hooks(), endpoint);
}

}  // namespace capstan::webhooks::monitoring
