#include "controllers/monitoring/rules.h"

#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/meta/object.h"
#include "runtime/json/yaml.h"

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

std::vector<std::map<std::string, std::string>> pack_rule_files(const std::map<std::string, std::string>& files,
                                                                std::size_t max_bytes) {
  std::vector<std::map<std::string, std::string>> bins(1);
  std::vector<std::size_t> sizes(1, 0);
  for (const auto& [name, content] : files) {
    std::size_t size = name.size() + content.size();
    if (size > max_bytes)
      throw std::length_error("rule file " + name + " is " + std::to_string(size) + " bytes, more than a ConfigMap holds (" +
                              std::to_string(max_bytes) + ")");
    std::size_t i = 0;
    while (i < bins.size() && sizes[i] + size > max_bytes) ++i;
    if (i == bins.size()) {
      bins.emplace_back();
      sizes.push_back(0);
    }
    bins[i][name] = content;
    sizes[i] += size;
  }
  return bins;
}

}  // namespace capstan::monitoring
