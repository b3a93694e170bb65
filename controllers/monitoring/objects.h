// The objects a Prometheus "<name>" in "<ns>" owns, named and labelled as prometheus-operator
// names them (pkg/prometheus/server/statefulset.go, pkg/prometheus/common.go); a
// PrometheusAgent's are the same but the rule ConfigMaps, under prom-agent-<name> (Flavor):
//
//   Secret       prometheus-<name>                 prometheus.yaml.gz (the generated config)
//   Secret       prometheus-<name>-tls-assets-0    the credentials, CAs and keys the jobs name (assets.h)
//   ConfigMaps   prometheus-<name>-rulefiles-<i>   the rule files (rules.h)
//   Service      prometheus-operated               headless, shared by the namespace's Prometheuses
//   StatefulSet  prometheus-<name>                 prometheus + config-reloader, its pods
//                                                  labelled app.kubernetes.io/name=prometheus, ...
//
// Each is built as the full desired object for server-side apply; the owned ones carry a
// controller reference to the Prometheus, the shared Service a plain owner reference.
#pragma once

#include "apis/monitoring/v1/types.h"
#include "runtime/json/json.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::monitoring {

inline constexpr std::string_view kGoverningService = "prometheus-operated";
inline constexpr std::string_view kConfigKey = "prometheus.yaml.gz";
inline constexpr std::string_view kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr std::string_view kShardLabel = "operator.prometheus.io/shard";
inline constexpr std::string_view kManagedBy = "capstan-monitoring";  // also the field manager
inline constexpr int kWebPort = 9090;

// What sets a Prometheus server's objects and a Prometheus agent's apart, under
// prometheus-operator's names: prometheus-<name> and prom-agent-<name>, the governing Services
// prometheus-operated and prometheus-agent-operated, pods labelled app.kubernetes.io/name
// prometheus or prometheus-agent. An agent has no rules and runs Prometheus with --agent.
struct Flavor {
  std::string_view prefix, app, mode, governing_service;
  bool agent;
};
inline constexpr Flavor kServer{"prometheus", "prometheus", "server", kGoverningService, false};
inline constexpr Flavor kAgent{"prom-agent", "prometheus-agent", "agent", "prometheus-agent-operated", true};

// <prefix>-<name> for shard 0, <prefix>-<name>-shard-<i> for the others.
std::string statefulset_name(std::string_view prometheus, std::int32_t shard = 0, const Flavor& f = kServer);
std::string config_secret_name(std::string_view prometheus, const Flavor& f = kServer);
std::string rule_configmap_name(std::string_view prometheus, std::size_t i);
// The pods' labels and the StatefulSet's selector (one shard's).
std::map<std::string, std::string> selector_labels(std::string_view prometheus, std::int32_t shard = 0, const Flavor& f = kServer);
// "app.kubernetes.io/instance=web,app.kubernetes.io/name=prometheus,..." (status.selector): the
// pods of every shard.
std::string selector_string(std::string_view prometheus, const Flavor& f = kServer);

// What a Secret's data may hold (kube-apiserver's limit): the gzipped configuration must fit.
inline constexpr std::size_t kMaxConfigSecretBytes = 1024 * 1024;
// Throws std::length_error naming the sizes when the gzipped configuration does not fit.
json::Value config_secret(const json::Value& prometheus, const std::string& config_yaml, const Flavor& f = kServer);
std::string assets_secret_name(std::string_view prometheus, const Flavor& f = kServer);  // <prefix>-<name>-tls-assets-0
// The values the jobs reference, by file name (assets.h), mounted at /etc/prometheus/certs.
// Throws std::length_error naming the sizes when they do not fit a Secret.
json::Value assets_secret(const json::Value& prometheus, const std::map<std::string, std::string>& files, const Flavor& f = kServer);
json::Value rule_configmap(const json::Value& prometheus, std::size_t i, const std::map<std::string, std::string>& files);
json::Value governing_service(const json::Value& prometheus, const Flavor& f = kServer);
// `rule_configmaps`: the names of the rule ConfigMaps to mount (none for an agent).
json::Value statefulset(const json::Value& prometheus, const apis::monitoring::v1::PrometheusSpec& spec,
                        const std::vector<std::string>& rule_configmaps, std::int32_t shard = 0, const Flavor& f = kServer);

}  // namespace capstan::monitoring
