// The errors kube-apiserver (1.32) returns for admission webhooks, worded as
// k8s.io/apiserver/pkg/admission/plugin/webhook/errors and pkg/util/webhook word them.
#pragma once

#include "apiserver/rest/api_error.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::apiserver::admission {

// ErrCallingWebhook.Error(): `failed calling webhook "<name>": <reason>`.
std::string calling_error_text(std::string_view webhook, std::string_view reason);

// A call failure under failurePolicy Fail: apierrors.NewInternalError(ErrCallingWebhook), i.e.
// 500 InternalError `Internal error occurred: failed calling webhook "<name>": <reason>`.
ApiError calling_error(std::string_view webhook, std::string_view reason);

// A denial (allowed: false), as webhookerrors.ToStatusErr builds it from response.status: the
// webhook's code (raised to 400 when below), reason and details pass through; the message
// becomes `admission webhook "<name>" denied the request: <message>` (or `: <reason>`, or
// ` without explanation`).
ApiError denial_error(std::string_view webhook, const json::Value& status);

// webhookerrors.NewDryRunUnsupportedErr: 400 BadRequest
// `admission webhook "<name>" does not support dry run`.
ApiError dry_run_unsupported(std::string_view webhook);

}  // namespace capstan::apiserver::admission
