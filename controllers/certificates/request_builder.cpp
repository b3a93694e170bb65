#include "controllers/certificates/request_builder.h"

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/names.h"
#include "controllers/certificates/objects.h"
#include "runtime/meta/object.h"
#include "runtime/pki/csr.h"

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
  t.is_ca = spec.is_ca;
  t.usages = v1::effective_usages(spec);
  return t;
}

std::string build_csr(const v1::CertificateSpec& spec, const pki::PrivateKey& key) {
  pki::CsrOptions o;
  o.encode_usages = v1::effective_encode_usages_in_request(spec);
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
