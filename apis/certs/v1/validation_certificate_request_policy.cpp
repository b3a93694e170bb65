// CertificateRequestPolicy admission: approver-policy's webhook rules for the subset we serve
// (selector present, durations and key sizes ordered) plus the bounds of policy_limits, which
// the schema holds too (a policy written before the CRD or with the webhook off is judged by
// the same function in the controller, which sets Ready=False with these messages).
#include "apis/certs/v1/certificate_request_policy.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "apis/certs/v1/validation_util.h"
#include "runtime/meta/time.h"

namespace capstan::apis::certs::v1 {
namespace {

using vutil::Causes;
using vutil::FieldPath;
namespace lim = policy_limits;

json::Value text(std::string_view s) { return json::Value(s); }

void check_length(const std::string& s, std::size_t max, const FieldPath& p, Causes& out) {
  if (s.size() > max) out.push_back(validation::field_too_long(p, static_cast<std::int64_t>(max)));
}

void check_list(const std::vector<std::string>& values, std::size_t max_length, const FieldPath& p, Causes& out) {
  if (values.size() > lim::kMaxValues)
    out.push_back(validation::field_too_many(p, static_cast<std::int64_t>(values.size()), static_cast<std::int64_t>(lim::kMaxValues)));
  for (std::size_t i = 0; i < values.size() && i < lim::kMaxValues; ++i) check_length(values[i], max_length, p.index(i), out);
}

void validate_allowed_string(const AllowedString& a, const FieldPath& p, Causes& out) {
  if (a.value) check_length(*a.value, lim::kMaxValueLength, p.child("value"), out);
  // A required attribute with no allowed value could never be satisfied.
  if (a.required && !a.value) out.push_back(validation::field_invalid(p.child("required"), json::Value(true), "cannot be required when no value is allowed"));
}

void validate_allowed_slice(const AllowedStringSlice& a, const FieldPath& p, Causes& out) {
  if (a.values) check_list(*a.values, lim::kMaxValueLength, p.child("values"), out);
  if (a.required && (!a.values || a.values->empty()))
    out.push_back(validation::field_invalid(p.child("required"), json::Value(true), "cannot be required when no values are allowed"));
}

void validate_allowed(const PolicyAllowed& a, const FieldPath& p, Causes& out) {
  if (a.common_name) validate_allowed_string(*a.common_name, p.child("commonName"), out);
  const std::pair<const std::optional<AllowedStringSlice>*, const char*> slices[] = {
      {&a.dns_names, "dnsNames"}, {&a.ip_addresses, "ipAddresses"}, {&a.uris, "uris"}, {&a.email_addresses, "emailAddresses"}};
  for (const auto& [slice, name] : slices)
    if (*slice) validate_allowed_slice(**slice, p.child(name), out);
  if (a.usages) {
    if (a.usages->size() > kKeyUsages.size())
      out.push_back(validation::field_too_many(p.child("usages"), static_cast<std::int64_t>(a.usages->size()),
                                               static_cast<std::int64_t>(kKeyUsages.size())));
    std::vector<std::string> known(kKeyUsages.begin(), kKeyUsages.end());
    for (std::size_t i = 0; i < a.usages->size() && i < kKeyUsages.size(); ++i)
      if (!is_known_usage((*a.usages)[i])) out.push_back(validation::field_not_supported(p.child("usages").index(i), text((*a.usages)[i]), known));
  }
}

void validate_constraints(const PolicyConstraints& c, const FieldPath& p, Causes& out) {
  using std::chrono::nanoseconds;
  if (c.min_duration && *c.min_duration < nanoseconds(0))
    out.push_back(validation::field_invalid(p.child("minDuration"), text(meta::format_go_duration(*c.min_duration)), "must be 0 or longer"));
  if (c.max_duration && *c.max_duration < nanoseconds(0))
    out.push_back(validation::field_invalid(p.child("maxDuration"), text(meta::format_go_duration(*c.max_duration)), "must be 0 or longer"));
  if (c.min_duration && c.max_duration && *c.max_duration < *c.min_duration)
    out.push_back(validation::field_invalid(p.child("maxDuration"), text(meta::format_go_duration(*c.max_duration)),
                                            "maxDuration must be greater than or equal to minDuration"));
  if (!c.private_key) return;
  const auto& k = *c.private_key;
  const FieldPath kp = p.child("privateKey");
  if (k.algorithm && *k.algorithm != "RSA" && *k.algorithm != "ECDSA" && *k.algorithm != "Ed25519")
    out.push_back(validation::field_not_supported(kp.child("algorithm"), text(*k.algorithm), {"RSA", "ECDSA", "Ed25519"}));
  for (const auto& [size, name] : {std::pair{k.min_size, "minSize"}, std::pair{k.max_size, "maxSize"}})
    if (size && (*size < 0 || *size > lim::kMaxKeySize))
      out.push_back(validation::field_invalid(kp.child(name), json::Value(static_cast<std::int64_t>(*size)),
                                              "must be between 0 and " + std::to_string(lim::kMaxKeySize)));
  if (k.min_size && k.max_size && *k.max_size < *k.min_size)
    out.push_back(validation::field_invalid(kp.child("maxSize"), json::Value(static_cast<std::int64_t>(*k.max_size)),
                                            "maxSize must be greater than or equal to minSize"));
}

void validate_selector(const PolicySelector& s, const json::Value& raw, const FieldPath& p, Causes& out) {
  if (!s.issuer_ref && !s.namespace_) {
    out.push_back(validation::field_required(p, "one of issuerRef or namespace must be defined, hint: `{}` on either field is a wildcard match"));
    return;
  }
  if (s.issuer_ref) {
    const FieldPath ip = p.child("issuerRef");
    for (const auto& [member, name] : {std::pair{&s.issuer_ref->name, "name"}, std::pair{&s.issuer_ref->kind, "kind"},
                                       std::pair{&s.issuer_ref->group, "group"}})
      if (*member) check_length(**member, lim::kMaxNameLength, ip.child(name), out);
  }
  if (s.namespace_) {
    const FieldPath np = p.child("namespace");
    check_list(s.namespace_->match_names, lim::kMaxNameLength, np.child("matchNames"), out);
    if (s.namespace_->match_labels.size() > lim::kMaxMatchLabels)
      out.push_back(validation::field_too_many(np.child("matchLabels"), static_cast<std::int64_t>(s.namespace_->match_labels.size()),
                                               static_cast<std::int64_t>(lim::kMaxMatchLabels)));
    if (const auto* labels = json::get_object(raw, {"namespace", "matchLabels"})) vutil::validate_labels(*labels, np.child("matchLabels"), out);
  }
}

}  // namespace

std::vector<validation::Cause> validate_certificate_request_policy(const json::Value& obj, const json::Value* /*old*/) {
  Causes out;
  CertificateRequestPolicy policy;
  try {
    policy = CertificateRequestPolicy::from_json(obj);
  } catch (const codec::DecodeError& e) {
    out.push_back(validation::field_invalid(FieldPath("spec"), json::Value(), e.what()));
    return out;
  }
  const FieldPath spec("spec");
  static const json::Value kNone;
  const json::Value* raw_selector = json::find(obj, {"spec", "selector"});
  validate_selector(policy.spec.selector, raw_selector ? *raw_selector : kNone, spec.child("selector"), out);
  if (policy.spec.allowed) validate_allowed(*policy.spec.allowed, spec.child("allowed"), out);
  if (policy.spec.constraints) validate_constraints(*policy.spec.constraints, spec.child("constraints"), out);
  return out;
}

}  // namespace capstan::apis::certs::v1
