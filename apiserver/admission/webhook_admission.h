// Admission webhooks as kube-apiserver calls them (the MutatingAdmissionWebhook and
// ValidatingAdmissionWebhook plugins): the configured webhooks matching a request get an
// AdmissionReview; mutating ones run serially (configuration name order, then each
// configuration's listed order) and may patch the object (JSONPatch), with one reinvocation
// round for reinvocationPolicy IfNeeded; validating ones run in parallel and the first denial
// or failure (in webhook order) rejects the request. failurePolicy, sideEffects under dry-run,
// namespace/object selectors and the Exact/Equivalent match policies behave as upstream.
//
// matchConditions (CEL) are not evaluated here: a webhook with matchConditions is treated as
// matching (logged once per webhook).
#pragma once

#include "apiserver/admission/config_cache.h"
#include "apiserver/admission/webhook_client.h"
#include "apiserver/registry/resource.h"
#include "apiserver/rest/api_error.h"
#include "apiserver/rest/hooks.h"
#include "apiserver/storage/store.h"

#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace capstan::apiserver::admission {

class WebhookAdmission : public rest::Admission {
 public:
  WebhookAdmission(storage::Store& store, registry::Registry& registry);
  ~WebhookAdmission() override;

  // Converts objects for webhooks matched through matchPolicy Equivalent in another version of
  // the resource (CRDs with a conversion webhook). Without one, only apiVersion is rewritten.
  void set_converter(rest::Converter* converter) { converter_ = converter; }

  void mutate(const rest::AdmissionAttributes& a, json::Value* obj, std::vector<std::string>& warnings) override;
  void validate(const rest::AdmissionAttributes& a, const json::Value* obj, std::vector<std::string>& warnings) override;

  struct Invocation {
    const Webhook* hook = nullptr;
    std::string version;  // the resource version the webhook is called with
  };

 private:
  struct CallFailure {  // an ErrCallingWebhook: subject to failurePolicy
    std::string reason;
  };
  struct Outcome {
    std::optional<ApiError> error;          // denial or other error (always rejects)
    std::optional<CallFailure> failure;     // call failure (failurePolicy decides)
    std::vector<std::string> warnings;
    bool changed = false;
    std::optional<json::Value> patched;     // mutating: the patched object, in the request's version
  };

  std::optional<Invocation> should_call(const Webhook& hook, const rest::AdmissionAttributes& a, const json::Value* obj);
  bool namespace_selector_matches(const Webhook& hook, const rest::AdmissionAttributes& a, const json::Value* obj,
                                  std::optional<ApiError>& error);
  // Calls one webhook; `obj` (null on DELETE) and `old` (null on CREATE) are in the request's
  // version. Webhook problems are reported in the Outcome; a failing conversion (matchPolicy
  // Equivalent) throws ApiError.
  Outcome call(const Invocation& inv, const rest::AdmissionAttributes& a, const json::Value* obj,
               const json::Value* old, bool mutating);
  json::Value in_version(const registry::ResourceInfo& r, const json::Value& obj, std::string_view version);
  void note_match_conditions(const Webhook& hook);

  storage::Store& store_;
  registry::Registry& registry_;
  rest::Converter* converter_ = nullptr;
  ConfigCache configs_;
  WebhookClient client_;
  std::mutex mu_;
  std::set<std::string> match_conditions_logged_;
};

// The namespace an admission request carries, as kube-apiserver's request info sets it: for a
// Namespace object its own name (except on CREATE), otherwise the object's namespace.
std::string request_namespace(const rest::AdmissionAttributes& a);

}  // namespace capstan::apiserver::admission
