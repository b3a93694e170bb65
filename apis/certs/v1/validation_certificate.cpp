// Certificate validation: cert-manager's ValidateCertificateSpec
// (internal/apis/certmanager/validation/certificate.go), same order and texts, for the fields
// this API has. Deliberate differences are commented where they occur.
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation_util.h"
#include "apis/common/codec.h"
#include "runtime/meta/names.h"
#include "runtime/meta/time.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"

#include <algorithm>

namespace capstan::apis::certs::v1 {
namespace {

using namespace vutil;
using std::chrono::nanoseconds;

const std::string kMinDurationText = meta::format_go_duration(kMinimumCertificateDuration);  // 1h0m0s
const std::string kMinRenewBeforeText = meta::format_go_duration(kMinimumRenewBefore);       // 5m0s

// An integer member (JSON numbers that are whole), else nullopt.
std::optional<std::int64_t> integer(const json::Object& o, std::string_view key) {
  const auto* v = get(o, key);
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  if (v->is_double() && v->get_double() == static_cast<double>(static_cast<std::int64_t>(v->get_double())))
    return static_cast<std::int64_t>(v->get_double());
  return std::nullopt;
}

// A duration member: nullopt when absent; on a parse error the cause is added and `ok` cleared.
std::optional<nanoseconds> duration_member(const json::Object& spec, std::string_view key, const FieldPath& path,
                                           Causes& out, bool& ok) {
  const auto* v = get(spec, key);
  if (!v || !v->is_string()) return std::nullopt;
  std::string_view s = v->get_string();
  if (auto d = meta::parse_go_duration(s)) return d;
  out.push_back(validation::field_invalid(path.child(key), *v, codec::go_duration_error(s)));
  ok = false;
  return std::nullopt;
}

void validate_addresses(const json::Object& spec, const FieldPath& path, Causes& out) {
  if (const auto* ips = arr(spec, "ipAddresses")) {
    for (std::size_t i = 0; i < ips->size(); ++i) {
      const auto& v = (*ips)[i];
      if (v.is_string() && !is_ip(v.get_string()))
        out.push_back(validation::field_invalid(path.child("ipAddresses").index(i), v, "invalid IP address"));
    }
  }
  if (const auto* emails = arr(spec, "emailAddresses")) {
    for (std::size_t i = 0; i < emails->size(); ++i) {
      const auto& v = (*emails)[i];
      if (!v.is_string()) continue;
      std::string address;
      if (auto err = mail_parse_error(v.get_string(), &address)) {
        out.push_back(validation::field_invalid(path.child("emailAddresses").index(i), v, "invalid email address: " + *err));
      } else if (address != v.get_string()) {
        // net/mail accepts "Name <user@example.com>"; only the bare address is allowed.
        out.push_back(validation::field_invalid(
            path.child("emailAddresses").index(i), v,
            "invalid email address: make sure the supplied value only contains the email address itself"));
      }
    }
  }
}

constexpr std::size_t kMaxOtherNames = 64;
constexpr std::size_t kMaxNameConstraintEntries = 64;

bool has_subject_properties(const json::Object& subject) {
  for (std::string_view list : {"organizations", "countries", "organizationalUnits", "localities", "provinces", "streetAddresses",
                                "postalCodes"})
    if (array_size(subject, list) > 0) return true;
  return !str(subject, "serialNumber").empty();
}

// spec.literalSubject: exclusive with commonName and subject, an RFC 4514 string OpenSSL can
// encode. `common_name` becomes its (last) CN, which the identity and length rules then use.
void validate_literal_subject(const json::Object& spec, std::string_view literal, const FieldPath& path, std::string& common_name,
                              Causes& out) {
  if (!common_name.empty())
    out.push_back(validation::field_invalid(path.child("commonName"), jstr(common_name),
                                            "When providing a `LiteralSubject` no `commonName` may be provided."));
  if (const auto* subject = obj(spec, "subject"); subject && has_subject_properties(*subject))
    out.push_back(validation::field_invalid(path.child("subject"), *get(spec, "subject"),
                                            "When providing a `LiteralSubject` no `Subject` properties may be provided."));
  const FieldPath lp = path.child("literalSubject");
  // Bounded here (cert-manager has no bound), before the value is echoed in a message.
  if (literal.size() > pki::kMaxDistinguishedNameBytes) {
    out.push_back(validation::field_too_long(lp, static_cast<std::int64_t>(pki::kMaxDistinguishedNameBytes)));
    return;
  }
  pki::NameSequence sequence;
  try {
    sequence = pki::parse_distinguished_name(literal);
    pki::encode_name(sequence);  // values X.520 bounds refuse (a C that is not two letters, ...)
  } catch (const pki::PkiError& e) {
    out.push_back(validation::field_invalid(lp, jstr(literal), e.what()));
    return;
  }
  for (const auto& rdn : sequence)
    for (const auto& attribute : rdn)
      if (attribute.oid == "2.5.4.3") common_name = attribute.value;
}

// spec.otherNames (gate OtherNames in cert-manager, on by default).
void validate_other_names(const json::Object& spec, const FieldPath& path, Causes& out) {
  const auto* names = arr(spec, "otherNames");
  if (!names || names->empty()) return;
  const FieldPath np = path.child("otherNames");
  if (names->size() > kMaxOtherNames) {
    out.push_back(validation::field_too_many(np, static_cast<std::int64_t>(names->size()), kMaxOtherNames));
    return;
  }
  for (std::size_t i = 0; i < names->size(); ++i) {
    const json::Object& name = object_or_empty(&(*names)[i]);
    std::string_view oid = str(name, "oid");
    if (oid.empty()) out.push_back(validation::field_required(np.index(i).child("oid"), "must be specified"));
    if (!pki::is_object_identifier(oid)) out.push_back(validation::field_invalid(np.index(i).child("oid"), jstr(oid), "invalid oid syntax"));
    if (str(name, "utf8Value").empty())
      out.push_back(validation::field_required(np.index(i).child("utf8Value"), "must be set to a valid non-empty UTF8 string"));
  }
}

// spec.signatureAlgorithm must suit the key (keyAlgToAllowedSigAlgs); an unknown key algorithm
// is reported by validate_private_key.
void validate_signature_algorithm(const json::Object& spec, const FieldPath& path, Causes& out) {
  std::string_view algorithm = str(spec, "signatureAlgorithm");
  if (algorithm.empty()) return;
  std::string_view key = private_key::kRSA;
  if (const auto* pk = obj(spec, "privateKey"); pk && !str(*pk, "algorithm").empty()) key = str(*pk, "algorithm");
  namespace sa = signature_algorithm;
  std::vector<std::string_view> allowed;
  if (key == private_key::kRSA) allowed = {sa::kSHA256WithRSA, sa::kSHA384WithRSA, sa::kSHA512WithRSA};
  else if (key == private_key::kECDSA) allowed = {sa::kECDSAWithSHA256, sa::kECDSAWithSHA384, sa::kECDSAWithSHA512};
  else if (key == private_key::kEd25519) allowed = {sa::kPureEd25519};
  else return;
  if (std::find(allowed.begin(), allowed.end(), algorithm) != allowed.end()) return;
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : " ") + std::string(a);
  out.push_back(validation::field_invalid(path.child("signatureAlgorithm"), jstr(algorithm),
                                          "for key algorithm " + std::string(key) + " the allowed signature algorithms are [" + list + "]"));
}

// spec.nameConstraints (gate NameConstraints in cert-manager, on by default): a CA's, with at
// least one side; ipRanges are CIDRs and every list is bounded.
void validate_name_constraints(const json::Object& spec, const FieldPath& path, Causes& out) {
  const json::Value* value = get(spec, "nameConstraints");
  if (!value) return;
  const FieldPath np = path.child("nameConstraints");
  const json::Object& nc = object_or_empty(value);
  if (!truthy(spec, "isCA")) out.push_back(validation::field_invalid(np, *value, "isCa should be true when nameConstraints is set"));
  if (!obj(nc, "permitted") && !obj(nc, "excluded"))
    out.push_back(validation::field_invalid(np, *value, "either permitted or excluded must be set"));
  for (std::string_view side : {"permitted", "excluded"}) {
    const auto* item = obj(nc, side);
    if (!item) continue;
    const FieldPath sp = np.child(side);
    for (std::string_view list : {"dnsDomains", "ipRanges", "emailAddresses", "uriDomains"}) {
      const auto* entries = arr(*item, list);
      if (!entries) continue;
      if (entries->size() > kMaxNameConstraintEntries) {
        out.push_back(validation::field_too_many(sp.child(list), static_cast<std::int64_t>(entries->size()), kMaxNameConstraintEntries));
        continue;
      }
      for (std::size_t i = 0; i < entries->size(); ++i) {
        const auto& v = (*entries)[i];
        if (!v.is_string()) continue;
        std::string_view text = v.get_string();
        if (text.empty()) {
          out.push_back(validation::field_required(sp.child(list).index(i), "must not be empty"));
        } else if (list == "ipRanges" && !is_cidr(text)) {
          out.push_back(validation::field_invalid(sp.child(list).index(i), v, "invalid CIDR address: " + std::string(text)));
        } else if (list != "ipRanges" && std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80 || static_cast<unsigned char>(c) < 0x20; })) {
          out.push_back(validation::field_invalid(sp.child(list).index(i), v, "must be printable ASCII (an IA5String)"));
        }
      }
    }
  }
}

