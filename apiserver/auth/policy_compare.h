// Whether one set of rules grants everything another does (component-helpers' validation.Covers,
// the escalation check of RBAC writes), and the compaction of what is missing for the message
// (validation.CompactRules).
#pragma once

#include "apiserver/auth/policy_rule.h"

#include <vector>

namespace capstan::apiserver::auth {

// Each rule split into rules of one apiGroup, resource, verb and resourceName (or one URL and
// verb).
std::vector<PolicyRule> breakdown_rule(const PolicyRule& r);
// True when `owner` covers every broken-down rule of `servant`; `missing` gets those it does not.
bool covers(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& servant, std::vector<PolicyRule>* missing = nullptr);
// Merges rules of one apiGroup and resource (and at most one resourceName) that differ only by verb.
std::vector<PolicyRule> compact_rules(const std::vector<PolicyRule>& rules);

}  // namespace capstan::apiserver::auth
