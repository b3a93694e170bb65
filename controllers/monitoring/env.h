// What the monitoring reconciler shares: the client and the shared informers (Prometheus
// objects, the monitors and rules they select, Namespaces for namespace selectors, and the
// StatefulSets, ConfigMaps, Secrets and Services it owns, narrowed by label to its own).
#pragma once

#include "apis/monitoring/v1/group.h"
#include "runtime/controller/builder.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/gvk.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}
namespace capstan::events {
class Recorder;
}

namespace capstan::monitoring {

class ReferencedObjects;

using apis::monitoring::v1::kAlertmanagerConfigType;
using apis::monitoring::v1::kAlertmanagerType;
using apis::monitoring::v1::kPodMonitorType;
using apis::monitoring::v1::kPrometheusAgentType;
using apis::monitoring::v1::kProbeType;
using apis::monitoring::v1::kScrapeConfigType;
using apis::monitoring::v1::kPrometheusRuleType;
using apis::monitoring::v1::kPrometheusType;
using apis::monitoring::v1::kServiceMonitorType;
using meta::core::kConfigMapType;
using meta::core::kNamespaceType;
using meta::core::kSecretType;
using meta::core::kServiceType;
using meta::core::kStatefulSetType;

// Only the StatefulSets this controller made are cached.
inline constexpr std::string_view kOwnedSelector = "app.kubernetes.io/managed-by=capstan-monitoring";
inline constexpr std::string_view kEventComponent = "capstan-monitoring";

struct MonitoringOptions {
  int max_concurrent_reconciles = 2;
  // Full reconcile of every Prometheus at least this often (prometheus-operator's resync).
  std::chrono::milliseconds resync{300'000};
  bool record_events = true;
};

struct Env {
  // The children's informers, narrowed to ours by kOwnedSelector.
  struct Owned {
    cache::Informer& statefulsets;
    cache::Informer& configmaps;
    cache::Informer& secrets;
    cache::Informer& services;
  };
  // The Probes and ScrapeConfigs a Prometheus selects, beside its monitors.
  struct Scrapes {
    cache::Informer& probes;
    cache::Informer& scrape_configs;
  };
  // The Alertmanagers and the AlertmanagerConfigs they select.
  struct Alerting {
    cache::Informer& alertmanagers;
    cache::Informer& configs;
  };
  Env(client::Client& client, cache::Informer& prometheuses, cache::Informer& prometheus_agents, cache::Informer& service_monitors, cache::Informer& pod_monitors,
      cache::Informer& rules, cache::Informer& namespaces, Scrapes scrapes, Owned owned, Alerting alerting, MonitoringOptions options);
  ~Env();

  client::Client& client;
  cache::Informer& prometheuses;
  cache::Informer& prometheus_agents;
  cache::Informer& service_monitors;
  cache::Informer& pod_monitors;
  cache::Informer& probes;
  cache::Informer& scrape_configs;
  cache::Informer& rules;
  cache::Informer& namespaces;
  cache::Informer& statefulsets;
  cache::Informer& configmaps;
  cache::Informer& secrets;
  cache::Informer& services;
  cache::Informer& alertmanagers;
  cache::Informer& alertmanager_configs;
  MonitoringOptions options;
  std::unique_ptr<events::Recorder> recorder;
  // The Secrets and ConfigMaps each reconcile read (null in tests that wire no controllers).
  std::unique_ptr<ReferencedObjects> references;

  // Records what `request` of controller `name` read (no-op without references).
  void record_reads(const std::string& name, const controller::Request& request, const std::vector<std::string>& ids) const;
  void event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const;
};

}  // namespace capstan::monitoring
