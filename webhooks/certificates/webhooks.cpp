#include "webhooks/certificates/webhooks.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "apis/trust/v1alpha1/group.h"
#include "apis/trust/v1alpha1/validation.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::webhooks::certificates {
namespace {

namespace v1 = apis::certs::v1;

json::Value identity_patch_target(const webhook::AdmissionRequest& req) {
  json::Value obj = req.object;
  v1::apply_certificate_request_defaults(obj);
  if (req.operation == "CREATE" && obj.is_object()) {
    auto& spec = json::ensure_object(obj, {"spec"});
    const auto& u = req.user_info;
    spec["username"] = json::get_string(u, {"username"});
    if (auto uid = json::get_string(u, {"uid"}); !uid.empty()) spec["uid"] = uid;
    else spec.erase("uid");
    if (const auto* g = json::get_array(u, {"groups"}); g && !g->empty()) spec["groups"] = *g;
    else spec.erase("groups");
    if (const auto* e = json::get_object(u, {"extra"}); e && !e->empty()) spec["extra"] = *e;
    else spec.erase("extra");
  }
  return obj;
}

}  // namespace

const std::vector<webhook::Hook>& hooks() {
  static const std::vector<webhook::Hook> all = {
      webhook::kind_hook(v1::kCertificateType),
      webhook::kind_hook(v1::kCertificateRequestType),
      webhook::kind_hook(v1::kIssuerType),
      webhook::kind_hook(v1::kClusterIssuerType),
      webhook::kind_hook(v1::kCertificateType, /*mutating=*/true),
      webhook::kind_hook(v1::kCertificateRequestType, /*mutating=*/true),
      webhook::kind_hook(apis::trust::v1alpha1::kBundleType),
  };
  return all;
}

webhook::Handler certificate_validating_handler() { return webhook::validating_handler(&v1::validate_certificate); }
webhook::Handler certificate_request_validating_handler() { return webhook::validating_handler(&v1::validate_certificate_request); }
webhook::Handler issuer_validating_handler() { return webhook::validating_handler(&v1::validate_issuer); }
webhook::Handler bundle_validating_handler() { return webhook::validating_handler(&apis::trust::v1alpha1::validate_bundle); }
webhook::Handler certificate_mutating_handler() {
  return webhook::make_mutating_handler(std::make_shared<webhook::FuncDefaulter>([](json::Value& obj) { v1::apply_defaults(obj); }));
}
webhook::Handler certificate_request_mutating_handler() {
  return webhook::make_admission_handler([](const webhook::AdmissionRequest& req) {
    if (req.operation == "DELETE" || req.operation == "CONNECT") return webhook::allowed();
    return webhook::patch_response(req.object, identity_patch_target(req));
  });
}

void register_webhooks(webhook::Server& server) {
  const auto& h = hooks();
  server.register_path(h[0].path, certificate_validating_handler());
  server.register_path(h[1].path, certificate_request_validating_handler());
  server.register_path(h[2].path, issuer_validating_handler());
  server.register_path(h[3].path, issuer_validating_handler());
  server.register_path(h[4].path, certificate_mutating_handler());
  server.register_path(h[5].path, certificate_request_mutating_handler());
  server.register_path(h[6].path, bundle_validating_handler());
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-certificates", "certificates", hooks(), endpoint);
}

}  // namespace capstan::webhooks::certificates
