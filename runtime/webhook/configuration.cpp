#include "runtime/webhook/configuration.h"

#include "runtime/meta/base64.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/paths.h"
#include "runtime/meta/ascii.h"

#include <cctype>

namespace capstan::webhook {

Hook kind_hook(const meta::ResourceType& type, bool mutating) {
  meta::GroupVersionKind gvk{type.gvr.group, type.gvr.version, type.kind};
  const std::string lower = meta::ascii_lower(type.kind);
  return Hook{std::string(mutating ? "m" : "v") + lower + "." + type.gvr.group, mutating ? mutate_path(gvk) : validate_path(gvk),
              type.gvr.group, type.gvr.version, {type.gvr.resource}, mutating};
}

namespace {

json::Object client_config(const Endpoint& ep, const std::string& path) {
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

json::Object webhook_entry(const Hook& hook, const Endpoint& endpoint) {
  json::Object rule{{"apiGroups", json::Array{hook.group}},
                    {"apiVersions", json::Array{hook.version}},
                    {"operations", json::Array{"CREATE", "UPDATE"}},
                    {"resources", json::Array(hook.resources.begin(), hook.resources.end())},
                    {"scope", "*"}};
  json::Object entry{{"name", hook.name},
                     {"clientConfig", client_config(endpoint, hook.path)},
                     {"rules", json::Array{std::move(rule)}},
                     {"failurePolicy", "Fail"},
                     {"matchPolicy", "Equivalent"},
                     {"sideEffects", "None"},
                     {"admissionReviewVersions", json::Array{"v1"}},
                     {"timeoutSeconds", kTimeoutSeconds}};
  json::Object selector;
  if (!endpoint.manager_namespace.empty()) {
    selector["matchExpressions"] = json::Array{json::Object{
        {"key", "kubernetes.io/metadata.name"}, {"operator", "NotIn"}, {"values", json::Array{endpoint.manager_namespace}}}};
  }
  entry["namespaceSelector"] = std::move(selector);
  return entry;
}

std::vector<json::Value> configurations(std::string_view name, std::string_view component, const std::vector<Hook>& hooks,
                                        const Endpoint& endpoint) {
  json::Array validating, mutating;
  for (const auto& h : hooks) (h.mutating ? mutating : validating).push_back(webhook_entry(h, endpoint));
  json::Object labels{{"app.kubernetes.io/name", "capstan"}, {"app.kubernetes.io/component", component}};
  std::vector<json::Value> out;
  if (!validating.empty())
    out.push_back(json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                               {"kind", "ValidatingWebhookConfiguration"},
                               {"metadata", json::Object{{"name", name}, {"labels", labels}}},
                               {"webhooks", std::move(validating)}});
  if (!mutating.empty())
    out.push_back(json::Object{{"apiVersion", "admissionregistration.k8s.io/v1"},
                               {"kind", "MutatingWebhookConfiguration"},
                               {"metadata", json::Object{{"name", name}, {"labels", labels}}},
                               {"webhooks", std::move(mutating)}});
  return out;
}

void deny_if_any(const std::vector<validation::Cause>& causes) {
  if (causes.empty()) return;
  std::string msg;
  std::vector<Cause> out;
  for (std::size_t i = 0; i < causes.size(); ++i) {
    if (i) msg += ", ";
    msg += causes[i].error();
    out.push_back({causes[i].reason, causes[i].message, causes[i].field});
  }
  if (causes.size() > 1) msg = "[" + msg + "]";
  throw Denied(msg, "NotAcceptable", 406, std::move(out));
}

Handler validating_handler(ValidateFunc validate, WarnFunc warn) {
  auto v = std::make_shared<FuncValidator>();
  v->on_create = [validate, warn](const json::Value& obj) {
    deny_if_any(validate(obj, nullptr));
    return warn ? warn(obj) : Warnings{};
  };
  v->on_update = [validate, warn](const json::Value& old, const json::Value& obj) {
    deny_if_any(validate(obj, &old));
    return warn ? warn(obj) : Warnings{};
  };
  return make_validating_handler(std::move(v));
}

void set_conversion_webhook(json::Value& crd, const std::string& path, const Endpoint& endpoint) {
  json::ensure_object(crd, {"spec"})["conversion"] = json::Object{
      {"strategy", "Webhook"},
      {"webhook", json::Object{{"conversionReviewVersions", json::Array{"v1"}}, {"clientConfig", client_config(endpoint, path)}}}};
}

}  // namespace capstan::webhook
