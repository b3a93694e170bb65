// C++ view of a monitoring.capstan.dev/v1 Prometheus, read from its JSON. Monitors and rules are
// read straight from their JSON by the config generator (controllers/monitoring/promcfg.h).
//
// Implemented from prometheus-operator (the rest of its spec is not in the CRD schema, so
// `kubectl apply`, which asks for strict field validation, refuses a manifest using it):
//   Prometheus      version, image, replicas (1), paused, serviceAccountName, resources,
//                   nodeSelector, tolerations, podMetadata, retention (24h), retentionSize,
//                   scrapeInterval (30s), scrapeTimeout, evaluationInterval (30s), externalLabels,
//                   replicaExternalLabelName (prometheus_replica), prometheusExternalLabelName
//                   (prometheus), {serviceMonitor,podMonitor,rule}{,Namespace}Selector,
//                   remoteWrite[{url, name, remoteTimeout}], logLevel, logFormat, enableFeatures,
//                   externalUrl, routePrefix, portName (web)
//   ServiceMonitor  selector, namespaceSelector{any, matchNames}, jobLabel, targetLabels,
//                   podTargetLabels, sampleLimit, targetLimit, endpoints[{port, targetPort, path,
//                   scheme, params, interval, scrapeTimeout, honorLabels, honorTimestamps,
//                   relabelings, metricRelabelings, filterRunning, tlsConfig{serverName,
//                   insecureSkipVerify}, followRedirects, enableHttp2}]
//   PodMonitor      the same with podMetricsEndpoints[{port, portNumber, ...}]
//   PrometheusRule  groups[{name, interval, labels, limit, query_offset, rules[{record | alert,
//                   expr, for, keep_firing_for, labels, annotations}]}]
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::monitoring::v1 {

// prometheus-operator's defaults (pkg/operator/defaults.go, the CRD's kubebuilder defaults).
inline constexpr std::string_view kDefaultPrometheusVersion = "v3.13.2";
inline constexpr std::string_view kDefaultPrometheusBaseImage = "quay.io/prometheus/prometheus";
inline constexpr std::string_view kDefaultScrapeInterval = "30s";
inline constexpr std::string_view kDefaultEvaluationInterval = "30s";
inline constexpr std::string_view kDefaultRetention = "24h";
inline constexpr std::string_view kDefaultPortName = "web";
inline constexpr std::string_view kDefaultReplicaLabel = "prometheus_replica";
inline constexpr std::string_view kDefaultPrometheusLabel = "prometheus";

struct RemoteWrite {
  std::string url, name, remote_timeout;
};

struct PrometheusSpec {
  std::string version;  // "" = kDefaultPrometheusVersion
  std::string image;    // "" = base image : version
  std::int32_t replicas = 1;
  bool paused = false;
  std::string service_account_name;
  std::string retention, retention_size;
  std::string scrape_interval{kDefaultScrapeInterval}, scrape_timeout, evaluation_interval{kDefaultEvaluationInterval};
  std::map<std::string, std::string> external_labels;
  std::string replica_external_label_name{kDefaultReplicaLabel};
  std::string prometheus_external_label_name{kDefaultPrometheusLabel};
  // Selectors as given (nullopt = the member is absent: selects nothing; for namespace selectors,
  // only the Prometheus's own namespace).
  std::optional<json::Value> service_monitor_selector, service_monitor_namespace_selector;
  std::optional<json::Value> pod_monitor_selector, pod_monitor_namespace_selector;
  std::optional<json::Value> rule_selector, rule_namespace_selector;
  std::vector<RemoteWrite> remote_write;
  std::string log_level, log_format, external_url, route_prefix;
  std::string port_name{kDefaultPortName};
  std::vector<std::string> enable_features;
  // Passed through to the pod as they are.
  std::optional<json::Value> resources, node_selector, tolerations, pod_metadata;

  std::string effective_image() const;
  std::string effective_version() const { return version.empty() ? std::string(kDefaultPrometheusVersion) : version; }
  // retention, defaulting to 24h only when neither retention nor retentionSize is set.
  std::string effective_retention() const;
};

PrometheusSpec parse_prometheus_spec(const json::Value& object);

}  // namespace capstan::apis::monitoring::v1
