// Which webhooks a request reaches: rules (operations, groups, versions, resources with
// subresources, scope), the Exact/Equivalent match policy, and object selectors — the
// predicates of k8s.io/apiserver/pkg/admission/plugin/webhook/predicates.
#pragma once

#include "apiserver/admission/webhook_config.h"
#include "apiserver/registry/resource.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <string_view>

namespace capstan::apiserver::admission {

// The request as the rules see it.
struct RuleTarget {
  std::string_view group;
  std::string_view version;
  std::string_view resource;     // plural
  std::string_view subresource;  // "", "status", "scale"
  std::string_view operation;    // CREATE | UPDATE | DELETE | CONNECT
  std::string_view ns;           // for a Namespace object: its own name
};

bool rule_matches(const Rule& rule, const RuleTarget& t);

// The version a webhook is called with, or nullopt when no rule matches. Exact matching first;
// with matchPolicy Equivalent, the other served versions of the same resource are tried rule by
// rule (the object is then converted to that version before the call).
std::optional<std::string> match_version(const Webhook& hook, const registry::ResourceInfo& r, const RuleTarget& t);

// objectSelector: true when the selector is empty, or the object or the old object matches.
bool object_selector_matches(const meta::LabelSelector& s, const json::Value* object, const json::Value* old_object);

// Admission webhooks are never called for webhook and admission-policy configurations.
bool is_exempt(std::string_view group, std::string_view kind);

}  // namespace capstan::apiserver::admission
