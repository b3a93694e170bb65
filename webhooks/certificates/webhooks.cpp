#include "webhooks/certificates/webhooks.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "apis/trust/v1alpha1/group.h"
#include "apis/trust/v1alpha1/validation.h"
#include "runtime/client/access_review.h"
#include "runtime/meta/ascii.h"
#include "runtime/meta/object.h"
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

// The signer names of a request's issuer, as cert-manager's approval plugin forms them: the
// issuer kind's resource (issuers, clusterissuers; other groups' kinds: lower case plus "s"),
// its group, and <namespace>.<name> (namespaced kinds) or <name>.
std::pair<std::string, std::string> signer_names(const json::Value& request, std::string_view ns) {
  std::string kind(json::get_string(request, {"spec", "issuerRef", "kind"}, v1::kIssuerKind));
  std::string group(json::get_string(request, {"spec", "issuerRef", "group"}, v1::kGroup));
  std::string name(json::get_string(request, {"spec", "issuerRef", "name"}));
  if (kind.empty()) kind = v1::kIssuerKind;
  if (group.empty()) group = v1::kGroup;
  const bool cluster = kind == v1::kClusterIssuerKind;
  std::string resource = meta::ascii_lower(kind) + "s." + group;
  return {resource + "/" + (cluster ? name : std::string(ns) + "." + name), resource + "/*"};
}

}  // namespace

ApprovalCheck subject_access_review(client::Client& c) {
  return [&c](const json::Value& user, const std::string& signer, const std::string& wildcard) {
    for (const std::string& name : {signer, wildcard})
      if (client::subject_access_allowed(c, user, {"approve", std::string(v1::kGroup), "signers", name, ""})) return true;
    return false;
  };
}

const std::vector<webhook::Hook>& hooks() {
  static const std::vector<webhook::Hook> all = {
      webhook::kind_hook(v1::kCertificateType),
      [] {
        // Its status too: approval and denial are set there.
        auto h = webhook::kind_hook(v1::kCertificateRequestType);
        h.resources.push_back(v1::kCertificateRequestType.gvr.resource + "/status");
        return h;
      }(),
      webhook::kind_hook(v1::kIssuerType),
      webhook::kind_hook(v1::kClusterIssuerType),
      webhook::kind_hook(v1::kCertificateType, /*mutating=*/true),
      webhook::kind_hook(v1::kCertificateRequestType, /*mutating=*/true),
      webhook::kind_hook(apis::trust::v1alpha1::kBundleType),
      webhook::kind_hook(v1::kCertificateRequestPolicyType),
  };
  return all;
}

webhook::Handler certificate_validating_handler() { return webhook::validating_handler(&v1::validate_certificate); }
webhook::Handler certificate_request_validating_handler(ApprovalCheck approval) {
  return webhook::make_admission_handler([approval](const webhook::AdmissionRequest& req) {
    if (req.operation != "CREATE" && req.operation != "UPDATE") return webhook::allowed();
    const json::Value* old = req.operation == "UPDATE" && !req.old_object.is_null() ? &req.old_object : nullptr;
    webhook::deny_if_any(v1::validate_certificate_request(req.object, old));
    if (!approval) return webhook::allowed();
    for (auto type : {v1::condition::kApproved, v1::condition::kDenied}) {
      if (!meta::condition_true(req.object, type) || (old && meta::condition_true(*old, type))) continue;
      auto [signer, wildcard] = signer_names(req.object, req.ns);
      if (approval(req.user_info, signer, wildcard)) continue;
      return webhook::denied("user \"" + std::string(json::get_string(req.user_info, {"username"})) +
                             "\" may not approve or deny requests of signer \"" + signer + "\": it needs verb \"approve\" on " +
                             "signers \"" + signer + "\" or \"" + wildcard + "\" of API group " + std::string(v1::kGroup));
    }
    return webhook::allowed();
  });
}
webhook::Handler issuer_validating_handler() { return webhook::validating_handler(&v1::validate_issuer); }
webhook::Handler certificate_request_policy_validating_handler() {
  return webhook::validating_handler(&v1::validate_certificate_request_policy);
}
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

void register_webhooks(webhook::Server& server, ApprovalCheck approval) {
  const auto& h = hooks();
  server.register_path(h[0].path, certificate_validating_handler());
  server.register_path(h[1].path, certificate_request_validating_handler(std::move(approval)));
  server.register_path(h[2].path, issuer_validating_handler());
  server.register_path(h[3].path, issuer_validating_handler());
  server.register_path(h[4].path, certificate_mutating_handler());
  server.register_path(h[5].path, certificate_request_mutating_handler());
  server.register_path(h[6].path, bundle_validating_handler());
  server.register_path(h[7].path, certificate_request_policy_validating_handler());
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-certificates", "certificates", hooks(), endpoint);
}

}  // namespace capstan::webhooks::certificates
