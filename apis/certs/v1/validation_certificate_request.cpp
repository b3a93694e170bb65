// CertificateRequest validation: cert-manager's ValidateCertificateRequest and
// ValidateUpdateCertificateRequest (internal/apis/certmanager/validation/certificaterequest.go).
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation_util.h"
#include "apis/common/codec.h"
#include "runtime/json/patch.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/time.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"
#include "runtime/pki/usage.h"

#include <algorithm>

namespace capstan::apis::certs::v1 {
namespace {

using namespace vutil;

// field.Invalid prints a []byte bad value with %#v (`[]byte{0x2d, 0x2d, ...}`, several KiB for
// a CSR); we print the type only.
constexpr std::string_view kRequestValue = "[]byte{...}";

// Canonical, order-free form of a usage list (aliases resolved); nullopt when a name is unknown
// (reported separately).
std::optional<std::vector<std::string>> normalise(const std::vector<std::string>& names) {
  try {
    return pki::usage_names(pki::parse_usages(names));
  } catch (const pki::PkiError&) {
    return std::nullopt;
  }
}

std::string list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", \"" : "\"") + v[i] + "\"";
  return s + "]";
}

void validate_request(const json::Object& spec, const FieldPath& path, Causes& out) {
  FieldPath rp = path.child("request");
  std::string_view text = str(spec, "request");
  if (text.empty()) {
    out.push_back(validation::field_required(rp, "must be specified"));
    return;
  }
  auto pem = meta::base64_decode(text);
  if (!pem) {
    out.push_back(validation::field_invalid_rendered(rp, kRequestValue, "failed to decode csr: illegal base64 data"));
    return;
  }
  if (pem->find("-----BEGIN ") == std::string::npos) {
    out.push_back(validation::field_invalid_rendered(rp, kRequestValue,
                                                 "failed to decode csr: error decoding certificate request PEM block"));
    return;
  }
  pki::CertificateRequest csr;
  try {
    csr = pki::CertificateRequest::parse(*pem);
  } catch (const pki::PkiError& e) {
    out.push_back(validation::field_invalid_rendered(rp, kRequestValue, std::string("failed to decode csr: ") + e.what()));
    return;
  }

  // Usages must agree with the ones encoded in the CSR when both are given (gate
  // DisallowInsecureCSRUsageDefinition, GA). The default pair on either side is accepted.
  std::vector<std::string> usages;
  if (const auto* a = arr(spec, "usages"))
    for (const auto& u : *a)
      if (u.is_string()) usages.emplace_back(u.get_string());
  const std::vector<std::string> defaults = {"digital signature", "key encipherment"};
  const auto& csr_usages = csr.fields().usages;
  if (usages.empty() || csr_usages.empty() || usages == defaults) return;
  if (truthy(spec, "isCA") && std::find(usages.begin(), usages.end(), "cert sign") == usages.end())
    usages.emplace_back("cert sign");
  auto want = normalise(usages);
  auto got = normalise(csr_usages);
  if (!want || !got) return;
  if (*got != *want && *got != *normalise(defaults))
    out.push_back(validation::field_invalid_rendered(
        rp, kRequestValue,
        "csr key usages do not match specified usages, these should match if both are set: csr has " + list(*got) +
            ", spec has " + list(*want)));
}

Causes validate_spec(const json::Object& spec, const FieldPath& path) {
  Causes out;
  validate_issuer_ref(obj(spec, "issuerRef"), path, out);
  validate_request(spec, path, out);
  // Not checked by cert-manager's webhook (its decoder or CRD enum reject these first).
  if (const auto* usages = arr(spec, "usages")) {
    for (std::size_t i = 0; i < usages->size(); ++i) {
      const auto& u = (*usages)[i];
      if (u.is_string() && !is_known_usage(u.get_string()))
        out.push_back(validation::field_invalid(path.child("usages").index(i), u, "unknown keyusage"));
    }
  }
  if (const auto* d = get(spec, "duration"); d && d->is_string()) {
    std::string err = codec::go_duration_error(d->get_string());
    if (!err.empty()) out.push_back(validation::field_invalid(path.child("duration"), *d, err));
  }
  return out;
}

const json::Array& conditions_of(const json::Value& obj) {
  static const json::Array empty;
  const auto* a = json::get_array(obj, {"status", "conditions"});
  return a ? *a : empty;
}

