// The authorization stack over an in-memory store, for the auth tests: the RBAC index and
// authorizer, the escalation guard on the Service, and shorthands for RBAC objects.
#pragma once

#include "apiserver/auth/escalation.h"
#include "apiserver/auth/rbac_authorizer.h"
#include "apiserver/system/test_env.h"

namespace capstan::apiserver::auth::testing {

inline json::Value strings(std::initializer_list<const char*> v) {
  json::Array a;
  for (const char* s : v) a.emplace_back(s);
  return a;
}

// {"verbs": [...], "apiGroups": [...], "resources": [...]} (+ resourceNames).
inline json::Value rule(std::initializer_list<const char*> verbs, std::initializer_list<const char*> groups,
                        std::initializer_list<const char*> resources, std::initializer_list<const char*> names = {}) {
  json::Object r{{"verbs", strings(verbs)}, {"apiGroups", strings(groups)}, {"resources", strings(resources)}};
  if (names.size()) r["resourceNames"] = strings(names);
  return r;
}
inline json::Value url_rule(std::initializer_list<const char*> verbs, std::initializer_list<const char*> urls) {
  return json::Object{{"verbs", strings(verbs)}, {"nonResourceURLs", strings(urls)}};
}
inline json::Value subject(const std::string& kind, const std::string& name, const std::string& ns = "") {
  json::Object s{{"kind", kind}, {"name", name}};
  if (kind != "ServiceAccount") s["apiGroup"] = "rbac.authorization.k8s.io";
  if (!ns.empty()) s["namespace"] = ns;
  return s;
}

struct Env : system::testing::Env {
  RbacIndex index{store};
  RbacAuthorizer authorizer{index};
  EscalationGuard guard{authorizer, index};

  Env() { service.add_write_guard(&guard); }
  ~Env() { service.clear_write_guards(); }

  // As the system user (system:masters): never refused.
  json::Value role(const std::string& ns, const std::string& name, json::Array rules) {
    return create(ns.empty() ? "clusterroles.rbac.authorization.k8s.io" : "roles.rbac.authorization.k8s.io", ns,
                  json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", ns.empty() ? "ClusterRole" : "Role"},
                               {"metadata", json::Object{{"name", name}}}, {"rules", std::move(rules)}});
  }
  json::Value binding(const std::string& ns, const std::string& name, const std::string& role_kind, const std::string& role_name,
                      json::Array subjects) {
    return create(ns.empty() ? "clusterrolebindings.rbac.authorization.k8s.io" : "rolebindings.rbac.authorization.k8s.io", ns,
                  json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                               {"kind", ns.empty() ? "ClusterRoleBinding" : "RoleBinding"},
                               {"metadata", json::Object{{"name", name}}},
                               {"subjects", std::move(subjects)},
                               {"roleRef", json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role_name}}}});
  }
  // Writes as `user` (subject to the escalation checks); returns the created object.
  json::Value create_as(const rest::User& user, const std::string& group_resource, const std::string& ns, json::Value obj) {
    rest::WriteOptions o;
    o.field_manager = "test";
    o.user = user;
    return service.create(target(group_resource, ns), std::move(obj), o).object;
  }
};

inline rest::User sa_user(const std::string& ns, const std::string& name) {
  return rest::User{"system:serviceaccount:" + ns + ":" + name, "", {"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}, {}};
}

// Resource attributes for `user`.
inline Attributes resource_attrs(const rest::User& user, std::string verb, std::string group, std::string resource, std::string ns = "",
                                 std::string name = "", std::string subresource = "") {
  Attributes a;
  a.user = &user;
  a.verb = std::move(verb);
  a.resource_request = true;
  a.api_group = std::move(group);
  a.resource = std::move(resource);
  a.ns = std::move(ns);
  a.name = std::move(name);
  a.subresource = std::move(subresource);
  return a;
}
inline Attributes path_attrs(const rest::User& user, std::string verb, std::string path) {
  Attributes a;
  a.user = &user;
  a.verb = std::move(verb);
  a.path = std::move(path);
  return a;
}

}  // namespace capstan::apiserver::auth::testing