void validate_private_key(const json::Object& spec, const FieldPath& path, Causes& out) {
  const auto* key = obj(spec, "privateKey");
  if (!key) return;
  FieldPath kp = path.child("privateKey");
  std::string_view algorithm = str(*key, "algorithm");
  auto size = integer(*key, "size").value_or(0);
  const json::Value size_value(size);
  if (algorithm.empty() || algorithm == private_key::kRSA) {
    if (size > 0 && (size < kMinRSAKeySize || size > kMaxRSAKeySize))
      out.push_back(validation::field_invalid(kp.child("size"), size_value,
                                          "must be between " + std::to_string(kMinRSAKeySize) + " and " +
                                              std::to_string(kMaxRSAKeySize) + " for rsa keyAlgorithm"));
  } else if (algorithm == private_key::kECDSA) {
    if (size > 0 && size != 256 && size != 384 && size != 521)
      out.push_back(validation::field_not_supported(kp.child("size"), size_value, {"256", "384", "521"}));
  } else if (algorithm != private_key::kEd25519) {
    out.push_back(validation::field_invalid(kp.child("algorithm"), jstr(algorithm),
                                        "must be either empty or one of rsa, ecdsa or ed25519"));
  }
  // cert-manager leaves these two to its CRD enums; the webhook repeats the check (with the
  // CRD's wording) so objects that reach us some other way get the same answer.
  std::string_view encoding = str(*key, "encoding");
  if (!encoding.empty() && encoding != private_key::kPKCS1 && encoding != private_key::kPKCS8)
    out.push_back(validation::field_not_supported(kp.child("encoding"), jstr(encoding), {"PKCS1", "PKCS8"}));
  std::string_view policy = str(*key, "rotationPolicy");
  if (!policy.empty() && policy != private_key::kNever && policy != private_key::kAlways)
    out.push_back(validation::field_not_supported(kp.child("rotationPolicy"), jstr(policy), {"Never", "Always"}));
}

