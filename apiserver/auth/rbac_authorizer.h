// --authorization-mode=RBAC, as kube-apiserver chains it: members of system:masters are allowed
// everything (the privileged-group authorizer in front of the chain), everyone else gets what the
// RBAC objects grant (k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac). RBAC never denies; it has
// no opinion, and then the chain's reason names the roles it could not resolve
// ("rbac: RBAC: role.rbac.authorization.k8s.io \"x\" not found").
#pragma once

#include "apiserver/auth/authorizer.h"
#include "apiserver/auth/rbac_index.h"

namespace capstan::apiserver::auth {

inline constexpr std::string_view kSuperuserGroup = "system:masters";

class RbacAuthorizer : public Authorizer {
 public:
  explicit RbacAuthorizer(const RbacIndex& index) : index_(index) {}
  RuleSet rules_for(const rest::User& u, std::string_view ns) const override;
  bool allows_everything(const rest::User& u) const override { return u.in_group(kSuperuserGroup); }

 protected:
  Decision decide(const Attributes& a, bool explain_allowed) const override;

 private:
  const RbacIndex& index_;
};

// The RBAC rules of `u` in `ns` and the roles that could not be resolved (DefaultRuleResolver's
// RulesFor); the errors are worded by `describe`.
struct ResolvedRules {
  std::vector<PolicyRule> rules;
  std::vector<std::string> errors;
};
ResolvedRules resolve_rules(const RbacIndex& index, const rest::User& u, std::string_view ns,
                            const std::function<std::string(const RoleRefError&)>& describe);

}  // namespace capstan::apiserver::auth
