// What every group's admission webhooks share: where the webhook server is reached (Endpoint),
// the description of one webhook (Hook), the Validating/MutatingWebhookConfiguration objects
// built from them, and the field.Error-style denial of a list of causes.
//
// Every webhook is configured for safe failure: failurePolicy Fail, timeoutSeconds 10,
// sideEffects None, matchPolicy Equivalent, admissionReviewVersions [v1], and a
// namespaceSelector leaving out the manager's own namespace (kubernetes.io/metadata.name NotIn
// [<namespace>]), so a manager whose webhooks cannot answer is never needed to admit the
// objects of its own upgrade.
//
//   std::vector<webhook::Hook> hooks = {{"vkafka.kafka.capstan.dev", "/validate-kafka-capstan-dev-v1-kafka",
//                                        "kafka.capstan.dev", "v1", {"kafkas", "kafkas/status"}}};
//   auto cfgs = webhook::configurations("capstan-kafka", "kafka", hooks, endpoint);
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/gvk.h"
#include "runtime/validation/field.h"
#include "runtime/webhook/handler.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::webhook {

// Where the manager's webhook server can be reached (for webhook configurations).
struct Endpoint {
  std::string url_base;  // "https://127.0.0.1:9443" (dev) — or empty with a Service below
  std::string service_namespace;
  std::string service_name;
  std::string ca_bundle_pem;
  // The manager's own namespace, left out by every webhook's namespaceSelector; "" = none.
  std::string manager_namespace;
};

// One admission webhook of a configuration.
struct Hook {
  std::string name;      // "vcertificate.certs.capstan.dev"
  std::string path;      // "/validate-certs-capstan-dev-v1-certificate"
  std::string group;     // "certs.capstan.dev"
  std::string version;   // "v1"
  std::vector<std::string> resources;  // {"certificates"}; "kafkas/status" for a subresource
  bool mutating = false;
};

// The hook of a resource at controller-runtime's path for its kind (validate_path or
// mutate_path), named "<v|m><kind in lower case>.<group>".
Hook kind_hook(const meta::ResourceType& type, bool mutating = false);

inline constexpr int kTimeoutSeconds = 10;

// The webhook entry of `hook` in a configuration (clientConfig from `endpoint`).
json::Object webhook_entry(const Hook& hook, const Endpoint& endpoint);

// The ValidatingWebhookConfiguration and (when a hook is mutating) MutatingWebhookConfiguration
// named `name` (labels app.kubernetes.io/name=capstan, app.kubernetes.io/component=`component`)
// holding `hooks`. A kind without hooks is left out.
std::vector<json::Value> configurations(std::string_view name, std::string_view component, const std::vector<Hook>& hooks,
                                        const Endpoint& endpoint);

// The CRD conversion webhook of `crd` at `path` on `endpoint`: spec.conversion set to the
// Webhook strategy (conversionReviewVersions [v1]) with that clientConfig.
void set_conversion_webhook(json::Value& crd, const std::string& path, const Endpoint& endpoint);

// Denies with every cause at once, as the API server's field.ErrorList.ToAggregate().Error()
// reads: one error as is, several in brackets ("[spec.a: Invalid value: ..., spec.b: Required
// value]"); 406 NotAcceptable as cert-manager's webhook answers, so kubectl prints
// `admission webhook "<name>" denied the request: <field>: ...`. The causes stay in the details.
// Does nothing when `causes` is empty.
void deny_if_any(const std::vector<validation::Cause>& causes);

// A validating handler from a validation function of apis/<group>: CREATE validates the object
// (old = nullptr), UPDATE the object against the request's oldObject; causes deny (deny_if_any);
// `warn` (optional) adds warnings to an admitted object. DELETE and CONNECT are allowed.
using ValidateFunc = std::function<std::vector<validation::Cause>(const json::Value& obj, const json::Value* old)>;
using WarnFunc = std::function<std::vector<std::string>(const json::Value& obj)>;
Handler validating_handler(ValidateFunc validate, WarnFunc warn = {});

}  // namespace capstan::webhook
