#include "apis/monitoring/v1/crds.h"

#include "apis/common/crd.h"
#include "apis/monitoring/v1/group.h"

namespace capstan::apis::monitoring::v1 {
namespace {

constexpr CrdGroupVersion kGroupVersion{kGroup, kVersion};

PrinterColumn condition_column(std::string_view name, std::string_view type) {
  // The JSON paths must outlive the CRD build: they are literals.
  if (type == "Reconciled") return {name, "string", R"(.status.conditions[?(@.type == 'Reconciled')].status)"};
  return {name, "string", R"(.status.conditions[?(@.type == 'Available')].status)"};
}

}  // namespace

std::vector<json::Value> crds() {
  return {
      make_crd(kGroupVersion, {kPrometheusKind, "prometheuses", "prometheus", {"prom"}}, true, prometheus_schema(),
               {{"Version", "string", ".spec.version", 0, "The version of Prometheus"},
                {"Desired", "integer", ".spec.replicas", 0, "The number of desired replicas"},
                {"Ready", "integer", ".status.availableReplicas", 0, "The number of ready replicas"},
                condition_column("Reconciled", "Reconciled"),
                condition_column("Available", "Available"),
                age_column(),
                {"Paused", "boolean", ".status.paused", 1, "Whether the resource reconciliation is paused or not"}}),
      make_crd(kGroupVersion, {kServiceMonitorKind, "servicemonitors", "servicemonitor", {"smon"}}, true, service_monitor_schema(), {}),
      make_crd(kGroupVersion, {kPodMonitorKind, "podmonitors", "podmonitor", {"pmon"}}, true, pod_monitor_schema(), {}),
      make_crd(kGroupVersion, {kPrometheusRuleKind, "prometheusrules", "prometheusrule", {"promrule"}}, true, prometheus_rule_schema(),
               {}),
  };
}

}  // namespace capstan::apis::monitoring::v1
