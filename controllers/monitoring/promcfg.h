// Generates the Prometheus configuration of a Prometheus object from the ServiceMonitors,
// PodMonitors, Probes, ScrapeConfigs and rule files it selects, as prometheus-operator's
// promcfg.go does: the same job names (serviceMonitor/<ns>/<name>/<i>, podMonitor/<ns>/<name>/<i>,
// probe/<ns>/<name>, scrapeConfig/<ns>/<name>), the same Kubernetes service discovery and
// relabelings (selector keep rules, port filter, namespace / service / pod / container / job /
// endpoint labels, running-pod filter, target labels; a probe's target as the prober's `target`
// parameter), then the object's own relabelings. `promtool check config` accepts the result (tests/promcfg_test).
#pragma once

#include "apis/monitoring/v1/types.h"
#include "controllers/monitoring/assets.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::monitoring {

struct ConfigInputs {
  std::string ns, name;  // of the Prometheus
  const apis::monitoring::v1::PrometheusSpec* spec = nullptr;
  // A PrometheusAgent's: no evaluation interval, rule files or alerting (agent mode refuses them).
  bool agent = false;
  std::vector<apis::monitoring::v1::ServiceMonitor> service_monitors;  // selected, sorted by namespace/name
  std::vector<apis::monitoring::v1::PodMonitor> pod_monitors;
  std::vector<apis::monitoring::v1::Probe> probes;
  std::vector<apis::monitoring::v1::ScrapeConfig> scrape_configs;
  std::vector<std::string> rule_file_globs;  // "/etc/prometheus/rules/<configmap>/*.yaml"
  json::Array additional_scrape_configs;     // spec.additionalScrapeConfigs, read (additional_scrape_configs)
  // The values the selected objects reference (assets.h): a job names the file of each one read.
  Assets assets;
};

// The scrape configurations of spec.additionalScrapeConfigs from the Secret's value: a YAML list
// of objects with a job_name each. Throws std::invalid_argument naming what is wrong.
json::Array additional_scrape_configs(std::string_view yaml);

// The scrape class `name` of `spec` (nullptr when it has none of that name: such an object is left
// out), or for "" its default class (nullptr when it has none).
const apis::monitoring::v1::ScrapeClass* scrape_class(const apis::monitoring::v1::PrometheusSpec& spec, std::string_view name);

// The configuration as a JSON value (what to_yaml writes out).
json::Value generate_config(const ConfigInputs& in);

// Prometheus label name rules: every character outside [a-zA-Z0-9_] becomes '_'.
std::string sanitize_label_name(std::string_view name);

// A monitor's spec.relabelings entry (camelCase) as a Prometheus relabel_config (snake_case);
// the action is lowercased.
json::Value relabel_config(const apis::monitoring::v1::RelabelConfig& r);

}  // namespace capstan::monitoring
