// Rule files of a Prometheus, as prometheus-operator writes them (pkg/operator/rules.go): one
// file per selected PrometheusRule, named "<namespace>-<name>-<uid>.yaml" and holding its
// spec (the `groups:` document Prometheus reads), packed first-fit in name order into
// ConfigMaps "prometheus-<name>-rulefiles-<i>" of at most 512 KiB each.
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::monitoring {

inline constexpr std::size_t kMaxRuleConfigMapBytes = 512 * 1024;

// file name -> content, for the selected PrometheusRule objects.
std::map<std::string, std::string> rule_files(const std::vector<json::Value>& rules);

// The files packed into ConfigMap data maps (at least one, possibly empty: Prometheus always
// mounts its first rule ConfigMap). Throws std::length_error naming a file bigger than a
// ConfigMap can hold.
std::vector<std::map<std::string, std::string>> pack_rule_files(const std::map<std::string, std::string>& files,
                                                                std::size_t max_bytes = kMaxRuleConfigMapBytes);

}  // namespace capstan::monitoring
