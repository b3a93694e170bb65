// The readiness step (pkg/controller/certificates/readiness): Ready from the readiness policy
// chain ("Ready" / "Certificate is up to date and has not expired" when nothing fires, the
// policy's reason and message otherwise), and notBefore / notAfter / renewalTime from the
// certificate in the Secret. Pure.
#pragma once

#include "controllers/certificates/policies/policies.h"

#include <optional>
#include <string>

namespace capstan::certificates {

struct Readiness {
  std::string status;  // "True" | "False"
  std::string reason;
  std::string message;
  std::optional<meta::TimePoint> not_before, not_after, renewal_time;
};

Readiness compute_readiness(const policies::Input& in);

}  // namespace capstan::certificates
