#include "apis/certs/v1/crds.h"

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/certificate_request_policy.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/issuer.h"
#include "apis/common/crd.h"

#include <initializer_list>
#include <string>

namespace capstan::apis::certs::v1 {
namespace {

constexpr CrdGroupVersion kGroupVersion{kGroup, kVersion};

}  // namespace

json::Value certificate_crd() {
  // cert-manager lets `kubectl get certificates --field-selector spec.issuerRef.name=x` work.
  return make_crd(kGroupVersion, {kCertificateKind, "certificates", "certificate", {"cert", "certs"}}, true, Certificate::schema().json(),
             {ready_column(),
              {"Secret", "string", ".spec.secretName"},
              {"Issuer", "string", ".spec.issuerRef.name", 1},
              ready_message_column(),
              {"Expiration", "string", ".status.notAfter", 1},
              age_column()},
             {".spec.issuerRef.group", ".spec.issuerRef.kind", ".spec.issuerRef.name"});
}

json::Value certificate_request_crd() {
  return make_crd(kGroupVersion, {kCertificateRequestKind, "certificaterequests", "certificaterequest", {"cr", "crs"}}, true,
             CertificateRequest::schema().json(),
             {{"Approved", "string", R"(.status.conditions[?(@.type == "Approved")].status)"},
              {"Denied", "string", R"(.status.conditions[?(@.type == "Denied")].status)"},
              ready_column(),
              {"Issuer", "string", ".spec.issuerRef.name"},
              {"Requester", "string", ".spec.username"},
              ready_message_column(),
              age_column()});
}

json::Value issuer_crd() {
  return make_crd(kGroupVersion, {kIssuerKind, "issuers", "issuer", {"iss"}}, true, Issuer::schema(false).json(),
             {ready_column(), ready_message_column(), age_column()});
}

json::Value cluster_issuer_crd() {
  return make_crd(kGroupVersion, {kClusterIssuerKind, "clusterissuers", "clusterissuer", {"ciss"}}, false, Issuer::schema(true).json(),
             {ready_column(), ready_message_column(), age_column()});
}

json::Value certificate_request_policy_crd() {
  // approver-policy's columns and short name.
  return make_crd(kGroupVersion, {kCertificateRequestPolicyKind, "certificaterequestpolicies", "certificaterequestpolicy", {"crp"}}, false,
                  CertificateRequestPolicy::schema().json(), {ready_column(), age_column()});
}

std::vector<json::Value> crds() {
  return {certificate_crd(), certificate_request_crd(), issuer_crd(), cluster_issuer_crd(), certificate_request_policy_crd()};
}

}  // namespace capstan::apis::certs::v1
