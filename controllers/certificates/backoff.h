// Failed-issuance backoff (the trigger controller's shouldBackoffReissuingOnFailure): after
// status.failedIssuanceAttempts = n failures the next attempt waits 1h * 2^(n-1), at most
// 32h, from status.lastFailureTime - unless the spec changed since the failed request.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "runtime/meta/time.h"

#include <optional>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// When the next issuance may start; nullopt = now. `failed_request_matches_spec` is false
// when the spec no longer matches the failed CertificateRequest (then there is no backoff).
std::optional<meta::TimePoint> issuance_retry_time(const v1::CertificateStatus& status, bool failed_request_matches_spec,
                                                   meta::TimePoint now);

}  // namespace capstan::certificates
