#include "controllers/certificates/request_state.h"

#include "apis/certs/v1/group.h"
#include "controllers/certificates/objects.h"

namespace capstan::certificates {

namespace cond = v1::condition;

bool request_issued(const v1::CertificateRequest& cr) {
  const auto* ready = cr.status.condition(cond::kReady);
  return ready && ready->status == "True" && !cr.status.certificate.empty();
}

bool request_failed(const v1::CertificateRequest& cr) {
  // Final states only (a signer wrote Ready=False Failed/Denied with failureTime, or the request
  // is invalid): a bare Denied condition waits for the signer, so the failure time read here
  // never changes afterwards.
  if (const auto* inv = cr.status.condition(cond::kInvalidRequest); inv && inv->status == "True") return true;
  const auto* ready = cr.status.condition(cond::kReady);
  return ready && ready->status == "False" &&
         (ready->reason == v1::request_reason::kFailed || ready->reason == v1::request_reason::kDenied);
}

std::pair<std::string, std::string> request_failure(const v1::CertificateRequest& cr) {
  // As cert-manager's issuing controller: the Denied condition, then InvalidRequest, then Ready.
  if (const auto* d = cr.status.condition(cond::kDenied); d && d->status == "True")
    return {d->reason.empty() ? std::string(v1::request_reason::kDenied) : d->reason, d->message};
  if (const auto* i = cr.status.condition(cond::kInvalidRequest); i && i->status == "True") return {i->reason, i->message};
  if (const auto* ready = cr.status.condition(cond::kReady); ready && ready->status == "False" && !ready->reason.empty())
    return {ready->reason, ready->message};
  return {std::string(v1::request_reason::kFailed), ""};
}

meta::TimePoint request_failure_time(const v1::CertificateRequest& cr, const json::Value& obj) {
  if (cr.status.failure_time) return std::chrono::floor<std::chrono::seconds>(*cr.status.failure_time);
  if (auto t = meta::parse_rfc3339(creation_timestamp(obj))) return std::chrono::floor<std::chrono::seconds>(*t);
  return meta::TimePoint{};
}

}  // namespace capstan::certificates
