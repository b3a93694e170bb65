#include "controllers/certificates/issuers/lookup.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"
#include "controllers/certificates/env.h"
#include "runtime/cache/informer.h"

namespace capstan::certificates {

std::optional<IssuerObject> find_issuer(const Env& env, const v1::IssuerReference& raw, std::string_view ns) {
  auto ref = v1::effective_issuer_ref(raw);
  bool cluster = ref.kind == v1::kClusterIssuerKind;
  auto cached = cluster ? env.cluster_issuers.get("", ref.name) : env.issuers.get(ns, ref.name);
  if (!cached) return std::nullopt;
  json::Value obj = cached->value();
  if (obj.is_object()) obj.get_object()["kind"] = cluster ? v1::kClusterIssuerKind : v1::kIssuerKind;
  try {
    return IssuerObject{v1::Issuer::from_json(obj), std::move(obj)};
  } catch (const apis::codec::DecodeError&) {
    return std::nullopt;
  }
}

std::string resource_namespace(const Env& env, const v1::Issuer& issuer) {
  return issuer.cluster_scoped() ? env.options.cluster_resource_namespace : std::string(issuer.namespace_());
}

bool issuer_ready(const v1::Issuer& issuer) {
  const auto* c = issuer.status.condition(v1::condition::kReady);
  return c && c->status == "True";
}

std::string issuer_type(const v1::IssuerSpec& spec) {
  int n = (spec.acme ? 1 : 0) + (spec.ca ? 1 : 0) + (spec.self_signed ? 1 : 0);
  if (n != 1) return "";
  if (spec.acme) return "acme";
  if (spec.ca) return "ca";
  return "selfSigned";
}

}  // namespace capstan::certificates
