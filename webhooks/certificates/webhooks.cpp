#include "webhooks/certificates/webhooks.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "manager/registry.h"
#include "runtime/meta/base64.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::certificates {
namespace {

namespace v1 = apis::certs::v1;
using Causes = std::vector<validation::Cause>;
using ValidateFn = Causes (*)(const json::Value&, const json::Value*);

// field.ErrorList.ToAggregate().Error(): one error as is, several in brackets. Denied as
// cert-manager's webhook denies (406 NotAcceptable), so kubectl prints
// `admission webhook "<name>" denied the request: <field>: ...`; the causes stay in details.
[[noreturn]] void deny(const Causes& causes) {
  std::string msg;
  std::vector<webhook::Cause> out;
  for (std::size_t i = 0; i < causes.size(); ++i) {
    if (i) msg += ", ";
    msg += causes[i].error();
    out.push_back({causes[i].reason, causes[i].message, causes[i].field});
  }
  if (causes.size() > 1) msg = "[" + msg + "]";
  throw webhook::Denied(msg, "NotAcceptable", 406, std::move(out));
}

struct RulesValidator : webhook::Validator {
  explicit RulesValidator(ValidateFn fn) : fn(fn) {}
  ValidateFn fn;
  webhook::Warnings validate_create(const json::Value& obj) override {
    if (auto c = fn(obj, nullptr); !c.empty()) deny(c);
    return {};
  }
  webhook::Warnings validate_update(const json::Value& old_obj, const json::Value& obj) override {
    if (auto c = fn(obj, &old_obj); !c.empty()) deny(c);
    return {};
  }
};

std::string gvk_path(bool mutating, std::string_view kind) {
  meta::GroupVersionKind gvk{std::string(v1::kGroup), std::string(v1::kVersion), std::string(kind)};
  return mutating ? webhook::mutate_path(gvk) : webhook::validate_path(gvk);
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

json::Object rule(std::string_view resource) {
  return json::Object{{"apiGroups", json::Array{v1::kGroup}},
                      {"apiVersions", json::Array{v1::kVersion}},
                      {"operations", json::Array{"CREATE", "UPDATE"}},
                      {"resources", json::Array{resource}},
                      {"scope", "*"}};
}

json::Object client_config(const manager::WebhookEndpoint& ep, const std::string& path) {
  json::Object cc;
  if (!ep.url_base.empty()) {
    std::string base = ep.url_base;
    while (!base.empty() && base.back() == '/') base.pop_back();
    cc["url"] = base + path;
  } else {
    cc["service"] = json::Object{{"namespace", ep.service_namespace}, {"name", ep.service_name}, {"path", path}, {"port", 443}};
  }
  if (!ep.ca_bundle_pem.empty()) cc["caBundle"] = meta::base64_encode(ep.ca_bundle_pem);
  return cc;
}

}  // namespace

const std::vector<WebhookPath>& webhook_paths() {
  static const std::vector<WebhookPath> paths = {
      {gvk_path(false, v1::kCertificateKind), "vcertificate.certs.capstan.dev", "certificates", false},
      {gvk_path(false, v1::kCertificateRequestKind), "vcertificaterequest.certs.capstan.dev", "certificaterequests", false},
      {gvk_path(false, v1::kIssuerKind), "vissuer.certs.capstan.dev", "issuers", false},
      {gvk_path(false, v1::kClusterIssuerKind), "vclusterissuer.certs.capstan.dev", "clusterissuers", false},
      {gvk_path(true, v1::kCertificateKind), "mcertificate.certs.capstan.dev", "certificates", true},
      {gvk_path(true, v1::kCertificateRequestKind), "mcertificaterequest.certs.capstan.dev", "certificaterequests", true},
  };
  return paths;
}

webhook::Handler certificate_validating_handler() {
  return webhook::make_validating_handler(std::make_shared<RulesValidator>(&v1::validate_certificate));
}
webhook::Handler certificate_request_validating_handler() {
  return webhook::make_validating_handler(std::make_shared<RulesValidator>(&v1::validate_certificate_request));
}
webhook::Handler issuer_validating_handler() {
  return webhook::make_validating_handler(std::make_shared<RulesValidator>(&v1::validate_issuer));
}
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
  const auto& p = webhook_paths();
  server.register_path(p[0].path, certificate_validating_handler());
  server.register_path(p[1].path, certificate_request_validating_handler());
  server.register_path(p[2].path, issuer_validating_handler());
  server.register_path(p[3].path, issuer_validating_handler());
  server.register_path(p[4].path, certificate_mutating_handler());
  server.register_path(p[5].path, certificate_request_mutating_handler());
}

std::vector<json::Value> webhook_configurations(const manager::WebhookEndpoint& endpoint) {
  json::Array validating, mutating;
  for (const auto& p : webhook_paths()) {
    json::Object hook{{"name", p.name},
                      {"clientConfig", client_config(endpoint, p.path)},
                      {"rules", json::Array{rule(p.resource)}},
                      {"failurePolicy", "Fail"},
                      {"matchPolicy", "Equivalent"},
                      {"sideEffects", "None"},
                      {"admissionReviewVersions", json::Array{"v1"}},
                      {"timeoutSeconds", 10}};
    (p.mutating ? mutating : validating).push_back(std::move(hook));
  }
  json::Object labels{{"app.kubernetes.io/name", "capstan"}, {"app.kubernetes.io/component", "certificates"}};
  return {json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                       {"kind", "ValidatingWebhookConfiguration"},
                       {"metadata", json::Object{{"name", "capstan-certificates"}, {"labels", labels}}},
                       {"webhooks", std::move(validating)}},
          json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                       {"kind", "MutatingWebhookConfiguration"},
                       {"metadata", json::Object{{"name", "capstan-certificates"}, {"labels", labels}}},
                       {"webhooks", std::move(mutating)}}};
}

}  // namespace capstan::certificates
