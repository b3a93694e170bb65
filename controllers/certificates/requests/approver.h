// The internal approver (pkg/controller/certificaterequests/approver): every request that is
// neither approved nor denied gets Approved=True, reason certs.capstan.dev, "Certificate
// request has been approved by certs.capstan.dev" (disable it with
// CertificatesOptions::enable_approver to approve by policy or by hand).
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::certificates {

struct Env;

inline constexpr std::string_view kApprovedReason = "certs.capstan.dev";
inline constexpr std::string_view kApprovedMessage = "Certificate request has been approved by certs.capstan.dev";

controller::Result reconcile_approval(Env& env, const controller::Request& req, controller::Context& ctx);

}  // namespace capstan::certificates