// ValidateDuration. Upstream runs it only when duration or renewBefore is set, so a lone
// renewBeforePercentage escapes every check; we also run it for renewBeforePercentage.
void validate_durations(const json::Object& spec, const FieldPath& path, Causes& out) {
  if (!get(spec, "duration") && !get(spec, "renewBefore") && !get(spec, "renewBeforePercentage")) return;
  bool duration_ok = true, renew_ok = true;
  auto parsed = duration_member(spec, "duration", path, out, duration_ok);
  auto renew_before = duration_member(spec, "renewBefore", path, out, renew_ok);
  auto percentage = integer(spec, "renewBeforePercentage");
  nanoseconds duration = parsed.value_or(kDefaultCertificateDuration);

  if (duration_ok && duration < kMinimumCertificateDuration)
    out.push_back(invalid_duration(path.child("duration"), duration,
                                   "certificate duration must be greater than " + kMinDurationText));
  if (renew_before && percentage) {
    const char* msg = "renewBefore and renewBeforePercentage are mutually exclusive and cannot both be set";
    out.push_back(invalid_duration(path.child("renewBefore"), *renew_before, msg));
    out.push_back(validation::field_invalid(path.child("renewBeforePercentage"), json::Value(*percentage), msg));
  }
  if (renew_before && *renew_before < kMinimumRenewBefore)
    out.push_back(invalid_duration(path.child("renewBefore"), *renew_before,
                                   "certificate renewBefore must be greater than " + kMinRenewBeforeText));
  if (renew_before && duration_ok && *renew_before >= duration)
    out.push_back(invalid_duration(path.child("renewBefore"), *renew_before,
                                   "certificate duration " + meta::format_go_duration(duration) +
                                       " must be greater than renewBefore " + meta::format_go_duration(*renew_before)));
  if (percentage && duration_ok) {
    // The renewBefore the percentage stands for: duration * pct / 100, as documented and as the
    // renewal time is computed. (Upstream's webhook computes duration * (100 - pct) / 100 here,
    // which contradicts its own documentation and overflows for durations over ~3 years.)
    __int128 effective = static_cast<__int128>(duration.count()) * *percentage / 100;
    const json::Value pct(*percentage);
    if (effective < nanoseconds(kMinimumRenewBefore).count())
      out.push_back(validation::field_invalid(path.child("renewBeforePercentage"), pct,
                                          "certificate renewBeforePercentage must result in a renewBefore greater than " +
                                              kMinRenewBeforeText));
    if (effective >= duration.count())
      out.push_back(validation::field_invalid(path.child("renewBeforePercentage"), pct,
                                          "certificate renewBeforePercentage must result in a renewBefore less than duration"));
  }
}

