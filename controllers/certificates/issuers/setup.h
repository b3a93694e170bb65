// The Ready condition an issuer's setup computes (pkg/issuer/*/setup.go).
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace capstan::certificates {

struct IssuerCondition {
  std::string status;  // "True" | "False"
  std::string reason;
  std::string message;
  // When to look again (a Secret we do not watch, an unreachable ACME server).
  std::optional<std::chrono::milliseconds> requeue_after;
};

}  // namespace capstan::certificates
