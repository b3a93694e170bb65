#include "apiserver/builtin/webhook_configuration.h"

#include "apiserver/builtin/names.h"
#include "apiserver/builtin/selector_validation.h"
#include "apiserver/builtin/strategy.h"

#include <boost/url/parse.hpp>

#include <algorithm>
#include <set>
#include <string>

namespace capstan::apiserver::builtin {
namespace {

using validation::Cause;
using validation::FieldPath;

std::vector<std::string> strings_of(const json::Object& o, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* a = json::get_array(o, {key}))
    for (const auto& v : *a) out.emplace_back(v.is_string() ? std::string_view(v.get_string()) : std::string_view());
  return out;
}

json::Value as_json(const std::vector<std::string>& v) {
  json::Array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

bool has_wildcard(const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), "*") != v.end(); }

// IsFullyQualifiedName.
void validate_hook_name(std::string_view name, const FieldPath& p, std::vector<Cause>& out) {
  if (name.empty()) return out.push_back(validation::field_required(p));
  if (auto errs = names::dns1123_subdomain(name); !errs.empty()) {
    std::string joined;
    for (const auto& e : errs) joined += (joined.empty() ? "" : ",") + e;
    return out.push_back(validation::field_invalid(p, json::Value(name), joined));
  }
  if (std::count(name.begin(), name.end(), '.') < 2)
    out.push_back(validation::field_invalid(p, json::Value(name), "should be a domain with at least three segments separated by dots"));
}

// validateResources: "*/*" alone, "*" without plain resources, "x/*" and "*/y" without overlaps.
void validate_resources(const std::vector<std::string>& resources, const FieldPath& p, std::vector<Cause>& out) {
  if (resources.empty()) out.push_back(validation::field_required(p));
  std::set<std::string> with_wildcard_sub, sub_with_wildcard_resource;
  bool double_wildcard = false, single_wildcard = false, plain = false;
  for (std::size_t i = 0; i < resources.size(); ++i) {
    const std::string& r = resources[i];
    if (r.empty()) {
      out.push_back(validation::field_required(p.index(i)));
      continue;
    }
    if (r == "*/*") double_wildcard = true;
    if (r == "*") single_wildcard = true;
    auto slash = r.find('/');
    if (slash == std::string::npos) {
      plain = r != "*";
      continue;
    }
    std::string res = r.substr(0, slash), sub = r.substr(slash + 1);
    if (with_wildcard_sub.contains(res))
      out.push_back(validation::field_invalid(p.index(i), json::Value(r), "if '" + res + "/*' is present, must not specify " + r));
    if (sub_with_wildcard_resource.contains(sub))
      out.push_back(validation::field_invalid(p.index(i), json::Value(r), "if '*/" + sub + "' is present, must not specify " + r));
    if (sub == "*") with_wildcard_sub.insert(res);
    if (res == "*") sub_with_wildcard_resource.insert(sub);
  }
  if (resources.size() > 1 && double_wildcard)
    out.push_back(validation::field_invalid(p, as_json(resources), "if '*/*' is present, must not specify other resources"));
  if (single_wildcard && plain)
    out.push_back(validation::field_invalid(p, as_json(resources), "if '*' is present, must not specify other resources without subresources"));
}

// validateRuleWithOperations.
void validate_rule(const json::Object& rule, const FieldPath& p, std::vector<Cause>& out) {
  auto ops = strings_of(rule, "operations");
  if (ops.empty()) out.push_back(validation::field_required(p.child("operations")));
  if (ops.size() > 1 && has_wildcard(ops))
    out.push_back(validation::field_invalid(p.child("operations"), as_json(ops), "if '*' is present, must not specify other operations"));
  static const std::vector<std::string> kOperations = {"*", "CONNECT", "CREATE", "DELETE", "UPDATE"};
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (std::find(kOperations.begin(), kOperations.end(), ops[i]) == kOperations.end())
      out.push_back(validation::field_not_supported(p.child("operations").index(i), json::Value(ops[i]), kOperations));
  auto groups = strings_of(rule, "apiGroups");
  if (groups.empty()) out.push_back(validation::field_required(p.child("apiGroups")));
  if (groups.size() > 1 && has_wildcard(groups))
    out.push_back(validation::field_invalid(p.child("apiGroups"), as_json(groups), "if '*' is present, must not specify other API groups"));
  auto versions = strings_of(rule, "apiVersions");
  if (versions.empty()) out.push_back(validation::field_required(p.child("apiVersions")));
  if (versions.size() > 1 && has_wildcard(versions))
    out.push_back(validation::field_invalid(p.child("apiVersions"), as_json(versions), "if '*' is present, must not specify other API versions"));
  for (std::size_t i = 0; i < versions.size(); ++i)
    if (versions[i].empty()) out.push_back(validation::field_required(p.child("apiVersions").index(i)));
  validate_resources(strings_of(rule, "resources"), p.child("resources"), out);
  if (const auto* scope = rule.if_contains("scope"); scope && scope->is_string()) {
    static const std::vector<std::string> kScopes = {"*", "Cluster", "Namespaced"};
    std::string s(scope->get_string());
    if (std::find(kScopes.begin(), kScopes.end(), s) == kScopes.end()) out.push_back(validation::field_not_supported(p.child("scope"), json::Value(s), kScopes));
  }
}

