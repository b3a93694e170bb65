// Data: kube-apiserver v1.37.2's bootstrappolicy with its default feature gates
// (policy.go, controller_policy.go and namespace_policy.go).
#include "apiserver/auth/bootstrap_table.h"

namespace capstan::apiserver::auth {
using namespace bootstrap;

namespace {

BootstrapBinding crb(std::string name, std::vector<Subject> subjects) {
  RoleRef ref{std::string(kRbacGroup), "ClusterRole", name};
  return {"", std::move(name), std::move(ref), std::move(subjects)};
}

BootstrapBinding rb(std::string ns, std::string name, std::string role, std::vector<Subject> subjects) {
  return {std::move(ns), std::move(name), RoleRef{std::string(kRbacGroup), "Role", std::move(role)}, std::move(subjects)};
}

}  // namespace

// ClusterRoleBindings() of policy.go (each binds the ClusterRole of its name), then one per
// controller role to its ServiceAccount (ControllerRoleBindings()).
const std::vector<BootstrapBinding>& bootstrap_cluster_role_bindings() {
  static const std::vector<BootstrapBinding> bindings = [] {
    std::vector<BootstrapBinding> b = {
        crb("cluster-admin", {group("system:masters")}),
        crb("system:basic-user", {group("system:authenticated")}),
        crb("system:cluster-trust-bundle-discovery", {group("system:serviceaccounts")}),
        crb("system:discovery", {group("system:authenticated")}),
        crb("system:kube-controller-manager", {user("system:kube-controller-manager")}),
        crb("system:kube-dns", {sa("kube-system", "kube-dns")}),
        crb("system:kube-scheduler", {user("system:kube-scheduler")}),
        crb("system:monitoring", {group("system:monitoring")}),
        crb("system:node", {}),
        crb("system:node-proxier", {user("system:kube-proxy")}),
        crb("system:public-info-viewer", {group("system:authenticated"), group("system:unauthenticated")}),
        crb("system:service-account-issuer-discovery", {group("system:serviceaccounts")}),
        crb("system:volume-scheduler", {user("system:kube-scheduler")}),
    };
    constexpr std::string_view prefix = "system:controller:";
    for (const auto& r : bootstrap_controller_roles()) b.push_back(crb(r.name, {sa("kube-system", r.name.substr(prefix.size()))}));
    return b;
  }();
  return bindings;
}

// NamespaceRoles() of namespace_policy.go.
const std::vector<BootstrapRole>& bootstrap_namespaced_roles() {
  static const std::vector<BootstrapRole> roles = {
      {"kube-public", "system:controller:bootstrap-signer", {}, {},
       {
           rule({"get", "list", "watch"}, {""}, {"configmaps"}),
           named({"update"}, {""}, {"configmaps"}, {"cluster-info"}),
           rule({"create", "patch", "update"}, {"", "events.k8s.io"}, {"events"}),
       }},
      {"kube-system", "extension-apiserver-authentication-reader", {}, {},
       {
           named({"get", "list", "watch"}, {""}, {"configmaps"}, {"extension-apiserver-authentication"}),
       }},
      {"kube-system", "system::leader-locking-kube-controller-manager", {}, {},
       {
           rule({"create", "get", "list", "update", "watch"}, {"coordination.k8s.io"}, {"leases"}),
           rule({"create", "get", "list", "update", "watch"}, {"coordination.k8s.io"}, {"leasecandidates"}),
       }},
      {"kube-system", "system::leader-locking-kube-scheduler", {}, {},
       {
           rule({"create", "get", "list", "update", "watch"}, {"coordination.k8s.io"}, {"leases"}),
           rule({"create", "get", "list", "update", "watch"}, {"coordination.k8s.io"}, {"leasecandidates"}),
       }},
      {"kube-system", "system:controller:bootstrap-signer", {}, {},
       {
           rule({"get", "list", "watch"}, {""}, {"secrets"}),
       }},
      {"kube-system", "system:controller:cloud-provider", {}, {},
       {
           rule({"create", "get", "list", "watch"}, {""}, {"configmaps"}),
       }},
      {"kube-system", "system:controller:token-cleaner", {}, {},
       {
           rule({"delete", "get", "list", "watch"}, {""}, {"secrets"}),
           rule({"create", "patch", "update"}, {"", "events.k8s.io"}, {"events"}),
       }},
  };
  return roles;
}

// NamespaceRoleBindings() of namespace_policy.go.
const std::vector<BootstrapBinding>& bootstrap_role_bindings() {
  static const std::vector<BootstrapBinding> bindings = {
      rb("kube-public", "system:controller:bootstrap-signer", "system:controller:bootstrap-signer", {sa("kube-system", "bootstrap-signer")}),
      rb("kube-system", "system::extension-apiserver-authentication-reader", "extension-apiserver-authentication-reader", {user("system:kube-controller-manager"), user("system:kube-scheduler")}),
      rb("kube-system", "system::leader-locking-kube-controller-manager", "system::leader-locking-kube-controller-manager", {user("system:kube-controller-manager"), sa("kube-system", "kube-controller-manager"), sa("kube-system", "leader-election-controller")}),
      rb("kube-system", "system::leader-locking-kube-scheduler", "system::leader-locking-kube-scheduler", {user("system:kube-scheduler"), sa("kube-system", "kube-scheduler")}),
      rb("kube-system", "system:controller:bootstrap-signer", "system:controller:bootstrap-signer", {sa("kube-system", "bootstrap-signer")}),
      rb("kube-system", "system:controller:cloud-provider", "system:controller:cloud-provider", {sa("kube-system", "cloud-provider")}),
      rb("kube-system", "system:controller:token-cleaner", "system:controller:token-cleaner", {sa("kube-system", "token-cleaner")}),
  };
  return bindings;
}

}  // namespace capstan::apiserver::auth
