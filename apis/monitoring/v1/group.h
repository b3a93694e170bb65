// The monitoring.capstan.dev/v1 API group: prometheus-operator's Prometheus, ServiceMonitor,
// PodMonitor, Probe, PrometheusRule and Alertmanager (monitoring.coreos.com/v1), PrometheusAgent,
// ScrapeConfig and AlertmanagerConfig (v1alpha1 there) under our group name, so a prometheus-operator manifest
// ports by changing its apiVersion. types.h lists the fields
// Capstan implements.
#pragma once

#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::apis::monitoring::v1 {

// The resources of this group (one declaration for the controllers, webhooks and tools).
inline const meta::ResourceType kPrometheusType{{"monitoring.capstan.dev", "v1", "prometheuses"}, "Prometheus", true};
inline const meta::ResourceType kPrometheusAgentType{{"monitoring.capstan.dev", "v1", "prometheusagents"}, "PrometheusAgent", true};
inline const meta::ResourceType kServiceMonitorType{{"monitoring.capstan.dev", "v1", "servicemonitors"}, "ServiceMonitor", true};
inline const meta::ResourceType kPodMonitorType{{"monitoring.capstan.dev", "v1", "podmonitors"}, "PodMonitor", true};
inline const meta::ResourceType kProbeType{{"monitoring.capstan.dev", "v1", "probes"}, "Probe", true};
inline const meta::ResourceType kScrapeConfigType{{"monitoring.capstan.dev", "v1", "scrapeconfigs"}, "ScrapeConfig", true};
inline const meta::ResourceType kPrometheusRuleType{{"monitoring.capstan.dev", "v1", "prometheusrules"}, "PrometheusRule", true};
inline const meta::ResourceType kAlertmanagerType{{"monitoring.capstan.dev", "v1", "alertmanagers"}, "Alertmanager", true};
inline const meta::ResourceType kAlertmanagerConfigType{{"monitoring.capstan.dev", "v1", "alertmanagerconfigs"}, "AlertmanagerConfig", true};

inline constexpr std::string_view kGroup = "monitoring.capstan.dev";
inline constexpr std::string_view kVersion = "v1";
inline constexpr std::string_view kApiVersion = "monitoring.capstan.dev/v1";

inline constexpr std::string_view kPrometheusKind = "Prometheus";
inline constexpr std::string_view kPrometheusAgentKind = "PrometheusAgent";
inline constexpr std::string_view kServiceMonitorKind = "ServiceMonitor";
inline constexpr std::string_view kPodMonitorKind = "PodMonitor";
inline constexpr std::string_view kProbeKind = "Probe";
inline constexpr std::string_view kScrapeConfigKind = "ScrapeConfig";
inline constexpr std::string_view kPrometheusRuleKind = "PrometheusRule";
inline constexpr std::string_view kAlertmanagerKind = "Alertmanager";
inline constexpr std::string_view kAlertmanagerConfigKind = "AlertmanagerConfig";

// Condition types and reasons (pkg/apis/monitoring/v1/types.go, pkg/operator/statefulset_reporter.go).
namespace condition {
inline constexpr std::string_view kAvailable = "Available";
inline constexpr std::string_view kReconciled = "Reconciled";
// On a monitor's or rule's status.bindings[]: whether the Prometheus took it.
inline constexpr std::string_view kAccepted = "Accepted";
}  // namespace condition
namespace reason {
inline constexpr std::string_view kStatefulSetNotFound = "StatefulSetNotFound";
inline constexpr std::string_view kNoPodReady = "NoPodReady";
inline constexpr std::string_view kSomePodsNotReady = "SomePodsNotReady";
inline constexpr std::string_view kReconcileError = "ReconcileError";
inline constexpr std::string_view kPaused = "Paused";
// A selected PrometheusRule left out of a Prometheus (its rule file fits no ConfigMap).
inline constexpr std::string_view kRuleRejected = "RuleRejected";
// Accepted (binding conditions): taken; refused for a field Prometheus would reject; or matched
// by a Prometheus's selector in a namespace its namespace selector leaves out.
inline constexpr std::string_view kAcceptedReason = "Accepted";
inline constexpr std::string_view kInvalidConfiguration = "InvalidConfiguration";
inline constexpr std::string_view kNamespaceNotSelected = "NamespaceNotSelected";
}  // namespace reason

}  // namespace capstan::apis::monitoring::v1