// An optional enum field: NotSupported when set to anything else.
void validate_enum(const json::Object& hook, std::string_view key, const std::vector<std::string>& allowed, const FieldPath& p,
                   std::vector<Cause>& out) {
  const auto* v = hook.if_contains(key);
  if (!v || v->is_null()) return;
  std::string s = v->is_string() ? std::string(v->get_string()) : json::serialize(*v);
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) out.push_back(validation::field_not_supported(p.child(key), json::Value(s), allowed));
}

// webhook.ValidateWebhookURL with forceHttps.
void validate_url(std::string_view url, const FieldPath& p, std::vector<Cause>& out) {
  constexpr std::string_view kForm = "; desired format: https://host[/path]";
  auto u = boost::urls::parse_uri_reference(url);
  if (!u) return out.push_back(validation::field_required(p, "url must be a valid URL: " + u.error().message() + std::string(kForm)));
  if (u->scheme() != "https")
    out.push_back(validation::field_invalid(p, json::Value(std::string(u->scheme())), "'https' is the only allowed URL scheme" + std::string(kForm)));
  if (u->encoded_host().empty())
    out.push_back(validation::field_invalid(p, json::Value(""), "host must be specified" + std::string(kForm)));
  if (u->has_userinfo())
    out.push_back(validation::field_invalid(p, json::Value(std::string(u->encoded_userinfo())), "user information is not permitted in the URL"));
  if (u->has_fragment() && !u->encoded_fragment().empty())
    out.push_back(validation::field_invalid(p, json::Value(std::string(u->encoded_fragment())), "fragments are not permitted in the URL"));
  if (u->has_query() && !u->encoded_query().empty())
    out.push_back(validation::field_invalid(p, json::Value(std::string(u->encoded_query())), "query parameters are not permitted in the URL"));
}

