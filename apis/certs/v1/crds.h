// The five CustomResourceDefinitions (apiextensions.k8s.io/v1) of certs.capstan.dev, generated
// from the kinds' schemas (Certificate::schema(), ...): names and short names, printer columns and
// subresources as cert-manager's.
#pragma once

#include "runtime/json/json.h"

#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1 {

json::Value certificate_crd();
json::Value certificate_request_crd();
json::Value issuer_crd();
json::Value cluster_issuer_crd();
json::Value certificate_request_policy_crd();

// certificates, certificaterequests, issuers, clusterissuers, certificaterequestpolicies (in
// that order).
std::vector<json::Value> crds();

}  // namespace capstan::apis::certs::v1
