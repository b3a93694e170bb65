// What a signer answers for a CertificateRequest, and how it lands in the request's status
// (cert-manager's certificaterequests/util Reporter): Issued -> Ready=True "Issued"
// "Certificate fetched from issuer successfully" with status.certificate/ca; Pending ->
// Ready=False "Pending" with the message; Failed -> Ready=False "Failed", failureTime.
// The outcome's `reason` is the Event reason (SecretMissing, SigningError, ...).
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <optional>
#include <string>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

struct SignOutcome {
  enum class Kind { Issued, Pending, Failed };
  Kind kind = Kind::Pending;
  std::string reason;
  std::string message;
  std::string certificate;  // Issued: leaf then chain (PEM)
  std::string ca;           // Issued: may be empty (ACME)
  std::optional<std::chrono::milliseconds> requeue_after;

  static SignOutcome issued(std::string certificate, std::string ca);
  static SignOutcome pending(std::string reason, std::string message,
                             std::optional<std::chrono::milliseconds> requeue_after = std::nullopt);
  static SignOutcome failed(std::string reason, std::string message);
};

inline constexpr std::string_view kIssuedMessage = "Certificate fetched from issuer successfully";

// Returns whether the status changed.
bool apply_outcome(v1::CertificateRequestStatus& status, const SignOutcome& outcome, meta::TimePoint now);

}  // namespace capstan::certificates
