#include "controllers/monitoring/rules.h"

#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/meta/hash.h"
#include "runtime/meta/object.h"
#include "runtime/json/yaml.h"

#include <optional>
#include <stdexcept>

namespace capstan::monitoring {

namespace {

// Why Prometheus would refuse to load this PrometheusRule's groups (its whole reload would fail),
// or "" when they load: every error, naming the group and rule index.
std::string load_errors(const json::Value& rule) {
  std::string why;
  for (const auto& cause : apis::monitoring::v1::validate_prometheus_rule(rule)) why += (why.empty() ? "" : "; ") + cause.error();
  return why;
}

}  // namespace

RuleFiles rule_files(const std::vector<json::Value>& rules, std::size_t max_bytes) {
  RuleFiles out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto& r = rules[i];
    apis::monitoring::v1::PrometheusRule rule;
    try {
      rule = apis::monitoring::v1::PrometheusRule::from_json(r);
    } catch (const apis::codec::DecodeError& e) {
      out.rejected.emplace_back(i, std::string("it cannot be read: ") + e.what());
      continue;
    }
    std::string name = std::string(rule.namespace_()) + "-" + std::string(rule.name()) + "-" + std::string(meta::uid_of(r)) + ".yaml";
    std::string content = json::to_yaml(rule.spec.to_json());
    if (name.size() + content.size() > max_bytes) {
      out.rejected.emplace_back(i, "its rule file is " + std::to_string(name.size() + content.size()) +
                                       " bytes, more than a rule ConfigMap holds (" + std::to_string(max_bytes) + ")");
      continue;
    }
    if (std::string why = load_errors(r); !why.empty()) {
      out.rejected.emplace_back(i, "its rules are invalid: " + why);
      continue;
    }
    out.files[std::move(name)] = std::move(content);
  }
  return out;
}

namespace {

using Bins = std::vector<std::map<std::string, std::string>>;

// The files over `count` buckets by the hash of their names, or nothing when one overflows.
std::optional<Bins> spread(const std::map<std::string, std::string>& files, std::size_t count, std::size_t max_bytes) {
  Bins bins(count);
  std::vector<std::size_t> sizes(count, 0);
  for (const auto& [name, content] : files) {
    std::size_t i = meta::fnv1a64(name) % count;
    sizes[i] += name.size() + content.size();
    if (sizes[i] > max_bytes) return std::nullopt;
    bins[i][name] = content;
  }
  return bins;
}

bool power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace

std::vector<std::map<std::string, std::string>> shard_rule_files(const std::map<std::string, std::string>& files, std::size_t current,
                                                                 const RuleSharding& limits) {
  std::size_t total = 0;
  for (const auto& [name, content] : files) {
    std::size_t size = name.size() + content.size();
    if (size > limits.max_bytes)
      throw std::length_error("rule file " + name + " is " + std::to_string(size) + " bytes, more than a ConfigMap holds (" +
                              std::to_string(limits.max_bytes) + ")");
    total += size;
  }
  if (power_of_two(current) && current <= limits.max_configmaps && total <= 2 * current * limits.target_bytes &&
      (current == 1 || total * 4 > current * limits.target_bytes))
    if (auto bins = spread(files, current, limits.max_bytes)) return std::move(*bins);
  std::size_t count = 1;
  while (count < limits.max_configmaps && count * limits.target_bytes < total) count *= 2;
  for (; count <= limits.max_configmaps; count *= 2)
    if (auto bins = spread(files, count, limits.max_bytes)) return std::move(*bins);
  throw std::length_error("rule files of " + std::to_string(total) + " bytes do not fit in " + std::to_string(limits.max_configmaps) +
                          " ConfigMaps of " + std::to_string(limits.max_bytes) + " bytes");
}

}  // namespace capstan::monitoring
