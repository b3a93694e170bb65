// `capstan certs convert`: cert-manager and trust-manager manifests rewritten for Capstan, so that
// a cluster's YAML moves over without hand edits. cert-manager.io/v1 Certificate,
// CertificateRequest, Issuer and ClusterIssuer become certs.capstan.dev/v1 (issuerRef.group
// cert-manager.io too), approver-policy's policy.cert-manager.io/v1alpha1
// CertificateRequestPolicies certs.capstan.dev/v1 (the fields not served noted), trust.cert-manager.io/v1alpha1 Bundles trust.capstan.dev/v1alpha1, and the
// cert-manager.io/ annotations of Ingresses and Gateways (issuer, cluster-issuer, common-name,
// duration...) certs.capstan.dev/ ones. ACME Orders and Challenges are dropped (they are the
// controller's own state); every other object passes unchanged. What Capstan does not serve
// (older cert-manager API versions, DNS-01 providers other than rfc2136 and webhook, Vault and Venafi
// issuers, cainjector annotations) is reported in the notes, naming the object and field.
#pragma once

#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::certificates::cli {

struct Converted {
  std::vector<json::Value> objects;
  std::vector<std::string> notes;  // "Issuer shop/le: spec.acme.solvers[0].dns01.route53: ..."
};

Converted convert_from_cert_manager(const std::vector<json::Value>& documents);

}  // namespace capstan::certificates::cli
