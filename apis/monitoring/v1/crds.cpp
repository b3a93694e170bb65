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

// A monitor's or rule's CRD. `kubectl get servicemonitors` answers "why isn't my monitor picked
// up?": the first Prometheus (or PrometheusAgent) that selects it (most objects have one) and
// whether it took it.
json::Value bound_crd(const CrdNames& names, json::Value schema) {
  return make_crd(kGroupVersion, names, true, std::move(schema),
                  {{"Prometheus", "string", ".status.bindings[0].name", 0, "The first Prometheus whose selectors choose this resource"},
                   {"Accepted", "string", R"(.status.bindings[0].conditions[?(@.type == 'Accepted')].status)", 0,
                    "Whether that Prometheus loaded it"},
                   {"Reason", "string", R"(.status.bindings[0].conditions[?(@.type == 'Accepted')].reason)", 1, "Why it did not"},
                   age_column()});
}

// A Prometheus's or PrometheusAgent's CRD: prometheus-operator's columns, and `kubectl scale
// prometheus --replicas=N` sets the shards, as with prometheus-operator.
json::Value server_crd(const CrdNames& names, json::Value schema) {
  json::Value crd = make_crd(kGroupVersion, names, true, std::move(schema),
                             {{"Version", "string", ".spec.version", 0, "The version of Prometheus"},
                              {"Desired", "integer", ".spec.replicas", 0, "The number of desired replicas"},
                              {"Ready", "integer", ".status.availableReplicas", 0, "The number of ready replicas"},
                              condition_column("Reconciled", "Reconciled"),
                              condition_column("Available", "Available"),
                              age_column(),
                              {"Paused", "boolean", ".status.paused", 1, "Whether the resource reconciliation is paused or not"}});
  add_scale_subresource(crd, ".spec.shards", ".status.shards", ".status.selector");
  return crd;
}

}  // namespace

std::vector<json::Value> crds() {
  json::Value prometheus = server_crd({kPrometheusKind, "prometheuses", "prometheus", {"prom"}}, prometheus_schema());
  json::Value agent = server_crd({kPrometheusAgentKind, "prometheusagents", "prometheusagent", {"promagent"}}, prometheus_agent_schema());
  return {
      std::move(prometheus),
      std::move(agent),
      bound_crd({kServiceMonitorKind, "servicemonitors", "servicemonitor", {"smon"}}, service_monitor_schema()),
      bound_crd({kPodMonitorKind, "podmonitors", "podmonitor", {"pmon"}}, pod_monitor_schema()),
      bound_crd({kProbeKind, "probes", "probe", {"prb"}}, probe_schema()),
      bound_crd({kScrapeConfigKind, "scrapeconfigs", "scrapeconfig", {"scfg"}}, scrape_config_schema()),
      bound_crd({kPrometheusRuleKind, "prometheusrules", "prometheusrule", {"promrule"}}, prometheus_rule_schema()),
      make_crd(kGroupVersion, {kAlertmanagerKind, "alertmanagers", "alertmanager", {"am"}}, true, alertmanager_schema(),
               {{"Version", "string", ".spec.version", 0, "The version of Alertmanager"},
                {"Replicas", "integer", ".spec.replicas", 0, "The number of desired replicas"},
                {"Ready", "integer", ".status.availableReplicas", 0, "The number of ready replicas"},
                condition_column("Reconciled", "Reconciled"),
                condition_column("Available", "Available"),
                age_column(),
                {"Paused", "boolean", ".status.paused", 1, "Whether the resource reconciliation is paused or not"}}),
      make_crd(kGroupVersion, {kAlertmanagerConfigKind, "alertmanagerconfigs", "alertmanagerconfig", {"amcfg"}}, true,
               alertmanager_config_schema(), {age_column()}),
  };
}

}  // namespace capstan::apis::monitoring::v1
