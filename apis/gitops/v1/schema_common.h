// Schemas both gitops kinds' fields use.
#pragma once

#include "apis/common/openapi.h"

namespace capstan::apis::gitops::v1 {

// A metav1.Duration member, with Flux's pattern.
openapi::Schema duration(std::string_view description);
// status.lastHandledReconcileAt.
openapi::Schema reconcile_request_status();

}  // namespace capstan::apis::gitops::v1
