// Admission validation of certs.capstan.dev/v1 objects, mirroring cert-manager's webhook
// (internal/apis/certmanager/validation: certificate.go, certificaterequest.go, issuer.go).
// Causes carry Kubernetes field paths and render as field.Error does, e.g.
//   spec.duration: Invalid value: 30m0s: certificate duration must be greater than 1h0m0s
//   spec: Required value: at least one issuer must be configured
//
// The functions read the JSON object as the API server hands it to the webhook (already checked
// against the CRD schema, so member types are right; members of an unexpected type are treated as
// absent here). `old` is the stored object on UPDATE, nullptr on CREATE. An empty result means
// the object is admitted.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::certs::v1 {

// Certificate: ValidateCertificateSpec (CREATE and UPDATE alike).
std::vector<validation::Cause> validate_certificate(const json::Value& obj, const json::Value* old = nullptr);
std::vector<validation::Cause> validate_certificate_spec(const json::Value& spec, const validation::FieldPath& path);

// CertificateRequest: spec checks and approval conditions on CREATE; on UPDATE also the spec,
// reserved annotations and Approved/Denied conditions are immutable.
std::vector<validation::Cause> validate_certificate_request(const json::Value& obj, const json::Value* old = nullptr);

// Issuer and ClusterIssuer (the same rules).
std::vector<validation::Cause> validate_issuer(const json::Value& obj, const json::Value* old = nullptr);
std::vector<validation::Cause> validate_issuer_spec(const json::Value& spec, const validation::FieldPath& path);

// CertificateRequestPolicy: approver-policy's rules for the fields served (a selector is
// required; min <= max for durations and key sizes; known usages) and the policy_limits bounds.
std::vector<validation::Cause> validate_certificate_request_policy(const json::Value& obj, const json::Value* old = nullptr);

}  // namespace capstan::apis::certs::v1
