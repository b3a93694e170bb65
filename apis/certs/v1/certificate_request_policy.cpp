#include "apis/certs/v1/certificate_request_policy.h"

#include "apis/certs/v1/group.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;
namespace lim = policy_limits;

namespace {

constexpr auto kMaxValues = static_cast<std::int64_t>(lim::kMaxValues);

Schema pattern(std::string_view description) {
  return std::move(Schema::string(description).max_length(static_cast<std::int64_t>(lim::kMaxValueLength)));
}

Schema patterns(std::string_view description) {
  return std::move(Schema::array(pattern("A value; '*' matches any run of characters."), description).max_items(kMaxValues));
}

Schema name_pattern(std::string_view description) {
  return std::move(Schema::string(description).max_length(static_cast<std::int64_t>(lim::kMaxNameLength)));
}

const auto& allowed_string_fields() {
  using S = AllowedString;
  static const auto table = codec::table<S>(
      "The value the request's attribute may have.",
      codec::field("value", &S::value, pattern("Allowed value; '*' matches any run of characters. Unset: the request may not "
                                               "carry the attribute.")),
      codec::field("required", &S::required, Schema::boolean("The request must carry the attribute.")));
  return table;
}

const auto& allowed_slice_fields() {
  using S = AllowedStringSlice;
  static const auto table = codec::table<S>(
      "The values the request's attribute may have.",
      codec::field("values", &S::values,
                   patterns("Allowed values; each of the request's must match one. Unset: the request may carry none.")),
      codec::field("required", &S::required, Schema::boolean("The request must carry at least one value.")));
  return table;
}

const auto& allowed_fields() {
  using S = PolicyAllowed;
  static const auto table = codec::table<S>(
      "What a request may ask for: a subset of this. An attribute left out may not be requested.",
      codec::field("commonName", &S::common_name, AllowedString::schema()),
      codec::field("dnsNames", &S::dns_names, AllowedStringSlice::schema()),
      codec::field("ipAddresses", &S::ip_addresses, AllowedStringSlice::schema()),
      codec::field("uris", &S::uris, AllowedStringSlice::schema()),
      codec::field("emailAddresses", &S::email_addresses, AllowedStringSlice::schema()),
      codec::field("isCA", &S::is_ca, Schema::boolean("Whether a request may ask for a CA certificate.")),
      codec::field("usages", &S::usages, usages_schema("The key usages a request may ask for.")));
  return table;
}

const auto& private_key_fields() {
  using S = PrivateKeyConstraints;
  static const auto table = codec::table<S>(
      "Constraints on the request's public key.",
      codec::field("algorithm", &S::algorithm, Schema::string_enum({"RSA", "ECDSA", "Ed25519"}, "The key algorithm required.")),
      codec::field("minSize", &S::min_size,
                   Schema::integer("Smallest key size (RSA bits, ECDSA curve bits); Ed25519 keys have none.", "int32")
                       .range(0, lim::kMaxKeySize)),
      codec::field("maxSize", &S::max_size,
                   Schema::integer("Largest key size (RSA bits, ECDSA curve bits).", "int32").range(0, lim::kMaxKeySize)));
  return table;
}

const auto& constraints_fields() {
  using S = PolicyConstraints;
  static const auto table = codec::table<S>(
      "Limits a request must stay within.",
      codec::field("minDuration", &S::min_duration, Schema::string("Shortest spec.duration a request may ask for (Go duration).")),
      codec::field("maxDuration", &S::max_duration, Schema::string("Longest spec.duration a request may ask for (Go duration).")),
      codec::field("privateKey", &S::private_key, PrivateKeyConstraints::schema()));
  return table;
}

const auto& issuer_ref_selector_fields() {
  using S = IssuerRefSelector;
  static const auto table = codec::table<S>(
      "Issuers whose requests the policy judges; each member set must match ('*' wildcards).",
      codec::field("name", &S::name, name_pattern("Name of the issuer.")),
      codec::field("kind", &S::kind, name_pattern("Kind of the issuer (requests default to Issuer).")),
      codec::field("group", &S::group, name_pattern("API group of the issuer (requests default to certs.capstan.dev).")));
  return table;
}

const auto& namespace_selector_fields() {
  using S = NamespaceSelector;
  static const auto table = codec::table<S>(
      "Namespaces whose requests the policy judges.",
      codec::field("matchNames", &S::match_names,
                   Schema::array(name_pattern("A namespace name; '*' matches any run of characters."),
                                 "The request's namespace must match one (none: any namespace).")
                       .max_items(kMaxValues)),
      codec::field("matchLabels", &S::match_labels,
                   Schema::string_map("Labels the request's namespace must carry.")
                       .max_properties(static_cast<std::int64_t>(lim::kMaxMatchLabels))));
  return table;
}

const auto& selector_fields() {
  using S = PolicySelector;
  static const auto table = codec::table<S>(
      "The requests the policy judges: at least one of issuerRef and namespace ({} on either matches all).",
      codec::field("issuerRef", &S::issuer_ref, IssuerRefSelector::schema()),
      codec::field("namespace", &S::namespace_, NamespaceSelector::schema()));
  return table;
}

const auto& spec_fields() {
  using S = CertificateRequestPolicySpec;
  static const auto table = codec::table<S>(
      "Desired state of the CertificateRequestPolicy.",
      codec::field("allowed", &S::allowed, PolicyAllowed::schema()),
      codec::field("constraints", &S::constraints, PolicyConstraints::schema()),
      codec::field("selector", &S::selector, PolicySelector::schema()).required());
  return table;
}

const auto& status_fields() {
  using S = CertificateRequestPolicyStatus;
  static const auto table = codec::table<S>(
      "Observed state of the CertificateRequestPolicy, set by the controller.",
      codec::field("conditions", &S::conditions, openapi::conditions("Conditions of the policy: Ready.", "Ready", true)));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(AllowedString, allowed_string_fields)
CAPSTAN_CODEC_FROM(AllowedStringSlice, allowed_slice_fields)
CAPSTAN_CODEC_FROM(PolicyAllowed, allowed_fields)
CAPSTAN_CODEC_FROM(PrivateKeyConstraints, private_key_fields)
CAPSTAN_CODEC_FROM(PolicyConstraints, constraints_fields)
CAPSTAN_CODEC_FROM(IssuerRefSelector, issuer_ref_selector_fields)
CAPSTAN_CODEC_FROM(NamespaceSelector, namespace_selector_fields)
CAPSTAN_CODEC_FROM(PolicySelector, selector_fields)
CAPSTAN_CODEC_FROM(CertificateRequestPolicySpec, spec_fields)
CAPSTAN_CODEC_FROM(CertificateRequestPolicyStatus, status_fields)

json::Value CertificateRequestPolicy::to_json() const { return Resource::to_json(kApiVersion, kCertificateRequestPolicyKind); }

Schema CertificateRequestPolicy::schema() {
  return openapi::root(kApiVersion,
                       "A CertificateRequestPolicy approves the CertificateRequests it selects, of the users bound to it by RBAC "
                       "(verb use), when they ask for no more than it allows (cert-manager approver-policy's kind).",
                       CertificateRequestPolicySpec::schema(), CertificateRequestPolicyStatus::schema());
}

}  // namespace capstan::apis::certs::v1
