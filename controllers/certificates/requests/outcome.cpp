#include "controllers/certificates/requests/outcome.h"

#include "apis/certs/v1/group.h"
#include "runtime/controller/status.h"

namespace capstan::certificates {

using controller::set_condition;

SignOutcome SignOutcome::issued(std::string certificate, std::string ca) {
  SignOutcome o;
  o.kind = Kind::Issued;
  o.reason = "CertificateIssued";
  o.message = std::string(kIssuedMessage);
  o.certificate = std::move(certificate);
  o.ca = std::move(ca);
  return o;
}

SignOutcome SignOutcome::pending(std::string reason, std::string message, std::optional<std::chrono::milliseconds> requeue_after) {
  SignOutcome o;
  o.kind = Kind::Pending;
  o.reason = std::move(reason);
  o.message = std::move(message);
  o.requeue_after = requeue_after;
  return o;
}

SignOutcome SignOutcome::failed(std::string reason, std::string message) {
  SignOutcome o;
  o.kind = Kind::Failed;
  o.reason = std::move(reason);
  o.message = std::move(message);
  return o;
}

bool apply_outcome(v1::CertificateRequestStatus& status, const SignOutcome& outcome, meta::TimePoint now) {
  using K = SignOutcome::Kind;
  namespace rr = v1::request_reason;
  bool changed = false;
  switch (outcome.kind) {
    case K::Issued:
      changed |= set_condition(status.conditions, v1::condition::kReady, "True", rr::kIssued, outcome.message, 0, now);
      if (status.certificate != outcome.certificate) status.certificate = outcome.certificate, changed = true;
      if (status.ca != outcome.ca) status.ca = outcome.ca, changed = true;
      break;
    case K::Pending:
      changed |= set_condition(status.conditions, v1::condition::kReady, "False", rr::kPending, outcome.message, 0, now);
      break;
    case K::Failed:
      changed |= set_condition(status.conditions, v1::condition::kReady, "False", rr::kFailed, outcome.message, 0, now);
      if (!status.failure_time) status.failure_time = std::chrono::floor<std::chrono::seconds>(now), changed = true;
      break;
  }
  return changed;
}

}  // namespace capstan::certificates
