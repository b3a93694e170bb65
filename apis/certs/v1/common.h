// Types shared by the certs.capstan.dev/v1 kinds: issuer and Secret references, conditions, and
// the error thrown when an object cannot be decoded into the typed structs.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/object.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1 {

// A member has the wrong JSON type or an unparsable value (Go duration, RFC 3339 time, base64).
// The message starts with the field path: `spec.duration: invalid duration "90d": unknown unit "d"`.
// Objects admitted by our webhook and CRD schema never throw; the controller logs and skips
// objects that do (they were written around the webhook).
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// cert-manager's cmmeta.IssuerReference ({name, kind, group}). Empty kind means Issuer and empty
// group means certs.capstan.dev (see effective_issuer_ref in defaults.h).
struct IssuerReference {
  std::string name;
  std::string kind;
  std::string group;

  static IssuerReference from_json(const json::Value& v, std::string_view path = "spec.issuerRef");
  json::Value to_json() const;
  bool operator==(const IssuerReference&) const = default;
};

// cmmeta.SecretKeySelector: a Secret in the object's namespace (ClusterIssuers: the cluster
// resource namespace) and an optional key in its data.
struct SecretKeySelector {
  std::string name;
  std::string key;

  static SecretKeySelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  bool operator==(const SecretKeySelector&) const = default;
};

// Conditions are metav1-style {type, status, reason, message, lastTransitionTime,
// observedGeneration}; observedGeneration 0 is not written (CertificateRequest conditions have
// none in cert-manager's schema).
using Condition = meta::Condition;

Condition condition_from_json(const json::Value& v, std::string_view path);
json::Value condition_to_json(const Condition& c);
std::vector<Condition> conditions_from_json(const json::Value* array, std::string_view path);
json::Array conditions_to_json(const std::vector<Condition>& conditions);
// The condition of that type, or nullptr.
const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type);

}  // namespace capstan::apis::certs::v1
