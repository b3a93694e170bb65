// Types shared by the certs.capstan.dev/v1 kinds: issuer and Secret references, conditions, the
// usages schema. The kinds are codec::Resource objects; decoding throws apis::codec::DecodeError
// (apis/common/codec.h).
#pragma once

#include "apis/common/codec.h"
#include "apis/common/openapi.h"
#include "runtime/json/json.h"
#include "runtime/meta/object.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1 {

// cert-manager's cmmeta.IssuerReference ({name, kind, group}). Empty kind means Issuer and empty
// group means certs.capstan.dev (see effective_issuer_ref in defaults.h).
struct IssuerReference {
  std::string name;
  std::string kind;
  std::string group;

  static IssuerReference from_json(const json::Value& v, std::string_view path = "spec.issuerRef");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const IssuerReference&) const = default;
};

// cmmeta.SecretKeySelector: a Secret in the object's namespace (ClusterIssuers: the cluster
// resource namespace) and an optional key in its data. Each use gives the schema its own
// description.
struct SecretKeySelector {
  std::string name;
  std::string key;

  static SecretKeySelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const SecretKeySelector&) const = default;
};

// Conditions are metav1-style {type, status, reason, message, lastTransitionTime,
// observedGeneration} (apis::codec::Codec<meta::Condition>); observedGeneration 0 is not written
// (CertificateRequest conditions have none in cert-manager's schema).
using Condition = meta::Condition;

// The condition of that type, or nullptr.
const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type);

// The 23 cert-manager usage names as an enum (Certificate and CertificateRequest spec.usages).
openapi::Schema usages_schema(std::string_view description);

}  // namespace capstan::apis::certs::v1