void validate_secret_template(const json::Object& spec, const FieldPath& path, Causes& out) {
  const auto* tmpl = obj(spec, "secretTemplate");
  if (!tmpl) return;
  FieldPath tp = path.child("secretTemplate");
  if (const auto* labels = obj(*tmpl, "labels")) validate_labels(*labels, tp.child("labels"), out);
  if (const auto* annotations = obj(*tmpl, "annotations")) {
    FieldPath ap = tp.child("annotations");
    for (const auto& kv : *annotations) {
      std::string_view k = kv.key();
      if (k.starts_with(kAnnotationPrefix) && k != kAllowDirectInjectionAnnotation)
        out.push_back(validation::field_invalid(ap, jstr(k), std::string(kAnnotationPrefix) + "* annotations are not allowed"));
    }
    validate_annotations(*annotations, ap, out);
  }
}

// spec.keystores.{jks,pkcs12}: exactly one non-empty password source, a Secret key that can exist,
// an alias the JDK can store, a profile this build writes.
void validate_keystore(const json::Object& store, const FieldPath& kp, Causes& out) {
  const json::Object* ref = obj(store, "passwordSecretRef");
  const json::Value* literal = get(store, "password");
  if (ref && literal) {
    out.push_back(validation::field_invalid(kp.child("password"), jstr("<redacted>"),
                                            "password and passwordSecretRef are mutually exclusive; set only one"));
  } else if (!ref && (!literal || str(store, "password").empty())) {
    out.push_back(validation::field_required(kp.child("passwordSecretRef"),
                                             "one of password or passwordSecretRef must be set to a non-empty value"));
  }
  if (ref) {
    FieldPath rp = kp.child("passwordSecretRef");
    std::string_view name = str(*ref, "name");
    if (name.empty()) {
      out.push_back(validation::field_required(rp.child("name"), "must be specified"));
    } else {
      for (const auto& m : dns1123_subdomain_errors(name)) out.push_back(validation::field_invalid(rp.child("name"), jstr(name), m));
    }
    std::string_view key = str(*ref, "key");
    if (key.empty()) {
      out.push_back(validation::field_required(rp.child("key"), "the key holding the password must be specified"));
    } else {
      for (const auto& m : meta::names::config_map_key(key)) out.push_back(validation::field_invalid(rp.child("key"), jstr(key), m));
    }
  }
  if (literal && str(store, "password").find('\0') != std::string_view::npos)
    out.push_back(validation::field_invalid(kp.child("password"), jstr("<redacted>"), "must not contain a NUL character"));
  if (const auto* alias = get(store, "alias"); alias && alias->is_string()) {
    std::string_view a = alias->get_string();
    bool control = std::any_of(a.begin(), a.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
    if (a.empty() || control)
      out.push_back(validation::field_invalid(kp.child("alias"), *alias, "must be non-empty printable text"));
  }
  if (const auto* profile = get(store, "profile"); profile && profile->is_string()) {
    std::string_view p = profile->get_string();
    if (p == "Modern2026") {
      out.push_back(validation::field_invalid(kp.child("profile"), *profile,
                                              "Modern2026 authenticates with PBMAC1, which this build's OpenSSL 3.0 cannot "
                                              "write; use Modern2023"));
    } else if (p != "LegacyRC2" && p != "LegacyDES" && p != "Modern2023") {
      out.push_back(validation::field_not_supported(kp.child("profile"), *profile, {"LegacyRC2", "LegacyDES", "Modern2023"}));
    }
  }
}

void validate_keystores(const json::Object& spec, const FieldPath& path, Causes& out) {
  const auto* keystores = obj(spec, "keystores");
  if (!keystores) return;
  FieldPath kp = path.child("keystores");
  for (std::string_view kind : {"jks", "pkcs12"})
    if (const auto* store = obj(*keystores, kind)) validate_keystore(*store, kp.child(kind), out);
}

}  // namespace

