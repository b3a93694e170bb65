// Admission webhook configurations (admissionregistration.k8s.io/v1
// MutatingWebhookConfiguration / ValidatingWebhookConfiguration) parsed into plain structs with
// the API's defaults applied, ready for matching and calling.
#pragma once

#include "apiserver/admission/client_config.h"
#include "runtime/json/json.h"
#include "runtime/meta/selector.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::apiserver::admission {

// One entry of webhooks[].rules (RuleWithOperations).
struct Rule {
  std::vector<std::string> operations;    // CREATE | UPDATE | DELETE | CONNECT | *
  std::vector<std::string> api_groups;    // "" = core, "*"
  std::vector<std::string> api_versions;  // "v1", "*"
  std::vector<std::string> resources;     // "pods", "pods/status", "*", "*/*", "pods/*", "*/status"
  std::string scope = "*";                // Cluster | Namespaced | *
};

// A label selector as the webhook declared it. `error` is set when it cannot be parsed; upstream
// then fails a matching request with an internal error.
struct Selector {
  meta::LabelSelector selector;  // empty = everything
  std::string error;
};

struct Webhook {
  std::string configuration;  // metadata.name of the configuration
  std::string name;           // webhooks[].name
  bool mutating = false;
  ClientConfig client;
  std::vector<Rule> rules;
  std::string failure_policy = "Fail";      // Fail | Ignore
  std::string match_policy = "Equivalent";  // Exact | Equivalent
  Selector namespace_selector;
  Selector object_selector;
  std::optional<std::string> side_effects;  // None | NoneOnDryRun | Some | Unknown; unset = nil
  int timeout_seconds = 10;
  std::vector<std::string> admission_review_versions;
  std::size_t match_conditions = 0;          // count of matchConditions (CEL; not evaluated)
  std::string reinvocation_policy = "Never"; // mutating only: Never | IfNeeded
};

// The webhooks of one configuration object, in their listed order. `mutating` selects the kind.
std::vector<Webhook> parse_configuration(const json::Value& configuration, bool mutating);

// Sorts configurations by name (as upstream's webhook managers do) and flattens their webhooks,
// keeping each configuration's own order.
std::vector<Webhook> flatten_configurations(const std::vector<json::Value>& configurations, bool mutating);

}  // namespace capstan::apiserver::admission
