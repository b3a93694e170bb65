// Admission webhooks of monitoring.capstan.dev (prometheus-operator's admission webhook, for
// every kind): PrometheusRules through our PromQL parser and rulefmt's rules, so a bad expression
// is refused at `kubectl apply` and never reaches a rule ConfigMap (where it would stop every
// reload of Prometheus); ServiceMonitor and PodMonitor endpoints (RE2 relabel regexes, relabel
// actions, scrape timeout within the interval); Probes (prober address, targets) and
// ScrapeConfigs (static targets, file and HTTP discovery, Kubernetes discovery selectors);
// Prometheus (durations, sizes, label names, selectors, remote write); Alertmanager (retention,
// externalUrl, selectors); AlertmanagerConfig (receivers, routes, matchers: what would make
// Alertmanager refuse the merged configuration). No defaulting webhook: the operator's defaults
// are applied when it generates the configuration, as prometheus-operator does.
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/configuration.h"

#include <vector>

namespace capstan::webhook {
class Server;
}

namespace capstan::webhooks::monitoring {

const std::vector<webhook::Hook>& hooks();

webhook::Handler prometheus_validating_handler();
webhook::Handler service_monitor_validating_handler();
webhook::Handler pod_monitor_validating_handler();
webhook::Handler prometheus_rule_validating_handler();
webhook::Handler alertmanager_validating_handler();
webhook::Handler alertmanager_config_validating_handler();
webhook::Handler probe_validating_handler();
webhook::Handler scrape_config_validating_handler();
webhook::Handler prometheus_agent_validating_handler();

void register_webhooks(webhook::Server& server);

// ValidatingWebhookConfiguration "capstan-monitoring".
std::vector<json::Value> configurations(const webhook::Endpoint& endpoint);

}  // namespace capstan::webhooks::monitoring
