#include "controllers/certificates/secret_builder.h"

#include "apis/certs/v1/defaults.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/secret_view.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/error.h"

namespace capstan::certificates {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string join_csv(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    const std::string& f = fields[i];
    bool quote = !f.empty() && (f == "\\." || f.find_first_of(",\"\r\n") != std::string::npos || f.front() == ' ' ||
                                f.front() == '\t');
    if (!quote) {
      out += f;
      continue;
    }
    out += '"';
    for (char c : f) {
      if (c == '"') out += "\"\"";
      else out += c;
    }
    out += '"';
  }
  return out;
}

std::map<std::string, std::string> secret_annotations(const v1::Certificate& crt, const pki::Certificate* leaf) {
  std::map<std::string, std::string> a;
  if (leaf) {
    const auto& s = leaf->subject();
    auto put = [&](std::string_view key, const std::string& value) {
      if (!value.empty()) a[std::string(key)] = value;
    };
    put(annotation::kSubjectOrganizations, join_csv(s.organizations));
    put(annotation::kSubjectOrganizationalUnits, join_csv(s.organizational_units));
    put(annotation::kSubjectCountries, join_csv(s.countries));
    put(annotation::kSubjectProvinces, join_csv(s.provinces));
    put(annotation::kSubjectLocalities, join_csv(s.localities));
    put(annotation::kSubjectPostalCodes, join_csv(s.postal_codes));
    put(annotation::kSubjectStreetAddresses, join_csv(s.street_addresses));
    put(annotation::kSubjectSerialNumber, s.serial_number);
    put(annotation::kEmailSans, join(leaf->email_addresses(), ","));
    a[std::string(annotation::kCommonName)] = s.common_name;
    a[std::string(annotation::kAltNames)] = join(leaf->dns_names(), ",");
    a[std::string(annotation::kIpSans)] = join(leaf->ip_addresses(), ",");
    a[std::string(annotation::kUriSans)] = join(leaf->uris(), ",");
  }
  a[std::string(annotation::kCertificateName)] = std::string(crt.name());
  a[std::string(annotation::kIssuerName)] = crt.spec.issuer_ref.name;
  a[std::string(annotation::kIssuerKind)] = v1::effective_issuer_ref(crt.spec.issuer_ref).kind;
  a[std::string(annotation::kIssuerGroup)] = crt.spec.issuer_ref.group;
  return a;
}

std::map<std::string, std::string> desired_secret_annotations(const v1::Certificate& crt, const pki::Certificate* leaf) {
  std::map<std::string, std::string> a;
  if (crt.spec.secret_template) a = crt.spec.secret_template->annotations;
  for (auto& [k, v] : secret_annotations(crt, leaf)) a[k] = v;
  return a;
}

std::map<std::string, std::string> desired_secret_labels(const v1::Certificate& crt) {
  std::map<std::string, std::string> l;
  if (crt.spec.secret_template) l = crt.spec.secret_template->labels;
  l[std::string(kFaoLabel)] = "true";
  return l;
}

std::string encode_private_key(const pki::PrivateKey& key, const v1::CertificateSpec& spec) {
  return key.to_pem(v1::effective_key_encoding(spec));
}

std::map<std::string, std::string> additional_outputs(const v1::CertificateSpec& spec, const std::string& private_key_pem,
                                                      const std::string& certificate_pem) {
  std::map<std::string, std::string> out;
  for (const auto& f : spec.additional_output_formats) {
    if (f.type == "CombinedPEM") {
      out[std::string(kCombinedPem)] = private_key_pem + (private_key_pem.empty() || private_key_pem.back() == '\n' ? "" : "\n") + certificate_pem;
    } else if (f.type == "DER") {
      try {
        out[std::string(kKeyDer)] = pki::PrivateKey::from_pem(private_key_pem).to_pkcs8_der();
      } catch (const pki::PkiError&) {
        // tls.key itself is judged (and reissued) by the policies.
      }
    }
  }
  return out;
}

json::Value desired_secret(const v1::Certificate& crt, const IssuedData& data, std::string_view existing_type) {
  pki::Certificate leaf;
  try {
    leaf = pki::Certificate::parse_pem(data.certificate_pem);
  } catch (const std::exception&) {
    // Annotations then describe the issuer only (the caller validated the chain already).
  }
  json::Object labels, annotations;
  for (const auto& [k, v] : desired_secret_labels(crt)) labels[k] = v;
  for (const auto& [k, v] : desired_secret_annotations(crt, leaf.empty() ? nullptr : &leaf)) annotations[k] = v;
  json::Object d;
  d[kTlsCrt] = meta::base64_encode(data.certificate_pem);
  d[kTlsKey] = meta::base64_encode(data.private_key_pem);
  if (!data.ca_pem.empty()) d[kCaCrt] = meta::base64_encode(data.ca_pem);
  for (const auto& [key, value] : additional_outputs(crt.spec, data.private_key_pem, data.certificate_pem)) d[key] = meta::base64_encode(value);
  for (const auto& [key, value] : data.keystores) d[key] = meta::base64_encode(value);
  return json::Object{
      {"apiVersion", "v1"},
      {"kind", "Secret"},
      {"metadata", json::Object{{"name", crt.spec.secret_name},
                                {"namespace", std::string(crt.namespace_())},
                                {"labels", std::move(labels)},
                                {"annotations", std::move(annotations)}}},
      {"type", existing_type.empty() ? std::string(kTlsSecretType) : std::string(existing_type)},
      {"data", std::move(d)}};
}

}  // namespace capstan::certificates
