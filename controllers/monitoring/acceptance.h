// Whether a Prometheus takes a monitor or rule: what the Prometheus reconciler leaves out of the
// configuration it generates (a field Prometheus would refuse stops its whole reload, so one bad
// object never reaches it) and what the object's status.bindings say. Each returns "" when the
// object is taken, else every reason, joined with "; ".
#pragma once

#include "apis/monitoring/v1/types.h"
#include "runtime/json/json.h"

#include <string>

namespace capstan::monitoring {

std::string service_monitor_problems(const json::Value& obj);
std::string pod_monitor_problems(const json::Value& obj);
std::string probe_problems(const json::Value& obj);
std::string scrape_config_problems(const json::Value& obj);
std::string prometheus_rule_problems(const json::Value& obj);
std::string alertmanager_config_problems(const json::Value& obj);

// Whether `workload` ("Prometheus obs/main", of spec `spec`) has the scrape class the object names
// in spec.scrapeClass (none named: yes): "" when it has, else why not.
std::string scrape_class_problem(const apis::monitoring::v1::PrometheusSpec& spec, const json::Value& obj, std::string_view workload);

}  // namespace capstan::monitoring
