#include "apiserver/admission/matcher.h"

namespace capstan::apiserver::admission {
namespace {

bool exact_or_wildcard(const std::vector<std::string>& items, std::string_view requested) {
  for (const auto& i : items)
    if (i == "*" || i == requested) return true;
  return false;
}

bool is_namespace_resource(const RuleTarget& t) { return t.group.empty() && t.resource == "namespaces"; }

bool scope_matches(const Rule& r, const RuleTarget& t) {
  if (r.scope.empty() || r.scope == "*") return true;
  // A Namespace is cluster-scoped even though its requests carry its name as namespace.
  if (r.scope == "Namespaced") return !is_namespace_resource(t) && !t.ns.empty();
  if (r.scope == "Cluster") return is_namespace_resource(t) || t.ns.empty();
  return false;
}

bool resource_matches(const Rule& r, const RuleTarget& t) {
  for (const auto& entry : r.resources) {
    std::string_view e = entry;
    std::string_view res = e, sub;
    if (auto slash = e.find('/'); slash != std::string_view::npos) {
      res = e.substr(0, slash);
      sub = e.substr(slash + 1);
    }
    bool res_ok = res == "*" || res == t.resource;
    bool sub_ok = sub == "*" || sub == t.subresource;
    if (res_ok && sub_ok) return true;
  }
  return false;
}

}  // namespace

bool rule_matches(const Rule& rule, const RuleTarget& t) {
  return scope_matches(rule, t) && exact_or_wildcard(rule.operations, t.operation) &&
         exact_or_wildcard(rule.api_groups, t.group) && exact_or_wildcard(rule.api_versions, t.version) &&
         resource_matches(rule, t);
}

std::optional<std::string> match_version(const Webhook& hook, const registry::ResourceInfo& r, const RuleTarget& t) {
  for (const auto& rule : hook.rules)
    if (rule_matches(rule, t)) return std::string(t.version);
  if (hook.match_policy != "Equivalent") return std::nullopt;
  // Earlier rules first; within a rule, the resource's versions in priority order.
  for (const auto& rule : hook.rules) {
    for (const auto& v : r.versions) {
      if (!v.served || v.name == t.version) continue;
      RuleTarget other = t;
      other.version = v.name;
      if (rule_matches(rule, other)) return v.name;
    }
  }
  return std::nullopt;
}

bool object_selector_matches(const meta::LabelSelector& s, const json::Value* object, const json::Value* old_object) {
  if (s.empty()) return true;
  auto one = [&](const json::Value* o) { return o && o->is_object() && s.matches(*o); };
  return one(object) || one(old_object);
}

bool is_exempt(std::string_view group, std::string_view kind) {
  if (group != "admissionregistration.k8s.io") return false;
  return kind == "ValidatingWebhookConfiguration" || kind == "MutatingWebhookConfiguration" ||
         kind == "ValidatingAdmissionPolicy" || kind == "ValidatingAdmissionPolicyBinding" ||
         kind == "MutatingAdmissionPolicy" || kind == "MutatingAdmissionPolicyBinding";
}

}  // namespace capstan::apiserver::admission
