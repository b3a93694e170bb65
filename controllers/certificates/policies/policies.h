// cert-manager's certificate policies (internal/controller/certificates/policies): small
// checks over (Certificate, its Secret, the CertificateRequest of its current revision, now),
// each returning why the Secret is not what the Certificate asks for. Chained in cert-manager's
// order, the first that fires decides: the trigger chain starts an issuance, the readiness
// chain sets Ready=False.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "controllers/certificates/secret_view.h"
#include "runtime/meta/time.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace capstan::certificates::policies {

namespace v1 = apis::certs::v1;

struct Input {
  const v1::Certificate* certificate = nullptr;
  const SecretView* secret = nullptr;                       // nullptr: the Secret does not exist
  const v1::CertificateRequest* current_request = nullptr;  // the request of status.revision
  meta::TimePoint now{};
};

struct Violation {
  std::string reason;   // DoesNotExist, Renewing, ... (constants.h reason::)
  std::string message;  // cert-manager's wording
  bool operator==(const Violation&) const = default;
};

using Check = std::function<std::optional<Violation>(const Input&)>;
using Chain = std::vector<Check>;

// The individual checks (each assumes the earlier ones of its chain passed).
std::optional<Violation> secret_does_not_exist(const Input& in);
std::optional<Violation> secret_is_missing_data(const Input& in);
std::optional<Violation> secret_public_keys_differ(const Input& in);
std::optional<Violation> secret_holds_temporary_certificate(const Input& in);
std::optional<Violation> secret_issuer_annotations_mismatch(const Input& in);
std::optional<Violation> secret_certificate_name_mismatch(const Input& in);
std::optional<Violation> secret_private_key_mismatches_spec(const Input& in);
std::optional<Violation> secret_public_key_differs_from_current_request(const Input& in);
std::optional<Violation> current_request_mismatches_spec(const Input& in);
std::optional<Violation> current_certificate_nearing_expiry(const Input& in);
std::optional<Violation> current_certificate_has_expired(const Input& in);

// SecretDoesNotExist -> ... -> CurrentCertificateRequestMismatchesSpec, then
// CurrentCertificateNearingExpiry (trigger) or CurrentCertificateHasExpired (readiness).
const Chain& trigger_chain();
const Chain& readiness_chain();
// When a temporary certificate may be written (cert-manager's NewTemporaryCertificatePolicyChain):
// the Secret is missing, lacks data, or its certificate is not for its key. A Secret with a
// working pair (the previous revision's while renewing) is never replaced by one.
const Chain& temporary_certificate_chain();
std::optional<Violation> evaluate(const Chain& chain, const Input& in);

// The post-issuance check (no re-issue, the Secret's metadata is re-applied): our label, the
// annotations we write and the secretTemplate's labels/annotations must be on the Secret.
std::optional<Violation> secret_metadata_mismatch(const Input& in);

// "Issuer.certs.capstan.dev/name" with cert-manager's defaults for empty kind/group.
std::string format_issuer_ref(std::string_view name, std::string_view kind, std::string_view group);
// Go's time.RFC1123 in UTC: "Mon, 02 Jan 2006 15:04:05 UTC".
std::string format_rfc1123(meta::TimePoint t);

}  // namespace capstan::certificates::policies
