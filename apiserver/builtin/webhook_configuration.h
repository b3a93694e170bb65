// admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and
// MutatingWebhookConfiguration as kube-apiserver stores them: the v1 defaults
// (SetDefaults_ValidatingWebhook / _MutatingWebhook / _Rule / _ServiceReference) and
// ValidateValidatingWebhookConfiguration / ValidateMutatingWebhookConfiguration with
// upstream's messages, in upstream's order (pkg/apis/admissionregistration/validation and
// apiserver/pkg/util/webhook).
#pragma once

#include "runtime/json/json.h"
#include "runtime/validation/field.h"

#include <vector>

namespace capstan::apiserver::builtin {

// Fills each webhook's defaults; `mutating` adds reinvocationPolicy.
void default_webhook_configuration(json::Value& obj, bool mutating);
std::vector<validation::Cause> validate_webhook_configuration(const json::Value& obj, bool mutating);

}  // namespace capstan::apiserver::builtin
