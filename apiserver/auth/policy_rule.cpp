#include "apiserver/auth/policy_rule.h"

#include <algorithm>

namespace capstan::apiserver::auth {
namespace {

json::Array array_of(const std::vector<std::string>& v) {
  json::Array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

bool contains(const std::vector<std::string>& set, std::string_view s) { return std::find(set.begin(), set.end(), s) != set.end(); }

bool resource_matches(const PolicyRule& r, std::string_view combined, std::string_view sub) {
  for (const auto& res : r.resources) {
    if (res == "*" || res == combined) return true;
    if (!sub.empty() && res.size() == sub.size() + 2 && res.compare(0, 2, "*/") == 0 && res.compare(2, std::string::npos, sub) == 0)
      return true;
  }
  return false;
}

bool url_matches(const PolicyRule& r, std::string_view path) {
  for (const auto& u : r.non_resource_urls) {
    if (u == "*" || u == path) return true;
    if (!u.empty() && u.back() == '*') {
      std::string_view prefix(u);
      while (!prefix.empty() && prefix.back() == '*') prefix.remove_suffix(1);  // strings.TrimRight(u, "*")
      if (path.substr(0, prefix.size()) == prefix) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> string_items(const json::Value& v, std::string_view key) {
  std::vector<std::string> out;
  const auto* o = v.if_object();
  const auto* a = o ? o->if_contains(key) : nullptr;
  if (a && a->is_array())
    for (const auto& s : a->get_array())
      if (s.is_string()) out.emplace_back(s.get_string());
  return out;
}

PolicyRule parse_policy_rule(const json::Value& v) {
  PolicyRule r;
  r.verbs = string_items(v, "verbs");
  r.api_groups = string_items(v, "apiGroups");
  r.resources = string_items(v, "resources");
  r.resource_names = string_items(v, "resourceNames");
  r.non_resource_urls = string_items(v, "nonResourceURLs");
  return r;
}

std::vector<PolicyRule> parse_policy_rules(const json::Value* rules) {
  std::vector<PolicyRule> out;
  if (!rules || !rules->is_array()) return out;
  out.reserve(rules->get_array().size());
  for (const auto& r : rules->get_array()) out.push_back(parse_policy_rule(r));
  return out;
}

json::Value to_json(const PolicyRule& r) {
  json::Object o;
  o["verbs"] = array_of(r.verbs);
  if (!r.api_groups.empty()) o["apiGroups"] = array_of(r.api_groups);
  if (!r.resources.empty()) o["resources"] = array_of(r.resources);
  if (!r.resource_names.empty()) o["resourceNames"] = array_of(r.resource_names);
  if (!r.non_resource_urls.empty()) o["nonResourceURLs"] = array_of(r.non_resource_urls);
  return o;
}

json::Array to_json(const std::vector<PolicyRule>& rules) {
  json::Array a;
  a.reserve(rules.size());
  for (const auto& r : rules) a.push_back(to_json(r));
  return a;
}

bool rule_allows(const Attributes& a, const PolicyRule& r) {
  bool verb = contains(r.verbs, "*") || contains(r.verbs, a.verb);
  if (!verb) return false;
  if (!a.resource_request) return url_matches(r, a.path);
  if (!contains(r.api_groups, "*") && !contains(r.api_groups, a.api_group)) return false;
  if (a.subresource.empty()) {
    if (!resource_matches(r, a.resource, "")) return false;
  } else if (!resource_matches(r, a.resource + "/" + a.subresource, a.subresource)) {
    return false;
  }
  return r.resource_names.empty() || contains(r.resource_names, a.name);
}

std::string compact_string(const PolicyRule& r) {
  std::vector<std::string> parts;
  if (!r.api_groups.empty()) parts.push_back("APIGroups:" + quote_list(r.api_groups));
  if (!r.resources.empty()) parts.push_back("Resources:" + quote_list(r.resources));
  if (!r.non_resource_urls.empty()) parts.push_back("NonResourceURLs:" + quote_list(r.non_resource_urls));
  if (!r.resource_names.empty()) parts.push_back("ResourceNames:" + quote_list(r.resource_names));
  if (!r.verbs.empty()) parts.push_back("Verbs:" + quote_list(r.verbs));
  std::string out = "{";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + "}";
}

}  // namespace capstan::apiserver::auth
