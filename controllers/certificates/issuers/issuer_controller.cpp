#include "controllers/certificates/issuers/issuer_controller.h"

#include "apis/certs/v1/group.h"
#include "apis/certs/v1/issuer.h"
#include "apis/common/codec.h"
#include "runtime/controller/status.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/acme_account.h"
#include "controllers/certificates/issuers/ca.h"
#include "controllers/certificates/issuers/lookup.h"
#include "controllers/certificates/issuers/selfsigned.h"
#include "controllers/certificates/objects.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/meta/object.h"

namespace capstan::certificates {

using controller::set_condition;

namespace v1 = apis::certs::v1;
using controller::Result;

Result reconcile_issuer(Env& env, bool cluster, const controller::Request& req, controller::Context& ctx) {
  auto& informer = cluster ? env.cluster_issuers : env.issuers;
  auto cached = informer.get(req.ns, req.name);
  if (!cached || cached->deleting()) return Result::done();
  json::Value obj = cached->value();
  const std::string_view kind = cluster ? v1::kClusterIssuerKind : v1::kIssuerKind;
  obj.get_object()["kind"] = kind;
  v1::Issuer issuer;
  try {
    issuer = v1::Issuer::from_json(obj);
  } catch (const apis::codec::DecodeError& e) {
    throw controller::TerminalError(std::string(kind) + " " + req.key() + " cannot be decoded: " + e.what());
  }
  v1::IssuerStatus status = issuer.status;
  IssuerCondition c;
  std::string type = issuer_type(issuer.spec);
  if (type == "selfSigned") {
    c = setup_self_signed(issuer);
  } else if (type == "ca") {
    c = setup_ca(env, issuer);
  } else if (type == "acme") {
    c = setup_acme(env, issuer, status, ctx.log);
  } else {
    c = {"False", std::string(v1::issuer_reason::kInvalidConfig), "Exactly one issuer type must be configured", std::nullopt};
  }
  const auto now = env.now();
  bool changed = set_condition(status.conditions, v1::condition::kReady, c.status, c.reason, c.message, meta::generation_of(obj), now);
  if (json::serialize(status.to_json()) != json::serialize(issuer.status.to_json())) {
    obj.get_object()["status"] = status.to_json();
    try {
      env.client.update_status(cluster ? kClusterIssuerType.gvr : kIssuerType.gvr, req.ns, obj);
    } catch (const client::ApiError& e) {
      if (client::is_conflict(e)) return Result::again();
      if (client::is_not_found(e)) return Result::done();
      throw;
    }
    if (changed) {
      env.event(event_target(v1::kApiVersion, kind, obj), c.status == "True" ? "Normal" : "Warning", c.reason,
                c.message.empty() ? std::string(kind) + " is ready" : c.message);
      ctx.log.info("issuer condition", {{"ready", c.status}, {"reason", c.reason}, {"message", c.message}});
    }
  }
  if (c.requeue_after) return Result::after(*c.requeue_after);
  return Result::done();
}

}  // namespace capstan::certificates
