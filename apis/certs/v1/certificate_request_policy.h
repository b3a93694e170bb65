// CertificateRequestPolicy (certs.capstan.dev/v1): a subset of cert-manager approver-policy's
// policy.cert-manager.io/v1alpha1 kind, same field names and JSON shape, so a policy ports by
// changing its apiVersion (`capstan certs convert` does it). Cluster-scoped. A policy approves
// the CertificateRequests it selects (issuerRef, namespace) of the users bound to it by RBAC
// (verb `use` on certificaterequestpolicies) when they ask for no more than `allowed` and within
// `constraints`. Not carried over: CEL `validations`, `allowed.subject`, `plugins`.
#pragma once

#include "apis/certs/v1/common.h"
#include "apis/common/codec.h"
#include "apis/common/openapi.h"
#include "runtime/json/json.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::certs::v1 {

// A single allowed value ('*' matches any run of characters); `required`: the request must have
// one. No value: the request may not carry the attribute at all.
struct AllowedString {
  std::optional<std::string> value;
  bool required = false;

  static AllowedString from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AllowedString&) const = default;
};

// Allowed values (each may hold '*'); every value of the request must match one of them.
struct AllowedStringSlice {
  std::optional<std::vector<std::string>> values;
  bool required = false;

  static AllowedStringSlice from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AllowedStringSlice&) const = default;
};

// What a request may ask for; an attribute left out here must be left out of the request.
struct PolicyAllowed {
  std::optional<AllowedString> common_name;
  std::optional<AllowedStringSlice> dns_names;
  std::optional<AllowedStringSlice> ip_addresses;
  std::optional<AllowedStringSlice> uris;
  std::optional<AllowedStringSlice> email_addresses;
  std::optional<bool> is_ca;
  std::optional<std::vector<std::string>> usages;

  static PolicyAllowed from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const PolicyAllowed&) const = default;
};

struct PrivateKeyConstraints {
  std::optional<std::string> algorithm;  // RSA | ECDSA | Ed25519
  std::optional<std::int32_t> min_size;
  std::optional<std::int32_t> max_size;

  static PrivateKeyConstraints from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const PrivateKeyConstraints&) const = default;
};

struct PolicyConstraints {
  std::optional<std::chrono::nanoseconds> min_duration;
  std::optional<std::chrono::nanoseconds> max_duration;
  std::optional<PrivateKeyConstraints> private_key;

  static PolicyConstraints from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const PolicyConstraints&) const = default;
};

// Each member, when set, must match the request's issuerRef (kind and group defaulted as
// cert-manager does: Issuer, certs.capstan.dev); '*' wildcards. `{}` matches every issuer.
struct IssuerRefSelector {
  std::optional<std::string> name;
  std::optional<std::string> kind;
  std::optional<std::string> group;

  static IssuerRefSelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const IssuerRefSelector&) const = default;
};

// The request's namespace must match one of match_names ('*' wildcards; none: any) and its
// labels all of match_labels.
struct NamespaceSelector {
  std::vector<std::string> match_names;
  std::map<std::string, std::string> match_labels;

  static NamespaceSelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const NamespaceSelector&) const = default;
};

// At least one of the two (approver-policy's rule: `{}` on either is the wildcard).
struct PolicySelector {
  std::optional<IssuerRefSelector> issuer_ref;
  std::optional<NamespaceSelector> namespace_;

  static PolicySelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const PolicySelector&) const = default;
};

struct CertificateRequestPolicySpec {
  std::optional<PolicyAllowed> allowed;
  std::optional<PolicyConstraints> constraints;
  PolicySelector selector;

  static CertificateRequestPolicySpec from_json(const json::Value& v, std::string_view path = "spec");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CertificateRequestPolicySpec&) const = default;
};

struct CertificateRequestPolicyStatus {
  std::vector<Condition> conditions;  // Ready

  static CertificateRequestPolicyStatus from_json(const json::Value& v, std::string_view path = "status");
  json::Value to_json() const;
  static openapi::Schema schema();
};

struct CertificateRequestPolicy : codec::Resource<CertificateRequestPolicySpec, CertificateRequestPolicyStatus> {
  // Throws apis::codec::DecodeError.
  static CertificateRequestPolicy from_json(const json::Value& obj) { return {Resource::from_json(obj)}; }
  json::Value to_json() const;
  static openapi::Schema schema();
};

// The bounds the schema and the webhook hold a policy to.
namespace policy_limits {
inline constexpr std::size_t kMaxValues = 100;         // entries of each values list and matchNames
inline constexpr std::size_t kMaxValueLength = 1024;   // one pattern (URIs are the longest)
inline constexpr std::size_t kMaxNameLength = 253;     // issuerRef members, namespace names
inline constexpr std::size_t kMaxMatchLabels = 64;
inline constexpr std::int32_t kMaxKeySize = 8192;      // RSA's largest
}  // namespace policy_limits

// The Ready reasons of a policy (approver-policy's).
namespace policy_reason {
inline constexpr std::string_view kReady = "Ready";
inline constexpr std::string_view kNotReady = "NotReady";
}  // namespace policy_reason

}  // namespace capstan::apis::certs::v1
