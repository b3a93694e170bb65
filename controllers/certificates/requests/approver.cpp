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

namespace capstan::certificates {

using controller::set_condition;

namespace v1 = apis::certs::v1;

controller::Result reconcile_approval(Env& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.requests.get(req.ns, req.name);
  if (!cached || cached->deleting()) return controller::Result::done();
  json::Value obj = cached->value();
  // Decided already (the approver's own update and the signer's come back here): no decode.
  if (const auto* conditions = json::get_array(obj, {"status", "conditions"}))
    for (const auto& c : *conditions)
      if (auto type = json::get_string(c, {"type"}); type == v1::condition::kApproved || type == v1::condition::kDenied)
        return controller::Result::done();
  v1::CertificateRequest cr = decode_request(obj, req);
  // Only this group's issuers (cert-manager's default --approve-signer-names): another group's
  // requests are its approver's, or `capstan certs approve`'s.
  const auto ref = v1::effective_issuer_ref(cr.spec.issuer_ref);
  if (ref.group != v1::kGroup || (ref.kind != v1::kIssuerKind && ref.kind != v1::kClusterIssuerKind)) return controller::Result::done();
  set_condition(cr.status.conditions, v1::condition::kApproved, "True", kApprovedReason, kApprovedMessage, 0, env.now());
  obj.get_object()["status"] = cr.status.to_json();
  try {
    env.client.update_status(kCertificateRequestType.gvr, req.ns, obj);
  } catch (const client::ApiError& e) {
    if (client::is_conflict(e)) return controller::Result::again();
    if (client::is_not_found(e)) return controller::Result::done();
    throw;
  }
  env.event(event_target(v1::kApiVersion, v1::kCertificateRequestKind, obj), "Normal", event_reason::kApproved, kApprovedMessage);
  ctx.log.debug("approved");
  return controller::Result::done();
}

}  // namespace capstan::certificates
