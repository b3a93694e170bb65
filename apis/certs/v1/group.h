// The certs.capstan.dev/v1 API group: cert-manager.io/v1's Certificate, CertificateRequest,
// Issuer and ClusterIssuer under our group name, so a cert-manager manifest ports by changing
// its apiVersion.
#pragma once

#include "runtime/meta/gvk.h"

#include <array>
#include <string_view>

namespace capstan::apis::certs::v1 {

// The resources of this group (one declaration for the controllers, webhooks and tools).
inline const meta::ResourceType kCertificateType{{"certs.capstan.dev", "v1", "certificates"}, "Certificate", true};
inline const meta::ResourceType kCertificateRequestType{{"certs.capstan.dev", "v1", "certificaterequests"}, "CertificateRequest", true};
inline const meta::ResourceType kIssuerType{{"certs.capstan.dev", "v1", "issuers"}, "Issuer", true};
inline const meta::ResourceType kClusterIssuerType{{"certs.capstan.dev", "v1", "clusterissuers"}, "ClusterIssuer", false};
// approver-policy's CertificateRequestPolicy (certificate_request_policy.h), cluster-scoped.
inline const meta::ResourceType kCertificateRequestPolicyType{
    {"certs.capstan.dev", "v1", "certificaterequestpolicies"}, "CertificateRequestPolicy", false};

inline constexpr std::string_view kGroup = "certs.capstan.dev";
inline constexpr std::string_view kVersion = "v1";
inline constexpr std::string_view kApiVersion = "certs.capstan.dev/v1";

inline constexpr std::string_view kCertificateKind = "Certificate";
inline constexpr std::string_view kCertificateRequestKind = "CertificateRequest";
inline constexpr std::string_view kIssuerKind = "Issuer";
inline constexpr std::string_view kClusterIssuerKind = "ClusterIssuer";
inline constexpr std::string_view kCertificateRequestPolicyKind = "CertificateRequestPolicy";

// Annotation prefix reserved for the controller (cert-manager's "cert-manager.io/").
inline constexpr std::string_view kAnnotationPrefix = "certs.capstan.dev/";
// The ACME sub-group prefix (cert-manager's "acme.cert-manager.io").
inline constexpr std::string_view kAcmeGroup = "acme.certs.capstan.dev";
// The one reserved annotation a secretTemplate may carry (cert-manager's
// "cert-manager.io/allow-direct-injection", read by the CA injector).
inline constexpr std::string_view kAllowDirectInjectionAnnotation = "certs.capstan.dev/allow-direct-injection";

// cert-manager's 23 key usage names (pkg/apis/certmanager/v1/types.go), in its order: key usages
// first ("signing" is an alias of "digital signature"), then extended key usages ("s/mime" is an
// alias of "email protection").
inline constexpr std::array<std::string_view, 23> kKeyUsages = {
    "signing",        "digital signature", "content commitment", "key encipherment", "key agreement",
    "data encipherment", "cert sign",      "crl sign",           "encipher only",    "decipher only",
    "any",            "server auth",       "client auth",        "code signing",     "email protection",
    "s/mime",         "ipsec end system",  "ipsec tunnel",       "ipsec user",       "timestamping",
    "ocsp signing",   "microsoft sgc",     "netscape sgc"};

bool is_known_usage(std::string_view usage);

// Condition types and the reasons the controllers use (cert-manager's constants).
namespace condition {
inline constexpr std::string_view kReady = "Ready";
inline constexpr std::string_view kIssuing = "Issuing";          // Certificate
inline constexpr std::string_view kApproved = "Approved";        // CertificateRequest
inline constexpr std::string_view kDenied = "Denied";            // CertificateRequest
inline constexpr std::string_view kInvalidRequest = "InvalidRequest";  // CertificateRequest
}  // namespace condition

}  // namespace capstan::apis::certs::v1
