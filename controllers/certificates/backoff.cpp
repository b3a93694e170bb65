#include "controllers/certificates/backoff.h"

#include "apis/certs/v1/defaults.h"

namespace capstan::certificates {

std::optional<meta::TimePoint> issuance_retry_time(const v1::CertificateStatus& status, bool failed_request_matches_spec,
                                                   meta::TimePoint now) {
  if (!status.last_failure_time || !failed_request_matches_spec) return std::nullopt;
  std::int64_t attempts = status.failed_issuance_attempts.value_or(1);
  auto at = *status.last_failure_time +
            std::chrono::duration_cast<meta::Clock::duration>(v1::issuance_backoff(attempts < 1 ? 1 : attempts));
  if (now >= at) return std::nullopt;
  return at;
}

}  // namespace capstan::certificates
