// The RBAC policy kube-apiserver creates at start (plugin/pkg/auth/authorizer/rbac/bootstrappolicy),
// as data: ClusterRoles, ClusterRoleBindings, and the Roles and RoleBindings of kube-system and
// kube-public, each labelled kubernetes.io/bootstrapping=rbac-defaults and annotated
// rbac.authorization.kubernetes.io/autoupdate=true.
//
// Included: everything kube-apiserver v1.37.2 creates with its default feature gates (73
// ClusterRoles, 54 ClusterRoleBindings, 7 Roles, 7 RoleBindings), so `kubectl get clusterroles`
// lists the same objects and `kubectl get clusterrole view -o yaml` the same rules (admin, edit and
// view get theirs by aggregation). Rules name resources Capstan does not serve
// (replicationcontrollers, resource.k8s.io, ...) exactly as kube's do.
#pragma once

#include "apiserver/auth/policy_rule.h"
#include "apiserver/auth/rbac_index.h"
#include "apiserver/rest/service.h"

#include <string>
#include <vector>

namespace capstan::apiserver::auth {

struct BootstrapRole {
  std::string ns;    // empty: a ClusterRole
  std::string name;
  std::vector<std::string> aggregate_to;    // labels rbac.authorization.k8s.io/aggregate-to-<x>: "true"
  std::vector<std::string> aggregate_from;  // aggregationRule: one selector per aggregate-to-<x> label
  std::vector<PolicyRule> rules;
};

struct BootstrapBinding {
  std::string ns;  // empty: a ClusterRoleBinding
  std::string name;
  RoleRef role_ref;
  std::vector<Subject> subjects;
};

const std::vector<BootstrapRole>& bootstrap_cluster_roles();             // bootstrap_roles.cpp
const std::vector<BootstrapRole>& bootstrap_controller_roles();          // bootstrap_controller_roles.cpp
const std::vector<BootstrapRole>& bootstrap_namespaced_roles();          // bootstrap_bindings.cpp
const std::vector<BootstrapBinding>& bootstrap_cluster_role_bindings();  // bootstrap_bindings.cpp
const std::vector<BootstrapBinding>& bootstrap_role_bindings();          // bootstrap_bindings.cpp

json::Value role_object(const BootstrapRole& r);
json::Value binding_object(const BootstrapBinding& b);

// Creates what is missing and, for objects still annotated autoupdate=true, adds back missing
// rules (not for aggregated ClusterRoles), subjects, labels and annotations — kube's reconciliation
// on every start, which never removes what an administrator added. Writes through `service` as
// the system user (field manager kube-apiserver). Failures are logged, never fatal.
void reconcile_bootstrap_policy(rest::Service& service);

}  // namespace capstan::apiserver::auth
