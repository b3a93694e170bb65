// The CustomResourceDefinitions of monitoring.capstan.dev/v1, generated from the OpenAPI schemas
// in schema.cpp: names, short names, categories and printer columns as prometheus-operator's
// (prom: Version, Desired, Ready, Reconciled, Available, Age; smon, pmon, promrule: none).
#pragma once

#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::monitoring::v1 {

json::Value prometheus_schema();
json::Value service_monitor_schema();
json::Value pod_monitor_schema();
json::Value prometheus_rule_schema();
json::Value alertmanager_schema();
json::Value alertmanager_config_schema();

// prometheuses, servicemonitors, podmonitors, prometheusrules, alertmanagers, alertmanagerconfigs.
std::vector<json::Value> crds();

}  // namespace capstan::apis::monitoring::v1
