#include "apiserver/auth/escalation.h"

#include "apiserver/auth/policy_compare.h"
#include "apiserver/auth/rbac_authorizer.h"
#include "runtime/gofmt/gofmt.h"
#include "runtime/json/patch.h"

#include <set>

namespace capstan::apiserver::auth {
namespace {

// rbacregistry.IsOnlyMutatingGCFields: the update changes nothing but ownerReferences and
// finalizers (selfLink and managedFields ignored too).
bool only_gc_fields_changed(const json::Value& obj, const json::Value& old) {
  if (!obj.is_object() || !old.is_object()) return false;
  json::Value copy = obj;
  auto& md = json::ensure_object(copy, {"metadata"});
  const auto* old_md = json::get_object(old, {"metadata"});
  for (auto k : {"ownerReferences", "finalizers", "selfLink", "managedFields"}) {
    md.erase(k);
    if (old_md)
      if (const auto* v = old_md->if_contains(k)) md[k] = *v;
  }
  return json::deep_equal(copy, old);
}

bool has_aggregation_rule(const json::Value* obj) {
  if (!obj) return false;
  const auto* sel = json::get_array(*obj, {"aggregationRule", "clusterRoleSelectors"});
  return sel && !sel->empty();
}

const std::vector<PolicyRule>& full_authority() {
  static const std::vector<PolicyRule> rules = {PolicyRule{{"*"}, {"*"}, {"*"}, {}, {}}, PolicyRule{{"*"}, {}, {}, {}, {"*"}}};
  return rules;
}

}  // namespace

void EscalationGuard::confirm_no_escalation(const rest::AdmissionAttributes& a, const std::vector<PolicyRule>& rules) const {
  const std::string& resource = a.resource->resource;
  auto owned = resolve_rules(index_, *a.user, a.ns, [&](const RoleRefError& e) { return e.registry_message(resource); });
  std::vector<PolicyRule> missing;
  if (covers(owned.rules, rules, &missing)) return;
  std::set<std::string> descriptions;
  for (const auto& r : compact_rules(missing)) descriptions.insert(compact_string(r));
  std::string msg = "user " + gofmt::quote(a.user->name) + " (groups=" + quote_list(a.user->groups) +
                    ") is attempting to grant RBAC permissions not currently held:";
  for (const auto& d : descriptions) msg += "\n" + d;
  if (!owned.errors.empty()) msg += "; resolution errors: [" + aggregate_errors(owned.errors) + "]";
  throw forbidden_status(kRbacGroup, resource, a.name, msg);
}

void EscalationGuard::check(const rest::AdmissionAttributes& a, const json::Value& obj) {
  if (!a.resource || !a.user || a.resource->group != kRbacGroup || !a.subresource.empty()) return;
  if (a.user->in_group(kSuperuserGroup)) return;
  const std::string& resource = a.resource->resource;
  bool update = a.operation == "UPDATE";
  bool role = resource == "roles" || resource == "clusterroles";
  if (!role && resource != "rolebindings" && resource != "clusterrolebindings") return;

  if (role) {
    // RoleEscalationAuthorized: `escalate` on the request's resource (a create has no name yet).
    Attributes esc;
    esc.user = a.user;
    esc.verb = "escalate";
    esc.resource_request = true;
    esc.api_group = std::string(kRbacGroup);
    esc.resource = resource;
    esc.ns = a.ns;
    esc.name = update ? a.name : "";
    if (authorizer_.check(esc).allowed) return;
  }
  if (update && a.old_object && only_gc_fields_changed(obj, *a.old_object)) return;

  if (role) {
    confirm_no_escalation(a, parse_policy_rules(json::find(obj, {"rules"})));
    if (resource == "clusterroles" && (has_aggregation_rule(&obj) || (update && has_aggregation_rule(a.old_object)))) {
      try {
        confirm_no_escalation(a, full_authority());
      } catch (const ApiError&) {
        throw forbidden_status(kRbacGroup, resource, a.name, "must have cluster-admin privileges to use the aggregationRule");
      }
    }
    return;
  }

  // BindingAuthorized: `bind` on the referenced role, in the binding's namespace.
  RoleRef ref = parse_role_ref(obj);
  if (ref.kind == "Role" || ref.kind == "ClusterRole") {
    Attributes bind;
    bind.user = a.user;
    bind.verb = "bind";
    bind.resource_request = true;
    bind.api_group = ref.api_group;
    bind.resource = ref.kind == "Role" ? "roles" : "clusterroles";
    bind.ns = a.ns;
    bind.name = ref.name;
    if (authorizer_.check(bind).allowed) return;
  }
  std::optional<RoleRefError> error;
  auto rules = index_.role_ref_rules(ref, a.ns, &error);
  if (error) {
    if (error->unsupported_kind) {
      ApiError e(500, "", error->lister_message());
      throw e;
    }
    ApiError e(404, "NotFound", error->registry_message(resource));
    e.details["name"] = ref.name;
    e.details["group"] = std::string(kRbacGroup);
    e.details["kind"] = resource;
    throw e;
  }
  confirm_no_escalation(a, rules);
}

}  // namespace capstan::apiserver::auth
