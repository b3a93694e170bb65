#include "webhooks/certificates/webhooks.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::webhooks::certificates {
namespace {

namespace v1 = apis::certs::v1;

webhook::Hook hook(bool mutating, std::string_view kind, std::string_view resource) {
  return webhook::kind_hook(v1::kGroup, v1::kVersion, kind, resource, mutating);
}

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
      hook(false, v1::kCertificateKind, "certificates"),
      hook(false, v1::kCertificateRequestKind, "certificaterequests"),
      hook(false, v1::kIssuerKind, "issuers"),
      hook(false, v1::kClusterIssuerKind, "clusterissuers"),
      hook(true, v1::kCertificateKind, "certificates"),
      hook(true, v1::kCertificateRequestKind, "certificaterequests"),
  };
  return all;
}

webhook::Handler certificate_validating_handler() { return webhook::validating_handler(&v1::validate_certificate); }
webhook::Handler certificate_request_validating_handler() { return webhook::validating_handler(&v1::validate_certificate_request); }
webhook::Handler issuer_validating_handler() { return webhook::validating_handler(&v1::validate_issuer); }
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
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-certificates", "certificates", hooks(), endpoint);
}

}  // namespace capstan::webhooks::certificates
