#include "apiserver/auth/bootstrap_policy.h"

#include "apiserver/auth/policy_compare.h"
#include "runtime/json/patch.h"
#include "runtime/log/log.h"

#include <algorithm>

namespace capstan::apiserver::auth {
namespace {

constexpr std::string_view kApiVersion = "rbac.authorization.k8s.io/v1";
constexpr std::string_view kAutoUpdate = "rbac.authorization.kubernetes.io/autoupdate";
constexpr std::string_view kFieldManager = "kube-apiserver";

json::Object metadata(const std::string& ns, const std::string& name, const std::vector<std::string>& aggregate_to) {
  json::Object labels{{"kubernetes.io/bootstrapping", "rbac-defaults"}};
  for (const auto& a : aggregate_to) labels["rbac.authorization.k8s.io/aggregate-to-" + a] = "true";
  json::Object md{{"name", name}};
  if (!ns.empty()) md["namespace"] = ns;
  md["labels"] = std::move(labels);
  md["annotations"] = json::Object{{kAutoUpdate, "true"}};
  return md;
}

json::Value subject_json(const Subject& s) {
  json::Object o{{"kind", s.kind}};
  if (!s.api_group.empty()) o["apiGroup"] = s.api_group;
  o["name"] = s.name;
  if (!s.ns.empty()) o["namespace"] = s.ns;
  return o;
}

json::Value selector_json(const std::string& aggregate_to) {
  return json::Object{{"matchLabels", json::Object{{"rbac.authorization.k8s.io/aggregate-to-" + aggregate_to, "true"}}}};
}

// merge(expected, existing): keys the object lacks are added; its own values win.
bool merge_map(json::Value& obj, std::string_view key, const json::Object& expected) {
  auto& md = json::ensure_object(obj, {"metadata"});
  auto* cur = md.if_contains(key);
  if (!cur || !cur->is_object()) {
    md[key] = expected;
    return true;
  }
  bool changed = false;
  for (const auto& [k, v] : expected)
    if (!cur->get_object().contains(k)) {
      cur->get_object()[k] = v;
      changed = true;
    }
  return changed;
}

// Appends to the array `obj[key]` the items of `expected` it lacks.
bool add_missing_items(json::Value& obj, std::string_view key, const json::Array& expected) {
  auto& o = obj.as_object();
  if (!o.contains(key) || !o[key].is_array()) o[key] = json::Array{};
  auto& cur = o[key].as_array();
  bool changed = false;
  for (const auto& e : expected) {
    bool found = std::any_of(cur.begin(), cur.end(), [&](const json::Value& c) { return json::deep_equal(c, e); });
    if (!found) {
      cur.push_back(e);
      changed = true;
    }
  }
  return changed;
}

bool protected_object(const json::Value& v) { return json::get_string(v, {"metadata", "annotations", kAutoUpdate}) == "false"; }

rest::Target target_for(rest::Service& service, std::string_view resource, const std::string& ns, const std::string& name = "") {
  auto r = service.registry().find_group_resource(std::string(resource) + "." + std::string(kRbacGroup));
  if (!r) throw std::runtime_error("no resource " + std::string(resource));
  return rest::Target{r, "v1", ns, name, ""};
}

void write(rest::Service& service, std::string_view resource, const std::string& ns, const std::string& name, const json::Value& desired,
           const std::function<bool(json::Value&)>& reconcile) {
  rest::WriteOptions o;
  o.field_manager = std::string(kFieldManager);
  auto existing = service.store().get(std::string(resource) + "." + std::string(kRbacGroup), ns, name);
  if (!existing) {
    service.create(target_for(service, resource, ns), desired, o);
    return;
  }
  if (protected_object(*existing.value)) return;
  json::Value next = *existing.value;
  if (!reconcile(next)) return;
  service.update(target_for(service, resource, ns, name), std::move(next), o);
}

void reconcile_role(rest::Service& service, const BootstrapRole& r) {
  std::string resource = r.ns.empty() ? "clusterroles" : "roles";
  json::Value desired = role_object(r);
  write(service, resource, r.ns, r.name, desired, [&](json::Value& v) {
    bool changed = merge_map(v, "labels", *json::get_object(desired, {"metadata", "labels"}));
    changed |= merge_map(v, "annotations", *json::get_object(desired, {"metadata", "annotations"}));
    std::vector<PolicyRule> missing;
    if (!covers(parse_policy_rules(json::find(v, {"rules"})), r.rules, &missing)) {
      auto& rules = v.as_object()["rules"];
      if (!rules.is_array()) rules = json::Array{};
      for (const auto& m : missing) rules.as_array().push_back(to_json(m));
      changed = true;
    }
    if (!r.aggregate_from.empty()) {
      json::Array selectors;
      for (const auto& a : r.aggregate_from) selectors.push_back(selector_json(a));
      auto& agg = v.as_object()["aggregationRule"];
      if (!agg.is_object()) agg = json::Object{};
      changed |= add_missing_items(agg, "clusterRoleSelectors", selectors);
    }
    return changed;
  });
}

void reconcile_binding(rest::Service& service, const BootstrapBinding& b) {
  std::string resource = b.ns.empty() ? "clusterrolebindings" : "rolebindings";
  json::Value desired = binding_object(b);
  auto existing = service.store().get(resource + "." + std::string(kRbacGroup), b.ns, b.name);
  if (existing && !protected_object(*existing.value)) {
    RoleRef ref = parse_role_ref(*existing.value);
    if (ref.api_group != b.role_ref.api_group || ref.kind != b.role_ref.kind || ref.name != b.role_ref.name) {
      // A roleRef cannot change: kube recreates the binding.
      service.remove(target_for(service, resource, b.ns, b.name), rest::DeleteOptions{});
    }
  }
  write(service, resource, b.ns, b.name, desired, [&](json::Value& v) {
    bool changed = merge_map(v, "labels", *json::get_object(desired, {"metadata", "labels"}));
    changed |= merge_map(v, "annotations", *json::get_object(desired, {"metadata", "annotations"}));
    if (const auto* subjects = json::get_array(desired, {"subjects"})) changed |= add_missing_items(v, "subjects", *subjects);
    return changed;
  });
}

}  // namespace

json::Value role_object(const BootstrapRole& r) {
  json::Object o{{"apiVersion", kApiVersion}, {"kind", r.ns.empty() ? "ClusterRole" : "Role"}, {"metadata", metadata(r.ns, r.name, r.aggregate_to)}};
  o["rules"] = r.rules.empty() ? json::Value(nullptr) : json::Value(to_json(r.rules));
  if (!r.aggregate_from.empty()) {
    json::Array selectors;
    for (const auto& a : r.aggregate_from) selectors.push_back(selector_json(a));
    o["aggregationRule"] = json::Object{{"clusterRoleSelectors", std::move(selectors)}};
  }
  return o;
}

json::Value binding_object(const BootstrapBinding& b) {
  json::Object o{{"apiVersion", kApiVersion}, {"kind", b.ns.empty() ? "ClusterRoleBinding" : "RoleBinding"}, {"metadata", metadata(b.ns, b.name, {})}};
  if (!b.subjects.empty()) {
    json::Array subjects;
    for (const auto& s : b.subjects) subjects.push_back(subject_json(s));
    o["subjects"] = std::move(subjects);
  }
  o["roleRef"] = json::Object{{"apiGroup", b.role_ref.api_group}, {"kind", b.role_ref.kind}, {"name", b.role_ref.name}};
  return o;
}

void reconcile_bootstrap_policy(rest::Service& service) {
  auto guarded = [](std::string_view what, const std::string& ns, const std::string& name, const std::function<void()>& fn) {
    try {
      fn();
    } catch (const std::exception& e) {
      log::error("reconciling the bootstrap RBAC policy failed",
                 {{"object", std::string(what)}, {"namespace", ns}, {"name", name}, {"error", e.what()}});
    }
  };
  for (const auto* roles : {&bootstrap_cluster_roles(), &bootstrap_controller_roles(), &bootstrap_namespaced_roles()})
    for (const auto& r : *roles) guarded(r.ns.empty() ? "ClusterRole" : "Role", r.ns, r.name, [&] { reconcile_role(service, r); });
  for (const auto* bindings : {&bootstrap_cluster_role_bindings(), &bootstrap_role_bindings()})
    for (const auto& b : *bindings)
      guarded(b.ns.empty() ? "ClusterRoleBinding" : "RoleBinding", b.ns, b.name, [&] { reconcile_binding(service, b); });
}

}  // namespace capstan::apiserver::auth
