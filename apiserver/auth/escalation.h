// RBAC escalation prevention, as kube's RBAC storage (pkg/registry/rbac/*/policybased) does it on
// every create and update of a Role, ClusterRole, RoleBinding or ClusterRoleBinding:
//   - system:masters may write anything;
//   - a Role/ClusterRole may only grant what the writer already holds (in the namespace written
//     to; cluster-wide for ClusterRoles), unless the writer may `escalate` roles/clusterroles;
//     an aggregationRule needs full authority (`*` on everything);
//   - a binding may only reference a role whose rules the writer holds, unless the writer may
//     `bind` that role (roles/clusterroles named as the roleRef);
//   - an update that only touches ownerReferences/finalizers (what the garbage collector does)
//     passes.
// Refusals are kube's: 403 `roles.rbac.authorization.k8s.io "x" is forbidden: user "u"
// (groups=[...]) is attempting to grant RBAC permissions not currently held:\n{...}`, a missing
// role 404 `rolebindings.rbac.authorization.k8s.io "r" not found`.
#pragma once

#include "apiserver/auth/authorizer.h"
#include "apiserver/auth/rbac_index.h"
#include "apiserver/rest/hooks.h"

namespace capstan::apiserver::auth {

class EscalationGuard : public rest::WriteGuard {
 public:
  EscalationGuard(const Authorizer& authorizer, const RbacIndex& index) : authorizer_(authorizer), index_(index) {}
  void check(const rest::AdmissionAttributes& a, const json::Value& obj) override;

 private:
  // Throws 403 unless `user` holds every rule of `rules` in `ns`.
  void confirm_no_escalation(const rest::AdmissionAttributes& a, const std::vector<PolicyRule>& rules) const;
  const Authorizer& authorizer_;
  const RbacIndex& index_;
};

}  // namespace capstan::apiserver::auth
