// The OpenAPI v3 schemas of the certs.capstan.dev/v1 kinds (each CRD's
// spec.versions[0].schema.openAPIV3Schema), built in C++ as the single source of truth for
// config/crd and `capstan crds`. Like cert-manager's, they are typed but permissive: enums where
// cert-manager's CRDs have them, everything else left to the webhook (validation.h).
#pragma once

#include "runtime/json/json.h"

namespace capstan::apis::certs::v1 {

json::Value certificate_schema();
json::Value certificate_request_schema();
// Issuer and ClusterIssuer differ only in the descriptions.
json::Value issuer_schema(bool cluster_scoped);

}  // namespace capstan::apis::certs::v1
