#include "controllers/certificates/approval/evaluator.h"

#include "controllers/certificates/approval/wildcard.h"
#include "runtime/meta/time.h"
#include "runtime/pki/csr.h"
#include "runtime/validation/field.h"

#include <algorithm>
#include <set>

namespace capstan::certificates::approval {
namespace {

using validation::FieldPath;
using Errors = std::vector<std::string>;

constexpr std::string_view kCommonNameOid = "2.5.4.3";

// Go's %#v of a []string, as field.Invalid prints such a bad value.
std::string go_strings(const std::vector<std::string>& values) {
  std::string out = "[]string{";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + json::serialize(json::Value(values[i]));
  return out + "}";
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(sep) : "") + parts[i];
  return out;
}

std::string invalid(const FieldPath& p, std::string_view value, std::string_view detail) {
  return validation::field_invalid(p, json::Value(value), detail).error();
}

// apimachinery's ErrorList.ToAggregate().Error(): one message as is, several deduplicated in
// brackets.
std::string aggregate(const Errors& errors) {
  Errors unique;
  std::set<std::string> seen;
  for (const auto& e : errors)
    if (seen.insert(e).second) unique.push_back(e);
  return unique.size() == 1 ? unique[0] : "[" + join(unique, ", ") + "]";
}

// A single-valued attribute (commonName): absent is fine unless required; present needs an
// allowed value that matches.
void allowed_string(std::string_view value, const std::optional<v1::AllowedString>& allowed, const FieldPath& p, Errors& out) {
  if (value.empty()) {
    if (allowed && allowed->required) out.push_back(validation::field_required(p.child("required"), "true").error());
    return;
  }
  if (!allowed || !allowed->value) {
    out.push_back(invalid(p, value, "no allowed value"));
    return;
  }
  if (!wildcard_matches(*allowed->value, value)) out.push_back(invalid(p.child("value"), value, *allowed->value));
}

void allowed_slice(const std::vector<std::string>& values, const std::optional<v1::AllowedStringSlice>& allowed, const FieldPath& p,
                   Errors& out) {
  if (values.empty()) {
    if (allowed && allowed->required) out.push_back(validation::field_required(p.child("required"), "true").error());
    return;
  }
  if (!allowed || !allowed->values) {
    out.push_back(validation::field_invalid_rendered(p, go_strings(values), "no allowed values").error());
    return;
  }
  if (!wildcard_subset(*allowed->values, values))
    out.push_back(validation::field_invalid_rendered(p.child("values"), go_strings(values), join(*allowed->values, ", ")).error());
}

std::optional<std::string> evaluate_allowed(const std::optional<v1::PolicyAllowed>& policy_allowed, const RequestAttributes& r) {
  static const v1::PolicyAllowed kNothing;
  const v1::PolicyAllowed& a = policy_allowed ? *policy_allowed : kNothing;
  const FieldPath p = FieldPath("spec").child("allowed");
  Errors out;
  if (r.common_names.empty()) allowed_string("", a.common_name, p.child("commonName"), out);
  for (const auto& cn : r.common_names) allowed_string(cn, a.common_name, p.child("commonName"), out);
  allowed_slice(r.dns_names, a.dns_names, p.child("dnsNames"), out);
  allowed_slice(r.ip_addresses, a.ip_addresses, p.child("ipAddresses"), out);
  allowed_slice(r.uris, a.uris, p.child("uris"), out);
  allowed_slice(r.email_addresses, a.email_addresses, p.child("emailAddresses"), out);
  if (r.is_ca && a.is_ca != true)
    out.push_back(validation::field_invalid(p.child("isCA"), json::Value(true), a.is_ca ? "false" : "nil").error());
  if (!r.usages.empty()) {
    if (!a.usages) out.push_back(validation::field_invalid_rendered(p.child("usages"), go_strings(r.usages), "nil").error());
    else if (!wildcard_subset(*a.usages, r.usages))
      out.push_back(validation::field_invalid_rendered(p.child("usages"), go_strings(r.usages), join(*a.usages, ", ")).error());
  }
  if (out.empty()) return std::nullopt;
  return aggregate(out);
}

std::optional<std::string> evaluate_constraints(const std::optional<v1::PolicyConstraints>& constraints, const RequestAttributes& r) {
  if (!constraints) return std::nullopt;
  const v1::PolicyConstraints& c = *constraints;
  const FieldPath p = FieldPath("spec").child("constraints");
  const std::string requested = r.duration ? meta::format_go_duration(*r.duration) : "<none>";
  Errors out;
  if (c.max_duration && (!r.duration || *r.duration > *c.max_duration))
    out.push_back(invalid(p.child("maxDuration"), requested, meta::format_go_duration(*c.max_duration)));
  if (c.min_duration && (!r.duration || *r.duration < *c.min_duration))
    out.push_back(invalid(p.child("minDuration"), requested, meta::format_go_duration(*c.min_duration)));
  if (c.private_key) {
    const FieldPath kp = p.child("privateKey");
    const auto& k = *c.private_key;
    if (k.algorithm && *k.algorithm != r.key_algorithm) out.push_back(invalid(kp.child("algorithm"), r.key_algorithm, *k.algorithm));
    if (k.max_size && *k.max_size < r.key_size)
      out.push_back(invalid(kp.child("maxSize"), std::to_string(r.key_size), std::to_string(*k.max_size)));
    if (k.min_size && *k.min_size > r.key_size)
      out.push_back(invalid(kp.child("minSize"), std::to_string(r.key_size), std::to_string(*k.min_size)));
  }
  if (out.empty()) return std::nullopt;
  return aggregate(out);
}

bool optional_matches(const std::optional<std::string>& pattern, std::string_view value) {
  return !pattern || wildcard_matches(*pattern, value);
}

// Cuts at a UTF-8 boundary, marking the cut.
std::string bounded(std::string s, std::size_t max) {
  if (s.size() <= max) return s;
  constexpr std::string_view kMore = " ... (truncated)";
  std::size_t cut = max - kMore.size();
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.resize(cut);
  return s + std::string(kMore);
}

}  // namespace

