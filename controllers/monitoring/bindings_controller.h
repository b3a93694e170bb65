// The status.bindings of ServiceMonitors, PodMonitors, Probes, ScrapeConfigs and PrometheusRules
// (which Prometheus or PrometheusAgent selects each one) and of AlertmanagerConfigs (which
// Alertmanager), and whether it took it — prometheus-operator's answer to "why isn't my
// ServiceMonitor picked up?", with one more case it does not give: labels that match a
// workload's selector in a namespace its namespace selector leaves out (NamespaceNotSelected).
// Each binding carries condition Accepted: True, or False with InvalidConfiguration and every
// field the workload would refuse, a scrape class it does not have, or the Secret or ConfigMap
// value the object references that cannot be read (the reconcilers leave such an object out:
// see acceptance.h and assets.h; a missing value is looked for again every minute). Bindings are
// recomputed when the object's spec or labels change, when a workload is created, changed or
// deleted (its bindings go with it) and when namespace labels change; the status is written only
// when it changed.
#pragma once

#include "apis/monitoring/v1/types.h"
#include "controllers/monitoring/assets.h"
#include "runtime/controller/reconcile.h"
#include "runtime/meta/gvk.h"

#include <optional>
#include <string>
#include <string_view>

namespace capstan::cache {
class Informer;
}

namespace capstan::monitoring {

struct Env;

// What differs between the kinds that carry bindings.
struct BoundKind {
  const meta::ResourceType& type;
  cache::Informer& (*informer)(Env&);
  // The PrometheusSpec selectors that choose this kind, and the namespace selector's JSON name.
  std::optional<json::Value> apis::monitoring::v1::PrometheusSpec::*selector;
  std::optional<json::Value> apis::monitoring::v1::PrometheusSpec::*namespace_selector;
  std::string_view namespace_selector_field;
  std::string (*problems)(const json::Value&);  // acceptance.h
  // The Secret and ConfigMap values an object references (assets.h); none for rules.
  std::vector<AssetRef> (*refs)(const json::Value&) = nullptr;
  // Selected by Alertmanagers (alertmanagerConfigSelector; selector and namespace_selector are
  // unused), not by Prometheuses and PrometheusAgents.
  bool alertmanagers = false;
};

const BoundKind& service_monitor_bindings();
const BoundKind& pod_monitor_bindings();
const BoundKind& probe_bindings();
const BoundKind& scrape_config_bindings();
const BoundKind& prometheus_rule_bindings();
const BoundKind& alertmanager_config_bindings();

controller::Result reconcile_bindings(Env& env, const BoundKind& kind, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::monitoring
