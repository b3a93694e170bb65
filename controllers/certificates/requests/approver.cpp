#include "controllers/certificates/requests/approver.h"

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "runtime/controller/status.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/objects.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/log/log.h"

namespace capstan::certificates {

using controller::set_condition;

namespace v1 = apis::certs::v1;

bool approval_decided(const json::Value& request) {
  if (const auto* conditions = json::get_array(request, {"status", "conditions"}))
    for (const auto& c : *conditions)
      if (auto type = json::get_string(c, {"type"}); type == v1::condition::kApproved || type == v1::condition::kDenied) return true;
  return false;
}

controller::Result reconcile_approval(Env& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.requests.get(req.ns, req.name);
  if (!cached || cached->deleting()) return controller::Result::done();
  json::Value obj = cached->value();
  // Decided already (the approver's own update and the signer's come back here): no decode.
  if (approval_decided(obj)) return controller::Result::done();
  v1::CertificateRequest cr = decode_request(obj, req);
  // Only this group's issuers (cert-manager's default --approve-signer-names): another group's
  // requests are its approver's, or `capstan certs approve`'s.
  const auto ref = v1::effective_issuer_ref(cr.spec.issuer_ref);
  if (ref.group != v1::kGroup || (ref.kind != v1::kIssuerKind && ref.kind != v1::kClusterIssuerKind)) return controller::Result::done();
  return write_decision(env, std::move(obj), cr, req, ctx,
                        {v1::condition::kApproved, kApprovedReason, std::string(kApprovedMessage), event_reason::kApproved});
}

controller::Result write_decision(Env& env, json::Value obj, v1::CertificateRequest& cr, const controller::Request& req,
                                  controller::Context& ctx, const RequestDecision& d) {
  set_condition(cr.status.conditions, d.type, "True", d.reason, d.message, 0, env.now());
  obj.get_object()["status"] = cr.status.to_json();
  try {
    env.client.update_status(kCertificateRequestType.gvr, req.ns, obj);
  } catch (const client::ApiError& e) {
    if (client::is_conflict(e)) return controller::Result::again();
    if (client::is_not_found(e)) return controller::Result::done();
    throw;
  }
  const bool denied = d.type == v1::condition::kDenied;
  env.event(event_target(v1::kApiVersion, v1::kCertificateRequestKind, obj), denied ? "Warning" : "Normal", d.event_reason, d.message);
  const log::Fields fields{{"condition", std::string(d.type)}, {"reason", std::string(d.reason)}, {"message", d.message}};
  if (d.loudly) ctx.log.info(denied ? "denied" : "approved", fields);
  else ctx.log.debug(denied ? "denied" : "approved", fields);
  return controller::Result::done();
}

}  // namespace capstan::certificates
