#include "controllers/monitoring/acceptance.h"

#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"
#include "controllers/monitoring/promcfg.h"
#include "controllers/monitoring/rules.h"

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

template <class Monitor>
std::string monitor_problems(const json::Value& obj, std::vector<validation::Cause> (*validate)(const json::Value&)) {
  try {
    (void)Monitor::from_json(obj);
  } catch (const apis::codec::DecodeError& e) {
    return std::string("it cannot be read: ") + e.what();
  }
  std::string why;
  for (const auto& cause : validate(obj)) why += (why.empty() ? "" : "; ") + cause.error();
  return why;
}

}  // namespace

std::string service_monitor_problems(const json::Value& obj) {
  return monitor_problems<v1::ServiceMonitor>(obj, v1::validate_service_monitor);
}

std::string pod_monitor_problems(const json::Value& obj) { return monitor_problems<v1::PodMonitor>(obj, v1::validate_pod_monitor); }

std::string probe_problems(const json::Value& obj) { return monitor_problems<v1::Probe>(obj, v1::validate_probe); }

std::string scrape_config_problems(const json::Value& obj) {
  return monitor_problems<v1::ScrapeConfig>(obj, v1::validate_scrape_config);
}

std::string alertmanager_config_problems(const json::Value& obj) {
  return monitor_problems<v1::AlertmanagerConfig>(obj, v1::validate_alertmanager_config);
}

std::string scrape_class_problem(const v1::PrometheusSpec& spec, const json::Value& obj, std::string_view workload) {
  const std::string_view name = json::get_string(obj, {"spec", "scrapeClass"});
  if (name.empty() || scrape_class(spec, name)) return {};
  return "spec.scrapeClass: Invalid value: \"" + std::string(name) + "\": " + std::string(workload) + " has no such scrape class (spec.scrapeClasses)";
}

std::string prometheus_rule_problems(const json::Value& obj) {
  auto files = rule_files({obj});
  return files.rejected.empty() ? std::string() : files.rejected.front().second;
}

}  // namespace capstan::monitoring
