// Names the certificates controllers share with users and tools: resources, labels,
// annotations, field managers and the condition reasons of cert-manager (renamed to the
// certs.capstan.dev/ prefix).
#pragma once

#include "apis/certs/v1/group.h"
#include "runtime/meta/core_types.h"

#include <string_view>

namespace capstan::certificates {

// ---- resources -------------------------------------------------------------------------------
// The group's own from apis/certs/v1/group.h; the core ones it writes from runtime/meta.
using apis::certs::v1::kCertificateRequestType;
using apis::certs::v1::kCertificateType;
using apis::certs::v1::kClusterIssuerType;
using apis::certs::v1::kIssuerType;
using meta::core::kIngressType;
using meta::core::kSecretType;
using meta::core::kServiceType;
// Gateway API's Gateway (a CRD, installed with the Gateway API, not by Capstan).
inline const meta::ResourceType kGatewayType{{"gateway.networking.k8s.io", "v1", "gateways"}, "Gateway", true};

// ---- labels ----------------------------------------------------------------------------------
// On every Secret the controller writes (cert-manager's controller.cert-manager.io/fao): the
// Secret informer is narrowed to it, so only our Secrets are cached.
inline constexpr std::string_view kFaoLabel = "controller.certs.capstan.dev/fao";
inline constexpr std::string_view kFaoSelector = "controller.certs.capstan.dev/fao=true";
// On the temporary Secrets holding the next private key (cert-manager.io/next-private-key).
inline constexpr std::string_view kNextPrivateKeyLabel = "certs.capstan.dev/next-private-key";
// On the per-challenge HTTP-01 solver Service and Ingress.
inline constexpr std::string_view kHttp01SolverLabel = "acme.certs.capstan.dev/http01-solver";
inline constexpr std::string_view kHttp01RequestLabel = "acme.certs.capstan.dev/request-uid";
inline constexpr std::string_view kHttp01TokenLabel = "acme.certs.capstan.dev/http-token";

// ---- annotations -----------------------------------------------------------------------------
namespace annotation {
// On the target Secret (internal/controller/certificates/secrets.go).
inline constexpr std::string_view kCertificateName = "certs.capstan.dev/certificate-name";
inline constexpr std::string_view kIssuerName = "certs.capstan.dev/issuer-name";
inline constexpr std::string_view kIssuerKind = "certs.capstan.dev/issuer-kind";
inline constexpr std::string_view kIssuerGroup = "certs.capstan.dev/issuer-group";
inline constexpr std::string_view kCommonName = "certs.capstan.dev/common-name";
inline constexpr std::string_view kAltNames = "certs.capstan.dev/alt-names";
inline constexpr std::string_view kIpSans = "certs.capstan.dev/ip-sans";
inline constexpr std::string_view kUriSans = "certs.capstan.dev/uri-sans";
inline constexpr std::string_view kEmailSans = "certs.capstan.dev/email-sans";
inline constexpr std::string_view kSubjectOrganizations = "certs.capstan.dev/subject-organizations";
inline constexpr std::string_view kSubjectOrganizationalUnits = "certs.capstan.dev/subject-organizationalunits";
inline constexpr std::string_view kSubjectCountries = "certs.capstan.dev/subject-countries";
inline constexpr std::string_view kSubjectProvinces = "certs.capstan.dev/subject-provinces";
inline constexpr std::string_view kSubjectLocalities = "certs.capstan.dev/subject-localities";
inline constexpr std::string_view kSubjectPostalCodes = "certs.capstan.dev/subject-postalcodes";
inline constexpr std::string_view kSubjectStreetAddresses = "certs.capstan.dev/subject-streetaddresses";
inline constexpr std::string_view kSubjectSerialNumber = "certs.capstan.dev/subject-serialnumber";
// On CertificateRequests (requestmanager).
inline constexpr std::string_view kRevision = "certs.capstan.dev/certificate-revision";
inline constexpr std::string_view kPrivateKeySecretName = "certs.capstan.dev/private-key-secret-name";
// On ACME CertificateRequests: the order URL (set once by the signer; outside the reserved
// certs.capstan.dev prefixes, which the webhook forbids adding after creation).
inline constexpr std::string_view kAcmeOrderUrl = "acme.capstan.dev/order-url";
// On ACME CertificateRequests while an order runs: the HTTP-01 tokens the leader answers,
// {"<token>": {"keyAuthorization": ..., "domain": ...}}, so that every replica's solver answers
// them too (its informer feeds them in). Removed when the order ends.
inline constexpr std::string_view kAcmeHttp01Tokens = "acme.capstan.dev/http01-tokens";
// On Certificates: "true" writes a temporary certificate for the next private key while the
// first issuance is pending (cert-manager.io/issue-temporary-certificate).
inline constexpr std::string_view kIssueTemporaryCertificate = "certs.capstan.dev/issue-temporary-certificate";
// On a Secret holding such a temporary certificate: it is neither Ready nor kept.
inline constexpr std::string_view kTemporaryCertificate = "certs.capstan.dev/temporary-certificate";
}  // namespace annotation

// ---- field managers and event sources --------------------------------------------------------
inline constexpr std::string_view kFieldManager = "capstan-certificates";
// The subject CN of the throwaway CA that signs temporary certificates (cert-manager's is
// "cert-manager.local").
inline constexpr std::string_view kTemporaryCaName = "capstan.local";
inline constexpr std::string_view kEventComponent = "capstan-certificates";

// ---- Certificate condition reasons (internal/controller/certificates/policies/constants.go) --
namespace reason {
inline constexpr std::string_view kDoesNotExist = "DoesNotExist";
inline constexpr std::string_view kMissingData = "MissingData";
inline constexpr std::string_view kInvalidKeyPair = "InvalidKeyPair";
inline constexpr std::string_view kInvalidCertificate = "InvalidCertificate";
inline constexpr std::string_view kInvalidCertificateRequest = "InvalidCertificateRequest";
inline constexpr std::string_view kSecretMismatch = "SecretMismatch";
inline constexpr std::string_view kIncorrectIssuer = "IncorrectIssuer";
inline constexpr std::string_view kIncorrectCertificate = "IncorrectCertificate";
inline constexpr std::string_view kRequestChanged = "RequestChanged";
inline constexpr std::string_view kRenewing = "Renewing";
inline constexpr std::string_view kExpired = "Expired";
inline constexpr std::string_view kSecretTemplateMismatch = "SecretTemplateMismatch";
inline constexpr std::string_view kAdditionalOutputFormatsMismatch = "AdditionalOutputFormatsMismatch";
inline constexpr std::string_view kKeystoresMismatch = "KeystoresMismatch";
inline constexpr std::string_view kSecretManagedMetadataMismatch = "SecretManagedMetadataMismatch";
inline constexpr std::string_view kReady = "Ready";
inline constexpr std::string_view kIssued = "Issued";
}  // namespace reason

inline constexpr std::string_view kReadyMessage = "Certificate is up to date and has not expired";

// ---- event reasons ---------------------------------------------------------------------------
namespace event_reason {
inline constexpr std::string_view kIssuing = "Issuing";
inline constexpr std::string_view kGenerated = "Generated";
inline constexpr std::string_view kReused = "Reused";
inline constexpr std::string_view kRequested = "Requested";
inline constexpr std::string_view kIssued = "Issued";
inline constexpr std::string_view kFailed = "Failed";
inline constexpr std::string_view kDeleted = "Deleted";
inline constexpr std::string_view kApproved = "certs.capstan.dev";
inline constexpr std::string_view kCertificateIssued = "CertificateIssued";
// A keystore password that cannot be read (the Secret or its key is missing).
inline constexpr std::string_view kKeystorePasswordError = "KeystorePasswordError";
}  // namespace event_reason

}  // namespace capstan::certificates
