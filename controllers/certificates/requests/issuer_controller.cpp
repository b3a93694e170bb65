#include "controllers/certificates/requests/issuer_controller.h"

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "runtime/controller/status.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/acme_order.h"
#include "controllers/certificates/issuers/ca.h"
#include "controllers/certificates/issuers/lookup.h"
#include "controllers/certificates/issuers/selfsigned.h"
#include "controllers/certificates/objects.h"
#include "controllers/certificates/request_state.h"
#include "controllers/certificates/requests/outcome.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"

namespace capstan::certificates {

using controller::set_condition;
namespace {

namespace cond = v1::condition;
using controller::Result;

// Writes the status when it changed; false on a conflict (requeue).
bool write(Env& env, const controller::Request& req, json::Value& obj, const v1::CertificateRequest& before,
           const v1::CertificateRequestStatus& status) {
  if (json::serialize(status.to_json()) == json::serialize(before.status.to_json())) return true;
  obj.get_object()["status"] = status.to_json();
  try {
    env.client.update_status(kCertificateRequestType.gvr, req.ns, obj);
  } catch (const client::ApiError& e) {
    if (client::is_conflict(e) || client::is_not_found(e)) return false;
    throw;
  }
  return true;
}

}  // namespace

Result reconcile_signing(Env& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.requests.get(req.ns, req.name);
  if (!cached || cached->deleting()) return Result::done();
  json::Value obj = cached->value();
  v1::CertificateRequest cr = decode_request(obj, req);
  auto ref = v1::effective_issuer_ref(cr.spec.issuer_ref);
  if (!v1::is_builtin_issuer(ref)) return Result::done();
  if (request_issued(cr) || request_failed(cr)) return Result::done();

  const auto now = env.now();
  v1::CertificateRequestStatus status = cr.status;
  auto target = event_target(v1::kApiVersion, v1::kCertificateRequestKind, obj);

  if (cr.status.denied()) {
    set_condition(status.conditions, cond::kReady, "False", v1::request_reason::kDenied,
                  "The CertificateRequest was denied by an approval controller", 0, now);
    if (!status.failure_time) status.failure_time = std::chrono::floor<std::chrono::seconds>(now);
    return write(env, req, obj, cr, status) ? Result::done() : Result::again();
  }
  if (!cr.status.approved()) return Result::done();  // the approver's update wakes us

  SignOutcome outcome;
  auto issuer = find_issuer(env, ref, req.ns);
  if (!issuer) {
    outcome = SignOutcome::pending("IssuerNotFound", "Referenced \"" + ref.kind + "\" not found: " + ref.kind + " \"" + ref.name +
                                                         "\" not found");
  } else if (!issuer_ready(issuer->issuer)) {
    outcome = SignOutcome::pending("IssuerNotReady", "Referenced issuer does not have a Ready status condition");
  } else {
    std::string type = issuer_type(issuer->issuer.spec);
    if (type == "selfSigned") {
      outcome = sign_self_signed(env, cr, obj, issuer->issuer);
    } else if (type == "ca") {
      outcome = sign_ca(env, cr, issuer->issuer);
    } else if (type == "acme") {
      outcome = sign_acme(env, cr, obj, issuer->issuer, ctx.log);
    } else {
      outcome = SignOutcome::pending("IssuerTypeMissing", "Referenced issuer has no (or more than one) issuer type configured");
    }
  }
  bool changed = apply_outcome(status, outcome, now);
  if (!write(env, req, obj, cr, status)) return Result::again();
  if (changed) {
    using K = SignOutcome::Kind;
    env.event(target, outcome.kind == K::Failed ? "Warning" : "Normal", outcome.reason, outcome.message);
    ctx.log.info(outcome.kind == K::Issued ? "certificate issued" : outcome.kind == K::Failed ? "signing failed" : "signing pending",
                 {{"issuer", ref.kind + "/" + ref.name}, {"reason", outcome.reason}, {"message", outcome.message}});
  }
  if (outcome.kind == SignOutcome::Kind::Pending && outcome.requeue_after) return Result::after(*outcome.requeue_after);
  return Result::done();
}

}  // namespace capstan::certificates
