// The internal approver (pkg/controller/certificaterequests/approver): every request that is
// neither approved nor denied gets Approved=True, reason certs.capstan.dev, "Certificate
// request has been approved by certs.capstan.dev" (disable it with
// CertificatesOptions::enable_approver to approve by policy, approval/policy_approver.h, or by hand).
#pragma once

#include "runtime/controller/reconcile.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::apis::certs::v1 {
struct CertificateRequest;
}

namespace capstan::certificates {

struct Env;

inline constexpr std::string_view kApprovedReason = "certs.capstan.dev";
inline constexpr std::string_view kApprovedMessage = "Certificate request has been approved by certs.capstan.dev";

// Whether a CertificateRequest (as JSON) carries an Approved or Denied condition: the decision
// is final (the webhook keeps it immutable), so every approver leaves such a request alone.
bool approval_decided(const json::Value& request);

// One approver's decision written on the request's status: condition `type` (Approved or
// Denied) True with `reason` and `message`, then an event of `event_reason` (Warning for a
// denial) and a log line (info with `loudly`, else debug). A conflict is tried again; a request
// gone meanwhile needs nothing more.
struct RequestDecision {
  std::string_view type, reason;
  std::string message;
  std::string_view event_reason;
  bool loudly = false;
};
controller::Result write_decision(Env& env, json::Value obj, apis::certs::v1::CertificateRequest& cr, const controller::Request& req,
                                  controller::Context& ctx, const RequestDecision& d);

controller::Result reconcile_approval(Env& env, const controller::Request& req, controller::Context& ctx);

}  // namespace capstan::certificates
