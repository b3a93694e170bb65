#include "controllers/certificates/approval/policy_approver.h"

#include "apis/certs/v1/certificate_request_policy.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "controllers/certificates/approval/evaluator.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/objects.h"
#include "controllers/certificates/requests/approver.h"
#include "runtime/cache/informer.h"
#include "runtime/client/access_review.h"
#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "runtime/controller/status.h"
#include "runtime/meta/core_types.h"
#include "runtime/pki/error.h"

#include <stdexcept>

namespace capstan::certificates::approval {
namespace {

using v1::kCertificateRequestPolicyType;
using v1::kCertificateRequestType;

// A policy as the request's review needs it; `policy` owns the spec Applicable points at.
struct Loaded {
  std::string name;
  v1::CertificateRequestPolicy policy;
  bool ready = false;
  bool reconciled = false;
};

// Every policy in the cache that decodes (one that does not is Ready=False already and judges
// nothing).
std::vector<Loaded> load_policies(const Env& env, controller::Context& ctx) {
  std::vector<Loaded> out;
  for (const auto& o : env.policies->list()) {
    const json::Value& obj = o->value();
    try {
      Loaded l{std::string(o->name()), v1::CertificateRequestPolicy::from_json(obj)};
      l.ready = controller::condition_current(obj, v1::condition::kReady, "True");
      l.reconciled = v1::find_condition(l.policy.status.conditions, v1::condition::kReady) != nullptr;
      out.push_back(std::move(l));
    } catch (const std::exception& e) {
      ctx.log.debug("skipping undecodable CertificateRequestPolicy", {{"policy", std::string(o->name())}, {"error", e.what()}});
    }
  }
  return out;
}

std::map<std::string, std::string> namespace_labels(const Env& env, const std::string& ns) {
  auto cached = env.namespaces->get("", ns);
  // Not cached yet (a request seen before its namespace): retried with backoff.
  if (!cached) throw std::runtime_error("namespace " + ns + " of the CertificateRequest is not in the cache yet");
  std::map<std::string, std::string> out;
  if (const auto* labels = json::get_object(cached->value(), {"metadata", "labels"}))
    for (const auto& kv : *labels)
      if (kv.value().is_string()) out[std::string(kv.key())] = std::string(kv.value().get_string());
  return out;
}

// The policies that select the request and are bound to its requester by RBAC.
std::vector<Applicable> applicable(Env& env, const std::vector<Loaded>& policies, const v1::CertificateRequest& cr,
                                   const json::Value& spec_json, const std::string& ns) {
  // No requester recorded (made with the webhook off): no RBAC binding can name it, and the API
  // server refuses a review without user or groups.
  if (cr.spec.username.empty() && cr.spec.groups.empty()) return {};
  const auto ref = v1::effective_issuer_ref(cr.spec.issuer_ref);
  std::optional<std::map<std::string, std::string>> labels;  // read once, when a selector asks
  std::vector<Applicable> out;
  for (const auto& l : policies) {
    const auto& selector = l.policy.spec.selector;
    if (selector.namespace_ && !selector.namespace_->match_labels.empty() && !labels) labels = namespace_labels(env, ns);
    static const std::map<std::string, std::string> kNone;
    if (!selects(selector, ref, ns, labels ? *labels : kNone)) continue;
    const std::string& name = l.name;
    if (!client::subject_access_allowed(env.client, spec_json,
                                        {"use", std::string(v1::kGroup), kCertificateRequestPolicyType.gvr.resource, name, ns}))
      continue;
    out.push_back({name, &l.policy.spec, l.ready, l.reconciled});
  }
  return out;
}

controller::Result decide(Env& env, json::Value obj, v1::CertificateRequest& cr, const Review& r, const controller::Request& req,
                          controller::Context& ctx) {
  const bool approved = r.decision == Decision::kApproved;
  return write_decision(env, std::move(obj), cr, req, ctx,
                        {approved ? v1::condition::kApproved : v1::condition::kDenied, kPolicyReason, r.message,
                         approved ? "Approved" : "Denied", /*loudly=*/true});
}

// Requests not yet approved or denied, found without decoding the ones whose JSON names
// neither condition type.
std::vector<controller::Request> undecided(const Env& env, std::string_view ns = {}) {
  std::vector<controller::Request> out;
  for (const auto& o : env.requests.list(ns)) {
    const auto text = o->json();
    const bool maybe = text.find("\"Approved\"") != std::string_view::npos || text.find("\"Denied\"") != std::string_view::npos;
    if (maybe && approval_decided(o->value())) continue;
    out.push_back({std::string(o->ns()), std::string(o->name())});
  }
  return out;
}

}  // namespace

controller::Result reconcile_policy_approval(Env& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.requests.get(req.ns, req.name);
  if (!cached || cached->deleting()) return controller::Result::done();
  json::Value obj = cached->value();
  if (approval_decided(obj)) return controller::Result::done();
  auto policies = load_policies(env, ctx);
  if (policies.empty()) return controller::Result::done();
  v1::CertificateRequest cr = decode_request(obj, req);
  RequestAttributes attributes;
  try {
    attributes = attributes_of(cr);
  } catch (const pki::PkiError& e) {
    // The signer marks such a request InvalidRequest; a policy change cannot make it readable.
    ctx.log.warn("cannot evaluate CertificateRequest: its CSR does not parse", {{"error", e.what()}});
    env.event(event_target(v1::kApiVersion, v1::kCertificateRequestKind, obj), "Warning", "EvaluationError",
              std::string("spec.request does not parse: ") + e.what());
    return controller::Result::done();
  }
  static const json::Value kNoSpec;
  const json::Value* spec = json::find(obj, {"spec"});
  Review r = review(applicable(env, policies, cr, spec ? *spec : kNoSpec, req.ns), attributes);
  if (r.decision == Decision::kUnprocessed) {
    ctx.log.debug("left undecided", {{"message", r.message}});
    return controller::Result::done();
  }
  return decide(env, std::move(obj), cr, r, req, ctx);
}

controller::Result reconcile_policy_status(Env& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.policies->get("", req.name);
  if (!cached || cached->deleting()) return controller::Result::done();
  const json::Value& before = cached->value();
  json::Value obj = before;
  auto causes = v1::validate_certificate_request_policy(obj);
  if (causes.empty()) {
    controller::set_condition(obj, v1::condition::kReady, "True", v1::policy_reason::kReady, kReadyMessage);
  } else {
    std::string message = "CertificateRequestPolicy is not ready for approval evaluation: ";
    for (std::size_t i = 0; i < causes.size(); ++i) message += (i ? ", " : "") + causes[i].error();
    if (message.size() > kMaxMessageBytes) message.resize(kMaxMessageBytes);
    controller::set_condition(obj, v1::condition::kReady, "False", v1::policy_reason::kNotReady, message);
    ctx.log.info("policy not ready", {{"message", message}});
  }
  controller::write_status(env.client, kCertificateRequestPolicyType.gvr, before, obj);
  return controller::Result::done();
}

void wire_policy_approver(controller::Manager& mgr, const std::shared_ptr<Env>& env, int workers) {
  env->policies = &mgr.informer(kCertificateRequestPolicyType);
  env->namespaces = &mgr.informer(meta::core::kNamespaceType);
  Env* e = env.get();
  mgr.controller("certificaterequestpolicies")
      .for_(kCertificateRequestPolicyType)
      .with_max_concurrent(workers)
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_policy_status(*env, r, c); });
  // Any policy event (its Ready condition turning True included) re-evaluates every undecided
  // request; a namespace's labels those of its namespace.
  mgr.controller("certificaterequests-policy-approver")
      .for_(kCertificateRequestType)
      .watches(kCertificateRequestPolicyType, [e](const cache::ObjectPtr&) { return undecided(*e); })
      .watches(meta::core::kNamespaceType, [e](const cache::ObjectPtr& o) { return undecided(*e, o->name()); })
      .with_max_concurrent(workers)
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_policy_approval(*env, r, c); });
}

}  // namespace capstan::certificates::approval