// webhook.ValidateWebhookService, called as upstream calls it: with the Service's name and
// namespace in each other's places, so a missing name is reported on "namespace" and a
// missing namespace on "name".
void validate_service(const json::Object& svc, const FieldPath& p, std::vector<Cause>& out) {
  if (json::get_string(svc, {"namespace"}).empty()) out.push_back(validation::field_required(p.child("name")));
  if (json::get_string(svc, {"name"}).empty()) out.push_back(validation::field_required(p.child("namespace")));
  std::int64_t port = json::get_int(svc, {"port"}).value_or(443);
  if (auto errs = names::port_number(port); !errs.empty()) {
    std::string joined;
    for (const auto& e : errs) joined += (joined.empty() ? "" : ", ") + e;
    out.push_back(validation::field_invalid(p.child("port"), json::Value(port), "port is not valid: " + joined));
  }
  const auto* path_v = svc.if_contains("path");
  if (!path_v || !path_v->is_string()) return;
  std::string path(path_v->get_string());
  if (path.empty() || path == "/") return;
  if (path == "//") return out.push_back(validation::field_invalid(p.child("path"), json::Value(path), "segment[0] may not be empty"));
  if (path[0] != '/') out.push_back(validation::field_invalid(p.child("path"), json::Value(path), "must start with a '/'"));
  std::string rest = path.substr(1);
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  std::size_t i = 0, start = 0;
  for (;; ++i) {
    auto slash = rest.find('/', start);
    std::string step = rest.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (step.empty()) {
      out.push_back(validation::field_invalid(p.child("path"), json::Value(path), "segment[" + std::to_string(i) + "] may not be empty"));
    } else {
      for (const auto& e : names::dns1123_subdomain(step))
        out.push_back(validation::field_invalid(p.child("path"), json::Value(path), "segment[" + std::to_string(i) + "]: " + e));
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
}

void validate_hook(const json::Object& hook, bool mutating, const FieldPath& p, std::vector<Cause>& out) {
  validate_hook_name(json::get_string(hook, {"name"}), p.child("name"), out);
  if (const auto* rules = json::get_array(hook, {"rules"}))
    for (std::size_t i = 0; i < rules->size(); ++i)
      if ((*rules)[i].is_object()) validate_rule((*rules)[i].as_object(), p.child("rules").index(i), out);
  validate_enum(hook, "failurePolicy", {"Fail", "Ignore"}, p, out);
  validate_enum(hook, "matchPolicy", {"Equivalent", "Exact"}, p, out);
  const auto* side = hook.if_contains("sideEffects");
  if (!side || side->is_null()) out.push_back(validation::field_required(p.child("sideEffects"), "must specify one of None, NoneOnDryRun"));
  else validate_enum(hook, "sideEffects", {"None", "NoneOnDryRun"}, p, out);
  if (auto t = json::get_int(hook, {"timeoutSeconds"}); t && (*t > 30 || *t < 1))
    out.push_back(validation::field_invalid(p.child("timeoutSeconds"), json::Value(*t), "the timeout value must be between 1 and 30 seconds"));
  validate_label_selector(hook.if_contains("namespaceSelector"), p.child("namespaceSelector"), out);
  validate_label_selector(hook.if_contains("objectSelector"), p.child("objectSelector"), out);
  if (mutating) validate_enum(hook, "reinvocationPolicy", {"IfNeeded", "Never"}, p, out);
  const json::Object* cc = json::get_object(hook, {"clientConfig"});
  const json::Value* url = cc ? cc->if_contains("url") : nullptr;
  const json::Object* svc = cc ? json::get_object(*cc, {"service"}) : nullptr;
  bool has_url = url && url->is_string();
  if (has_url == (svc != nullptr)) {
    out.push_back(validation::field_required(p.child("clientConfig"), "exactly one of url or service is required"));
  } else if (has_url) {
    validate_url(url->get_string(), p.child("clientConfig").child("url"), out);
  } else {
    validate_service(*svc, p.child("clientConfig").child("service"), out);
  }
}

// validateAdmissionReviewVersions (a recognised version required, as on create).
void validate_review_versions(const json::Object& hook, const FieldPath& p, std::vector<Cause>& out) {
  auto versions = strings_of(hook, "admissionReviewVersions");
  if (versions.empty()) return out.push_back(validation::field_required(p, "must specify one of v1, v1beta1"));
  std::set<std::string> seen;
  bool accepted = false;
  for (std::size_t i = 0; i < versions.size(); ++i) {
    if (!seen.insert(versions[i]).second) {
      out.push_back(validation::field_invalid(p.index(i), json::Value(versions[i]), "duplicate version"));
      continue;
    }
    for (const auto& e : names::dns1035_label(versions[i])) out.push_back(validation::field_invalid(p.index(i), json::Value(versions[i]), e));
    accepted = accepted || versions[i] == "v1" || versions[i] == "v1beta1";
  }
  if (!accepted) out.push_back(validation::field_invalid(p, as_json(versions), "must include at least one of v1, v1beta1"));
}

}  // namespace

void default_webhook_configuration(json::Value& obj, bool mutating) {
  auto* hooks = obj.is_object() ? obj.as_object().if_contains("webhooks") : nullptr;
  if (!hooks || !hooks->is_array()) return;
  for (auto& h : hooks->as_array()) {
    if (!h.is_object()) continue;
    auto& hook = h.as_object();
    set_default(hook, "failurePolicy", "Fail");
    set_default(hook, "matchPolicy", "Equivalent");
    set_default(hook, "namespaceSelector", json::Object{});
    set_default(hook, "objectSelector", json::Object{});
    set_default(hook, "timeoutSeconds", 10);
    if (mutating) set_default(hook, "reinvocationPolicy", "Never");
    if (auto* rules = hook.if_contains("rules"); rules && rules->is_array())
      for (auto& r : rules->as_array())
        if (r.is_object()) set_default(r.as_object(), "scope", "*");
    if (auto* cc = hook.if_contains("clientConfig"); cc && cc->is_object())
      if (auto* svc = cc->as_object().if_contains("service"); svc && svc->is_object()) set_default(svc->as_object(), "port", 443);
  }
}

std::vector<Cause> validate_webhook_configuration(const json::Value& obj, bool mutating) {
  std::vector<Cause> out;
  const auto* hooks = json::get_array(obj, {"webhooks"});
  if (!hooks) return out;
  std::set<std::string> names_seen;
  FieldPath root("webhooks");
  for (std::size_t i = 0; i < hooks->size(); ++i) {
    if (!(*hooks)[i].is_object()) continue;
    const auto& hook = (*hooks)[i].as_object();
    FieldPath p = root.index(i);
    std::string name(json::get_string(hook, {"name"}));
    if (!name.empty() && !names_seen.insert(name).second) out.push_back(validation::field_duplicate(p.child("name"), json::Value(name)));
    validate_hook(hook, mutating, p, out);
    validate_review_versions(hook, p.child("admissionReviewVersions"), out);
  }
  return out;
}

}  // namespace capstan::apiserver::builtin
