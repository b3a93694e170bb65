#include "controllers/certificates/policies/policies.h"

#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/policies/match.h"
#include "controllers/certificates/secret_builder.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"
#include "runtime/pki/key.h"

#include <ctime>

namespace capstan::certificates::policies {
namespace {

Violation v(std::string_view reason, std::string message) { return {std::string(reason), std::move(message)}; }

std::string bracket(const std::vector<std::string>& items) { return "[" + join(items, " ") + "]"; }

const std::string* annotation_of(const SecretView& s, std::string_view key) {
  auto it = s.annotations.find(std::string(key));
  return it == s.annotations.end() ? nullptr : &it->second;
}

std::string or_default(std::string_view s, std::string_view d) { return std::string(s.empty() ? d : s); }

}  // namespace

std::string format_issuer_ref(std::string_view name, std::string_view kind, std::string_view group) {
  return or_default(kind, v1::kIssuerKind) + "." + or_default(group, v1::kGroup) + "/" + std::string(name);
}

std::string format_rfc1123(meta::TimePoint t) {
  std::time_t tt = meta::Clock::to_time_t(t);
  std::tm tm{};
  ::gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S UTC", &tm);
  return buf;
}

std::optional<Violation> secret_does_not_exist(const Input& in) {
  if (!in.secret) return v(reason::kDoesNotExist, "Issuing certificate as Secret does not exist");
  return std::nullopt;
}

std::optional<Violation> secret_is_missing_data(const Input& in) {
  if (in.secret->data.empty()) return v(reason::kMissingData, "Issuing certificate as Secret does not contain any data");
  if (in.secret->get(kTlsKey).empty())
    return v(reason::kMissingData, "Issuing certificate as Secret does not contain a private key");
  if (in.secret->get(kTlsCrt).empty())
    return v(reason::kMissingData, "Issuing certificate as Secret does not contain a certificate");
  return std::nullopt;
}

std::optional<Violation> secret_public_keys_differ(const Input& in) {
  pki::PrivateKey key;
  try {
    key = pki::PrivateKey::from_pem(in.secret->get(kTlsKey));
  } catch (const pki::PkiError& e) {
    return v(reason::kInvalidKeyPair, std::string("Issuing certificate as Secret contains invalid private key data: ") + e.what());
  }
  pki::Certificate cert;
  try {
    cert = pki::Certificate::parse_pem(in.secret->get(kTlsCrt));
  } catch (const pki::PkiError& e) {
    return v(reason::kInvalidCertificate, std::string("Issuing certificate as Secret contains an invalid certificate: ") + e.what());
  }
  if (!key.matches(cert))
    return v(reason::kInvalidKeyPair, "Issuing certificate as Secret contains a private key that does not match the certificate");
  return std::nullopt;
}

std::optional<Violation> secret_holds_temporary_certificate(const Input& in) {
  const auto* temporary = annotation_of(*in.secret, annotation::kTemporaryCertificate);
  if (!temporary || *temporary != "true") return std::nullopt;
  return v(reason::kIncorrectIssuer, "Issuing certificate as Secret holds a temporary certificate");
}

std::optional<Violation> secret_issuer_annotations_mismatch(const Input& in) {
  const auto* name = annotation_of(*in.secret, annotation::kIssuerName);
  const auto* kind = annotation_of(*in.secret, annotation::kIssuerKind);
  const auto* group = annotation_of(*in.secret, annotation::kIssuerGroup);
  if (!name && !kind && !group) return std::nullopt;  // only checked when one is present
  std::string n = name ? *name : "", k = kind ? *kind : "", g = group ? *group : "";
  const auto& ref = in.certificate->spec.issuer_ref;
  bool same = n == ref.name && or_default(k, v1::kIssuerKind) == or_default(ref.kind, v1::kIssuerKind) &&
              or_default(g, v1::kGroup) == or_default(ref.group, v1::kGroup);
  if (same) return std::nullopt;
  return v(reason::kIncorrectIssuer, "Issuing certificate as Secret was previously issued by \"" + format_issuer_ref(n, k, g) + "\"");
}

std::optional<Violation> secret_certificate_name_mismatch(const Input& in) {
  const auto* name = annotation_of(*in.secret, annotation::kCertificateName);
  if (!name || *name == in.certificate->name()) return std::nullopt;
  return v(reason::kIncorrectCertificate,
           "Secret was issued for \"" + *name +
               "\". If this message is not transient, you might have two conflicting Certificates pointing to the same secret.");
}

// The Secret's private key, or the violation of a key that does not parse.
std::optional<Violation> parse_secret_key(const Input& in, pki::PrivateKey& key) {
  try {
    key = pki::PrivateKey::from_pem(in.secret->get(kTlsKey));
    return std::nullopt;
  } catch (const pki::PkiError& e) {
    return v(reason::kInvalidKeyPair, std::string("Issuing certificate as Secret contains invalid private key data: ") + e.what());
  }
}

std::optional<Violation> secret_private_key_mismatches_spec(const Input& in) {
  pki::PrivateKey key;
  if (auto bad = parse_secret_key(in, key)) return bad;
  auto violations = private_key_matches_spec(key, in.certificate->spec);
  if (violations.empty()) return std::nullopt;
  return v(reason::kSecretMismatch, "Existing private key is not up to date for spec: " + bracket(violations));
}

std::optional<Violation> secret_public_key_differs_from_current_request(const Input& in) {
  if (!in.current_request) return std::nullopt;
  pki::PrivateKey key;
  if (auto bad = parse_secret_key(in, key)) return bad;
  pki::CertificateRequest csr;
  try {
    csr = pki::CertificateRequest::parse(in.current_request->spec.request);
  } catch (const pki::PkiError& e) {
    return v(reason::kInvalidCertificateRequest, std::string("Failed to decode current CertificateRequest: ") + e.what());
  }
  if (!key.matches(csr.public_key()))
    return v(reason::kSecretMismatch, "Secret contains a private key that does not match the current CertificateRequest");
  return std::nullopt;
}

std::optional<Violation> current_request_mismatches_spec(const Input& in) {
  if (!in.current_request) {
    // The request that issued the Secret is gone: compare the issued certificate itself.
    pki::Certificate cert;
    try {
      cert = pki::Certificate::parse_pem(in.secret->get(kTlsCrt));
    } catch (const pki::PkiError& e) {
      return v(reason::kInvalidCertificate, std::string("Issuing certificate as Secret contains an invalid certificate: ") + e.what());
    }
    auto violations = certificate_matches_spec(cert, in.certificate->spec);
    if (violations.empty()) return std::nullopt;
    return v(reason::kSecretMismatch, "Issuing certificate as Existing issued Secret is not up to date for spec: " + bracket(violations));
  }
  std::vector<std::string> violations;
  try {
    violations = request_matches_spec(*in.current_request, in.certificate->spec);
  } catch (const pki::PkiError&) {
    return std::nullopt;  // as cert-manager: an unparsable request does not by itself re-issue
  }
  if (violations.empty()) return std::nullopt;
  return v(reason::kRequestChanged, "Fields on existing CertificateRequest resource not up to date: " + bracket(violations));
}

std::optional<Violation> current_certificate_nearing_expiry(const Input& in) {
  pki::Certificate cert;
  try {
    cert = pki::Certificate::parse_pem(in.secret->get(kTlsCrt));
  } catch (const pki::PkiError& e) {
    return v(reason::kInvalidCertificate, std::string("Issuing certificate as Secret contains an invalid certificate: ") + e.what());
  }
  auto renewal = v1::renewal_time(in.certificate->spec, cert.not_before(), cert.not_after());
  if (renewal > in.now) return std::nullopt;
  return v(reason::kRenewing, "Renewing certificate as renewal was scheduled at " + meta::format_rfc3339(renewal));
}

std::optional<Violation> current_certificate_has_expired(const Input& in) {
  pki::Certificate cert;
  try {
    cert = pki::Certificate::parse_pem(in.secret->get(kTlsCrt));
  } catch (const pki::PkiError& e) {
    return v(reason::kInvalidCertificate, std::string("Issuing certificate as Secret contains an invalid certificate: ") + e.what());
  }
  if (in.now > cert.not_after()) return v(reason::kExpired, "Certificate expired on " + format_rfc1123(cert.not_after()));
  return std::nullopt;
}

const Chain& trigger_chain() {
  static const Chain chain = {secret_does_not_exist,
                              secret_is_missing_data,
                              secret_public_keys_differ,
                              secret_holds_temporary_certificate,
                              secret_issuer_annotations_mismatch,
                              secret_certificate_name_mismatch,
                              secret_private_key_mismatches_spec,
                              secret_public_key_differs_from_current_request,
                              current_request_mismatches_spec,
                              current_certificate_nearing_expiry};
  return chain;
}

const Chain& readiness_chain() {
  static const Chain chain = {secret_does_not_exist,
                              secret_is_missing_data,
                              secret_public_keys_differ,
                              secret_holds_temporary_certificate,
                              secret_issuer_annotations_mismatch,
                              secret_certificate_name_mismatch,
                              secret_private_key_mismatches_spec,
                              secret_public_key_differs_from_current_request,
                              current_request_mismatches_spec,
                              current_certificate_has_expired};
  return chain;
}

const Chain& temporary_certificate_chain() {
  static const Chain chain = {secret_does_not_exist, secret_is_missing_data, secret_public_keys_differ};
  return chain;
}

std::optional<Violation> evaluate(const Chain& chain, const Input& in) {
  for (const auto& check : chain)
    if (auto r = check(in)) return r;
  return std::nullopt;
}

std::optional<Violation> secret_metadata_mismatch(const Input& in) {
  if (!in.secret) return std::nullopt;
  pki::Certificate leaf;
  try {
    leaf = pki::Certificate::parse_pem(in.secret->get(kTlsCrt));
  } catch (const pki::PkiError&) {
    return std::nullopt;  // the trigger chain deals with it
  }
  const auto& crt = *in.certificate;
  if (crt.spec.secret_template) {
    for (const auto& [k, val] : crt.spec.secret_template->annotations) {
      auto it = in.secret->annotations.find(k);
      if (it == in.secret->annotations.end() || it->second != val)
        return v(reason::kSecretTemplateMismatch, "Certificate's SecretTemplate Annotations missing or incorrect value on Secret");
    }
    for (const auto& [k, val] : crt.spec.secret_template->labels) {
      auto it = in.secret->labels.find(k);
      if (it == in.secret->labels.end() || it->second != val)
        return v(reason::kSecretTemplateMismatch, "Certificate's SecretTemplate Labels missing or incorrect value on Secret");
    }
  }
  // additionalOutputFormats: each asked for is there and current, none other is.
  const auto outputs = additional_outputs(crt.spec, in.secret->get(kTlsKey), in.secret->get(kTlsCrt));
  for (auto key : {kKeyDer, kCombinedPem}) {
    auto want = outputs.find(std::string(key));
    auto have = in.secret->data.find(std::string(key));
    if ((want == outputs.end()) != (have == in.secret->data.end()) || (want != outputs.end() && want->second != have->second))
      return v(reason::kAdditionalOutputFormatsMismatch, "Certificate's AdditionalOutputFormats doesn't match Secret Data");
  }
  if (!in.secret->has_label(kFaoLabel, "true"))
    return v(reason::kSecretManagedMetadataMismatch, "Secret is missing the " + std::string(kFaoLabel) + " label");
  for (const auto& [k, val] : secret_annotations(crt, &leaf)) {
    auto it = in.secret->annotations.find(k);
    if (it == in.secret->annotations.end() || it->second != val)
      return v(reason::kSecretManagedMetadataMismatch, "Secret has missing or incorrect annotation " + k);
  }
  return std::nullopt;
}

}  // namespace capstan::certificates::policies
