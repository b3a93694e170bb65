// Rule files of a Prometheus, as prometheus-operator writes them (pkg/operator/rules.go): one
// file per selected PrometheusRule, named "<namespace>-<name>-<uid>.yaml" and holding its
// spec (the `groups:` document Prometheus reads), in ConfigMaps "prometheus-<name>-rulefiles-<i>"
// of at most 512 KiB each. Unlike prometheus-operator, which packs the files first-fit in name
// order (so one rule added early in the order moves every file after it, and each change rewrites
// up to 512 KiB), a file's ConfigMap follows from a stable hash of its name over a power-of-two
// count sized for about 64 KiB each: one rule changed rewrites one small ConfigMap, whatever the
// total.
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::monitoring {

inline constexpr std::size_t kMaxRuleConfigMapBytes = 512 * 1024;
inline constexpr std::size_t kRuleConfigMapTargetBytes = 64 * 1024;
// Each rule ConfigMap is a volume of the pod; 256 of 512 KiB hold 128 MiB of rules.
inline constexpr std::size_t kMaxRuleConfigMaps = 256;

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

struct RuleSharding {
  std::size_t max_bytes = kMaxRuleConfigMapBytes;  // a ConfigMap's data never exceeds it
  std::size_t target_bytes = kRuleConfigMapTargetBytes;
  std::size_t max_configmaps = kMaxRuleConfigMaps;
};

// The files spread over ConfigMap data maps: a power-of-two count of them (at least one,
// possibly empty: Prometheus always mounts its first rule ConfigMap), each file in the one its
// name's FNV-1a hash picks. `current` is how many there are now: that count is kept while the
// files fit it (no bucket over max_bytes) and the total is within a quarter to twice its target,
// so a rule added or removed at a boundary does not move every file back and forth; otherwise
// the count is the smallest power of two whose target holds the total, doubled until no bucket
// overflows. Throws std::length_error naming a file bigger than a ConfigMap can hold, or when
// max_configmaps cannot hold the files.
std::vector<std::map<std::string, std::string>> shard_rule_files(const std::map<std::string, std::string>& files, std::size_t current,
                                                                 const RuleSharding& limits = {});

}  // namespace capstan::monitoring
