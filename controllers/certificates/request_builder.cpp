#include "controllers/certificates/request_builder.h"

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/names.h"
#include "controllers/certificates/objects.h"
#include "runtime/meta/object.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"

#include <charconv>

namespace capstan::certificates {

pki::CertificateTemplate template_for(const v1::CertificateSpec& spec) {
  pki::CertificateTemplate t;
  t.subject.common_name = spec.common_name;
  if (spec.subject) {
    const auto& s = *spec.subject;
    t.subject.organizations = s.organizations;
    t.subject.organizational_units = s.organizational_units;
    t.subject.countries = s.countries;
    t.subject.localities = s.localities;
    t.subject.provinces = s.provinces;
    t.subject.street_addresses = s.street_addresses;
    t.subject.postal_codes = s.postal_codes;
    t.subject.serial_number = s.serial_number;
  }
  t.dns_names = spec.dns_names;
  t.ip_addresses = spec.ip_addresses;
  t.uris = spec.uris;
  t.email_addresses = spec.email_addresses;
  for (const auto& o : spec.other_names) t.other_names.push_back({o.oid, o.utf8_value});
  if (!spec.literal_subject.empty()) t.literal_subject = pki::parse_distinguished_name(spec.literal_subject);
  t.is_ca = spec.is_ca;
  t.name_constraints = name_constraints_for(spec);
  t.usages = v1::effective_usages(spec);
  return t;
}

std::optional<pki::NameConstraints> name_constraints_for(const v1::CertificateSpec& spec) {
  if (!spec.name_constraints) return std::nullopt;
  auto side = [](const std::optional<v1::NameConstraintItem>& item) {
    pki::NameConstraintSubtrees t;
    if (!item) return t;
    t.dns_domains = item->dns_domains;
    t.ip_ranges = item->ip_ranges;
    t.email_addresses = item->email_addresses;
    t.uri_domains = item->uri_domains;
    return t;
  };
  pki::NameConstraints nc;
  nc.critical = spec.name_constraints->critical;
  nc.permitted = side(spec.name_constraints->permitted);
  nc.excluded = side(spec.name_constraints->excluded);
  return nc;
}

SignatureChoice signature_for(const v1::CertificateSpec& spec) {
  namespace sa = v1::signature_algorithm;
  const std::string& a = spec.signature_algorithm;
  if (a.empty()) return {v1::effective_key_algorithm(spec), pki::SignatureHash::Auto};
  if (a == sa::kSHA256WithRSA) return {pki::KeyAlgorithm::RSA, pki::SignatureHash::SHA256};
  if (a == sa::kSHA384WithRSA) return {pki::KeyAlgorithm::RSA, pki::SignatureHash::SHA384};
  if (a == sa::kSHA512WithRSA) return {pki::KeyAlgorithm::RSA, pki::SignatureHash::SHA512};
  if (a == sa::kECDSAWithSHA256) return {pki::KeyAlgorithm::ECDSA, pki::SignatureHash::SHA256};
  if (a == sa::kECDSAWithSHA384) return {pki::KeyAlgorithm::ECDSA, pki::SignatureHash::SHA384};
  if (a == sa::kECDSAWithSHA512) return {pki::KeyAlgorithm::ECDSA, pki::SignatureHash::SHA512};
  if (a == sa::kPureEd25519) return {pki::KeyAlgorithm::Ed25519, pki::SignatureHash::Auto};
  throw pki::PkiError("spec.signatureAlgorithm: unsupported signature algorithm \"" + a + "\"");
}

std::string build_csr(const v1::CertificateSpec& spec, const pki::PrivateKey& key) {
  pki::CsrOptions o;
  o.encode_usages = v1::effective_encode_usages_in_request(spec);
  SignatureChoice sig = signature_for(spec);
  if (!spec.signature_algorithm.empty() && key.algorithm() != sig.key)
    throw pki::PkiError("spec.signatureAlgorithm " + spec.signature_algorithm + " cannot be used with the private key's algorithm");
  o.hash = sig.hash;
  return pki::CertificateRequest::create(template_for(spec), key, o);
}

json::Value desired_request(const v1::Certificate& crt, const json::Value& owner, std::int64_t revision,
                            std::string_view key_secret_name, std::string_view csr_pem) {
  v1::CertificateRequest cr;
  cr.metadata["name"] = request_name(crt.name(), revision);
  cr.metadata["namespace"] = std::string(crt.namespace_());
  json::Object annotations{{annotation::kRevision, std::to_string(revision)},
                           {annotation::kPrivateKeySecretName, std::string(key_secret_name)},
                           {annotation::kCertificateName, std::string(crt.name())}};
  cr.metadata["annotations"] = std::move(annotations);
  if (const auto* labels = json::get_object(crt.metadata, {"labels"}); labels && !labels->empty()) cr.metadata["labels"] = *labels;
  cr.metadata["ownerReferences"] = json::Array{owner_reference(v1::kCertificateKind, owner)};
  cr.spec = request_spec(crt, csr_pem);
  return cr.to_json();
}

v1::CertificateRequestSpec request_spec(const v1::Certificate& crt, std::string_view csr_pem) {
  v1::CertificateRequestSpec spec;
  spec.request = std::string(csr_pem);
  spec.issuer_ref = v1::effective_issuer_ref(crt.spec.issuer_ref);
  spec.duration = v1::effective_duration(crt.spec);
  spec.is_ca = crt.spec.is_ca;
  spec.usages = v1::effective_usages(crt.spec);
  return spec;
}

std::optional<std::int64_t> request_revision(const json::Value& request) {
  std::string_view s = meta::annotation(request, annotation::kRevision);
  if (s.empty()) return std::nullopt;
  std::int64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return n;
}

}  // namespace capstan::certificates
