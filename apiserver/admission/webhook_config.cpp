#include "apiserver/admission/webhook_config.h"

#include <algorithm>

namespace capstan::apiserver::admission {
namespace {

std::vector<std::string> strings(const json::Value& v, json::Path p) {
  std::vector<std::string> out;
  if (const auto* a = json::get_array(v, p))
    for (const auto& s : *a)
      if (s.is_string()) out.emplace_back(s.get_string());
  return out;
}

Selector selector_of(const json::Value& hook, std::string_view field) {
  Selector s;
  const json::Value* v = json::find(hook, {field});
  try {
    s.selector = meta::LabelSelector::from_json(v && v->is_object() ? v : nullptr);
  } catch (const std::exception& e) {
    s.error = e.what();
  }
  return s;
}

}  // namespace

std::vector<Webhook> parse_configuration(const json::Value& configuration, bool mutating) {
  std::vector<Webhook> out;
  const auto* hooks = json::get_array(configuration, {"webhooks"});
  if (!hooks) return out;
  std::string config_name(json::get_string(configuration, {"metadata", "name"}));
  for (const auto& h : *hooks) {
    if (!h.is_object()) continue;
    Webhook w;
    w.configuration = config_name;
    w.name = json::get_string(h, {"name"});
    w.mutating = mutating;
    w.client = parse_client_config(json::find(h, {"clientConfig"}));
    if (const auto* rules = json::get_array(h, {"rules"})) {
      for (const auto& r : *rules) {
        Rule rule;
        rule.operations = strings(r, {"operations"});
        rule.api_groups = strings(r, {"apiGroups"});
        rule.api_versions = strings(r, {"apiVersions"});
        rule.resources = strings(r, {"resources"});
        rule.scope = json::get_string(r, {"scope"}, "*");
        w.rules.push_back(std::move(rule));
      }
    }
    w.failure_policy = json::get_string(h, {"failurePolicy"}, "Fail");
    w.match_policy = json::get_string(h, {"matchPolicy"}, "Equivalent");
    w.namespace_selector = selector_of(h, "namespaceSelector");
    w.object_selector = selector_of(h, "objectSelector");
    if (const auto* se = json::find(h, {"sideEffects"}); se && se->is_string()) w.side_effects = std::string(se->get_string());
    w.timeout_seconds = static_cast<int>(json::get_int(h, {"timeoutSeconds"}).value_or(10));
    w.admission_review_versions = strings(h, {"admissionReviewVersions"});
    if (const auto* mc = json::get_array(h, {"matchConditions"})) w.match_conditions = mc->size();
    if (mutating) w.reinvocation_policy = json::get_string(h, {"reinvocationPolicy"}, "Never");
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<Webhook> flatten_configurations(const std::vector<json::Value>& configurations, bool mutating) {
  std::vector<const json::Value*> sorted;
  for (const auto& c : configurations) sorted.push_back(&c);
  std::stable_sort(sorted.begin(), sorted.end(), [](const json::Value* a, const json::Value* b) {
    return json::get_string(*a, {"metadata", "name"}) < json::get_string(*b, {"metadata", "name"});
  });
  std::vector<Webhook> out;
  for (const auto* c : sorted)
    for (auto& w : parse_configuration(*c, mutating)) out.push_back(std::move(w));
  return out;
}

}  // namespace capstan::apiserver::admission
