// Defaults of certs.capstan.dev/v1, as cert-manager applies them.
//
// cert-manager writes almost no defaults into stored objects: its Certificate webhook does not
// mutate, and the controllers compute defaults when they read a spec (DefaultCertDuration,
// SetRuntimeDefaults_Certificate for rotationPolicy, the revision manager's limit of 1, the key
// generator's RSA-2048/PKCS1, DefaultKeyUsages()). We do the same, in two layers:
//
//  1. apply_defaults() -- the mutating webhook. It stores only the defaults that are constants
//     independent of every other field, so storing them can never make a later edit invalid:
//       spec.issuerRef.kind            = Issuer               (when issuerRef is present)
//       spec.issuerRef.group           = certs.capstan.dev   (cert-manager's CRD default for CRs)
//       spec.privateKey.rotationPolicy = Always               (cert-manager >= 1.18)
//       spec.revisionHistoryLimit      = 1                    (cert-manager >= 1.18)
//     Pinning rotationPolicy and revisionHistoryLimit in the object also keeps an existing
//     Certificate's behaviour if a later release changes a default (cert-manager changed both).
//
//  2. effective_*() -- the controller. Everything else stays implicit in the object, as it does
//     in cert-manager, because it depends on other fields: the key size on the algorithm
//     (storing size 2048 would make a later `algorithm: ECDSA` edit invalid), the usages on isCA,
//     the duration on renewBefore, and so on. Controllers always read through these helpers, so
//     objects stored before (or without) the webhook behave the same.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/common.h"
#include "runtime/json/json.h"
#include "runtime/meta/time.h"
#include "runtime/pki/key.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace capstan::apis::certs::v1 {

// pkg/apis/certmanager/v1/const.go.
inline constexpr std::chrono::hours kDefaultCertificateDuration{24 * 90};  // 2160h
inline constexpr std::chrono::hours kMinimumCertificateDuration{1};
inline constexpr std::chrono::minutes kMinimumRenewBefore{5};
inline constexpr std::int32_t kDefaultRevisionHistoryLimit = 1;
inline constexpr std::int64_t kMinRSAKeySize = 2048;
inline constexpr std::int64_t kMaxRSAKeySize = 8192;
inline constexpr std::int64_t kDefaultRSAKeySize = 2048;
inline constexpr std::int64_t kDefaultECDSAKeySize = 256;
// Controller flags --certificate-request-{minimum,maximum}-backoff-duration.
inline constexpr std::chrono::hours kMinimumIssuanceBackoff{1};
inline constexpr std::chrono::hours kMaximumIssuanceBackoff{32};

// ---- mutating webhook -------------------------------------------------------------------------

// Fills the stored defaults listed above into a Certificate object (a JSON object with a spec);
// returns whether anything changed. Idempotent; never overwrites a value that is set.
bool apply_defaults(json::Value& certificate);
// CertificateRequest: spec.issuerRef.group = certs.capstan.dev (cert-manager's CRD default; the
// CRD schema here carries the same default). Returns whether anything changed.
bool apply_certificate_request_defaults(json::Value& request);

// ---- controller -------------------------------------------------------------------------------

enum class RotationPolicy { Never, Always };

// spec.duration, else 2160h.
std::chrono::nanoseconds effective_duration(const CertificateSpec& spec);
// How long before expiry to renew a certificate whose actual lifetime (notAfter - notBefore) is
// `lifetime` (pkg/util/pki/renewaltime.go): renewBefore when 0 < renewBefore < lifetime, else
// lifetime * renewBeforePercentage / 100 when the percentage is in (0, 100), else lifetime / 3.
std::chrono::nanoseconds effective_renew_before(const CertificateSpec& spec, std::chrono::nanoseconds lifetime);
// notAfter - effective_renew_before, truncated to whole seconds.
meta::TimePoint renewal_time(const CertificateSpec& spec, meta::TimePoint not_before, meta::TimePoint not_after);
// Delay before retrying after `failed_attempts` (>= 1) consecutive failures:
// 1h * 2^(failed_attempts - 1), clamped to [1h, 32h].
std::chrono::nanoseconds issuance_backoff(std::int64_t failed_attempts);

// RSA when unset. Throws std::invalid_argument naming spec.privateKey.algorithm for values
// validation rejects.
pki::KeyAlgorithm effective_key_algorithm(const CertificateSpec& spec);
// spec.privateKey.size, else RSA 2048 / ECDSA 256; Ed25519 is always 256 (what PublicKey::size()
// reports, so comparing an existing key with the spec works for every algorithm).
int effective_key_size(const CertificateSpec& spec);
// PKCS1 when unset (Ed25519 keys are written as PKCS#8 whatever this says). Throws like above.
pki::KeyEncoding effective_key_encoding(const CertificateSpec& spec);
// Always when unset. Throws like above.
RotationPolicy effective_rotation_policy(const CertificateSpec& spec);
// spec.revisionHistoryLimit, else 1.
std::int32_t effective_revision_history_limit(const CertificateSpec& spec);
// spec.usages, else ["digital signature", "key encipherment"]; "cert sign" is appended for a CA
// when missing. What goes into the CSR and the CertificateRequest.
std::vector<std::string> effective_usages(const CertificateSpec& spec);
// spec.encodeUsagesInRequest, else true.
bool effective_encode_usages_in_request(const CertificateSpec& spec);
// kind Issuer and group certs.capstan.dev when empty.
IssuerReference effective_issuer_ref(const IssuerReference& ref);
// Whether the reference names one of our kinds (group certs.capstan.dev, kind Issuer or
// ClusterIssuer) rather than an external issuer.
bool is_builtin_issuer(const IssuerReference& ref);

}  // namespace capstan::apis::certs::v1