RequestAttributes attributes_of(const v1::CertificateRequest& request) {
  const auto csr = pki::CertificateRequest::parse(request.spec.request);
  const auto& f = csr.fields();
  RequestAttributes r;
  for (const auto& rdn : csr.subject_sequence())
    for (const auto& attr : rdn)
      if (attr.oid == kCommonNameOid && !attr.value.empty()) r.common_names.push_back(attr.value);
  r.dns_names = f.dns_names;
  r.ip_addresses = f.ip_addresses;
  r.uris = f.uris;
  r.email_addresses = f.email_addresses;
  r.is_ca = request.spec.is_ca;
  r.usages = request.spec.usages;
  r.duration = request.spec.duration;
  const auto& key = csr.public_key();
  r.key_algorithm = std::string(pki::algorithm_name(key.algorithm()));
  r.key_size = key.algorithm() == pki::KeyAlgorithm::Ed25519 ? -1 : key.size();
  return r;
}

std::vector<std::string> evaluate(const v1::CertificateRequestPolicySpec& policy, const RequestAttributes& request) {
  std::vector<std::string> out;
  if (auto m = evaluate_allowed(policy.allowed, request)) out.push_back(std::move(*m));
  if (auto m = evaluate_constraints(policy.constraints, request)) out.push_back(std::move(*m));
  return out;
}

bool selects(const v1::PolicySelector& selector, const v1::IssuerReference& ref, std::string_view ns,
             const std::map<std::string, std::string>& namespace_labels) {
  if (const auto& s = selector.issuer_ref) {
    if (!optional_matches(s->name, ref.name) || !optional_matches(s->kind, ref.kind) || !optional_matches(s->group, ref.group)) return false;
  }
  if (const auto& s = selector.namespace_) {
    if (!s->match_names.empty() && !wildcard_contains(s->match_names, ns)) return false;
    for (const auto& [key, value] : s->match_labels) {
      auto it = namespace_labels.find(key);
      if (it == namespace_labels.end() || it->second != value) return false;
    }
  }
  return true;
}

Review review(std::vector<Applicable> policies, const RequestAttributes& request) {
  std::sort(policies.begin(), policies.end(), [](const Applicable& a, const Applicable& b) { return a.name < b.name; });
  const bool unreconciled = std::any_of(policies.begin(), policies.end(), [](const Applicable& p) { return !p.reconciled; });
  std::vector<std::string> why;
  bool any_ready = false;
  for (const auto& p : policies) {
    if (!p.ready) continue;
    any_ready = true;
    auto messages = evaluate(*p.spec, request);
    if (messages.empty()) return {Decision::kApproved, "Approved by CertificateRequestPolicy: " + json::serialize(json::Value(p.name))};
    why.push_back("[" + p.name + ": " + join(messages, ", ") + "]");
  }
  if (!any_ready) return {Decision::kUnprocessed, "No CertificateRequestPolicies bound or applicable"};
  if (unreconciled)
    return {Decision::kUnprocessed,
            bounded("Not all policies are ready for evaluation; refusing to deny pending policy readiness: " + join(why, " "), kMaxMessageBytes)};
  return {Decision::kDenied, bounded("No policy approved this request: " + join(why, " "), kMaxMessageBytes)};
}

}  // namespace capstan::certificates::approval
