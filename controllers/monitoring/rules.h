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

struct RuleFiles {
  std::map<std::string, std::string> files;  // file name -> content
  // The PrometheusRules left out, by index in the input, with why: a rule that Prometheus would
  // refuse (a PromQL expression or duration that does not parse, ...; one such file stops every
  // reload) or a rule file that no ConfigMap can hold costs that PrometheusRule its place, never
  // the Prometheus its reconcile nor the other rules theirs.
  std::vector<std::pair<std::size_t, std::string>> rejected;
};

// The rule files of the selected PrometheusRule objects; a PrometheusRule that does not pass
// apis/monitoring/v1's validate_prometheus_rule, or whose file is over `max_bytes`, is rejected.
RuleFiles rule_files(const std::vector<json::Value>& rules, std::size_t max_bytes = kMaxRuleConfigMapBytes);

// The files packed into ConfigMap data maps (at least one, possibly empty: Prometheus always
// mounts its first rule ConfigMap). Throws std::length_error naming a file bigger than a
// ConfigMap can hold.
std::vector<std::map<std::string, std::string>> pack_rule_files(const std::map<std::string, std::string>& files,
                                                                std::size_t max_bytes = kMaxRuleConfigMapBytes);

}  // namespace capstan::monitoring
