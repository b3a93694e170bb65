#include "apiserver/auth/rbac_authorizer.h"

namespace capstan::apiserver::auth {

RuleSet AlwaysAllow::rules_for(const rest::User&, std::string_view) const {
  RuleSet s;
  s.resource_rules.push_back(PolicyRule{{"*"}, {"*"}, {"*"}, {}, {}});
  s.non_resource_rules.push_back(PolicyRule{{"*"}, {}, {}, {}, {"*"}});
  return s;
}

ResolvedRules resolve_rules(const RbacIndex& index, const rest::User& u, std::string_view ns,
                            const std::function<std::string(const RoleRefError&)>& describe) {
  ResolvedRules out;
  index.visit_rules_for(u, ns, [&](const RuleSource*, const PolicyRule* rule, const RoleRefError* error) {
    if (rule) out.rules.push_back(*rule);
    if (error) out.errors.push_back(describe(*error));
    return true;
  });
  return out;
}

Decision RbacAuthorizer::decide(const Attributes& a, bool explain_allowed) const {
  static const rest::User kNobody;
  const rest::User& u = a.user ? *a.user : kNobody;
  if (u.in_group(kSuperuserGroup)) return {true, ""};
  Decision d;
  std::vector<std::string> errors;
  index_.visit_rules_for(u, a.ns, [&](const RuleSource* source, const PolicyRule* rule, const RoleRefError* error) {
    if (rule && rule_allows(a, *rule)) {
      d.allowed = true;
      if (explain_allowed) d.reason = "RBAC: allowed by " + source->describe();
      return false;
    }
    if (error) errors.push_back(error->lister_message());
    return true;
  });
  // The union of authorizers prefixes each one's reason with its name.
  if (!d.allowed && !errors.empty()) d.reason = "rbac: RBAC: " + aggregate_errors(errors);
  return d;
}

RuleSet RbacAuthorizer::rules_for(const rest::User& u, std::string_view ns) const {
  auto resolved = resolve_rules(index_, u, ns, [](const RoleRefError& e) { return e.lister_message(); });
  RuleSet s;
  for (auto& r : resolved.rules) {
    if (!r.resources.empty()) s.resource_rules.push_back(PolicyRule{r.verbs, r.api_groups, r.resources, r.resource_names, {}});
    if (!r.non_resource_urls.empty()) s.non_resource_rules.push_back(PolicyRule{r.verbs, {}, {}, {}, r.non_resource_urls});
  }
  if (!resolved.errors.empty()) s.evaluation_error = aggregate_errors(resolved.errors);
  return s;
}

}  // namespace capstan::apiserver::auth