std::vector<validation::Cause> validate_certificate_spec(const json::Value& spec_value, const validation::FieldPath& path) {
  Causes out;
  const json::Object& spec = object_or_empty(&spec_value);

  std::string_view secret_name = str(spec, "secretName");
  if (secret_name.empty()) {
    out.push_back(validation::field_required(path.child("secretName"), "must be specified"));
  } else {
    for (const auto& m : dns1123_subdomain_errors(secret_name))
      out.push_back(validation::field_invalid(path.child("secretName"), jstr(secret_name), m));
  }

  validate_issuer_ref(obj(spec, "issuerRef"), path, out);

  std::string common_name(str(spec, "commonName"));
  if (std::string_view literal = str(spec, "literalSubject"); !literal.empty())
    validate_literal_subject(spec, literal, path, common_name, out);

  if (common_name.empty() && array_size(spec, "dnsNames") == 0 && array_size(spec, "uris") == 0 &&
      array_size(spec, "emailAddresses") == 0 && array_size(spec, "ipAddresses") == 0 && array_size(spec, "otherNames") == 0) {
    out.push_back(validation::field_invalid(path, jstr(""),
                                        "at least one of commonName (from the commonName field or from a literalSubject), "
                                        "dnsNames, emailSANs, ipAddresses, otherNames, or uriSANs must be set"));
  }
  if (common_name.size() > 64) out.push_back(validation::field_too_long(path.child("commonName"), 64));

  validate_addresses(spec, path, out);
  validate_other_names(spec, path, out);
  validate_private_key(spec, path, out);
  validate_signature_algorithm(spec, path, out);
  validate_durations(spec, path, out);

  if (const auto* usages = arr(spec, "usages")) {
    for (std::size_t i = 0; i < usages->size(); ++i) {
      const auto& u = (*usages)[i];
      if (u.is_string() && !is_known_usage(u.get_string()))
        out.push_back(validation::field_invalid(path.child("usages").index(i), u, "unknown keyusage"));
    }
  }

  if (auto limit = integer(spec, "revisionHistoryLimit"); limit && *limit < 1)
    out.push_back(validation::field_invalid(path.child("revisionHistoryLimit"), json::Value(*limit), "must not be less than 1"));

  validate_secret_template(spec, path, out);
  validate_name_constraints(spec, path, out);
  validate_keystores(spec, path, out);
  return out;
}

std::vector<validation::Cause> validate_certificate(const json::Value& obj, const json::Value* /*old*/) {
  // ValidateUpdateCertificate is ValidateCertificate: the spec is mutable.
  const json::Value* spec = obj.is_object() ? obj.get_object().if_contains("spec") : nullptr;
  static const json::Value null_spec;
  return validate_certificate_spec(spec ? *spec : null_spec, validation::FieldPath("spec"));
}

}  // namespace capstan::apis::certs::v1
