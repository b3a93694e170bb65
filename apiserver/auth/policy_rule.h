// One rbac.authorization.k8s.io/v1 PolicyRule, how it matches a request (rbac.RuleAllows and the
// helpers of pkg/apis/rbac/v1: "*" everywhere, "*/subresource", resourceNames, nonResourceURLs
// with a trailing "*"), and its JSON and compact string forms.
#pragma once

#include "apiserver/auth/attributes.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::apiserver::auth {

struct PolicyRule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
  std::vector<std::string> non_resource_urls;
  bool operator==(const PolicyRule&) const = default;
};

// The string items of the array member `key` of `v` (other items skipped; none when `v` is not
// an object or the member is missing or not an array).
std::vector<std::string> string_items(const json::Value& v, std::string_view key);

// Reads a rule leniently: members of the wrong type read as empty, non-string items are skipped
// (a malformed stored object grants nothing it does not spell out).
PolicyRule parse_policy_rule(const json::Value& v);
std::vector<PolicyRule> parse_policy_rules(const json::Value* rules);
// The rule as kube serialises it (verbs, apiGroups, resources, resourceNames, nonResourceURLs;
// empty lists omitted except verbs).
json::Value to_json(const PolicyRule& r);
json::Array to_json(const std::vector<PolicyRule>& rules);

bool rule_allows(const Attributes& a, const PolicyRule& r);

// rbacv1helpers.CompactString, for escalation messages:
// {APIGroups:["apps"], Resources:["deployments"], ResourceNames:["x"], Verbs:["get" "list"]}.
std::string compact_string(const PolicyRule& r);

}  // namespace capstan::apiserver::auth