// The first condition of that type, or nullptr.
const json::Value* condition_of(const json::Array& conditions, std::string_view type) {
  for (const auto& c : conditions)
    if (c.is_object() && str(c.get_object(), "type") == type) return &c;
  return nullptr;
}

// ValidateCertificateRequestApprovalCondition: at most one Approved and one Denied condition,
// each True, and never both.
void validate_approval(const json::Array& conditions, const FieldPath& path, Causes& out) {
  std::size_t approved = 0, denied = 0;
  for (std::string_view type : {condition::kApproved, condition::kDenied}) {
    std::vector<const json::Object*> found;
    for (const auto& c : conditions)
      if (c.is_object() && str(c.get_object(), "type") == type) found.push_back(&c.get_object());
    (type == condition::kApproved ? approved : denied) = found.size();
    if (found.empty()) continue;
    if (found.size() > 1) {
      out.push_back(validation::field_forbidden(path, "multiple " + codec::go_quote(type) + " conditions present"));
      continue;
    }
    std::string_view status = str(*found.front(), "status");
    if (status != "True") {
      std::string msg = codec::go_quote(type);  // %q of the condition type
      msg += " condition may only be set to True";
      out.push_back(validation::field_invalid(path.child(type), jstr(status), msg));
    }
  }
  if (approved > 0 && denied > 0)
    out.push_back(validation::field_forbidden(path, "both 'Denied' and 'Approved' conditions cannot coexist"));
}

bool reserved_annotation(std::string_view key) { return key.starts_with(kGroup) || key.starts_with(kAcmeGroup); }

// Reserved annotations of `a` must be present, unchanged, in `b`.
void validate_annotations_kept(const json::Value& a, const json::Value& b, const FieldPath& path, Causes& out) {
  const auto* from = json::get_object(a, {"metadata", "annotations"});
  if (!from) return;
  const auto* to = json::get_object(b, {"metadata", "annotations"});
  for (const auto& kv : *from) {
    if (!reserved_annotation(kv.key())) continue;
    const json::Value* other = to ? to->if_contains(kv.key()) : nullptr;
    if (other && json::deep_equal(*other, kv.value())) continue;
    auto cause = validation::field_forbidden(path.child(kv.key()),
                                         "cannot change " + std::string(kGroup) + " annotation after creation");
    if (std::find(out.begin(), out.end(), cause) == out.end()) out.push_back(std::move(cause));
  }
}

}  // namespace

std::vector<validation::Cause> validate_certificate_request(const json::Value& obj, const json::Value* old) {
  static const json::Value null_value;
  const json::Value* spec = obj.is_object() ? obj.get_object().if_contains("spec") : nullptr;
  const FieldPath conditions_path = FieldPath("status").child("conditions");

  if (!old) {
    Causes out = validate_spec(object_or_empty(spec), FieldPath("spec"));
    validate_approval(conditions_of(obj), conditions_path, out);
    return out;
  }

  // UPDATE: nothing in the spec is re-validated because nothing in it may change.
  Causes out;
  const FieldPath annotations = FieldPath("metadata").child("annotations");
  validate_annotations_kept(*old, obj, annotations, out);
  validate_annotations_kept(obj, *old, annotations, out);

  const auto& old_conditions = conditions_of(*old);
  const auto& new_conditions = conditions_of(obj);
  for (std::string_view type : {condition::kApproved, condition::kDenied}) {
    const json::Value* before = condition_of(old_conditions, type);
    if (!before) continue;
    const json::Value* after = condition_of(new_conditions, type);
    if (!after || !json::deep_equal(*before, *after))
    {
      std::string msg(1, '\'');
      msg.append(type).append("' condition may not be modified once set");
      out.push_back(validation::field_forbidden(conditions_path, msg));
    }
  }
  validate_approval(new_conditions, conditions_path, out);

  const json::Value* old_spec = old->is_object() ? old->get_object().if_contains("spec") : nullptr;
  if (!json::deep_equal(spec ? *spec : null_value, old_spec ? *old_spec : null_value))
    out.push_back(validation::field_forbidden(FieldPath("spec"), "cannot change spec after creation"));
  return out;
}

}  // namespace capstan::apis::certs::v1
