// The CustomResourceDefinitions of monitoring.capstan.dev/v1, generated from the OpenAPI schemas
// in schema.cpp: names, short names, categories and printer columns as prometheus-operator's
// (prom: Version, Desired, Ready, Reconciled, Available, Age); monitors, probes, scrape configs and
// rules show their first binding.
#pragma once

#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::monitoring::v1 {

json::Value prometheus_schema();
json::Value prometheus_agent_schema();
json::Value service_monitor_schema();
json::Value pod_monitor_schema();
json::Value probe_schema();
json::Value scrape_config_schema();
json::Value prometheus_rule_schema();
json::Value alertmanager_schema();
json::Value alertmanager_config_schema();

// prometheuses, prometheusagents, servicemonitors, podmonitors, probes, scrapeconfigs, prometheusrules, alertmanagers,
// alertmanagerconfigs.
std::vector<json::Value> crds();

}  // namespace capstan::apis::monitoring::v1
