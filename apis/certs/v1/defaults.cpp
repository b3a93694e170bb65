#include "apis/certs/v1/defaults.h"

#include "apis/certs/v1/group.h"

#include <algorithm>
#include <stdexcept>

namespace capstan::apis::certs::v1 {
namespace {

using std::chrono::nanoseconds;

// Sets o[key] = value when the member is missing, null or an empty string.
template <typename T>
bool set_if_unset(json::Object& o, std::string_view key, T value) {
  auto* v = o.if_contains(key);
  if (v && !v->is_null() && !(v->is_string() && v->get_string().empty())) return false;
  o[key] = value;
  return true;
}

json::Object* spec_of(json::Value& obj) {
  if (!obj.is_object()) return nullptr;
  auto& o = obj.get_object();
  auto* spec = o.if_contains("spec");
  if (!spec) spec = &o.emplace("spec", json::Object()).first->value();
  if (spec->is_null()) *spec = json::Object();
  return spec->is_object() ? &spec->get_object() : nullptr;
}

// The member as an object, created when missing or null; nullptr when it has another type
// (validation reports that, defaulting leaves it alone).
json::Object* object_member(json::Object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (!v) v = &o.emplace(key, json::Object()).first->value();
  if (v->is_null()) *v = json::Object();
  return v->is_object() ? &v->get_object() : nullptr;
}

// Only an issuerRef that is there: a missing one stays missing, so the schema reports
// "spec.issuerRef: Required value" rather than a half-defaulted reference without a name.
bool default_issuer_ref(json::Object& spec, bool kind) {
  bool changed = false;
  auto* v = spec.if_contains("issuerRef");
  if (auto* ref = v && v->is_object() ? &v->get_object() : nullptr) {
    if (kind) changed |= set_if_unset(*ref, "kind", kIssuerKind);
    changed |= set_if_unset(*ref, "group", kGroup);
  }
  return changed;
}

[[noreturn]] void unsupported(std::string_view field, std::string_view value) {
  throw std::invalid_argument("spec.privateKey." + std::string(field) + ": unsupported value \"" + std::string(value) + "\"");
}

}  // namespace

bool apply_defaults(json::Value& certificate) {
  auto* spec = spec_of(certificate);
  if (!spec) return false;
  bool changed = default_issuer_ref(*spec, true);
  if (auto* key = object_member(*spec, "privateKey")) changed |= set_if_unset(*key, "rotationPolicy", private_key::kAlways);
  if (!spec->if_contains("revisionHistoryLimit") || spec->at("revisionHistoryLimit").is_null()) {
    (*spec)["revisionHistoryLimit"] = kDefaultRevisionHistoryLimit;
    changed = true;
  }
  return changed;
}

bool apply_certificate_request_defaults(json::Value& request) {
  auto* spec = spec_of(request);
  if (!spec) return false;
  return default_issuer_ref(*spec, false);
}

nanoseconds effective_duration(const CertificateSpec& spec) {
  return spec.duration.value_or(std::chrono::duration_cast<nanoseconds>(kDefaultCertificateDuration));
}

nanoseconds effective_renew_before(const CertificateSpec& spec, nanoseconds lifetime) {
  if (spec.renew_before && spec.renew_before->count() > 0 && *spec.renew_before < lifetime) return *spec.renew_before;
  if (spec.renew_before_percentage && *spec.renew_before_percentage > 0 && *spec.renew_before_percentage < 100) {
    // lifetime * pct / 100 without overflowing for lifetimes of centuries.
    std::int64_t pct = *spec.renew_before_percentage;
    std::int64_t n = lifetime.count();
    return nanoseconds(n / 100 * pct + n % 100 * pct / 100);
  }
  return lifetime / 3;
}

meta::TimePoint renewal_time(const CertificateSpec& spec, meta::TimePoint not_before, meta::TimePoint not_after) {
  auto lifetime = std::chrono::duration_cast<nanoseconds>(not_after - not_before);
  auto at = not_after - std::chrono::duration_cast<meta::Clock::duration>(effective_renew_before(spec, lifetime));
  return std::chrono::floor<std::chrono::seconds>(at);
}

nanoseconds issuance_backoff(std::int64_t failed_attempts) {
  const nanoseconds min = kMinimumIssuanceBackoff;
  const nanoseconds max = kMaximumIssuanceBackoff;
  if (failed_attempts <= 1) return min;
  if (failed_attempts > 40) return max;  // 2^39 hours is past any bound
  nanoseconds d = min * (std::int64_t{1} << (failed_attempts - 1));
  return std::clamp(d, min, max);
}

pki::KeyAlgorithm effective_key_algorithm(const CertificateSpec& spec) {
  std::string_view a = spec.private_key ? std::string_view(spec.private_key->algorithm) : std::string_view();
  if (a.empty() || a == private_key::kRSA) return pki::KeyAlgorithm::RSA;
  if (a == private_key::kECDSA) return pki::KeyAlgorithm::ECDSA;
  if (a == private_key::kEd25519) return pki::KeyAlgorithm::Ed25519;
  unsupported("algorithm", a);
}

int effective_key_size(const CertificateSpec& spec) {
  auto algorithm = effective_key_algorithm(spec);
  if (algorithm == pki::KeyAlgorithm::Ed25519) return 256;
  if (spec.private_key && spec.private_key->size > 0) return static_cast<int>(spec.private_key->size);
  return static_cast<int>(algorithm == pki::KeyAlgorithm::ECDSA ? kDefaultECDSAKeySize : kDefaultRSAKeySize);
}

pki::KeyEncoding effective_key_encoding(const CertificateSpec& spec) {
  std::string_view e = spec.private_key ? std::string_view(spec.private_key->encoding) : std::string_view();
  if (e.empty() || e == private_key::kPKCS1) return pki::KeyEncoding::PKCS1;
  if (e == private_key::kPKCS8) return pki::KeyEncoding::PKCS8;
  unsupported("encoding", e);
}

RotationPolicy effective_rotation_policy(const CertificateSpec& spec) {
  std::string_view p = spec.private_key ? std::string_view(spec.private_key->rotation_policy) : std::string_view();
  if (p.empty() || p == private_key::kAlways) return RotationPolicy::Always;
  if (p == private_key::kNever) return RotationPolicy::Never;
  unsupported("rotationPolicy", p);
}

std::int32_t effective_revision_history_limit(const CertificateSpec& spec) {
  return spec.revision_history_limit.value_or(kDefaultRevisionHistoryLimit);
}

std::vector<std::string> effective_usages(const CertificateSpec& spec) {
  std::vector<std::string> usages = spec.usages;
  if (usages.empty()) usages = {"digital signature", "key encipherment"};
  if (spec.is_ca && std::find(usages.begin(), usages.end(), "cert sign") == usages.end()) usages.emplace_back("cert sign");
  return usages;
}

bool effective_encode_usages_in_request(const CertificateSpec& spec) { return spec.encode_usages_in_request.value_or(true); }

IssuerReference effective_issuer_ref(const IssuerReference& ref) {
  IssuerReference r = ref;
  if (r.kind.empty()) r.kind = kIssuerKind;
  if (r.group.empty()) r.group = kGroup;
  return r;
}

bool is_builtin_issuer(const IssuerReference& ref) {
  auto r = effective_issuer_ref(ref);
  return r.group == kGroup && (r.kind == kIssuerKind || r.kind == kClusterIssuerKind);
}

}  // namespace capstan::apis::certs::v1
